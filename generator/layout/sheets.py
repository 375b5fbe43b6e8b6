"""Counter-sheet geometry in PDF points: the grid with its gutters, cut ticks, bleed, duplex
mirroring, calibration bars and marks, pagination (where things go on a face: face_layout.py).
No reportlab here, so all of it is testable without a PDF.

Counters stand apart, a gutter between every two: each counter's colour bleeds BLEED_MM past
its own cut lines into the gutter, so a cut that wanders by up to that much lands in the
counter's own colour, and no two counters (or faces of different colour) share a cut line.  A
print profile whose shop die-cuts the counters (its prepress's DieCut) sets its own bleed and
safe zone per counter, and may lay the counters on a punchboard of fixed size instead of the paper.
Backs are mirrored for a long-edge flip: a portrait sheet turned over its long edge keeps y and
mirrors x.
"""

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from msgspec import Struct
from msgspec.structs import replace

from generator.content.faces import Groups
from generator.layout import face_layout as fl
from generator.layout.paper import Paper
from generator.options import BuildOptions
from generator.profiles.print_profile import DieCut, Punchboard
from generator.units import inch, mm

MARGIN_SIDE_MM = 12     # room for bleed + cut ticks at left and right
# A cutting machine's sheets: the registration marks' legs stand 10-10.5 mm in from the sides
# (layout/cuts.py), so the counters' colour keeps 2 mm clear of them.
CUTTER_SIDE_MM = 14
MARGIN_END_MM = 26      # top: ticks + heading; bottom: ticks + two bars + footer
BLEED_MM = Fraction(3, 2)   # every counter's colour runs this far past its cut lines
GUTTER_MM = 2 * BLEED_MM    # between two counters: their bleeds meet midway, far from either cut
TICK_GAP_MM = 1         # gap between the bleed and a cut tick
TICK_MM = 4
BAR_MM = 100
BAR_IN = 4
BAR_HEIGHT_MM = Fraction(3, 2)
BAR_TICK_MM = 1                    # a bar's graduations stand this far above it
BAR_CLEAR_MM = Fraction(3, 2)      # between a bar and its label, and between the two bars' rows
BAR_LABEL_MM = 64 + 102            # the longest label (62 mm) and its gap, then the longer bar
CAL_SCALE_MM = 10                  # the calibration scale reads -10..+10 mm
CAL_FROM_TOP_MM = 62               # the calibration cross's centre, down from the page's top edge
INSET = Fraction(6, 100)           # a face's text and art keep this share of its side off the cut (never under 1 mm)

Point = tuple[float, float]
Box = tuple[float, float, float, float]     # (x, y, w, h), y up
Segment = tuple[Point, Point]
# How wide `text` prints in a style ('title' or 'body') at a size in points: the renderer's font.
Measure = Callable[[str, str, float], float]
Length = float | Fraction           # millimetres as options give them (exact) or as floats


class Grid(Struct, frozen=True):
    page_w: float
    page_h: float
    size: float             # counter side, points
    cols: int
    rows: int
    x0: float               # front grid's lower-left corner
    y0: float
    offset: Point           # back offset (x, y), points
    gutter: float = 0.0     # between two counters, points
    bleed_mm: Length = BLEED_MM     # each counter's colour past its cut lines
    safe: float = 0.0       # a shop's safe zone: text and art at least this far inside the cut, points
    ticks: bool = True      # cut ticks in the margin (a punchboard has no margin for them)

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
        return max(own_inset(self.size), self.safe)

    @property
    def bleed(self) -> float:
        """Each counter's colour past its cut lines, points."""
        return mm(self.bleed_mm)

    @property
    def reach(self) -> float:
        """From a cut line to the outer end of its ticks (the bleed where there are none)."""
        return mm(self.bleed_mm + TICK_GAP_MM + TICK_MM) if self.ticks else self.bleed


