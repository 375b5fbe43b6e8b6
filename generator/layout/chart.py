"""Geometry of the procedure flowchart: boxes in rows, arrows between them.  No reportlab.

Boxes run left to right in rows, `per_row` of them, each row from the left edge to the right.  On
one grid of columns shared by every row (spans(): a row with fewer boxes gives its spare columns to
the boxes it shortens most), every box edge lines up with the row above; with fitted_widths(), the
first row's boxes share its width by their content, so no box stands half empty beside a full one (the
printed aid: its boxes' text differs too much for even columns), and those widths are the columns a
later row's boxes span.  A row takes its tallest box's
height.  Each box is joined to the next: along the row by a straight arrow, from the end of a
row to the start of the next by an elbow through the gap between the rows.  Optional bypass
arrows skip boxes (a voluntary bail-out skips the check, and under note 1 the casualty draws):
- within the first row, a bypass leaves the top of one box, runs above the row and drops into a
  later box of that row;
- into the first box of the next row, a bypass drops from the bottom of its box onto the elbow
  that leads there (it joins that line rather than crossing it), its label to the left of the drop,
  centred on it and clear of the elbow's line: the label names the drop alone, not the line
  below that the chain's own path shares.
Coordinates are PDF points, origin bottom-left.  A label's box runs from 1 pt below its anchor
to `label_height` - 5 pt above it (the renderers' text plus padding).
"""

import math
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

from msgspec import Struct

DROP_CLEAR = 5.0        # a drop's label keeps this far from the box above and the elbow's line
DROP_TAIL = 12.0        # from the elbow down to the next row: room for the arrowhead
LABEL_GAP = 4.0         # between a drop and the right end of its label

Point = tuple[float, float]


class Rect(Struct, frozen=True):
    x: float
    y: float                # bottom edge
    w: float
    h: float

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def overlaps(self, other: "Rect") -> bool:
        return (self.x < other.right and other.x < self.right
                and self.y < other.top and other.y < self.top)


class Arrow(Struct, frozen=True):
    points: tuple[Point, ...]       # a polyline; the last point is the tip
    label_at: Point | None = None   # label baseline anchor, if any
    bypass: int | None = None       # index into arrange()'s `bypasses`; None for the chain
    label_anchor: str = "centre"    # label_at is the label's 'centre' or its 'right' end
    label_room: float = 0.0         # the width the label may take

    def head(self, length: float = 5.0, half_width: float = 2.6) -> tuple[Point, Point, Point]:
        """The arrowhead triangle ((tip), (left), (right)) along the last segment."""
        (x0, y0), (x1, y1) = self.points[-2], self.points[-1]
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / d, (y1 - y0) / d
        bx, by = x1 - ux * length, y1 - uy * length
        return ((x1, y1), (bx - uy * half_width, by + ux * half_width),
                (bx + uy * half_width, by - ux * half_width))


class Chart(Struct, frozen=True):
    width: float
    height: float
    boxes: tuple[Rect, ...]     # in order
    arrows: tuple[Arrow, ...]


def rows_of(count: int, per_row: int) -> list[list[int]]:
    """[[box index, ...], ...]: `count` boxes, `per_row` to a row."""
    if count < 1 or per_row < 1:
        raise ValueError("a flowchart needs at least one box and one box per row")
    return [list(range(i, min(i + per_row, count))) for i in range(0, count, per_row)]


def box_widths(width: float, count: int, per_row: int, gap_x: float, spans: Sequence[int] | None = None) -> list[float]:
    """The width of each box: `per_row` columns share `width`, and a box spans `spans[i]` of them
    (one each by default) with the gaps between them."""
    column = (width - gap_x * (per_row - 1)) / per_row
    if column <= 0:
        raise ValueError(f"{width:.0f} pt is too narrow for {per_row} boxes")
    taken = spans if spans is not None else [1] * count
    for row in rows_of(count, per_row):
        if sum(taken[i] for i in row) > per_row:
            raise ValueError(f"a row of the flowchart spans more than its {per_row} columns")
    return [column * n + gap_x * (n - 1) for n in taken]


def spans(count: int, per_row: int, height_at: Callable[[int, int], float]) -> list[int]:
    """How many columns each box takes: one, and a row with fewer boxes than columns gives its spare
    columns one at a time to the box that leaves the row the lowest (`height_at(box, columns)`: the
    box's height at that span); a tie goes to the earlier box."""
    taken = [1] * count

    def row_height(row: list[int], grown: int) -> float:
        return max(height_at(j, taken[j] + (j == grown)) for j in row)
    for row in rows_of(count, per_row):
        for _ in range(per_row - len(row)):
            heights = {grown: row_height(row, grown) for grown in row}
            taken[min(row, key=heights.__getitem__)] += 1
    return taken


