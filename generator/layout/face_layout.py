"""Where everything goes on a counter face, in PDF points from the face's lower-left corner.

A face is laid out as published wargame counters are, every piece in a fixed place whatever the
words: the nationality emblem top left, the face's big symbol (a pictogram) beside it, or, for a
long gun, across the face under it, one short label and the factors as big numerals along the
foot.  Beside the emblem (crew, marker) the symbol fills the column right of it, with its small
note under it ('RR5'), the no-Smoke sign under the emblem, and the label on a line of its own
over the foot; a reversed face carries that line on a band of ink.  Across (a weapon), the label
stands beside the emblem, the pictogram across the middle and the model under it.

The type has four roles (CounterType): title (the label), body (a weapon's model), small (a
note, a numeral's unit) and numeral, each one size on every face of a counter sheet: the
largest that lets every face's words fit, never below the floor (7 pt on a counter of 3/4 in or
more, 6 pt below).  Everything keeps its own gap from everything else, and its ink inside the
face's inset: the text is measured by its ink (a 'V' or an accent that overhangs its advance
included), the pictograms and emblem by their outlines.

No reportlab: text comes in measured (Metrics: its advance width, its ink above and below the
baseline, its ink along it), so everything here is testable without a PDF.  Styles: 'title' and
'small' bold, 'body' the text weight.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from msgspec import Struct
from msgspec.structs import replace

from generator.content.faces import Face, Line, Numeral
from generator.data.model import EmblemShape
from generator.text import has_wide, line_pieces
from generator.units import mm

Point = tuple[float, float]
Box = tuple[float, float, float, float]     # (x, y, w, h), y up
Measure = Callable[[str, str, float], float]
Ink = Callable[[str, str, float], tuple[float, float]]     # (top, bottom) of the ink about the baseline
Span = Callable[[str, str, float], tuple[float, float]]    # (left, right) of the ink about the text's start

CAP = 0.698                 # IBM Plex's cap and figure height, as a share of the font size
REFERENCE = 54.0            # a 3/4 in counter's side, points: the sizes below are set for it
TITLE_AT_54 = 8.0           # the label
BODY_AT_54 = 7.0            # a weapon's model
SMALL_AT_54 = 7.0           # a numeral's unit ('FP'), the symbol's note ('RR5'), the no-Smoke letter
NUMERAL_AT_54 = 11.0        # the factors
FLOOR_PT = 7.0              # no counter text under this on a counter of REFERENCE or more ...
SMALL_FLOOR_PT = 6.0        # ... nor under this on a smaller one
STEP = Fraction(1, 4)       # sizes are tried in quarter points
LINE_PITCH = 1.08           # baseline to baseline, as a multiple of the size
EMBLEM = Fraction(28, 100)  # the emblem's square, top left
GAP = Fraction(25, 1000)    # between two pieces of a face, at least
EMBLEM_CLEAR = mm(1)        # what stands beside the emblem keeps at least this off its square
LABEL_BOX = 1.2             # the label's line: this many times its size tall (an accent over a capital fits)
SIGN = 1.1                  # the no-Smoke sign's diameter: the numerals' figure height, this much more
OVERSHOOT = 0.02            # round letters and figures reach this share of their size below the baseline


def cap_ink(text: str, style: str, size: float) -> tuple[float, float]:
    """The ink of `text` as if every glyph were a capital: the default where no font is at hand."""
    return CAP * size, 0.0


class Metrics(NamedTuple):
    """How the renderer's type measures: the advance width, the ink about the baseline, and the
    ink along the line about the text's start (a glyph's overhang past its advance shows there)."""
    width: Measure
    ink: Ink = cap_ink
    span: Span | None = None

    def needs(self, text: str, style: str, size: float) -> float:
        """The width `text` takes centred in a box with its ink inside: its advance, or more
        where its ink overhangs the advance at either end."""
        w = self.width(text, style, size)
        if self.span is None or not text:
            return w
        left, right = self.span(text, style, size)
        return max(w, 2 * (w / 2 - left), 2 * (right - w / 2))


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
    type: CounterType       # the largest sizes: the sheet's own may be smaller (fit_faces)
    floor: float
    scale: float = REFERENCE    # the side the sizes are set for: `size`, or less inside a shop's safe zone
    bleed: float = 0.0          # the ground past the cut lines

    @property
    def top(self) -> float:
        """The highest any ink may reach."""
        return self.size - self.inset

    @property
    def width(self) -> float:
        """The face's width inside its inset."""
        return self.size - 2 * self.inset

    @property
    def beside(self) -> float:
        """The x where what stands beside the emblem begins: two gaps off it, and never under
        EMBLEM_CLEAR, so a word beside it ('GEWEHR') reads apart from the emblem at a glance."""
        return self.emblem[0] + self.emblem[2] + max(2 * self.gap, EMBLEM_CLEAR)

    def foot(self, kind: CounterType) -> float:
        """The foot's baseline: a round letter's overshoot under it stays inside the inset too."""
        return self.inset + OVERSHOOT * kind.numeral

    def foot_top(self, kind: CounterType) -> float:
        """The top of the foot's numerals."""
        return self.foot(kind) + CAP * kind.numeral

    def label_box(self, kind: CounterType) -> Box:
        """The label's line over the foot (a face whose symbol stands beside the emblem)."""
        bottom = self.foot_top(kind) + 1.5 * self.gap
        return self.inset, bottom, self.width, kind.title * LABEL_BOX

    def band(self, kind: CounterType) -> tuple[float, float]:
        """(bottom, top) of a reversed face's band: the label's line and half the gap round it,
        so the band keeps clear of the foot and of what stands over it."""
        _, y, _, h = self.label_box(kind)
        return y - 0.75 * self.gap, y + h + 0.75 * self.gap

    def over_label(self, kind: CounterType) -> float:
        """Where what stands over the label's line begins."""
        _, y, _, h = self.label_box(kind)
        return y + h + 1.5 * self.gap


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
    return Zones(size, inset, g, (inset, size - inset - e, e, e), kind, floor, face, bleed)


