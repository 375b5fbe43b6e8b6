"""--print fold: counter sheets for a single-sided printer, measured from the PDFs.

On every sheet the fronts and their backs lie on one page, mirrored about the drawn fold line:
folding there maps x to 2 * fold - x, so each back's centre must sit at that mirror of its
front's centre, at the same height, within 0.1 mm (docs/printing.md's promise); the counter
printed there is the same counter's back (a crew's healthy front faces its wounded side); every
cut line has its ticks; 1 mm outside every cut the counter's own colour; every sheet >= 90% of
the fullest.
"""

import io
import os
import re

import pytest
from pypdf import PdfReader

from conftest import matrix
from generator.content.words import load_words
from test_counters_pdf import BACK_TITLE, MM, build, centre, counter_rects, expected_counts, first_words, pages_of
from test_counters_print import SIZES, close, image, px

MIRROR_TOL = 0.1 * MM           # what docs/printing.md promises
# Parsing a page's every object is the slow part: a local run measures each build's first sheet,
# CI (and BAILOUT_SLOW_TESTS=1) every sheet; the counts of every sheet are read from its operators.
EVERY_SHEET = os.environ.get("CI") == "true" or os.environ.get("BAILOUT_SLOW_TESTS") == "1"
WORDS = load_words()


def fold_x(page):
    """The x of the drawn fold line: the long vertical lines near the page's centre."""
    xs = {round(ln["x0"], 2) for ln in page.lines
          if abs(ln["x0"] - ln["x1"]) < 0.01 and ln["bottom"] - ln["top"] > 20 * MM
          and abs(ln["x0"] - page.width / 2) < 10 * MM}
    assert len(xs) == 1, xs
    return xs.pop()


def fold_pages(paper, size):
    pdf = build(counter_mm=SIZES[size], print_profile="fold")[f"counters-{paper}.pdf"]
    return pdf, pages_of(pdf)


@pytest.mark.parametrize("size,paper", matrix(list(SIZES), ["a4", "letter"]))     # every pair under SLOW
def test_every_back_is_its_front_mirrored_across_the_fold(paper, size):
    pdf, pages = fold_pages(paper, size)
    crew = WORDS("counter.crew.front.title").split()[0]
    wounded = WORDS("counter.crew.back.title").split()[0]
    assert "FOLD" in pages[0].text.upper() or WORDS("fold.heading").split()[0] in pages[0].text
    assert not counter_rects(pages[0], SIZES[size])
    crews = 0
    for page in measured(pages):
        fold = fold_x(page)
        rects = counter_rects(page, SIZES[size])
        fronts = [r for r in rects if centre(r)[0] < fold]
        backs = [r for r in rects if centre(r)[0] > fold]
        assert fronts and len(fronts) == len(backs)
        assert all(r["x1"] < fold for r in fronts) and all(r["x0"] > fold for r in backs)
        titles = first_words(page, rects)
        unmatched = list(backs)
        for f in fronts:
            fx, fy = centre(f)
            match = min(unmatched, key=lambda b: abs(centre(b)[0] - (2 * fold - fx)) + abs(centre(b)[1] - fy))
            bx, by = centre(match)
            assert abs(bx - (2 * fold - fx)) < MIRROR_TOL and abs(by - fy) < MIRROR_TOL, (f, match)
            unmatched.remove(match)
            assert BACK_TITLE[titles[id(f)]] == titles[id(match)]
            if titles[id(f)] == crew:
                assert titles[id(match)] == wounded
                crews += 1
    assert crews
    counts = placed(pdf)[1:]
    assert counts[0] == len(counter_rects(pages[1], SIZES[size]))     # a face placed is a counter printed
    assert sum(counts) // 2 >= expected_counts(2)       # every counter the data asks for, and spares
    assert all(n >= 0.9 * max(counts) for n in counts), counts
    check_cuts(pdf, pages, size)


def measured(pages):
    return pages[1:] if EVERY_SHEET else pages[1:2]


def placed(pdf):
    """Faces placed on each page: each is a form drawn once per counter side (Do); the page's
    footer, a form of its own, is not one."""
    reader = PdfReader(io.BytesIO(pdf))
    return [sum(1 for name in PLACED.findall(page["/Contents"].get_object().get_data()) if b"PageFooter" not in name)
            for page in reader.pages]


# A form placed: its name and the Do operator (PDF 32000-1, 8.10), read from the page's content
# by a regular expression (pypdf's ContentStream parse of every page was most of this test's time).
PLACED = re.compile(rb"(/[^\s()<>\[\]{}/%]+)\s+Do\b")


def check_cuts(pdf, pages, size):
    """Cut ticks at every cut line, a 1 mm miss in the counter's colour."""
    for index, page in enumerate(measured(pages), start=1):
        rects = counter_rects(page, SIZES[size])
        ticks = [ln for ln in page.lines if ln["x0"] < min(r["x0"] for r in rects) - MM
                 or ln["x1"] > max(r["x1"] for r in rects) + MM
                 or ln["top"] < min(r["top"] for r in rects) - MM
                 or ln["bottom"] > max(r["bottom"] for r in rects) + MM]
        for r in rects:     # a tick in the margin on the line of each of its four cuts
            for x in (r["x0"], r["x1"]):
                assert any(abs(t["x0"] - x) < 0.01 and abs(t["x1"] - x) < 0.01 for t in ticks), (index, x)
            for y in (r["top"], r["bottom"]):
                assert any(abs(t["top"] - y) < 0.01 and abs(t["bottom"] - y) < 0.01 for t in ticks), (index, y)
        img = image(pdf, index)
        for r in rects[::3]:    # a third of the counters, every edge: the 1 mm cut lands in its colour
            x, y = (r["x0"] + r["x1"]) / 2 + 0.2 * (r["x1"] - r["x0"]), r["top"] + 0.3 * (r["bottom"] - r["top"])
            for outside, inside in (((x, r["top"] - MM), (x, r["top"] + MM / 2)),
                                    ((x, r["bottom"] + MM), (x, r["bottom"] - MM / 2)),
                                    ((r["x0"] - MM, y), (r["x0"] + MM / 2, y)),
                                    ((r["x1"] + MM, y), (r["x1"] - MM / 2, y))):
                assert close(px(img, *outside), px(img, *inside)), (size, index, r["x0"], r["top"])
