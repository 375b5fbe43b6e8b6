"""Counter-sheet geometry in PDF points: the gang-cut grid, cut ticks, duplex mirroring,
calibration bars and marks, pagination, and fitting text on a face.  No reportlab here, so all
of it is testable without a PDF; text width comes in as a `measure(text, style, size)` callable.

The grid has no gutters: neighbours share an edge and each cell is filled to its edges, so a
cut that wanders lands in colour, not in white.  Backs are mirrored for a long-edge flip:
a portrait sheet turned over its long edge keeps y and mirrors x.
"""

from dataclasses import dataclass
from fractions import Fraction

from .paper import mm

MARGIN_SIDE_MM = 12     # room for bleed + cut ticks at left and right
MARGIN_END_MM = 26      # top: ticks + heading; bottom: ticks + two bars + footer
BLEED_MM = Fraction(3, 2)   # edge counters' colour runs this far past the outer cut lines
TICK_GAP_MM = 1         # gap between the bleed and a cut tick
TICK_MM = 4
BAR_MM = 100
BAR_IN = 4
BAR_HEIGHT_MM = Fraction(3, 2)
SAFE_FRACTION = Fraction(7, 100)   # text keeps off the cut by this share of the counter (>= 1 mm)
MIN_TEXT_PT = 5
STEP_PT = Fraction(1, 4)
TITLE_SCALE = Fraction(23, 20)     # titles print this much larger than body text
LINE_PITCH = Fraction(112, 100)    # line spacing as a multiple of the font size
ASCENT = Fraction(76, 100)         # baseline sits this far below a line's top (Vera caps ~0.73)
BLANK_PITCH = 2                    # a write-in box is this many font sizes tall
CAL_SCALE_MM = 10                  # the calibration scale reads -10..+10 mm


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    size: float             # counter side, points
    cols: int
    rows: int
    x0: float               # front grid's lower-left corner
    y0: float
    offset: tuple           # back offset (x, y), points

    @property
    def capacity(self):
        return self.cols * self.rows

    @property
    def width(self):
        return self.cols * self.size

    @property
    def height(self):
        return self.rows * self.size

    def front(self, col, row):
        """Lower-left corner of the front cell; row 0 is the top row."""
        return self.x0 + col * self.size, self.y0 + (self.rows - 1 - row) * self.size

    def back(self, col, row):
        """The same counter's back, mirrored for a long-edge flip, plus the printer offset."""
        x, y = self.front(col, row)
        return self.page_w - x - self.size + self.offset[0], y + self.offset[1]

    def safe_inset(self):
        return max(mm(1), self.size * float(SAFE_FRACTION))