FIT_STEPS = 14          # halvings in fitted_widths' searches: a width to well under a point


def fitted_widths(width: float, count: int, per_row: int, gap_x: float,
                  height_at: Callable[[int, float], float], narrowest: float) -> list[float]:
    """Each box's width on one grid: the first row's boxes share the row by their content (the
    widths at which its tallest box is as low as it can be, `height_at(box, width)` a box's height
    at a width, no box under `narrowest`; the width left over shared in proportion), and those
    widths are the grid's columns.  Each later row's box spans a run of those columns, the runs
    that make that row's tallest box lowest, so its edges land on the first row's and no box is
    narrower than a column.  Every row runs from the left edge to the right.  The searches ask for
    a box's height at the same widths again and again (their bisections share their first steps):
    `height_at` is asked once for each box and width."""
    heights: dict[tuple[int, float], float] = {}

    def measured(i: int, box_width: float) -> float:
        if (i, box_width) not in heights:
            heights[i, box_width] = height_at(i, box_width)
        return heights[i, box_width]
    rows = rows_of(count, per_row)
    first = rows[0]
    room = width - gap_x * (len(first) - 1)
    if room < narrowest * len(first):
        raise ValueError(f"{width:.0f} pt is too narrow for {len(first)} boxes")
    columns = _fit_row(first, room, measured, narrowest)
    widths = dict(zip(first, columns, strict=True))
    for row in rows[1:]:
        widths.update(zip(row, _on_columns(row, columns, gap_x, measured), strict=True))
    return [widths[i] for i in range(count)]


def _on_columns(row: list[int], columns: list[float], gap_x: float,
                height_at: Callable[[int, float], float]) -> list[float]:
    """The widths of a later row's boxes, each over a run of the grid's `columns` (one or more,
    in order, all of them used): the runs whose tallest box is lowest, then whose boxes' heights
    sum lowest (the fullest boxes); a tie goes to the runs found first."""
    best: tuple[tuple[float, float], list[float]] | None = None
    for cuts in combinations(range(1, len(columns)), len(row) - 1):
        bounds = (0, *cuts, len(columns))
        widths = [sum(columns[a:b]) + gap_x * (b - a - 1) for a, b in pairwise(bounds)]
        heights = [height_at(i, w) for i, w in zip(row, widths, strict=True)]
        score = (max(heights), sum(heights))
        if best is None or score < best[0]:
            best = (score, widths)
    assert best is not None             # a later row never holds more boxes than the first
    return best[1]


def _fit_row(row: list[int], room: float, height_at: Callable[[int, float], float], narrowest: float) -> list[float]:
    """The widths, summing to `room`, that make the row's tallest box lowest (fitted_widths)."""
    def least_width(i: int, height: float) -> float:
        """The narrowest width at which box i is at most `height` tall (`room` if none is)."""
        low, high = narrowest, room
        if height_at(i, low) <= height:
            return low
        for _ in range(FIT_STEPS):
            mid = (low + high) / 2
            low, high = (low, mid) if height_at(i, mid) <= height else (mid, high)
        return high

    low = max(height_at(i, room) for i in row)                  # each box alone in the row: no lower
    high = max(height_at(i, room / len(row)) for i in row)      # the even share: always possible
    for _ in range(FIT_STEPS):
        mid = (low + high) / 2
        if sum(least_width(i, mid) for i in row) <= room:
            high = mid
        else:
            low = mid
    needed = [least_width(i, high) for i in row]
    spare = room - sum(needed)
    return [w + spare * w / sum(needed) for w in needed]


