"""What a player sees and a print shop gets, measured from the PDFs and their page images.

Counter faces: art (emblem or pictogram) and a big numeral on every face; the wounded side
differs from the healthy one over at least a quarter of its area; 1 mm outside every cut line
the counter's own colour, on fronts and backs, both papers, every size.  Every PDF of the kit:
no RGB black or grey, nothing within 5 mm of a page edge.  Figures come from the print brief.
Each build renders once per session (test_counters_pdf caches them); pages are rasterised at a
modest 100 dpi with pypdfium2, only where pixels are the question.
"""

import functools
import io
import re
from fractions import Fraction

import pytest
from pypdf import PdfReader

from conftest import PRINTED_KIT, matrix, shipped_build
from generator.content.words import load_words
from test_counters_pdf import INCH_MM, MM, build, counter_rects, pages_of

pdfium = pytest.importorskip("pypdfium2", reason="page images need pypdfium2 (a dependency of the kit)")

DPI = 100
SIZES = {"5/8in": Fraction(5, 8) * INCH_MM, "3/4in": Fraction(3, 4) * INCH_MM, "1in": INCH_MM}
EDGE_MM = 5


@functools.lru_cache(maxsize=8)
def image(pdf_bytes, index):
    """Page `index` as an RGB PIL image at DPI (y down from the top, points * scale)."""
    doc = pdfium.PdfDocument(pdf_bytes)
    return doc[index].render(scale=DPI / 72).to_pil().convert("RGB")


def px(img, x, y):
    """The colour at (x, y) in points, the page reader's coordinates (y down from the top)."""
    return img.getpixel((round(x * DPI / 72), round(y * DPI / 72)))


def close(a, b, tol=24):
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def sheet_pages(pdf_bytes):
    """(front index, back index) of the first counter sheet: pages 3 and 4 (after calibration)."""
    return 2, 3


# ---- faces ---------------------------------------------------------------------------------

def inside(obj, r, pad=0.0):
    return (r["x0"] - pad <= obj["x0"] and obj["x1"] <= r["x1"] + pad
            and r["top"] - pad <= obj["top"] and obj["bottom"] <= r["bottom"] + pad)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_face_carries_vector_art_and_a_numeral_of_10_pt(paper):
    pdf = build()[f"counters-{paper}.pdf"]
    pages = pages_of(pdf)
    for page in pages[2:]:
        art = page.curves               # emblems and pictograms are paths, not glyphs
        for r in counter_rects(page, SIZES["3/4in"]):
            assert any(inside(a, r) for a in art), r
            assert any(inside(ch, r) and ch["size"] >= 10 and ch["text"].isdigit() and "Bold" in ch["fontname"]
                       for ch in page.chars), r


def test_healthy_and_wounded_sides_differ_over_a_fifth_of_the_face():
    """The wounded side's band of ink, its label reversed: a fifth of the face at least, across it."""
    pdf = build()["counters-a4.pdf"]
    pages = pages_of(pdf)
    front, back = image(pdf, 2), image(pdf, 3)
    side = float(SIZES["3/4in"]) * MM
    title = load_words()("counter.crew.front.title").split()[-1]      # a word of the healthy side's title
    crews = [r for r in counter_rects(pages[2], SIZES["3/4in"])
             if any(w["text"] == title and inside(w, r) for w in pages[2].words)]
    assert crews
    for r in crews[:6]:
        mirror_x0 = pages[2].width - r["x1"]        # the back of this counter, after a long-edge flip
        steps = 24
        differ = 0
        for i in range(steps):
            for j in range(steps):
                dx, dy = (i + 0.5) * side / steps, (j + 0.5) * side / steps
                if not close(px(front, r["x0"] + dx, r["top"] + dy), px(back, mirror_x0 + dx, r["top"] + dy), 40):
                    differ += 1
        assert differ / steps ** 2 >= 0.18, differ / steps ** 2


# ---- cuts that forgive -----------------------------------------------------------------------