def make_grid(page_w: float, page_h: float, counter_mm: Length, offset_mm: tuple[Length, Length] = (0, 0),
              die: DieCut | None = None, side_mm: Length = MARGIN_SIDE_MM) -> Grid:
    """The largest grid of `counter_mm` counters and gutters that keeps the margins, centred;
    `die`: a shop's die cut, whose bleed (twice over between counters) and safe zone it keeps."""
    size = mm(counter_mm)
    bleed_mm = die.bleed_mm if die is not None else BLEED_MM
    gutter = mm(2 * bleed_mm)
    cols = int((page_w - 2 * mm(side_mm) + gutter) // (size + gutter))
    rows = int((page_h - 2 * mm(MARGIN_END_MM) + gutter) // (size + gutter))
    if cols < 1 or rows < 1:
        raise ValueError(f"a {counter_mm} mm counter does not fit the page")
    width, height = cols * (size + gutter) - gutter, rows * (size + gutter) - gutter
    return Grid(page_w, page_h, size, cols, rows, (page_w - width) / 2, (page_h - height) / 2,
                (mm(offset_mm[0]), mm(offset_mm[1])), gutter, bleed_mm, mm(die.safe_mm) if die is not None else 0.0)


def board_size(board: Punchboard) -> Point:
    """(width, height) of a punchboard's trim, points."""
    return inch(board.width_in), inch(board.height_in)


def make_board_grid(board: Punchboard, counter_mm: Length, die: DieCut) -> Grid:
    """The largest grid of counters on a punchboard, centred, each counter's bleed at least the
    board's frame inside its trim; no ticks (the board's die cuts it) and no back offset (the
    shop prints both sides in register)."""
    page_w, page_h = board_size(board)
    size, bleed, frame = mm(counter_mm), mm(die.bleed_mm), inch(board.frame_in)
    gutter = mm(2 * die.bleed_mm)
    cols = int((page_w - 2 * (frame + bleed) + gutter) // (size + gutter))
    rows = int((page_h - 2 * (frame + bleed) + gutter) // (size + gutter))
    if cols < 1 or rows < 1:
        raise ValueError(f"a {counter_mm} mm counter does not fit the punchboard")
    width, height = cols * (size + gutter) - gutter, rows * (size + gutter) - gutter
    return Grid(page_w, page_h, size, cols, rows, (page_w - width) / 2, (page_h - height) / 2, (0.0, 0.0),
                gutter, die.bleed_mm, mm(die.safe_mm), ticks=False)


def cut_lines(grid: Grid) -> tuple[list[float], list[float]]:
    """(xs, ys): every cut line of the front sheet, two per column and two per row."""
    xs = sorted(x for col in range(grid.cols) for x in (grid.front(col, 0)[0], grid.front(col, 0)[0] + grid.size))
    ys = sorted(y for row in range(grid.rows) for y in (grid.front(0, row)[1], grid.front(0, row)[1] + grid.size))
    return xs, ys


def cut_ticks(grid: Grid) -> list[Segment]:
    """((x1, y1), (x2, y2)) segments in the margin at every cut line, beyond the bleed."""
    if not grid.ticks:
        return []
    start = grid.bleed + mm(TICK_GAP_MM)
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


def bleed_rect(x: float, y: float, size: float, bleed: float = mm(BLEED_MM)) -> Box:
    """The counter at (x, y) with its colour run `bleed` (points) past every cut line: (x, y, w, h)."""
    return x - bleed, y - bleed, size + 2 * bleed, size + 2 * bleed


class Bar(Struct, frozen=True):
    x: float
    y: float                # bottom of the bar
    length: float
    height: float
    ticks: tuple[float, ...]    # x positions of the graduations
    unit: str               # 'mm' or 'in': the renderer labels the bar with its length in this unit
    units: int              # the bar's length in that unit
    label_right: float      # the label's right end: it reads into the bar's zero end, beside it
    label_mid: float        # the label's vertical middle, level with the middle of the bar and its ticks

    @property
    def top(self) -> float:
        """The top of the bar's graduations."""
        return self.y + self.height + mm(BAR_TICK_MM)


def bars(grid: Grid) -> list[Bar]:
    """The 100 mm and 4 in calibration bars below the grid's cut ticks, one row each, their zero
    ends aligned and the longer bar's end under the grid's right edge, so each label fits beside its bar
    (the labels, up to 62 mm long, leave no room for a label above each bar between the ticks and
    the footer, and none beside a centred bar)."""
    longest = max(mm(BAR_MM), BAR_IN * 72.0)
    x = max(grid.x0 + grid.width, mm(MARGIN_SIDE_MM + BAR_LABEL_MM)) - longest
    row = mm(BAR_HEIGHT_MM + BAR_TICK_MM)
    result = []
    for k, (length, step, unit, units) in enumerate(((mm(BAR_MM), mm(10), "mm", BAR_MM),
                                                     (BAR_IN * 72.0, 36.0, "in", BAR_IN))):
        top = grid.y0 - grid.reach - mm(2) - k * (row + mm(BAR_CLEAR_MM))
        n = round(length / step)
        result.append(Bar(x, top - row, length, mm(BAR_HEIGHT_MM), tuple(x + i * step for i in range(n + 1)),
                          unit, units, x - mm(BAR_CLEAR_MM), top - row / 2))
    return result


class Slot(Struct, frozen=True):
    group: int              # index of the group (nationality)
    item: int               # index within the group
    col: int
    row: int


def paginate(group_sizes: Iterable[int], grid: Grid) -> list[list[Slot]]:
    """Place counters row by row, each group (nationality) together, as a counter sheet's designer
    lays them out: a group starts on a fresh row unless it fits whole in the rest of the row
    before it, so no group's last few counters sit among the next one's; a group longer than a
    sheet's rest runs on to the next sheet in whole rows.  Pages of Slots."""
    pages: list[list[Slot]] = []
    page: list[Slot] = []
    cell = 0        # the next free cell of `page`, row by row
    for g, count in enumerate(group_sizes):
        if count and cell % grid.cols and count > grid.cols - cell % grid.cols:
            cell += grid.cols - cell % grid.cols
        for item in range(count):
            if cell == grid.capacity:
                pages.append(page)
                page, cell = [], 0
            page.append(Slot(g, item, cell % grid.cols, cell // grid.cols))
            cell += 1
    if page:
        pages.append(page)
    return pages


def row_fill(group_sizes: Sequence[int], grid: Grid) -> tuple[int, ...]:
    """How many counters more each group takes so that every sheet is full: each group's own
    last row filled, then the last sheet's spare rows, one a group in turn."""
    rows = [-(-count // grid.cols) for count in group_sizes]
    spare = -sum(rows) % grid.rows
    for turn in range(spare):
        rows[turn % len(rows)] += 1
    return tuple(r * grid.cols - count for r, count in zip(rows, group_sizes, strict=True))


CALIBRATION_PAGES = 2      # the counter PDF opens with the duplex calibration pair


def sheet_page(n: int, side: str) -> int:
    """The 0-based page of sheet `n` (1-based): after the calibration pair, each sheet's fronts
    and then its backs, so a long-edge duplex print puts them on the two sides of one sheet."""
    return CALIBRATION_PAGES + 2 * (n - 1) + (side == "back")


def face_origin(grid: Grid, slot: Slot, side: str) -> Point:
    """Lower-left corner of a slot's front or back (mirrored, offset) on its page."""
    return grid.front(slot.col, slot.row) if side == "front" else grid.back(slot.col, slot.row)


class Calibration(Struct, frozen=True):
    front: Point            # centre of the front cross
    back: Point             # where the back page draws its cross and scale
    scale: float            # half-length of the scale, points
    step: float             # one graduation (1 mm)


def calibration(grid: Grid) -> Calibration:
    """A cross off the page's centre lines, so a short-edge flip shows up as a miss, mirrored
    (with the offset in force) onto the back page; high on the page, under its first step, so
    the page's lower half holds the manifest."""
    fx, fy = grid.page_w / 2 - mm(35), grid.page_h - mm(CAL_FROM_TOP_MM)
    return Calibration((fx, fy), (grid.page_w - fx + grid.offset[0], fy + grid.offset[1]),
                       mm(CAL_SCALE_MM), mm(1))


def own_inset(size: float) -> float:
    """How far a `size` counter's own text and art keep off its cut: INSET, never under 1 mm."""
    return max(mm(1), size * float(INSET))


def face_zones(grid: Grid) -> fl.Zones:
    """The zones of a face of the grid's counters, inside its safe inset, its ground its bleed.
    Where a shop's safe zone is wider than the counter's own inset, the face takes the pieces of
    the smaller counter whose own inset leaves the same room (their type scales with it)."""
    safe = grid.safe_inset()
    if safe <= own_inset(grid.size):
        return fl.zones(grid.size, safe, bleed=grid.bleed)
    room = grid.size - 2 * safe
    inner = room / (1 - 2 * float(INSET))
    if inner * float(INSET) < mm(1):
        inner = room + 2 * mm(1)
    return fl.zones(grid.size, safe, inner, grid.bleed)


SheetPlan = tuple[Grid, Groups, list[list[Slot]]]     # the grid, the counters, each sheet's slots


def sheet_plan(paper: Paper, options: BuildOptions, counters: Callable[[Sequence[int]], Groups]) -> SheetPlan:
    """(grid, groups, sheets) for one paper: on which sheet and cell each counter prints.
    `counters(more)` is the content's list of counters, with `more[i]` counters more for the i-th
    nationality (none unless options.fill: row_fill); the renderer and the release's face
    images both place counters by this.
    On fold-and-glue sheets, the grid of a fold sheet (make_fold_grid): fronts and backs on one page;
    for a shop that die-cuts them, its DieCut's grid, on its punchboard if it has one."""
    prepress = options.profile.prepress
    die = prepress.die_cut if prepress is not None else None
    if options.profile.fold_sheets:
        grid = make_fold_grid(paper.width, paper.height, options.counter_mm)
    elif die is not None and die.board is not None:
        grid = make_board_grid(die.board, options.counter_mm, die)
    elif options.profile.home_cutter:       # the machine cuts: no ticks beside its marks
        grid = replace(make_grid(paper.width, paper.height, options.counter_mm, options.back_offset_mm,
                                 side_mm=CUTTER_SIDE_MM), ticks=False)
    else:
        grid = make_grid(paper.width, paper.height, options.counter_mm, options.back_offset_mm, die)
        if die is not None:     # the shop's die cuts them: ticks would be ink on its sheet
            grid = replace(grid, ticks=False)
    groups = counters(())
    if options.fill:        # every sheet full: each nationality in whole rows, spares as more sets
        more = row_fill([len(group) for _, group in groups], grid)
        if any(more):       # none: the plain counters are already the ones to place
            groups = counters(more)
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
    x = fold_x(grid)
    return (x, grid.y0 - grid.reach), (x, grid.y0 + grid.height + grid.reach)


def fold_sheet_page(n: int) -> int:
    """The 0-based page of fold sheet `n` (1-based): after the instructions, one page a sheet."""
    return FOLD_CALIBRATION_PAGES + n - 1


def board_of(options: BuildOptions) -> Punchboard | None:
    """The punchboard the options' print profile lays its counters on, if it has one."""
    prepress = options.profile.prepress
    return prepress.die_cut.board if prepress is not None and prepress.die_cut is not None else None


def die_cut(options: BuildOptions) -> DieCut | None:
    """The die cut of the options' print profile: its shop cuts the counters with a die."""
    prepress = options.profile.prepress
    return prepress.die_cut if prepress is not None else None


def die_cut_page(n: int, side: str) -> int:
    """The 0-based page of die-cut sheet (or punchboard) `n` (1-based) in a die-cutting shop's
    print file: each sheet's front, then its back, in the cut file's order, with nothing before
    them (the shop prints both sides in register; the cover is a file of its own)."""
    return 2 * (n - 1) + (side == "back")


def page_of_sheet(options: BuildOptions, n: int, side: str) -> int:
    """The 0-based page holding sheet `n`'s `side` under the options' print profile."""
    if options.profile.fold_sheets:
        return fold_sheet_page(n)
    return die_cut_page(n, side) if die_cut(options) is not None else sheet_page(n, side)
