"""Geometry of a paged table: column x positions, rows per page, page groups for bookmarks.

Pure arithmetic in PDF points (origin bottom left), so it is testable without a PDF.  The
renderer measures its text and passes the widths and band heights in.
"""

import math
from collections.abc import Sequence

from msgspec import Struct

from generator.errors import RenderError
from generator.layout.paper import Paper

MAX_BOOKMARKS = 100         # more outline entries than this are no help to a reader


class ColumnBox(Struct, frozen=True):
    key: str
    x: float                # left edge
    width: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def centre(self) -> float:
        return self.x + self.width / 2


class TableGeometry(Struct, frozen=True):
    """A table over pages: the first page's rows start under its heading and legend
    (`first_top`), every later page's under a running head (`later_top`)."""
    paper: Paper
    margin: float
    columns: tuple[ColumnBox, ...]  # left to right
    row_height: float
    first_top: float        # y of the top edge of the first row on page 1 ...
    later_top: float        # ... and on every later page
    first_rows: int         # rows on page 1
    rows_per_page: int      # rows on every later page

    @property
    def left(self) -> float:
        return self.columns[0].x

    @property
    def right(self) -> float:
        return self.columns[-1].right

    def column(self, key: str) -> ColumnBox:
        return next(c for c in self.columns if c.key == key)

    def body_top(self, page: int) -> float:
        """y of the top edge of the first row on 1-based `page`."""
        return self.first_top if page == 1 else self.later_top

    def row_bottom(self, page: int, slot: int) -> float:
        """y of the bottom edge of the row in `slot` (0 = first row on the page) of `page`."""
        return self.body_top(page) - (slot + 1) * self.row_height

    def pages(self, rows: int) -> int:
        if rows <= self.first_rows:
            return 1
        return 1 + math.ceil((rows - self.first_rows) / self.rows_per_page)

    def page_rows(self, page: int, rows: int) -> range:
        """The 0-based row indexes on 1-based `page`."""
        if page == 1:
            return range(0, min(rows, self.first_rows))
        start = self.first_rows + (page - 2) * self.rows_per_page
        return range(start, min(rows, start + self.rows_per_page))

    def bookmark_groups(self, rows: int) -> tuple[tuple[str, int, int, int], ...]:
        """((key, first row, last row, first page), ...): one per group of pages, 1-based rows.

        One group per page while that gives at most MAX_BOOKMARKS entries, else runs of pages.
        Keys depend only on the row numbers: deterministic.
        """
        pages = self.pages(rows)
        per = max(1, math.ceil(pages / MAX_BOOKMARKS))
        groups: list[tuple[str, int, int, int]] = []
        for first_page in range(1, pages + 1, per):
            last_page = min(pages, first_page + per - 1)
            first = self.page_rows(first_page, rows).start + 1
            last = self.page_rows(last_page, rows).stop
            groups.append((f"prerolled-rows-{first}", first, last, first_page))
        return tuple(groups)


def table_geometry(paper: Paper, widths: Sequence[tuple[str, float, bool]], *, row_height: float,
                   top: float | tuple[float, float], bottom: float, margin: float,
                   most: tuple[int, int] | None = None) -> TableGeometry:
    """Lay out a table on `paper`.

    `widths` is ((key, minimum width, grows), ...): columns that grow share the spare width
    equally.  `top` is the height above the rows (heading, legend, column heads): one for every
    page, or (page 1's, the later pages'); `bottom` the height below them (footer); all inside
    the margin.  `most`: (rows on page 1, rows on a later page) at most, the rows then spread
    over the room at the pitch that fits them (a paper with more room than another paginates as
    it does, with more air between its rows).
    """
    usable = paper.width - 2 * margin
    need = sum(w for _, w, _ in widths)
    if need > usable:
        raise RenderError(f"pre-rolled table: {len(widths)} columns need {need:.0f} pt, "
                          f"{paper.label} gives {usable:.0f} pt (is [crew] size in rules.toml too big?)")
    growers = sum(1 for _, _, grows in widths if grows)
    extra = (usable - need) / growers if growers else 0
    left = margin + (0 if growers else (usable - need) / 2)
    boxes: list[ColumnBox] = []
    x = left
    for key, w, grows in widths:
        width = w + (extra if grows else 0)
        boxes.append(ColumnBox(key, x, width))
        x += width
    first, later = top if isinstance(top, tuple) else (top, top)
    tops = [paper.height - margin - t for t in (first, later)]
    per_page = [int((t - margin - bottom) // row_height) for t in tops]
    if most is not None and min(per_page) >= 1:
        per_page = [min(n, cap) for n, cap in zip(per_page, most, strict=True)]
        row_height = min((t - margin - bottom) / n for t, n in zip(tops, per_page, strict=True))
    if min(per_page) < 1:
        raise RenderError(f"pre-rolled table: no room for a row on {paper.label} "
                          f"(the legend takes {max(first, later):.0f} pt)")
    return TableGeometry(paper, margin, tuple(boxes), row_height, tops[0], tops[1], per_page[0], per_page[1])


def filled_rows(first: int, later: int, target: int, block: int = 1) -> int:
    """The rows of a default table that fills its pages: `first` rows on page 1, `later` on each
    page after it.  The whole number of pages whose rows come nearest `target` (the more pages
    on a tie); with `block` over 1, the whole number of blocks that leaves the last page fullest
    among those near `target` (within a page of it), then the nearest."""
    whole = [first + later * k for k in range(max(1, target // max(later, 1) + 2))]
    if block <= 1:
        return min(whole, key=lambda n: (abs(n - target), -n))

    def fill(n: int) -> float:
        rest = n if n <= first else (n - first) % later or later
        return rest / (first if n <= first else later)
    near = [block * k for k in range(max(1, (target - later) // block), (target + later) // block + 1) if k]
    return max(near, key=lambda n: (round(fill(n), 6), -abs(n - target)))
