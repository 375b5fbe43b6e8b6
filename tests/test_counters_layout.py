"""Counter geometry and content, without rendering a PDF.

Expected figures come from the print brief (100 mm, 4 in, 3/4 in counters, 5 pt floor), the rule
text (a crew of five, pistol 1 FP at RR 5, CCV -1, Wall -1 TEM) and the data files read directly.
"""

import tomllib
from fractions import Fraction

import pytest

from conftest import DATA
from generator import counters as content
from generator.data import load
from generator.layout import counters as geo
from generator.layout.paper import PAPERS

MM = 72 / 25.4                      # points per mm
TOL = 0.001 * MM                    # well inside the 0.01 mm the print brief allows
SIZES_MM = [Fraction(5, 8) * Fraction(254, 10), Fraction(3, 4) * Fraction(254, 10),
            Fraction(254, 10), Fraction(16), Fraction(10), Fraction(40)]


def grids():
    for paper in PAPERS.values():
        for size in SIZES_MM:
            yield paper, size, geo.make_grid(paper.width, paper.height, size, (Fraction(3, 2), Fraction(-1, 2)))


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_grid_is_exact_centred_and_inside_the_margins(paper, size, grid):
    assert abs(grid.size - float(size) * MM) < TOL
    assert abs(grid.x0 + grid.width / 2 - paper.width / 2) < TOL
    assert abs(grid.y0 + grid.height / 2 - paper.height / 2) < TOL
    assert grid.x0 >= geo.MARGIN_SIDE_MM * MM - TOL and grid.y0 >= geo.MARGIN_END_MM * MM - TOL
    # the largest grid: one more column or row would break the margins
    assert grid.width + grid.size > paper.width - 2 * geo.MARGIN_SIDE_MM * MM
    assert grid.height + grid.size > paper.height - 2 * geo.MARGIN_END_MM * MM


def test_cells_share_edges_with_no_gutter():
    grid = geo.make_grid(PAPERS["a4"].width, PAPERS["a4"].height, SIZES_MM[1])
    for row in range(grid.rows):
        for col in range(grid.cols - 1):
            x, y = grid.front(col, row)
            nx, ny = grid.front(col + 1, row)
            assert abs(nx - (x + grid.size)) < TOL and ny == y
    top = grid.front(0, 0)
    below = grid.front(0, 1)
    assert abs(top[1] - (below[1] + grid.size)) < TOL


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_backs_mirror_for_a_long_edge_flip_plus_offset(paper, size, grid):
    ox, oy = 1.5 * MM, -0.5 * MM
    for row in range(grid.rows):
        for col in range(grid.cols):
            fx, fy = grid.front(col, row)
            bx, by = grid.back(col, row)
            assert abs(bx - (paper.width - fx - grid.size + ox)) < TOL
            assert abs(by - (fy + oy)) < TOL
            # centres: back centre = page width - front centre (+ offset)
            assert abs((bx + grid.size / 2) - (paper.width - (fx + grid.size / 2) + ox)) < TOL


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_a_cut_tick_in_the_margin_at_every_grid_line(paper, size, grid):
    ticks = geo.cut_ticks(grid)
    assert len(ticks) == 2 * (grid.cols + 1) + 2 * (grid.rows + 1)
    lines_x = [grid.x0 + i * grid.size for i in range(grid.cols + 1)]
    lines_y = [grid.y0 + j * grid.size for j in range(grid.rows + 1)]
    right, top = grid.x0 + grid.width, grid.y0 + grid.height
    vertical = [t for t in ticks if t[0][0] == t[1][0]]
    horizontal = [t for t in ticks if t[0][1] == t[1][1]]
    assert len(vertical) + len(horizontal) == len(ticks)
    for x in lines_x:
        ends = [t for t in vertical if abs(t[0][0] - x) < TOL]
        assert len(ends) == 2       # one above, one below the grid
    for y in lines_y:
        assert len([t for t in horizontal if abs(t[0][1] - y) < TOL]) == 2
    for (x1, y1), (x2, y2) in ticks:
        inside_x = grid.x0 < (x1 + x2) / 2 < right
        inside_y = grid.y0 < (y1 + y2) / 2 < top
        assert not (inside_x and inside_y)
        assert 0 < min(x1, x2) and max(x1, x2) < paper.width and 0 < min(y1, y2) and max(y1, y2) < paper.height
        # clear of the bleed, so a tick never prints on a counter's colour
        for v, lo, hi in ((y1, grid.y0, top), (y2, grid.y0, top)):
            if x1 == x2:
                assert v <= lo - geo.BLEED_MM * MM or v >= hi + float(geo.BLEED_MM) * MM


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_bars_are_100_mm_and_4_in_and_clear_of_ticks_and_footer(paper, size, grid):
    bars = geo.bars(grid)
    assert sorted(round(b.length / MM, 6) for b in bars) == [100.0, 101.6]
    lowest_tick = min(min(y1, y2) for (x1, y1), (x2, y2) in geo.cut_ticks(grid))
    for bar in bars:
        assert 0 < bar.x and bar.x + bar.length < paper.width
        assert bar.label_y + 7 < lowest_tick        # label (6 pt) below the ticks
        assert bar.y > 8 * MM                       # above the footer line
        assert "100%" in bar.label and "Actual size" in bar.label
    a, b = sorted(bars, key=lambda bar: -bar.y)
    assert b.label_y + 7 < a.y                      # stacked, not overlapping


