"""Counter-sheet geometry in PDF points: the grid with its gutters, cut ticks, bleed, duplex
mirroring, calibration bars and marks, pagination, and where things go on a face.  No reportlab
here, so all of it is testable without a PDF; text width comes in as a `measure(text, style,
size)` callable.

Counters stand apart, a gutter between every two: each counter's colour bleeds BLEED_MM past
its own cut lines into the gutter, so a cut that wanders by up to that much lands in the
counter's own colour, and no two counters (or faces of different colour) share a cut line.
Backs are mirrored for a long-edge flip: a portrait sheet turned over its long edge keeps y and
mirrors x.
"""

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from generator.content.faces import Groups, Line, Numeral
from generator.data.model import EmblemShape
from generator.layout.paper import Paper
from generator.options import BuildOptions
from generator.units import mm

MARGIN_SIDE_MM = 12     # room for bleed + cut ticks at left and right
MARGIN_END_MM = 26      # top: ticks + heading; bottom: ticks + two bars + footer
BLEED_MM = Fraction(3, 2)   # every counter's colour runs this far past its cut lines
GUTTER_MM = 2 * BLEED_MM    # between two counters: their bleeds meet midway, far from either cut
TICK_GAP_MM = 1         # gap between the bleed and a cut tick
TICK_MM = 4
BAR_MM = 100
BAR_IN = 4
BAR_HEIGHT_MM = Fraction(3, 2)
MIN_TEXT_PT = 5
STEP_PT = Fraction(1, 4)
TITLE_SCALE = Fraction(23, 20)     # titles print this much larger than body text
LINE_PITCH = Fraction(11, 10)      # line spacing as a multiple of the font size
CAP = 0.73                         # DejaVu Sans' (and Vera's) cap and figure height, as a share of the font size
CAL_SCALE_MM = 10                  # the calibration scale reads -10..+10 mm
# A face, as shares of the counter's side (the 3/4 in counter is the reference, 54 pt):
INSET = Fraction(6, 100)           # text and art keep off the cut by this (never under 1 mm)
EMBLEM = Fraction(30, 100)         # the emblem's square, top left
NUMERAL_PT_AT_54 = Fraction(21, 2)  # factor numerals: 10.5 pt on a 3/4 in counter, scaled
TEXT_PT_AT_54 = 6                  # the largest body text on a 3/4 in counter, scaled
SMALL_PT_AT_54 = 5                 # a numeral's unit ('FP') and a corner note ('RR5'), scaled
GAP = Fraction(25, 1000)           # between the zones of a face

Point = tuple[float, float]
Box = tuple[float, float, float, float]     # (x, y, w, h), y up
Segment = tuple[Point, Point]
# How wide `text` prints in a style ('title' or 'body') at a size in points: the renderer's font.
Measure = Callable[[str, str, float], float]
Length = float | Fraction           # millimetres as options give them (exact) or as floats


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    size: float             # counter side, points
    cols: int
    rows: int
    x0: float               # front grid's lower-left corner
    y0: float
    offset: Point           # back offset (x, y), points
    gutter: float = 0.0     # between two counters, points

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    @property
    def pitch(self) -> float:
        return self.size + self.gutter

    @property
    def width(self) -> float:
        return self.cols * self.pitch - self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.pitch - self.gutter

    def front(self, col: int, row: int) -> Point:
        """Lower-left corner of the front cell; row 0 is the top row."""
        return self.x0 + col * self.pitch, self.y0 + (self.rows - 1 - row) * self.pitch

    def back(self, col: int, row: int) -> Point:
        """The same counter's back, mirrored for a long-edge flip, plus the printer offset."""
        x, y = self.front(col, row)
        return self.mirror_x(x, self.size), y + self.offset[1]

    def mirror_x(self, x: float, width: float = 0.0) -> float:
        """Where a shape at `x`, `width` wide, on a front lands on the back (offset included)."""
        return self.page_w - x - width + self.offset[0]

    def safe_inset(self) -> float:
        return max(mm(1), self.size * float(INSET))


