"""Where everything goes on a counter face, in PDF points from the face's lower-left corner.

A face is laid out as wargame counters are, every piece in a fixed place whatever the words: the
nationality emblem top left, the corner beside it (a pictogram with its small note and the no-Smoke
sign, or a word), a weapon's pictogram across the top of the middle, the words under it, and the
factors as big numerals along the foot.  The type has four roles (CounterType): title, body,
small and numeral, each one size on every face of a counter sheet: the largest that lets every
face's words fit, never below the floor (6 pt on a counter of 3/4 in or more, 5 pt below).  A
weapon's model prints on one line: shrunk towards the floor, then in its short form from data.

No reportlab: text width comes in as `measure(text, style, size)`, its ink above and below the
baseline as `ink(text, style, size)` (accents over capitals included), so everything here is
testable without a PDF.  Styles: 'title' and 'small' bold, 'body' the text weight.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from msgspec import Struct
from msgspec.structs import replace

from generator.content.faces import Face, Line, Numeral
from generator.data.model import EmblemShape
from generator.text import has_wide, line_pieces

Point = tuple[float, float]
Box = tuple[float, float, float, float]     # (x, y, w, h), y up
Measure = Callable[[str, str, float], float]
Ink = Callable[[str, str, float], tuple[float, float]]     # (top, bottom) of the ink about the baseline

CAP = 0.698                 # IBM Plex's cap and figure height, as a share of the font size
REFERENCE = 54.0            # a 3/4 in counter's side, points: the sizes below are set for it
TITLE_AT_54 = 7.5
BODY_AT_54 = 6.5
SMALL_AT_54 = 6.0           # a numeral's unit ('FP'), the corner's note ('RR5'), the no-Smoke letter
NUMERAL_AT_54 = 11.0        # the factors
FLOOR_PT = 6.0              # no counter text under this on a counter of REFERENCE or more ...
SMALL_FLOOR_PT = 5.0        # ... nor under this on a smaller one
STEP = Fraction(1, 4)       # sizes are tried in quarter points
TITLE_RATIOS = (Fraction(15, 13), Fraction(1))  # a title prints this much larger than the body, if it can
LINE_PITCH = 1.08           # baseline to baseline, as a multiple of the size
EMBLEM = Fraction(28, 100)  # the emblem's square, top left
GAP = Fraction(25, 1000)    # between the zones of a face
PICTOGRAM = Fraction(22, 100)   # a weapon's pictogram: the top of the middle, at most this share of the side tall


def cap_ink(text: str, style: str, size: float) -> tuple[float, float]:
    """The ink of `text` as if every glyph were a capital: the default where no font is at hand."""
    return CAP * size, 0.0


def floor_pt(size: float) -> float:
    """The smallest type a counter of side `size` (points) may carry."""
    return FLOOR_PT if size >= REFERENCE - 1e-6 else SMALL_FLOOR_PT


class CounterType(Struct, frozen=True):
    """The four sizes every face of one counter sheet prints in, points."""
    title: float
    body: float
    small: float
    numeral: float


class Zones(Struct, frozen=True):
    """Where things go on a face of a `size` counter, relative to its lower-left corner."""
    size: float
    inset: float
    gap: float
    emblem: Box             # the nationality emblem's square, top left
    corner: Box             # top right, beside the emblem: a pictogram or a word
    middle: Box             # words (and a weapon's pictogram) between the emblem and the foot
    band_bottom: float      # a reversed band covers the face from here up (and bleeds)
    type: CounterType       # the largest sizes: the sheet's own may be smaller (fit_faces)
    floor: float
    scale: float = REFERENCE    # the side the sizes are set for: `size`, or less inside a shop's safe zone
    bleed: float = 0.0          # the ground past the cut lines

    @property
    def sign(self) -> float:
        """The no-Smoke sign's diameter: the numerals' figure height, a little more."""
        return CAP * self.type.numeral * 1.1


def zones(size: float, inset: float, scale: float | None = None, bleed: float = 0.0) -> Zones:
    """The zones of a face of a `size` counter whose text and art keep `inset` off the cut, its
    type and pieces set for a counter of side `scale` (default `size`: a shop's wide safe zone
    leaves the room of a smaller counter, whose face it takes); its ground `bleed` past the cut."""
    face = size if scale is None else scale
    k = face / REFERENCE
    floor = floor_pt(size)
    kind = CounterType(max(floor, k * TITLE_AT_54), max(floor, k * BODY_AT_54), max(floor, k * SMALL_AT_54),
                       max(floor, k * NUMERAL_AT_54))
    e, g = face * float(EMBLEM), max(1.0, face * float(GAP))
    top = size - inset
    band_bottom = inset + CAP * kind.numeral + g
    middle_y = band_bottom + g
    return Zones(size, inset, g, (inset, top - e, e, e), (inset + e + g, top - e, size - 2 * inset - e - g, e),
                 (inset, middle_y, size - 2 * inset, top - e - g - middle_y), band_bottom, kind, floor, face, bleed)


# ---- where the pictograms go ---------------------------------------------------------------------

def corner_boxes(zone: Zones, noted: bool, signed: bool) -> tuple[Box, Point | None, tuple[float, float, float] | None]:
    """(pictogram box, note baseline (x centre, y), no-Smoke sign (cx, cy, diameter)) in the corner:
    the pictogram over its note of small words ('RR5' under the pistol) when `noted`, the sign at
    the corner's right when `signed`.  The same boxes whatever the words."""
    cx, cy, cw, ch = zone.corner
    below = CAP * zone.type.small + max(0.75, zone.type.small * 0.25) if noted else 0.0
    box = (cx, cy + below, cw, ch - below)
    sign = None
    if signed:
        d = min(zone.sign, box[3])
        sign = (cx + cw - d / 2, box[1] + box[3] / 2, d)
        box = (cx, box[1], max(0.0, cw - d - zone.gap), box[3])
    note = (box[0] + box[2] / 2, cy) if noted else None
    return box, note, sign