# ---- where the pieces go ---------------------------------------------------------------------

class Places(Struct, frozen=True):
    """The fixed places of a face's pieces at one CounterType, whatever its words."""
    label: Box              # the label's box (its line over the foot, or beside the emblem)
    symbol: Box             # the pictogram's box: its ink as large as the box allows, centred
    note: Box | None        # the small words with the symbol
    sign: tuple[float, float, float] | None     # the no-Smoke sign (cx, cy, diameter)


def places(face: Face, zone: Zones, kind: CounterType) -> Places:
    """Where `face`'s pieces go: beside the emblem, or across the face (face.across)."""
    if face.across:
        return _across(face, zone, kind)
    y0, top = zone.over_label(kind), zone.top
    x0 = zone.beside
    w = zone.size - zone.inset - x0
    note = None
    bottom = y0
    if face.note is not None:
        note = (x0, y0, w, kind.small * LABEL_BOX)
        bottom = y0 + note[3] + zone.gap
    sign = None
    if face.no_smoke:
        ex, ey, e, _ = zone.emblem
        room = ey - zone.gap - y0
        d = max(0.0, min(CAP * kind.numeral * SIGN, room, e))
        sign = (ex + e / 2, y0 + room / 2, d)
    return Places(zone.label_box(kind), (x0, bottom, w, max(0.0, top - bottom)), note, sign)


def _across(face: Face, zone: Zones, kind: CounterType) -> Places:
    """A long gun's places: the label beside the emblem, the pictogram across the middle, the
    model under it, the years at the foot."""
    _ex, ey, _e, eh = zone.emblem
    label = (zone.beside, ey, zone.size - zone.inset - zone.beside, eh)
    note = (zone.inset, zone.foot_top(kind) + zone.gap, zone.width, kind.body * LABEL_BOX)
    bottom = note[1] + note[3] + zone.gap
    return Places(label, (zone.inset, bottom, zone.width, max(0.0, ey - zone.gap - bottom)), note, None)


def symbol_ink(box: Box, aspect: float) -> Box:
    """The ink of a pictogram `aspect` times as wide as tall, as large as `box` allows, centred."""
    bx, by, bw, bh = box
    w = min(bw, bh * aspect)
    h = w / aspect if aspect else 0.0
    return bx + (bw - w) / 2, by + (bh - h) / 2, w, h


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


