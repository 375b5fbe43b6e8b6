"""--print cutter, a home cutting machine's print-then-cut, measured on its output: Silhouette's
type 1 registration marks on every sheet of fronts and in the cut files at the same places,
none on the backs, no cut ticks, the marks clear of every word and of the counters' colour, and
every cut path on its counter's trim.  The marks' numbers are Silhouette Studio's defaults
(type 1: a 5 mm square top left, L's of 20 mm by 0.5 mm top right and bottom left, 10 mm in
from the edges), not read from the code."""

import io
import math
import re

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import DATA, run_cli
from pdfpage import pages_of
from test_shop_presets import cut_dxf_paths, cut_svg_paths, front_pages, placements

MM = 72 / 25.4
A4 = (210 * MM, 297 * MM)
TOL = 0.01 * MM
CUT_TOL = 0.05 * MM
COUNTER = 0.75 * 72         # the default 3/4 in counter
CLEAR = 2 * MM              # what a mark reader asks: nothing printed this near a mark


def silhouette_marks(w, h):
    """(x0, y0, x1, y1) in points, y up, of the type 1 marks on a page w x h: Silhouette's defaults."""
    inset, length, thick, square = 10 * MM, 20 * MM, 0.5 * MM, 5 * MM
    return sorted([
        (inset, h - inset - square, inset + square, h - inset),                 # the square, top left
        (w - inset - length, h - inset - thick, w - inset, h - inset),          # top right L
        (w - inset - thick, h - inset - length, w - inset, h - inset),
        (inset, inset, inset + length, inset + thick),                          # bottom left L
        (inset, inset, inset + thick, inset + length)])


@pytest.fixture(scope="module")
def cutter(tmp_path_factory):
    out = tmp_path_factory.mktemp("cutter")
    status, _, err = run_cli("build", "--print", "cutter", "--paper", "a4", "--only", "counters", "--data", DATA,
                             "--out", out, "--quiet")
    assert status == 0, err
    return {p.name: p.read_bytes() for p in out.iterdir()}


def black_rects(reader, i):
    """(x0, y0, x1, y1), y up, of the rectangles page i fills in pure black in its own content
    (not inside a placed face), untransformed."""
    found, moved, depth, black = [], [], 0, False
    for args, op in ContentStream(reader.pages[i]["/Contents"].get_object(), reader).operations:
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
            moved = [d for d in moved if d <= depth]
        elif op == b"cm" and [float(v) for v in args] != [1, 0, 0, 1, 0, 0]:
            moved.append(depth)
        elif op in (b"rg", b"k", b"g"):
            black = all(float(v) == 0 for v in args[:3]) and (op != b"k" or float(args[3]) == 1)
        elif op == b"re" and black and not moved:
            x, y, w, h = (float(v) for v in args)
            found.append((x, y, x + w, y + h))
    return sorted(found)


def close(a, b):
    return all(abs(p - q) <= TOL for p, q in zip(a, b, strict=True))


def test_every_sheet_of_fronts_carries_the_marks_and_no_back_does(cutter):
    reader = PdfReader(io.BytesIO(cutter["counters-a4.pdf"]))
    fronts = front_pages(reader)
    placing = [i for i, page in enumerate(reader.pages) if placements(reader, page)]
    backs = [i for i in placing if i not in fronts]
    assert fronts and backs
    want = silhouette_marks(*A4)
    # the first and the last sheet's two sides, and the calibration pair (every sheet is drawn
    # by the same code; reading all of them costs more than it tells)
    for i in fronts:
        found = [r for r in black_rects(reader, i) if any(close(r, m) for m in want)]
        assert len(found) == len(want), i
    for i in [*backs, 0, 1]:
        assert not [r for r in black_rects(reader, i) if any(close(r, m) for m in want)], i