def middle_boxes(zone: Zones, pictogram: bool) -> tuple[Box | None, Box]:
    """(pictogram box, words box) of the middle: a weapon's pictogram across its top, a fixed
    share of the side tall, and its words under it; without one, the words take it all."""
    x, y, w, h = zone.middle
    if not pictogram:
        return None, zone.middle
    line = zone.type.body * 1.25        # one line of words under it, a descender and an accent included
    ph = max(0.0, min(zone.scale * float(PICTOGRAM), h - zone.gap - line))
    return (x, y + h - ph, w, ph), (x, y, w, h - ph - zone.gap)


def foot_pictogram_box(zone: Zones, aspect: float) -> Box:
    """(x, y, w, h): a pictogram `aspect` times as wide as tall at the foot's right, as tall as
    the numerals' figures."""
    h = CAP * zone.type.numeral
    w = h * aspect
    return zone.size - zone.inset - w, zone.inset, w, h


# ---- words ---------------------------------------------------------------------------------------

class Placed(Struct, frozen=True):
    """One line of text, centred on x at baseline y, relative to the counter's lower-left."""
    text: str
    style: str
    size: float
    x: float
    y: float


SOFT_HYPHEN = "\u00ad"      # where the catalogue lets a long word break ("SUB\u00adFUSIL"), printed as "-"


def _hyphenated(word: str, width: float, measure: Measure, style: str, size: float) -> list[str]:
    """`word` in pieces that fit `width`, broken at its soft hyphens (each piece but the last
    ends in "-"); the word whole when it fits or has no soft hyphen."""
    parts = word.split(SOFT_HYPHEN)
    pieces, current = [], parts[0]
    for i, part in enumerate(parts[1:], start=2):
        joined = current + part
        if measure(joined + ("-" if i < len(parts) else ""), style, size) <= width:
            current = joined
        else:
            pieces.append(current + "-")
            current = part
    return [*pieces, current]