def arrange(width: float, heights: Sequence[float], per_row: int, *, gap_x: float = 16.0, gap_y: float = 24.0,
            bypasses: Sequence[tuple[int, int]] = (), bypass_rise: float = 10.0, label_height: float = 0.0,
            spans: Sequence[int] | None = None, widths: Sequence[float] | None = None) -> Chart:
    """Place the boxes (their content `heights`, at the widths their `spans` give, or the `widths`
    given: fitted_widths') and route the arrows; return a Chart.

    `bypasses` is a sequence of (from, to) box indices: two boxes of the first row with a box
    between them, or a box of one row that is not its last and the first box of the next row.
    `label_height` is the room a bypass label needs above its line.
    """
    rows = rows_of(len(heights), per_row)
    widths = list(widths) if widths is not None else box_widths(width, len(heights), per_row, gap_x, spans)
    row_of = {i: r for r, row in enumerate(rows) for i in row}
    rises, drops = _bypass_kinds(bypasses, rows, row_of)
    top_room = bypass_rise + label_height if rises else 0.0
    row_heights = [max(heights[i] for i in row) for row in rows]
    # A drop's label sits beside the drop, clear of the row above and of the elbow's line.
    label_box = max(0.0, label_height - 4)
    drop_len = label_box + 2 * DROP_CLEAR
    gaps = [max(gap_y, drop_len + DROP_TAIL) if r in drops else gap_y for r in range(len(rows) - 1)]
    height = top_room + sum(row_heights) + sum(gaps)
    boxes = _place(rows, widths, row_heights, gaps, height - top_room, gap_x)
    arrows, elbow_y = _chain(boxes, rows, gaps, drops)
    for n, (i, j) in enumerate(bypasses):
        a, b = boxes[i], boxes[j]
        if row_of[i] == row_of[j]:
            # Leave and land off-centre so the bypass never shares a point with the row's arrows.
            x0, x1 = a.x + a.w * 0.5, b.x + b.w * 0.3
            y = a.top + bypass_rise
            arrows.append(Arrow(((x0, a.top), (x0, y), (x1, y), (x1, b.top)), label_at=((x0 + x1) / 2, y + 2.0),
                                bypass=n, label_room=abs(x1 - x0) - 8))
        else:
            x0, y = a.cx, elbow_y[row_of[i]]
            label_y = (y + a.y - label_box) / 2 + 1     # the label's box centred on the drop
            arrows.append(Arrow(((x0, a.y), (x0, y)), label_at=(x0 - LABEL_GAP, label_y), bypass=n,
                                label_anchor="right", label_room=x0 - 8))
    return Chart(width, height, tuple(boxes), tuple(arrows))


def _bypass_kinds(bypasses: Sequence[tuple[int, int]], rows: list[list[int]], row_of: dict[int, int]) \
        -> tuple[bool, set[int]]:
    """(whether a bypass rises over the first row, the rows a bypass drops from); a ValueError
    for a bypass that is neither."""
    count = len(row_of)
    rises = False
    drops: set[int] = set()
    for a, b in bypasses:
        if not (0 <= a < count and 0 <= b < count):
            raise ValueError(f"a bypass joins boxes 1 to {count}; got {a + 1}-{b + 1}")
        if row_of[a] == row_of[b] == 0 and b > a + 1:
            rises = True
        elif row_of[b] == row_of[a] + 1 and b == rows[row_of[b]][0] and a != rows[row_of[a]][-1]:
            drops.add(row_of[a])
        else:
            raise ValueError(f"a bypass {a + 1}-{b + 1} must join two boxes of the first row with a box "
                             f"between them, or a box (not a row's last) and the first box of the next row")
    return rises, drops


def _place(rows: list[list[int]], widths: list[float], row_heights: list[float], gaps: list[float], top: float,
           gap_x: float) -> list[Rect]:
    """Each box's Rect, rows from `top` down, a row's boxes from the left edge."""
    boxes: dict[int, Rect] = {}
    for r, (row, row_h) in enumerate(zip(rows, row_heights, strict=True)):
        x = 0.0
        for i in row:
            boxes[i] = Rect(x, top - row_h, widths[i], row_h)
            x += widths[i] + gap_x
        top -= row_h + (gaps[r] if r < len(gaps) else 0)
    return [boxes[i] for i in range(len(boxes))]


def _chain(boxes: list[Rect], rows: list[list[int]], gaps: list[float], drops: set[int]) \
        -> tuple[list[Arrow], dict[int, float]]:
    """The arrows from each box to the next, and the y of the elbow below each row but the last."""
    arrows: list[Arrow] = []
    elbow_y: dict[int, float] = {}
    for r, row in enumerate(rows):
        for i in row[:-1]:
            a, b = boxes[i], boxes[i + 1]
            y = a.top - min(a.h, 28.0) / 2      # near the header, where the eye starts
            arrows.append(Arrow(((a.right, y), (b.x, y))))
        if r + 1 < len(rows):
            a, b = boxes[row[-1]], boxes[rows[r + 1][0]]
            # Under a drop the elbow runs low, below the drop's label; otherwise mid-gap.
            mid = elbow_y[r] = a.y - (gaps[r] - DROP_TAIL if r in drops else gaps[r] / 2)
            arrows.append(Arrow(((a.cx, a.y), (a.cx, mid), (b.cx, mid), (b.cx, b.top))))
    return arrows, elbow_y
