"""A counter sheet's die line as geometry: each counter's cut path (with a shop's nicks, the
ties that hold the counters in their board), and the registration marks a home cutting
machine reads (Silhouette's type 1), in PDF points, y up, on the page the counters print on.
No drawing library here: render/cut_files.py draws these as PDF and SVG.

A cut path is the counter's trim square exactly, so it lies on its counter's cut (the sheets'
Grid places both).  With nicks, each side of the square is broken once at its middle by a gap
of the nick's length: four nicks a path, a side's length apart along it.
"""

from collections.abc import Sequence

from msgspec import Struct

from generator.layout.sheets import Grid, Point, Slot
from generator.profiles.print_profile import Nicks
from generator.units import inch, mm

Polyline = tuple[Point, ...]

# Silhouette Studio's registration marks, type 1, as the kit draws them (docs/printing.md says
# how to set Studio to match): a filled square at the top left, L-shaped corners at the top
# right and bottom left, each MARK_INSET_MM in from the page's edges.
MARK_INSET_MM = 10
MARK_LENGTH_MM = 20
MARK_THICKNESS_MM = 0.5
MARK_SQUARE_MM = 5


def cut_path(x: float, y: float, size: float, nicks: Nicks | None) -> list[Polyline]:
    """The cut path of the counter whose lower-left corner is (x, y): one closed square, or
    with `nicks` its four sides each broken at the middle by a nick (four open polylines)."""
    corners = ((x, y), (x + size, y), (x + size, y + size), (x, y + size))
    if nicks is None:
        return [(*corners, corners[0])]
    gap = inch(nicks.width_in) / 2

    def nick_end(i: int, sign: int) -> Point:
        """Where side i's nick starts (sign -1) or ends (+1): its middle, less or more half a nick."""
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        ux, uy = (bx - ax) / size, (by - ay) / size
        return (ax + bx) / 2 + sign * ux * gap, (ay + by) / 2 + sign * uy * gap
    # each corner's polyline: from the nick of the side before it, round it, to the next side's nick
    return [(nick_end(i, 1), corners[(i + 1) % 4], nick_end((i + 1) % 4, -1)) for i in range(4)]


def sheet_cuts(grid: Grid, slots: Sequence[Slot], nicks: Nicks | None) -> list[list[Polyline]]:
    """Each counter's cut path on a sheet's fronts, in slot order."""
    return [cut_path(*grid.front(slot.col, slot.row), grid.size, nicks) for slot in slots]


class Rect(Struct, frozen=True):
    """A filled rectangle: (x, y) its lower-left corner, points."""
    x: float
    y: float
    w: float
    h: float


def registration_marks(page_w: float, page_h: float) -> list[Rect]:
    """Silhouette's type 1 marks on a page `page_w` x `page_h`: the square top left, the L's
    top right and bottom left (each as two rectangles), MARK_INSET_MM from the edges."""
    inset, length, thick, square = (mm(v) for v in (MARK_INSET_MM, MARK_LENGTH_MM, MARK_THICKNESS_MM,
                                                     MARK_SQUARE_MM))
    top, right = page_h - inset, page_w - inset
    return [Rect(inset, top - square, square, square),
            Rect(right - length, top - thick, length, thick), Rect(right - thick, top - length, thick, length),
            Rect(inset, inset, length, thick), Rect(inset, inset, thick, length)]