def test_nothing_prints_near_a_mark(cutter):
    """No word, no cut tick and no counter's colour within 2 mm of a mark (a reader that sees
    ink beside a mark misreads it)."""
    want = silhouette_marks(*A4)
    reader = PdfReader(io.BytesIO(cutter["counters-a4.pdf"]))
    pages = pages_of(cutter["counters-a4.pdf"])        # as pdfium reads them (tests/pdfpage.py)
    for i in front_pages(reader)[:1]:       # the first sheet: the fullest heading and grid
        page = pages[i]
        h = float(page.height)
        ink = [(c["x0"], h - c["bottom"], c["x1"], h - c["top"]) for c in page.chars]
        ink += [(r["x0"], h - r["bottom"], r["x1"], h - r["top"]) for r in page.rects
                if not any(close((r["x0"], h - r["bottom"], r["x1"], h - r["top"]), m) for m in want)]
        ink += [(ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"]) for ln in page.lines]
        for x0, y0, x1, y1 in want:
            near = [b for b in ink if b[0] < x1 + CLEAR and b[2] > x0 - CLEAR and b[1] < y1 + CLEAR
                    and b[3] > y0 - CLEAR]
            assert not near, (i, (x0, y0), near[:3])
        # the counters' own colour: every placed face and its bleed, 2 mm clear of the marks
        for (x, y), _ in placements(reader, reader.pages[i]):
            for x0, y0, x1, y1 in want:
                apart = x > x1 + CLEAR or x + COUNTER < x0 - CLEAR or y > y1 + CLEAR or y + COUNTER < y0 - CLEAR
                assert apart, (i, x, y)
        # the print-and-cut area: every counter and its bleed inside the marks' frame, which is
        # where Silhouette Studio reads and cuts (10 mm in from every edge)
        spots = placements(reader, reader.pages[i])
        bleed = 1.5 * MM
        inset = 10 * MM
        assert all(inset < x - bleed and x + COUNTER + bleed < A4[0] - inset and inset < y - bleed
                   and y + COUNTER + bleed < A4[1] - inset for (x, y), _ in spots)
        # no cut ticks: no line beside the grid of counters (the calibration bars' last graduation
        # stands on the grid's right edge: 0.01 pt allows pdfium's single-precision coordinates)
        left, right = min(x for (x, _), _ in spots), max(x for (x, _), _ in spots) + COUNTER
        assert not [ln for ln in page.lines if ln["x1"] < left - 0.01 or ln["x0"] > right + 0.01], i


def test_the_cut_files_marks_and_paths_lie_where_the_sheet_has_them(cutter):
    svg = cutter["cut-a4.svg"].decode()
    marks = cutter["marks-a4.svg"].decode()
    for drawing in (svg, marks):
        assert re.search(r'width="210\.000mm" height="297\.000mm"', drawing)
    # the cut SVG holds cut paths and nothing a cutter would cut round: no filled shape, no mark
    assert "<rect" not in svg and 'fill="none"' in svg and not re.search(r'fill="#', svg)
    rects = sorted((float(x), float(y), float(w), float(hh)) for x, y, w, hh in
                   re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/>', marks))
    want = sorted((x0 / MM, (A4[1] - y1) / MM, (x1 - x0) / MM, (y1 - y0) / MM) for x0, y0, x1, y1 in
                  silhouette_marks(*A4))
    assert len(rects) == 5 and all(abs(a - b) <= 0.01 for r, m in zip(rects, want, strict=True)
                                   for a, b in zip(r, m, strict=True))
    reader = PdfReader(io.BytesIO(cutter["counters-a4.pdf"]))
    first = placements(reader, reader.pages[front_pages(reader)[0]])
    paths = cut_svg_paths(svg)
    assert len(paths) == len(first)
    for (x, y), _ in first:
        left, top = x / MM, (A4[1] - y - COUNTER) / MM
        [match] = [ls for ls in paths if abs(min(p[0] for line in ls for p in line) - left) < 1
                   and abs(min(p[1] for line in ls for p in line) - top) < 1]
        for line in match:
            for px, py in line:
                on_edge = min(abs(px - left), abs(px - left - COUNTER / MM), abs(py - top),
                              abs(py - top - COUNTER / MM))
                assert on_edge <= CUT_TOL / MM
    # the DXF (for Silhouette Studio's free edition) holds the same paths, y up from the page's foot
    dxf = sorted([(x, A4[1] / MM - y) for x, y in line] for line in cut_dxf_paths(cutter["cut-a4.dxf"]))
    drawn = sorted([*line, line[0]] for ls in paths for line in ls)
    assert len(dxf) == len(drawn) and all(math.dist(p, q) < 0.01 for a, b in zip(dxf, drawn, strict=True)
                                          for p, q in zip(a, b, strict=True))
    cut = PdfReader(io.BytesIO(cutter["cut-a4.pdf"]))
    assert len(cut.pages) == len(front_pages(reader))
    found = [r for r in black_rects(cut, 0) if any(close(r, m) for m in silhouette_marks(*A4))]
    assert len(found) == 5


def test_a_print_shop_cut_file_carries_no_home_marks(tmp_path):
    """The shop's die line is CutContour: a cutting machine's marks would be ink on its press sheet."""
    status, _, err = run_cli("build", "--print", "meinspiel", "--paper", "a4", "--only", "counters", "--data", DATA,
                             "--out", tmp_path, "--quiet")
    assert status == 0, err
    assert "registration-marks" not in (tmp_path / "cut-a4.svg").read_text()
    assert not (tmp_path / "marks-a4.svg").exists()


def test_the_cut_dxf_is_the_same_bytes_from_the_same_inputs(cutter, tmp_path):
    """ezdxf writes the time and a GUID into a drawing unless told not to: a second build, later,
    writes the same DXF."""
    status, _, err = run_cli("build", "--print", "cutter", "--paper", "a4", "--only", "counters", "--data", DATA,
                             "--out", tmp_path, "--quiet")
    assert status == 0, err
    assert (tmp_path / "cut-a4.dxf").read_bytes() == cutter["cut-a4.dxf"]