def wrap(text: str, width: float, measure: Measure, style: str, size: float) -> list[str] | None:
    """Greedy word wrap at plain spaces; a no-break space holds a phrase together unless the
    phrase alone is too wide, and a word too wide for a line breaks at its soft hyphens.
    None if one word alone is wider than `width`.  Japanese text breaks between its characters
    too, as kinsoku allows (text.line_pieces)."""
    words: list[str] = []
    text = text.translate({ord(c): " " for c in "\t\r\n"})     # data may hold any whitespace
    if has_wide(text):
        return _wrap_pieces(line_pieces(text.replace(SOFT_HYPHEN, ""), phrases=True), width, measure, style, size)
    for chunk in (w for w in text.split(" ") if w):
        whole = chunk.replace(SOFT_HYPHEN, "")
        if measure(whole, style, size) <= width:
            words.append(whole)     # measured: it fits a line alone
            continue
        for w in (w for w in chunk.split("\u00a0") if w):
            pieces = _hyphenated(w, width, measure, style, size)
            if any(measure(piece, style, size) > width for piece in pieces):
                return None
            words += pieces
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}" if current else word
        if measure(trial, style, size) <= width:
            current = trial
        else:
            lines.append(current)
            current = word
    if current or not lines:
        lines.append(current)
    return lines


def _wrap_pieces(pieces: Sequence[str], width: float, measure: Measure, style: str, size: float) -> list[str] | None:
    """Greedy wrap of Japanese phrases (`pieces`, each with the space before it, if any), a phrase
    too wide for a line alone broken between its characters as kinsoku allows; None if one
    character run kinsoku holds together is wider."""
    lines: list[str] = []
    current = ""
    for piece in _split_wide(pieces, width, measure, style, size):
        trial = current + piece if current else piece.lstrip(" ")
        if measure(trial, style, size) <= width:
            current = trial
            continue
        alone = piece.lstrip(" ")
        if measure(alone, style, size) > width:
            return None
        lines.append(current)
        current = alone
    if current or not lines:
        lines.append(current)
    return lines


def _split_wide(pieces: Sequence[str], width: float, measure: Measure, style: str, size: float) -> list[str]:
    """`pieces`, each wider than `width` alone split where kinsoku lets a line break."""
    out: list[str] = []
    for piece in pieces:
        if measure(piece.lstrip(" "), style, size) <= width:
            out.append(piece)
            continue
        parts = line_pieces(piece.lstrip(" "))
        out += [piece[:len(piece) - len(piece.lstrip(" "))] + parts[0], *parts[1:]]
    return out


def whole_words(face: Face) -> Face:
    """`face` with its soft hyphens taken out: every word whole."""
    def whole(line: Line) -> Line:
        return replace(line, text=line.text.replace(SOFT_HYPHEN, ""), short=line.short.replace(SOFT_HYPHEN, ""))
    corner = whole(face.corner) if isinstance(face.corner, Line) else face.corner
    note = whole(face.corner_note) if face.corner_note is not None else None
    return replace(face, corner=corner, lines=tuple(whole(line) for line in face.lines), corner_note=note)


def lay_out(rows: Sequence[tuple[str, str, float]], box: Box, ink: Ink) -> list[Placed] | None:
    """Lines (text, style, size) stacked and centred in `box` by their ink (an accent over the
    first capital, a descender under the last line), or None if they overflow it."""
    if not rows:
        return []
    bx, by, bw, bh = box
    tops = [ink(text, style, fs)[0] for text, style, fs in rows]
    bottom = ink(*rows[-1])[1]
    pitches = [fs * LINE_PITCH for _, _, fs in rows[1:]]
    total = tops[0] + sum(pitches) - bottom
    if total > bh + 1e-9:
        return None
    baseline = by + bh - (bh - total) / 2 - tops[0]
    placed = [Placed(rows[0][0], rows[0][1], rows[0][2], bx + bw / 2, baseline)]
    for (text, style, fs), pitch in zip(rows[1:], pitches, strict=True):
        baseline -= pitch
        placed.append(Placed(text, style, fs, bx + bw / 2, baseline))
    return placed