@pytest.mark.parametrize("size,paper", matrix(list(SIZES), ["a4", "letter"]))     # every pair under SLOW
def test_a_cut_1_mm_off_lands_in_the_counters_own_colour(paper, size):
    pdf = build(counter_mm=SIZES[size])[f"counters-{paper}.pdf"]
    pages = pages_of(pdf)
    for index in sheet_pages(pdf):
        img, page = image(pdf, index), pages[index]
        rects = counter_rects(page, SIZES[size])
        assert rects
        for r in rects:
            for t in (0.3, 0.7):    # two points along each edge, clear of the text in the middle
                x = r["x0"] + t * (r["x1"] - r["x0"])
                y = r["top"] + t * (r["bottom"] - r["top"])
                for (ox, oy), (ix, iy) in (
                        ((x, r["top"] - MM), (x, r["top"] + MM / 2)),          # top edge
                        ((x, r["bottom"] + MM), (x, r["bottom"] - MM / 2)),    # bottom edge
                        ((r["x0"] - MM, y), (r["x0"] + MM / 2, y)),            # left edge
                        ((r["x1"] + MM, y), (r["x1"] - MM / 2, y))):           # right edge
                    outside, own = px(img, ox, oy), px(img, ix, iy)
                    assert close(outside, own), (paper, size, index, r["x0"], r["top"], outside, own)


@pytest.mark.parametrize("size,paper", matrix(list(SIZES), ["a4", "letter"]))     # every pair under SLOW
def test_every_sheet_is_at_least_90_percent_full(paper, size):
    pages = pages_of(build(counter_mm=SIZES[size])[f"counters-{paper}.pdf"])
    counts = [len(counter_rects(page, SIZES[size])) for page in pages[2::2]]
    cells = max(counts)
    assert all(n >= 0.9 * cells for n in counts), counts


# ---- every PDF of the kit ----------------------------------------------------------------------

def bw_build():
    """The printed kit --bw (every PDF a build writes; the digital tables hold images, not PDFs to
    read), shared with test_aid's and test_counters_pdf's tests of --bw."""
    return shipped_build(bw=True, parts=PRINTED_KIT)


def full_build(bw, kit_files):
    """Every file of the default kit (the session's build), or the printed kit's --bw."""
    return bw_build() if bw else kit_files


def content_streams(pdf_bytes):
    for page in PdfReader(io.BytesIO(pdf_bytes)).pages:
        contents = page.get_contents()
        if contents is not None:
            yield contents.get_data()
        for ref in (page.get("/Resources") or {}).get("/XObject", {}).values():
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Form":
                yield xobject.get_data()


RGB = re.compile(rb"(?<![\d.])(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(rg|RG)\b")


@pytest.mark.parametrize("bw", [False, True], ids=["colour", "bw"])
def test_no_rgb_black_or_grey_in_any_pdf(bw, kit_files):
    """A print shop's CMYK conversion spreads RGB black over four plates: every black and grey
    must be DeviceGray or CMYK K only.  (RGB white lays no ink and is left alone.)"""
    outputs = full_build(bw, kit_files)
    pdfs = [name for name in outputs if name.endswith(".pdf")]
    assert {"player-aid-a4.pdf", "prerolled-letter.pdf", "counters-a4.pdf", "kit-letter.pdf"} <= set(pdfs)
    for name in pdfs:
        greys = [m.group(0) for stream in content_streams(outputs[name]) for m in RGB.finditer(stream)
                 if len({float(v) for v in m.groups()[:3]}) == 1 and float(m.group(1)) < 1]
        assert not greys, (name, greys[:5])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_within_5_mm_of_a_page_edge(paper, kit_files):
    outputs = full_build(False, kit_files)
    edge = EDGE_MM * MM
    for part in ("player-aid", "prerolled", "counters"):
        for n, page in enumerate(pages_of(outputs[f"{part}-{paper}.pdf"]), 1):
            for kind, objects in (("char", page.chars), ("rect", page.rects), ("line", page.lines),
                                  ("curve", page.curves)):
                for obj in objects:
                    assert (obj["x0"] >= edge - 0.01 and obj["x1"] <= page.width - edge + 0.01
                            and obj["top"] >= edge - 0.01 and obj["bottom"] <= page.height - edge + 0.01), \
                        (part, paper, n, kind, obj.get("text"), obj["x0"], obj["top"])
    # the kit is these parts' pages, merged (with blank pages between parts)
    kit = PdfReader(io.BytesIO(outputs[f"kit-{paper}.pdf"]))
    parts = sum(len(PdfReader(io.BytesIO(outputs[f"{part}-{paper}.pdf"])).pages)
                for part in ("player-aid", "prerolled", "counters"))
    assert parts <= len(kit.pages) <= parts + 3