def wrap(text: str, width: float, measure: Measure, style: str, size: float, *,
         phrases: bool = True) -> list[str] | None:
    """Greedy word wrap at plain spaces; a no-break space holds a phrase together unless the
    phrase alone is too wide, and a word too wide for a line breaks at its soft hyphens.
    None if one word alone is wider than `width`.  Japanese text breaks between its characters
    too, as kinsoku allows (text.line_pieces): with `phrases` (a counter's few words) only at
    the end of a phrase where one fits, without (a page's prose) wherever kinsoku allows, so
    each line fills its measure."""
    words: list[str] = []
    text = text.translate({ord(c): " " for c in "\t\r\n"})     # data may hold any whitespace
    if has_wide(text):
        return _wrap_pieces(line_pieces(text.replace(SOFT_HYPHEN, ""), phrases=phrases), width, measure, style, size)
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


def single_line(line: Line, width: float, measure: Measure, size: float, floor: float) -> tuple[str, float] | None:
    """(text, size) of a one-line text: the whole at the largest size from `size` down to
    `floor` at which it fits `width`, else its short form likewise; None if neither fits."""
    for text in (line.text.replace(SOFT_HYPHEN, ""), line.short.replace(SOFT_HYPHEN, "")):
        if not text:
            continue
        pt = Fraction(size).limit_denominator(4)
        pt -= pt % STEP
        while pt >= floor - 1e-9:
            if measure(text, line.style, float(pt)) <= width:
                return text, float(pt)
            pt -= STEP
    return None


class FaceFit(Struct, frozen=True):
    """Where one face's pieces go at its sheet's CounterType."""
    label: tuple[Placed, ...]
    note: tuple[Placed, ...]
    places: Places


def _label(face: Face, box: Box, kind: CounterType, metrics: Metrics) -> list[Placed] | None:
    """The label in its box: on one line beside the emblem's foot; beside the emblem (a long
    gun's), wrapped at its spaces and soft hyphens if it must."""
    text = face.label.text
    if not face.across:
        text = text.replace(SOFT_HYPHEN, "")
        if metrics.needs(text, face.label.style, kind.title) > box[2]:
            return None
        return lay_out([(text, face.label.style, kind.title)], box, metrics.ink)
    lines = wrap(text, box[2], metrics.needs, face.label.style, kind.title)
    if lines is None:
        return None
    return lay_out([(line, face.label.style, kind.title) for line in lines], box, metrics.ink)


def _note(face: Face, box: Box | None, zone: Zones, kind: CounterType, metrics: Metrics) -> list[Placed] | None:
    """The symbol's note on one line: the small words under the pistol; a weapon's model at the
    body's size, shrunk towards the floor where it must be."""
    if face.note is None or box is None:
        return []
    size = kind.body if face.across else kind.small
    fitted = single_line(face.note, box[2], metrics.needs, size, zone.floor)
    if fitted is None:
        return None
    return lay_out([(fitted[0], face.note.style, fitted[1])], box, metrics.ink)


def fit_face(face: Face, zone: Zones, kind: CounterType, metrics: Metrics) -> FaceFit | None:
    """The face laid out at `kind`'s sizes, or None if its words cannot fit there."""
    where = places(face, zone, kind)
    label = _label(face, where.label, kind, metrics)
    note = _note(face, where.note, zone, kind, metrics)
    if label is None or note is None:
        return None
    return FaceFit(tuple(label), tuple(note), where)


def whole_words(face: Face) -> Face:
    """`face` with its soft hyphens taken out: every word whole."""
    def whole(line: Line) -> Line:
        return replace(line, text=line.text.replace(SOFT_HYPHEN, ""), short=line.short.replace(SOFT_HYPHEN, ""))
    return replace(face, label=whole(face.label), note=whole(face.note) if face.note is not None else None)


def fit_faces(faces: Iterable[Face], zone: Zones, metrics: Metrics) \
        -> tuple[CounterType, dict[Face, FaceFit]] | None:
    """(the sheet's CounterType, {face: FaceFit}): the largest label size from the zone's down to
    its floor, in quarter points, at which every face fits; None if some face cannot fit even at
    the floor.  A word breaks at its soft hyphens only on a face that fits no size with every
    word whole."""
    distinct = list(dict.fromkeys(faces))
    laid = {face: whole_words(face) for face in distinct}
    for face in distinct:
        if laid[face] != face and _fit_all([laid[face]], zone, metrics) is None:
            laid[face] = face
    found = _fit_all(list(dict.fromkeys(laid.values())), zone, metrics)
    if found is None:
        return None
    kind, fits = found
    return kind, {face: fits[laid[face]] for face in distinct}