def _rows(lines: Iterable[Line], width: float, measure: Measure, kind: CounterType,
          singles: dict[Line, tuple[str, float]]) -> list[tuple[str, str, float]] | None:
    """Each line wrapped to `width` at its role's size, a single line as `singles` sets it; None
    if a word is too wide."""
    rows: list[tuple[str, str, float]] = []
    for line in lines:
        if line.single:
            text, fs = singles[line]
            rows.append((text, line.style, fs))
            continue
        fs = kind.title if line.style == "title" else kind.body
        wrapped = wrap(line.text, width, measure, line.style, fs)
        if wrapped is None:
            return None
        rows += [(text, line.style, fs) for text in wrapped]
    return rows


class FaceFit(Struct, frozen=True):
    """Where one face's pieces go at its sheet's CounterType."""
    middle: tuple[Placed, ...]
    corner: tuple[Placed, ...]              # the corner's word, if it has one
    pictogram: Box | None                   # the weapon's, across the middle
    corner_pictogram: Box | None
    note: Point | None                      # the corner note's baseline (x centre, y)
    sign: tuple[float, float, float] | None     # the no-Smoke sign (cx, cy, diameter) in the corner


def single_line(line: Line, width: float, measure: Measure, size: float, floor: float) -> tuple[str, float] | None:
    """(text, size) of a one-line text: the whole at the largest size from `size` down to
    `floor` at which it fits `width`, else its short form likewise; None if neither fits."""
    for text in (line.text.replace(SOFT_HYPHEN, ""), line.short.replace(SOFT_HYPHEN, "")):
        if not text:
            continue
        pt = Fraction(size).limit_denominator(4)
        pt -= pt % STEP
        while pt >= floor:
            if measure(text, line.style, float(pt)) <= width:
                return text, float(pt)
            pt -= STEP
    return None


def fit_face(face: Face, zone: Zones, kind: CounterType, measure: Measure, ink: Ink) -> FaceFit | None:
    """The face laid out at `kind`'s sizes, or None if its words cannot fit there."""
    picture, words = middle_boxes(zone, bool(face.pictogram))
    singles = {}
    for line in face.lines:
        if line.single:
            fitted = single_line(line, words[2], measure, kind.body if line.style != "title" else kind.title,
                                 zone.floor)
            if fitted is None:
                return None
            singles[line] = fitted
    rows = _rows(face.lines, words[2], measure, kind, singles)
    middle = lay_out(rows, words, ink) if rows is not None else None
    if middle is None:
        return None
    corner: list[Placed] = []
    corner_box, note, sign = None, None, None
    if isinstance(face.corner, Line):
        width = zone.corner[2]
        word = face.corner.text.replace(SOFT_HYPHEN, "")        # one word, never broken
        laid = lay_out([(word, face.corner.style, kind.title)], zone.corner, ink) \
            if measure(word, face.corner.style, kind.title) <= width else None
        if laid is None:
            return None
        corner = laid
    else:
        corner_box, note, sign = corner_boxes(zone, face.corner_note is not None, face.no_smoke)
    return FaceFit(tuple(middle), tuple(corner), picture, corner_box, note, sign)