def test_bleed_runs_past_outer_edges_only():
    grid = geo.make_grid(PAPERS["letter"].width, PAPERS["letter"].height, SIZES_MM[1])
    used = {(c, r) for c in range(grid.cols) for r in range(2)} | {(0, 2), (1, 2)}
    b = float(geo.BLEED_MM) * MM
    inner = geo.bleed(*grid.front(3, 0), grid.size, 3, 0, grid.cols, grid.rows, lambda c, r: (c, r) in used)
    assert inner == [(grid.front(3, 0)[0], grid.front(3, 0)[1] + grid.size, grid.size, b)]  # top edge only
    x, y = grid.front(1, 2)     # last of a short row: right and bottom edges and their corner
    rects = geo.bleed(x, y, grid.size, 1, 2, grid.cols, grid.rows, lambda c, r: (c, r) in used)
    assert (x + grid.size, y, b, grid.size) in rects and (x, y - b, grid.size, b) in rects
    assert (x + grid.size, y - b, b, b) in rects and len(rects) == 3


def test_paginate_places_every_counter_once_each_group_from_a_new_row():
    grid = geo.make_grid(PAPERS["a4"].width, PAPERS["a4"].height, SIZES_MM[1])
    sizes = [17, 3, grid.capacity + 5, 1]
    pages = geo.paginate(sizes, grid)
    seen = [(s.group, s.item) for page in pages for s in page]
    assert seen == [(g, i) for g, n in enumerate(sizes) for i in range(n)]
    for page in pages:
        cells = [(s.col, s.row) for s in page]
        assert len(cells) == len(set(cells))
        assert all(0 <= c < grid.cols and 0 <= r < grid.rows for c, r in cells)
        for s in page:
            if s.item == 0:
                assert s.col == 0
    assert len(pages) >= 2


def test_calibration_cross_mirrors_with_the_offset():
    paper = PAPERS["a4"]
    grid = geo.make_grid(paper.width, paper.height, SIZES_MM[1], (Fraction(2), Fraction(-1)))
    cal = geo.calibration(grid)
    assert abs(cal.back[0] - (paper.width - cal.front[0] + 2 * MM)) < TOL
    assert abs(cal.back[1] - (cal.front[1] - 1 * MM)) < TOL
    assert abs(cal.step - MM) < TOL
    # off both centre lines, so a short-edge flip or a missing mirror cannot pass unnoticed
    assert abs(cal.front[0] - paper.width / 2) > cal.scale and abs(cal.front[1] - paper.height / 2) > cal.scale


def fake_measure(text, style, size):
    """Every character 0.6 em wide (bold 0.7): enough to test fitting without a font."""
    return len(text) * size * (0.7 if style == "title" else 0.6)