def _fit_all(faces: Sequence[Face], zone: Zones, metrics: Metrics) -> tuple[CounterType, dict[Face, FaceFit]] | None:
    top = zone.type
    pt = Fraction(top.title).limit_denominator(4)
    pt -= pt % STEP
    while pt >= zone.floor - 1e-9:
        kind = replace(top, title=float(pt))
        fits = {face: fit_face(face, zone, kind, metrics) for face in faces}
        if all(fits.values()):
            return kind, {face: fit for face, fit in fits.items() if fit is not None}
        pt -= STEP
    return None


def floor_type(zone: Zones) -> CounterType:
    """The zone's type with its label and model at the floor: the least a face may have."""
    return replace(zone.type, title=zone.floor, body=zone.floor)


def culprits(face: Face, zone: Zones, metrics: Metrics) -> list[Line]:
    """The pieces of `face`'s text that cannot fit even at the floor: the ones to blame in an error."""
    low = floor_type(zone)
    where = places(face, zone, low)
    blamed = [] if _label(face, where.label, low, metrics) is not None else [face.label]
    if face.note is not None and _note(face, where.note, zone, low, metrics) is None:
        blamed.append(face.note)
    return blamed


# ---- the foot ------------------------------------------------------------------------------------

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
    style: str = "title"


def numeral_pieces(numeral: Numeral, zone: Zones, kind: CounterType, measure: Measure) \
        -> tuple[list[Piece], tuple[float, float]]:
    """(pieces, (left, right)): a numeral big on the foot's baseline and its unit small after it,
    on the same baseline, the two together at numeral.place."""
    big_w = measure(numeral.text, "title", kind.numeral)
    gap = max(0.5, kind.small * 0.15)
    unit_w = measure(numeral.unit, "small", kind.small) if numeral.unit else 0.0
    width = big_w + (gap + unit_w if numeral.unit else 0.0)
    left = numeral_x(numeral.place, zone, width)
    pieces = [Piece(numeral.text, kind.numeral, left, zone.foot(kind))]
    if numeral.unit:
        pieces.append(Piece(numeral.unit, kind.small, left + big_w + gap, zone.foot(kind), "small"))
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


# ---- every piece's ink, for the checks -------------------------------------------------------------

def ink_boxes(face: Face, fit: FaceFit, zone: Zones, kind: CounterType, metrics: Metrics,
              aspect: Callable[[str], float]) -> list[tuple[str, Box]]:
    """[(what, (x, y, w, h))] of the ink of each piece of the face as laid out: the emblem, the
    symbol (`aspect`: a pictogram's width over its height), the sign, each line of words and
    each numeral and unit.  What a test holds inside the inset and apart from each other."""
    where = fit.places
    boxes = [("emblem", zone.emblem), ("symbol", symbol_ink(where.symbol, aspect(face.symbol)))]
    if where.sign is not None:
        cx, cy, d = where.sign
        boxes.append(("sign", (cx - d / 2, cy - d / 2, d, d)))
    for what, lines in (("label", fit.label), ("note", fit.note)):
        for line in lines:
            boxes.append((f"{what} {line.text!r}", _text_ink(line.text, line.style, line.size, line.x, line.y,
                                                            metrics, True)))
    for pieces, _ in foot_numerals(face.numerals, zone, kind, metrics.width):
        for piece in pieces:
            boxes.append((f"numeral {piece.text!r}", _text_ink(piece.text, piece.style, piece.size, piece.x,
                                                              piece.y, metrics, False)))
    return boxes


def _text_ink(text: str, style: str, size: float, x: float, y: float, metrics: Metrics, centred: bool) -> Box:
    """The ink box of `text` set at (x, y): centred on x, or starting there."""
    w = metrics.width(text, style, size)
    start = x - w / 2 if centred else x
    left, right = metrics.span(text, style, size) if metrics.span is not None else (0.0, w)
    top, bottom = metrics.ink(text, style, size)
    return start + left, y + bottom, right - left, top - bottom


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any area."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


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