def make_grid(page_w: float, page_h: float, counter_mm: Length, offset_mm: tuple[Length, Length] = (0, 0)) -> Grid:
    """The largest grid of `counter_mm` counters and gutters that keeps the margins, centred."""
    size, gutter = mm(counter_mm), mm(GUTTER_MM)
    cols = int((page_w - 2 * mm(MARGIN_SIDE_MM) + gutter) // (size + gutter))
    rows = int((page_h - 2 * mm(MARGIN_END_MM) + gutter) // (size + gutter))
    if cols < 1 or rows < 1:
        raise ValueError(f"a {counter_mm} mm counter does not fit the page")
    width, height = cols * (size + gutter) - gutter, rows * (size + gutter) - gutter
    return Grid(page_w, page_h, size, cols, rows, (page_w - width) / 2, (page_h - height) / 2,
                (mm(offset_mm[0]), mm(offset_mm[1])), gutter)


def cut_lines(grid: Grid) -> tuple[list[float], list[float]]:
    """(xs, ys): every cut line of the front sheet, two per column and two per row."""
    xs = sorted(x for col in range(grid.cols) for x in (grid.front(col, 0)[0], grid.front(col, 0)[0] + grid.size))
    ys = sorted(y for row in range(grid.rows) for y in (grid.front(0, row)[1], grid.front(0, row)[1] + grid.size))
    return xs, ys


def cut_ticks(grid: Grid) -> list[Segment]:
    """((x1, y1), (x2, y2)) segments in the margin at every cut line, beyond the bleed."""
    start = mm(BLEED_MM) + mm(TICK_GAP_MM)
    end = start + mm(TICK_MM)
    top, right = grid.y0 + grid.height, grid.x0 + grid.width
    xs, ys = cut_lines(grid)
    ticks = []
    for x in xs:
        ticks.append(((x, grid.y0 - end), (x, grid.y0 - start)))
        ticks.append(((x, top + start), (x, top + end)))
    for y in ys:
        ticks.append(((grid.x0 - end, y), (grid.x0 - start, y)))
        ticks.append(((right + start, y), (right + end, y)))
    return ticks


def bleed_rect(x: float, y: float, size: float) -> Box:
    """The counter at (x, y) with its colour run BLEED_MM past every cut line: (x, y, w, h)."""
    b = mm(BLEED_MM)
    return x - b, y - b, size + 2 * b, size + 2 * b


@dataclass(frozen=True)
class Bar:
    x: float
    y: float                # bottom of the bar
    length: float
    height: float
    ticks: tuple[float, ...]    # x positions of the graduations
    unit: str               # 'mm' or 'in': the renderer labels the bar with its length in this unit
    units: int              # the bar's length in that unit
    label_y: float          # baseline of the label, above the bar


def bars(grid: Grid) -> list[Bar]:
    """The 100 mm and 4 in calibration bars, centred below the grid's cut ticks."""
    below_ticks = grid.y0 - mm(BLEED_MM + TICK_GAP_MM + TICK_MM)
    result = []
    for k, (length, step, unit, units) in enumerate(((mm(BAR_MM), mm(10), "mm", BAR_MM),
                                                     (BAR_IN * 72.0, 36.0, "in", BAR_IN))):
        top = below_ticks - mm(4) - k * mm(Fraction(11, 2))
        x = (grid.page_w - length) / 2
        n = round(length / step)
        result.append(Bar(x, top - mm(BAR_HEIGHT_MM), length, mm(BAR_HEIGHT_MM),
                          tuple(x + i * step for i in range(n + 1)), unit, units, top + mm(1)))
    return result


@dataclass(frozen=True)
class Slot:
    group: int              # index of the group (nationality)
    item: int               # index within the group
    col: int
    row: int


def paginate(group_sizes: Iterable[int], grid: Grid) -> list[list[Slot]]:
    """Place counters row by row, group after group (nationalities share rows).  Pages of Slots."""
    pages: list[list[Slot]] = []
    page: list[Slot] = []
    for g, count in enumerate(group_sizes):
        for item in range(count):
            if len(page) == grid.capacity:
                pages.append(page)
                page = []
            cell = len(page)
            page.append(Slot(g, item, cell % grid.cols, cell // grid.cols))
    if page:
        pages.append(page)
    return pages


CALIBRATION_PAGES = 2      # the counter PDF opens with the duplex calibration pair


def sheet_page(n: int, side: str) -> int:
    """The 0-based page of sheet `n` (1-based): after the calibration pair, each sheet's fronts
    and then its backs, so a long-edge duplex print puts them on the two sides of one sheet."""
    return CALIBRATION_PAGES + 2 * (n - 1) + (side == "back")


def face_origin(grid: Grid, slot: Slot, side: str) -> Point:
    """Lower-left corner of a slot's front or back (mirrored, offset) on its page."""
    return grid.front(slot.col, slot.row) if side == "front" else grid.back(slot.col, slot.row)


def spare_cells(total: int, grid: Grid) -> int:
    """Cells left empty on the last sheet when `total` counters are placed."""
    return -total % grid.capacity


@dataclass(frozen=True)
class Calibration:
    front: Point            # centre of the front cross
    back: Point             # where the back page draws its cross and scale
    scale: float            # half-length of the scale, points
    step: float             # one graduation (1 mm)


def calibration(grid: Grid) -> Calibration:
    """A cross off the page's centre lines, so a short-edge flip shows up as a miss, mirrored
    (with the offset in force) onto the back page."""
    fx, fy = grid.page_w / 2 - mm(35), grid.page_h / 2 + mm(20)
    return Calibration((fx, fy), (grid.page_w - fx + grid.offset[0], fy + grid.offset[1]),
                       mm(CAL_SCALE_MM), mm(1))


# ---- a face -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Zones:
    """Where things go on a face of a `size` counter, relative to its lower-left corner.
    Boxes are (x, y, w, h)."""
    size: float
    inset: float
    emblem: Box             # the nationality emblem's square, top left
    corner: Box             # top right, beside the emblem: pictogram or kind
    middle: Box             # words (and a weapon's pictogram) between the emblem and the foot
    numeral_pt: float       # the factors' size, bold, baseline at `inset`
    text_pt: float          # the largest size for words
    band_bottom: float      # a reversed band covers the face from here up (and bleeds)
    icon: tuple[float, float, float]    # (cx, cy, diameter): the crossed-out S, between the numerals
    small_pt: float = MIN_TEXT_PT   # the small words beside a numeral, bold


def zones(size: float, inset: float) -> Zones:
    """The zones of a face of a `size` counter whose text and art keep `inset` off the cut."""
    k = size / 54
    numeral_pt = max(MIN_TEXT_PT, k * float(NUMERAL_PT_AT_54))
    small_pt = max(MIN_TEXT_PT, k * SMALL_PT_AT_54)
    e, g = size * float(EMBLEM), max(1.0, size * float(GAP))
    top = size - inset
    foot = inset + CAP * numeral_pt
    band_bottom = foot + g
    middle_y = band_bottom + g
    return Zones(size, inset, (inset, top - e, e, e), (inset + e + g, top - e, size - 2 * inset - e - g, e),
                 (inset, middle_y, size - 2 * inset, top - e - g - middle_y), numeral_pt,
                 max(MIN_TEXT_PT, k * TEXT_PT_AT_54), band_bottom,
                 (size / 2, inset + CAP * numeral_pt / 2, CAP * numeral_pt * 1.1), small_pt)


def icon_between(zone: Zones, left_end: float, right_start: float) -> tuple[float, float, float]:
    """(cx, cy, diameter) of the crossed-out S in the gap between the foot's two numerals."""
    _cx, cy, d = zone.icon
    room = right_start - left_end - 2 * max(1.0, zone.size * float(GAP))
    return (left_end + right_start) / 2, cy, max(0.0, min(d, room))


def numeral_x(place: str, zone: Zones, width: float) -> float:
    """Left edge of a numeral `width` wide at `place` ('left', 'centre', 'right') on the foot."""
    left, right = zone.inset, zone.size - zone.inset
    return {"left": left, "centre": (left + right - width) / 2, "right": right - width}[place]


@dataclass(frozen=True)
class Piece:
    """One bold string of a numeral, its left end at x and baseline at y (counter-relative)."""
    text: str
    size: float
    x: float
    y: float


def numeral_pieces(numeral: Numeral, zone: Zones, measure: Measure) -> tuple[list[Piece], tuple[float, float]]:
    """(pieces, (left, right)): a numeral big on the foot's baseline and its unit small after it,
    on the same baseline, the two together at numeral.place."""
    big_w = measure(numeral.text, "title", zone.numeral_pt)
    gap = max(0.5, zone.small_pt * 0.15)
    unit_w = measure(numeral.unit, "title", zone.small_pt) if numeral.unit else 0.0
    width = big_w + (gap + unit_w if numeral.unit else 0.0)
    left = numeral_x(numeral.place, zone, width)
    pieces = [Piece(numeral.text, zone.numeral_pt, left, zone.inset)]
    if numeral.unit:
        pieces.append(Piece(numeral.unit, zone.small_pt, left + big_w + gap, zone.inset))
    return pieces, (left, left + width)


def foot_numerals(numerals: Sequence[Numeral], zone: Zones, measure: Measure) \
        -> list[tuple[list[Piece], tuple[float, float]]]:
    """numeral_pieces for each of a face's foot numerals; when a left and a right one would come
    closer than two zone gaps (a small counter whose factors both carry a unit, '1 FP' '-1 CCV'),
    the big figures shrink just enough to keep them apart, never below MIN_TEXT_PT."""
    laid = [numeral_pieces(n, zone, measure) for n in numerals]
    sides = {n.place: span for n, (_, span) in zip(numerals, laid, strict=True)}
    if "left" not in sides or "right" not in sides:
        return laid
    need = 2 * max(1.0, zone.size * float(GAP))
    short = sides["left"][1] + need - sides["right"][0]
    if short <= 0:
        return laid
    big = sum(measure(n.text, "title", zone.numeral_pt) for n in numerals if n.place in ("left", "right"))
    pt = max(MIN_TEXT_PT, zone.numeral_pt * (1 - short / big)) if big else zone.numeral_pt
    smaller = dataclasses.replace(zone, numeral_pt=pt)
    return [numeral_pieces(n, smaller, measure) for n in numerals]


def foot_pictogram_box(zone: Zones, name: str) -> Box:
    """(x, y, w, h): a pictogram at the foot's right, as tall as the numerals' figures."""
    h = CAP * zone.numeral_pt
    w = h * 100 / PICTOGRAMS[name][0]
    return zone.size - zone.inset - w, zone.inset, w, h


def corner_boxes(zone: Zones, noted: bool) -> tuple[Box, Point | None]:
    """(pictogram box, note baseline (x centre, y)): the corner's pictogram, and under it a note
    of small words ('RR5' under the pistol) when `noted`; without one the pictogram takes the
    middle eight tenths of the corner, as it always has."""
    cx, cy, cw, ch = zone.corner
    if not noted:
        return (cx, cy + ch * 0.1, cw, ch * 0.8), None
    below = CAP * zone.small_pt + max(0.75, zone.small_pt * 0.2)
    return (cx, cy + below, cw, ch - below), (cx + cw / 2, cy)


def corner_with_icon(zone: Zones, noted: bool) -> tuple[Box, Point | None, tuple[float, float, float]]:
    """(pictogram box, note baseline, (cx, cy, diameter) of the crossed-out S): the corner's
    pictogram moved left to make room for the no-Smoke sign at the corner's right.  The sign
    leaves the foot so the foot's two factors can both carry their unit ('1 FP', '-1 CCV')."""
    (px, py, pw, ph), note = corner_boxes(zone, noted)
    d = min(zone.icon[2], ph)
    g = max(1.0, zone.size * float(GAP))
    box = (px, py, max(0.0, pw - d - g), ph)
    if note is not None:
        note = (px + box[2] / 2, note[1])
    return box, note, (px + pw - d / 2, py + ph / 2, d)


@dataclass(frozen=True)
class Placed:
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
    None if one word alone is wider than `width`."""
    words: list[str] = []
    text = text.translate({ord(c): " " for c in "\t\r\n"})     # data may hold any whitespace
    for chunk in (w for w in text.split(" ") if w):
        if measure(chunk.replace(SOFT_HYPHEN, ""), style, size) <= width:
            words.append(chunk.replace(SOFT_HYPHEN, ""))
        else:
            for w in (w for w in chunk.split("\u00a0") if w):
                words += _hyphenated(w, width, measure, style, size)
    lines: list[str] = []
    current = ""
    for word in words:
        if measure(word, style, size) > width:
            return None
        trial = f"{current} {word}" if current else word
        if measure(trial, style, size) <= width:
            current = trial
        else:
            lines.append(current)
            current = word
    if current or not lines:
        lines.append(current)
    return lines


def _lay_out(lines: Iterable[Line], box: Box, measure: Measure, size: float,
            title_scale: Fraction | int = TITLE_SCALE) -> list[Placed] | None:
    """Placed lines at body size `size`, centred in box (x, y, w, h), or None if they overflow."""
    bx, by, bw, bh = box
    rows: list[tuple[float, str, str]] = []   # (size, text, style) of each printed line
    for line in lines:
        fs = size * float(title_scale) if line.style == "title" else size
        wrapped = wrap(line.text, bw, measure, line.style, fs)
        if wrapped is None:
            return None
        rows += [(fs, text, line.style) for text in wrapped]
    pitches = [fs * float(LINE_PITCH) for fs, _, _ in rows]
    # the last line needs only its cap height: its leading would be empty space
    total = sum(pitches) - (pitches[-1] - rows[-1][0] * CAP if rows else 0)
    if total > bh + 1e-9:
        return None
    top = by + bh - (bh - total) / 2
    placed: list[Placed] = []
    for (fs, text, style), pitch in zip(rows, pitches, strict=True):
        placed.append(Placed(text, style, fs, bx + bw / 2, top - fs * CAP))
        top -= pitch
    return placed


def fit_box(lines: Sequence[Line], box: Box, measure: Measure, max_pt: float | Fraction) \
        -> tuple[float, list[Placed]] | None:
    """The largest body size from `max_pt` down to the 5 pt floor (in quarter points) at which
    every line fits `box`, titles a size larger if they can be; returns (size, placed) or None.
    A word breaks at its soft hyphens only where it fits no size whole."""
    whole = [dataclasses.replace(line, text=line.text.replace(SOFT_HYPHEN, "")) for line in lines]
    return _fit_box(whole, box, measure, max_pt) or _fit_box(lines, box, measure, max_pt)


def _fit_box(lines: Sequence[Line], box: Box, measure: Measure, max_pt: float | Fraction) \
        -> tuple[float, list[Placed]] | None:
    for title_scale in (TITLE_SCALE, 1):
        pt = Fraction(max_pt).limit_denominator(4)
        pt -= pt % STEP_PT
        while pt >= MIN_TEXT_PT:
            placed = _lay_out(lines, box, measure, float(pt), title_scale)
            if placed is not None:
                return float(pt), placed
            pt -= STEP_PT
    return None


def culprits(lines: Iterable[Line], box: Box, measure: Measure) -> list[Line]:
    """The lines that cannot fit even alone at 5 pt: the ones to blame in an error."""
    return [line for line in lines if fit_box((line,), box, measure, MIN_TEXT_PT) is None]


# ---- pictograms: vector path data, (x, y) in a box 100 units wide, y up ------------------------

PICTOGRAMS: dict[str, tuple[int, list[list[tuple[int, int]]]]] = {
    # (height in units, [polygon, ...])
    "rifle": (17, [[(0, 2), (0, 12), (5, 13), (22, 10), (34, 11), (34, 12), (100, 12), (100, 10), (58, 10),
                    (58, 8), (44, 7), (40, 3), (37, 3), (36, 7), (25, 7), (6, 2)]]),
    "smg": (34, [[(0, 14), (0, 24), (12, 24), (16, 26), (78, 26), (78, 30), (100, 30), (100, 26), (100, 23),
                  (58, 23), (58, 21), (50, 21), (50, 0), (42, 0), (42, 21), (34, 21), (30, 10), (23, 10),
                  (22, 21), (14, 20), (4, 14)]]),
    "pistol": (72, [[(0, 72), (100, 72), (100, 50), (46, 50), (44, 40), (34, 40), (38, 0), (10, 0), (16, 50),
                     (0, 50)]]),
    "afv": (52, [[(4, 0), (86, 0), (100, 14), (100, 22), (0, 22), (0, 8)],
                 [(14, 22), (20, 40), (60, 40), (66, 22)],
                 [(60, 30), (100, 30), (100, 35), (60, 35)]]),
}


def pictogram(name: str, box: Box) -> list[list[Point]]:
    """`name`'s polygons scaled to fit box (x, y, w, h), centred: [[(x, y), ...], ...]."""
    height, polygons = PICTOGRAMS[name]
    bx, by, bw, bh = box
    scale = min(bw / 100, bh / height)
    ox, oy = bx + (bw - 100 * scale) / 2, by + (bh - height * scale) / 2
    return [[(ox + x * scale, oy + y * scale) for x, y in poly] for poly in polygons]


# ---- emblems: the nationality file's shapes, on a square from -100 to 100 -----------------------

@dataclass(frozen=True)
class Shape:
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


def sheet_plan(paper: Paper, options: BuildOptions, counters: Callable[[int], Groups]) \
        -> tuple[Grid, Groups, list[list[Slot]]]:
    """(grid, groups, sheets) for one paper: on which sheet and cell each counter prints.
    `counters(spare)` is the content's list of counters, with `spare` cells more to fill (0
    unless options.fill); the renderer and the release's face images both place counters by this.
    On fold-and-glue sheets, the grid of a fold sheet (make_fold_grid): fronts and backs on one page."""
    if options.profile.fold_sheets:
        grid = make_fold_grid(paper.width, paper.height, options.counter_mm)
    else:
        grid = make_grid(paper.width, paper.height, options.counter_mm, options.back_offset_mm)
    total = sum(len(group) for _, group in counters(0))
    groups = counters(spare_cells(total, grid)) if options.fill else counters(0)
    return grid, groups, paginate([len(counters) for _, counters in groups], grid)


# ---- fold-and-glue sheets ------------------------------------------------------------------
# A single-sided printer: the fronts fill the left half of the page and their backs the right
# half, mirrored about the vertical fold line at the page's centre.  Folded there (printed side
# out) and glued, each back lies behind its front: folding maps x to 2 * fold - x, which is the
# duplex mirror (Grid.back) with no offset, so the grid is a duplex grid moved into the left half.
# The fold is vertical, like a long-edge flip, so a counter is turned sideways to read its back.

FOLD_GAP_MM = 4     # from the fold line to the nearest cut line: the bleed (1.5 mm) and 2.5 mm clear
FOLD_CALIBRATION_PAGES = 1      # the fold sheets open with one page: how to fold and glue, the manifest


def make_fold_grid(page_w: float, page_h: float, counter_mm: Length) -> Grid:
    """The largest grid of fronts in the left half of the page, keeping the outer margin and
    FOLD_GAP_MM off the fold, its right edge on that gap; Grid.back mirrors it about the fold."""
    size, gutter = mm(counter_mm), mm(GUTTER_MM)
    half = page_w / 2 - mm(MARGIN_SIDE_MM) - mm(FOLD_GAP_MM)
    cols = int((half + gutter) // (size + gutter))
    rows = int((page_h - 2 * mm(MARGIN_END_MM) + gutter) // (size + gutter))
    if cols < 1 or rows < 1:
        raise ValueError(f"a {counter_mm} mm counter does not fit half the page")
    width, height = cols * (size + gutter) - gutter, rows * (size + gutter) - gutter
    return Grid(page_w, page_h, size, cols, rows, page_w / 2 - mm(FOLD_GAP_MM) - width, (page_h - height) / 2,
                (0.0, 0.0), gutter)


def fold_x(grid: Grid) -> float:
    """The fold line's x: the page's centre, about which Grid.back mirrors (no offset on a fold sheet)."""
    return grid.page_w / 2


def fold_ticks(grid: Grid) -> list[Segment]:
    """The cut ticks of a fold sheet: the fronts' ticks but those between the fronts and the
    fold (they would cross it), and their mirror images for the backs."""
    inner = grid.x0 + grid.width
    front = [t for t in cut_ticks(grid) if min(t[0][0], t[1][0]) <= inner]
    return front + [((grid.mirror_x(a[0]), a[1]), (grid.mirror_x(b[0]), b[1])) for a, b in front]


def fold_line(grid: Grid) -> Segment:
    """The fold line, from the top cut ticks' outer end to the bottom ones'."""
    reach = mm(BLEED_MM + TICK_GAP_MM + TICK_MM)
    x = fold_x(grid)
    return (x, grid.y0 - reach), (x, grid.y0 + grid.height + reach)


def fold_sheet_page(n: int) -> int:
    """The 0-based page of fold sheet `n` (1-based): after the instructions, one page a sheet."""
    return FOLD_CALIBRATION_PAGES + n - 1


def page_of_sheet(options: BuildOptions, n: int, side: str) -> int:
    """The 0-based page holding sheet `n`'s `side` under the options' print profile."""
    return fold_sheet_page(n) if options.profile.fold_sheets else sheet_page(n, side)