def fit_faces(faces: Iterable[Face], zone: Zones, measure: Measure, ink: Ink = cap_ink) \
        -> tuple[CounterType, dict[Face, FaceFit]] | None:
    """(the sheet's CounterType, {face: FaceFit}): the largest body size from the zone's down to
    its floor, in quarter points, at which every face fits, titles a size larger if they can be;
    None if some face cannot fit even at the floor.  A word breaks at its soft hyphens only on a
    face that fits no size with every word whole."""
    distinct = list(dict.fromkeys(faces))
    laid = {face: whole_words(face) for face in distinct}
    for face in distinct:
        if laid[face] != face and _fit_all([laid[face]], zone, measure, ink) is None:
            laid[face] = face
    found = _fit_all(list(dict.fromkeys(laid.values())), zone, measure, ink)
    if found is None:
        return None
    kind, fits = found
    return kind, {face: fits[laid[face]] for face in distinct}


def _fit_all(faces: Sequence[Face], zone: Zones, measure: Measure, ink: Ink) \
        -> tuple[CounterType, dict[Face, FaceFit]] | None:
    top = zone.type
    pt = Fraction(top.body).limit_denominator(4)
    pt -= pt % STEP
    while pt >= zone.floor:
        for ratio in TITLE_RATIOS:
            title = min(top.title, max(zone.floor, float(pt * ratio)))
            kind = replace(top, title=title, body=float(pt))
            fits = {face: fit_face(face, zone, kind, measure, ink) for face in faces}
            if all(fits.values()):
                return kind, {face: fit for face, fit in fits.items() if fit is not None}
        pt -= STEP
    return None


def culprits(face: Face, zone: Zones, measure: Measure, ink: Ink = cap_ink) -> list[Line]:
    """The lines of `face` (its corner word included) that cannot fit even alone at the floor:
    the ones to blame in an error."""
    low = replace(zone.type, title=zone.floor, body=zone.floor)
    blamed = [line for line in face.lines
              if fit_face(replace(face, lines=(line,), corner="", corner_note=None, no_smoke=False),
                          zone, low, measure, ink) is None]
    if isinstance(face.corner, Line) and fit_face(replace(face, lines=()), zone, low, measure,
                                                  ink) is None:
        blamed.append(face.corner)
    return blamed


# ---- the foot ------------------------------------------------------------------------------------

def icon_between(zone: Zones, kind: CounterType, left_end: float, right_start: float) -> tuple[float, float, float]:
    """(cx, cy, diameter) of the no-Smoke sign in the gap between the foot's two numerals."""
    d = CAP * kind.numeral * 1.1
    room = right_start - left_end - 2 * zone.gap
    return (left_end + right_start) / 2, zone.inset + CAP * kind.numeral / 2, max(0.0, min(d, room))


def numeral_x(place: str, zone: Zones, width: float) -> float:
    """Left edge of a numeral `width` wide at `place` ('left', 'centre', 'right') on the foot."""
    left, right = zone.inset, zone.size - zone.inset
    return {"left": left, "centre": (left + right - width) / 2, "right": right - width}[place]


class Piece(Struct, frozen=True):
    """One bold string of a numeral, its left end at x and baseline at y (counter-relative)."""
    text: str
    size: float
    x: float
    y: float


def numeral_pieces(numeral: Numeral, zone: Zones, kind: CounterType, measure: Measure) \
        -> tuple[list[Piece], tuple[float, float]]:
    """(pieces, (left, right)): a numeral big on the foot's baseline and its unit small after it,
    on the same baseline, the two together at numeral.place."""
    big_w = measure(numeral.text, "title", kind.numeral)
    gap = max(0.5, kind.small * 0.15)
    unit_w = measure(numeral.unit, "small", kind.small) if numeral.unit else 0.0
    width = big_w + (gap + unit_w if numeral.unit else 0.0)
    left = numeral_x(numeral.place, zone, width)
    pieces = [Piece(numeral.text, kind.numeral, left, zone.inset)]
    if numeral.unit:
        pieces.append(Piece(numeral.unit, kind.small, left + big_w + gap, zone.inset))
    return pieces, (left, left + width)