def test_fit_face_keeps_text_inside_the_safe_area_and_at_least_5_pt():
    lines = (content.Line("AFV crew", "title"), content.Line("German"),
             content.Line("Pistol\u00a01\u00a0FP at\u00a0RR\u00a05"), content.Line("Group", "blank"))
    for size_mm in SIZES_MM:
        if size_mm < 15:
            continue        # too small for four lines of this width: see the next test
        size = float(size_mm) * MM
        inset = max(MM, size * 0.07)
        fit = geo.fit_face(lines, size, inset, fake_measure, geo.max_text_pt(size))
        assert fit is not None
        pt, placed = fit
        assert pt >= 5
        for item in placed:
            assert item.size >= 5
            if item.kind == "text":
                half = fake_measure(item.text, item.style, item.size) / 2
                assert inset - 1e-6 <= item.x - half and item.x + half <= size - inset + 1e-6
                assert inset - 1e-6 <= item.y <= size - inset
            else:
                assert inset - 1e-6 <= item.x and item.x + item.w <= size - inset + 1e-6
        # a no-break space keeps "Pistol 1 FP" together when it fits on a line
        texts = [i.text for i in placed if i.kind == "text"]
        assert not any(t in ("Pistol", "FP") for t in texts)


def test_text_that_cannot_fit_at_5_pt_is_reported_not_shrunk_further():
    size = 16 * MM
    long = content.Line("x" * 10_000, "body", (("nationalities/german.toml", "name"),))
    lines = (content.Line("AFV crew", "title"), long)
    assert geo.fit_face(lines, size, MM, fake_measure, 7) is None
    assert geo.culprits(lines, size, MM, fake_measure) == [long]
    many = content.Line("word " * 400)
    assert geo.fit_face((many,), size, MM, fake_measure, 7) is None


# ---- what is on the counters, from the data files --------------------------------------------

def _toml(path):
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def test_counters_and_manifest_follow_the_data_files():
    kit = load(DATA)
    rules = _toml(DATA / "rules.toml")
    for sets in (1, 2, 3):
        groups = content.all_counters(kit, sets)
        rows = dict((nat.key, counts) for nat, counts in content.manifest(groups))
        assert sorted(rows) == sorted(p.stem for p in (DATA / "nationalities").glob("*.toml"))
        for key, counts in rows.items():
            nat = _toml(DATA / "nationalities" / f"{key}.toml")
            assert counts == {"crew": sets * rules["crew"]["size"], "rifle": len(nat["rifle"]),
                              "smg": len(nat.get("smg", [])), "wreck": sets}
    assert rules["crew"]["size"] == 5      # "a crew of five regardless of type or nationality"


def text_of(face):
    return " ".join(line.text for line in face).replace("\u00a0", " ")


def test_faces_say_what_the_rule_says():
    kit = load(DATA)
    german = next(n for n in kit.nationalities if n.key == "german")
    counters = content.counters_for(kit, german, 1)
    crew = next(c for c in counters if c.kind == "crew")
    front = text_of(crew.front)
    # 871.4: pistol 1 FP at Relative Range 5, never Smoke; 871.5: final CCV reduced by 1
    assert "AFV crew" in front and "German" in front and "Pistol 1 FP at RR 5" in front
    assert "CCV \u22121" in front and "no Smoke" in front
    back = text_of(crew.back)
    assert "Wounded" in back and "Rule 33 applies except 33.11" in back and "German" in back
    weapons = [c for c in counters if c.kind in ("rifle", "smg")]
    assert [text_of(c.front) for c in weapons] == [
        "Rifle Kar98k 1939\u201345 German", "SMG MP 38 1939 German", "SMG MP 40 1940\u201345 German"]
    wreck = next(c for c in counters if c.kind == "wreck")
    assert text_of(wreck.front) == "Wreck German Wall \u22121 TEM until the crew moves"
    assert text_of(wreck.back).startswith("Bailed out: crew pinned")
    assert wreck.back[-1].style == "blank" and "Group" in wreck.back[-1].text
    model = weapons[2].front[1]
    assert model.source == (("nationalities/german.toml", "smg[1].model"),)