def make_grid(page_w, page_h, counter_mm, offset_mm=(0, 0)):
    """The largest whole grid of `counter_mm` counters that keeps the margins, centred on the page."""
    size = mm(counter_mm)
    cols = int((page_w - 2 * mm(MARGIN_SIDE_MM)) // size)
    rows = int((page_h - 2 * mm(MARGIN_END_MM)) // size)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {counter_mm} mm counter does not fit the page")
    x0 = (page_w - cols * size) / 2
    y0 = (page_h - rows * size) / 2
    return Grid(page_w, page_h, size, cols, rows, x0, y0, (mm(offset_mm[0]), mm(offset_mm[1])))


def cut_ticks(grid):
    """((x1, y1), (x2, y2)) segments in the margin at every grid line, beyond the bleed."""
    start = mm(BLEED_MM) + mm(TICK_GAP_MM)
    end = start + mm(TICK_MM)
    top, right = grid.y0 + grid.height, grid.x0 + grid.width
    ticks = []
    for i in range(grid.cols + 1):
        x = grid.x0 + i * grid.size
        ticks.append(((x, grid.y0 - end), (x, grid.y0 - start)))
        ticks.append(((x, top + start), (x, top + end)))
    for j in range(grid.rows + 1):
        y = grid.y0 + j * grid.size
        ticks.append(((grid.x0 - end, y), (grid.x0 - start, y)))
        ticks.append(((right + start, y), (right + end, y)))
    return ticks


def bleed(x, y, size, col, row, cols, rows, used):
    """Rectangles (x, y, w, h) extending an outer cell's colour past the cut, so a cut that
    strays outwards still lands in colour.  `used(col, row)` says whether a cell holds a counter:
    an edge next to an empty cell bleeds too, and so does the corner between two bled edges."""
    b = mm(BLEED_MM)

    def free(c, r):
        return not (0 <= c < cols and 0 <= r < rows and used(c, r))

    left, right, top, bottom = free(col - 1, row), free(col + 1, row), free(col, row - 1), free(col, row + 1)
    rects = [r for ok, r in ((left, (x - b, y, b, size)), (right, (x + size, y, b, size)),
                             (top, (x, y + size, size, b)), (bottom, (x, y - b, size, b))) if ok]
    for hor, ver, dc, dr, cx, cy in ((left, top, -1, -1, x - b, y + size), (right, top, 1, -1, x + size, y + size),
                                     (left, bottom, -1, 1, x - b, y - b), (right, bottom, 1, 1, x + size, y - b)):
        if hor and ver and free(col + dc, row + dr):
            rects.append((cx, cy, b, b))
    return rects


@dataclass(frozen=True)
class Bar:
    x: float
    y: float                # bottom of the bar
    length: float
    height: float
    ticks: tuple            # x positions of the graduations
    label: str
    label_y: float          # baseline of the label, above the bar


def bars(grid):
    """The 100 mm and 4 in calibration bars, centred below the grid's cut ticks."""
    below_ticks = grid.y0 - mm(BLEED_MM + TICK_GAP_MM + TICK_MM)
    result = []
    for k, (length, step, label) in enumerate((
            (mm(BAR_MM), mm(10), f"{BAR_MM} mm \u2013 print at 100% / Actual size"),
            (BAR_IN * 72.0, 36.0, f"{BAR_IN} in \u2013 print at 100% / Actual size"))):
        top = below_ticks - mm(Fraction(9, 2)) - k * mm(6)
        x = (grid.page_w - length) / 2
        n = round(length / step)
        result.append(Bar(x, top - mm(BAR_HEIGHT_MM), length, mm(BAR_HEIGHT_MM),
                          tuple(x + i * step for i in range(n + 1)), label, top + mm(1)))
    return result


@dataclass(frozen=True)
class Slot:
    group: int              # index of the group (nationality)
    item: int               # index within the group
    col: int
    row: int


def paginate(group_sizes, grid):
    """Place counters row by row; each group starts a new row.  Returns pages of Slots."""
    pages, page, row = [], [], 0
    for g, count in enumerate(group_sizes):
        col = 0
        for item in range(count):
            if row >= grid.rows:
                pages.append(page)
                page, row = [], 0
            page.append(Slot(g, item, col, row))
            col += 1
            if col == grid.cols:
                col, row = 0, row + 1
        if col:
            row += 1
    if page:
        pages.append(page)
    return pages


CALIBRATION_PAGES = 2      # the counter PDF opens with the duplex calibration pair


def sheet_page(n, side):
    """The 0-based page of sheet `n` (1-based): after the calibration pair, each sheet's fronts
    and then its backs, so a long-edge duplex print puts them on the two sides of one sheet."""
    return CALIBRATION_PAGES + 2 * (n - 1) + (side == "back")


def face_origin(grid, slot, side):
    """Lower-left corner of a slot's front or back (mirrored, offset) on its page."""
    return grid.front(slot.col, slot.row) if side == "front" else grid.back(slot.col, slot.row)


@dataclass(frozen=True)
class Calibration:
    front: tuple            # centre of the front cross
    back: tuple             # where the back page draws its cross and scale
    scale: float            # half-length of the scale, points
    step: float             # one graduation (1 mm)


def calibration(grid):
    """A cross off the page's centre lines, so a short-edge flip shows up as a miss, mirrored
    (with the offset in force) onto the back page."""
    fx, fy = grid.page_w / 2 - mm(35), grid.page_h / 2 + mm(20)
    return Calibration((fx, fy), (grid.page_w - fx + grid.offset[0], fy + grid.offset[1]),
                       mm(CAL_SCALE_MM), mm(1))


# ---- text on a face -------------------------------------------------------------------------

@dataclass(frozen=True)
class Placed:
    """One line of text (centred on x) or a write-in box, relative to the counter's lower-left."""
    kind: str               # 'text' or 'box'
    text: str
    style: str
    size: float
    x: float                # text: centre; box: left
    y: float                # text: baseline; box: bottom
    w: float = 0
    h: float = 0


def wrap(text, width, measure, style, size):
    """Greedy word wrap at plain spaces; a no-break space holds a phrase together unless the
    phrase alone is too wide.  None if one word alone is wider than `width`."""
    words = []
    text = text.translate({ord(c): " " for c in "\t\r\n"})     # data may hold any whitespace
    for chunk in (w for w in text.split(" ") if w):
        if measure(chunk, style, size) <= width:
            words.append(chunk)
        else:
            words += [w for w in chunk.split("\u00a0") if w]
    lines, current = [], ""
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


def _font_size(style, size):
    return size * float(TITLE_SCALE) if style == "title" else size


def _lay_out(lines, box, measure, size):
    """Placed items for `lines` at body size `size` in box (x, y, w, h), or None if they overflow."""
    bx, by, bw, bh = box
    rows = []               # (height, items builder)
    for line in lines:
        fs = _font_size(line.style, size)
        if line.style == "blank":
            label_w = measure(line.text, "body", fs)
            if label_w + fs * 2 > bw:
                return None
            rows.append((fs * BLANK_PITCH, ("blank", line.text, fs, label_w)))
            continue
        wrapped = wrap(line.text, bw, measure, line.style, fs)
        if wrapped is None:
            return None
        for text in wrapped:
            rows.append((fs * float(LINE_PITCH), ("text", text, fs, line.style)))
    total = sum(h for h, _ in rows)
    if total > bh:
        return None
    top = by + bh - (bh - total) / 2
    placed = []
    for h, spec in rows:
        if spec[0] == "text":
            _, text, fs, style = spec
            placed.append(Placed("text", text, style, fs, bx + bw / 2, top - fs * float(ASCENT) - (h - fs) / 2))
        else:
            _, text, fs, label_w = spec
            gap = fs / 3
            width = min(bw - label_w - gap, fs * 6)    # a box for a group letter, not a form field
            left = bx + (bw - (label_w + gap + width)) / 2
            box_h = h * 0.8
            bottom = top - h + (h - box_h) / 2
            placed.append(Placed("text", text, "body", fs, left + label_w / 2, bottom + (box_h - fs * 0.7) / 2))
            placed.append(Placed("box", "", "blank", fs, left + label_w + gap, bottom, width, box_h))
        top -= h
    return placed


def fit_face(lines, size, inset, measure, max_pt):
    """The largest body size from `max_pt` down to the 5 pt floor (in quarter points) at which
    every line fits inside the counter less `inset`; returns (size, placed) or None."""
    box = (inset, inset, size - 2 * inset, size - 2 * inset)
    pt = Fraction(max_pt).limit_denominator(4)
    pt -= pt % STEP_PT
    while pt >= MIN_TEXT_PT:
        placed = _lay_out(lines, box, measure, float(pt))
        if placed is not None:
            return float(pt), placed
        pt -= STEP_PT
    return None


def culprits(lines, size, inset, measure):
    """The lines that cannot fit even alone at 5 pt: the ones to blame in an error."""
    return [line for line in lines if fit_face((line,), size, inset, measure, MIN_TEXT_PT) is None]


def max_text_pt(size):
    """Body text size to start from: grows with the counter (about 7 pt on a 3/4 in counter)."""
    return max(MIN_TEXT_PT, size * 0.13)