def foot_numerals(numerals: Sequence[Numeral], zone: Zones, kind: CounterType, measure: Measure) \
        -> list[tuple[list[Piece], tuple[float, float]]]:
    """numeral_pieces for each of a face's foot numerals; when a left and a right one would come
    closer than two zone gaps, the big figures shrink just enough to keep them apart, never below
    the floor."""
    laid = [numeral_pieces(n, zone, kind, measure) for n in numerals]
    sides = {n.place: span for n, (_, span) in zip(numerals, laid, strict=True)}
    if "left" not in sides or "right" not in sides:
        return laid
    short = sides["left"][1] + 2 * zone.gap - sides["right"][0]
    if short <= 0:
        return laid
    big = sum(measure(n.text, "title", kind.numeral) for n in numerals if n.place in ("left", "right"))
    pt = max(zone.floor, kind.numeral * (1 - short / big)) if big else kind.numeral
    smaller = replace(kind, numeral=pt)
    return [numeral_pieces(n, zone, smaller, measure) for n in numerals]


# ---- emblems: the nationality file's shapes, on a square from -100 to 100 -----------------------

class Shape(Struct, frozen=True):
    """One filled shape of an emblem, in page units: 'circle' (cx, cy, r), 'ring' (cx, cy, r, r_in)
    or 'polygon' ((x, y), ...), and its '#rrggbb' colour."""
    kind: str
    data: tuple[float, ...] | tuple[Point, ...]     # the numbers of a circle or ring, a polygon's points
    colour: str


def emblem(shapes: Iterable[EmblemShape], box: Box) -> list[Shape]:
    """The EmblemShapes of a nationality drawn into the square box (x, y, side, side)."""
    bx, by, side, _ = box
    unit = side / 200
    result: list[Shape] = []
    for s in shapes:
        cx, cy, r = bx + side / 2 + s.x * unit, by + side / 2 + s.y * unit, s.size * unit
        if s.shape == "disc":
            result.append(Shape("circle", (cx, cy, r), s.colours[0]))
        elif s.shape == "ring":
            result.append(Shape("ring", (cx, cy, r, r * (1 - s.width / 100)), s.colours[0]))
        elif s.shape == "square":
            result.append(Shape("polygon", ((cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)),
                                s.colours[0]))
        elif s.shape == "cross":
            a = r * s.width / 100       # half the arm's width
            result.append(Shape("polygon", ((cx - a, cy - r), (cx + a, cy - r), (cx + a, cy - a), (cx + r, cy - a),
                                            (cx + r, cy + a), (cx + a, cy + a), (cx + a, cy + r), (cx - a, cy + r),
                                            (cx - a, cy + a), (cx - r, cy + a), (cx - r, cy - a), (cx - a, cy - a)),
                                s.colours[0]))
        elif s.shape == "star":
            result.append(Shape("polygon", _star(cx, cy, r, s), s.colours[0]))
        elif s.shape == "bars":
            result += _bars(cx, cy, r, s)
    return result


def _star(cx: float, cy: float, r: float, s: EmblemShape) -> tuple[Point, ...]:
    """A star's points about (cx, cy), alternately at `r` and its inner radius."""
    n, inner = s.points, r * s.inner / 100
    points = []
    for k in range(2 * n):      # point up, as stars are drawn on insignia
        angle = math.pi / 2 + k * math.pi / n
        radius = r if k % 2 == 0 else inner
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return tuple(points)


def _bars(cx: float, cy: float, r: float, s: EmblemShape) -> list[Shape]:
    """One bar a colour across the square of half-side `r` about (cx, cy)."""
    step = 2 * r / len(s.colours)
    bars = []
    for k, colour in enumerate(s.colours):
        if s.direction == "vertical":
            x0, y0, x1, y1 = cx - r + k * step, cy - r, cx - r + (k + 1) * step, cy + r
        else:           # first colour on top, as flags are read
            x0, y0, x1, y1 = cx - r, cy + r - (k + 1) * step, cx + r, cy + r - k * step
        bars.append(Shape("polygon", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), colour))
    return bars
