"""The kit's join (generator/render/pdf/pdf_join.py): parts' objects copied, references renumbered
outside strings and streams, each part under its bookmark; and a build that needs no PDF library."""

import io
import subprocess
import sys

import pytest
from pypdf import PdfReader
from reportlab.pdfgen import canvas

from conftest import ROOT
from generator.render.pdf.pdf_join import join
from generator.render.pdf.pdf_stream import Document

# Text that reads like references, in a string of the page and of a bookmark: left as written.
LOOKS_LIKE = "Rows 3 0 R to 12 0 R (see 4 0 R)"


def part(text, bookmark):
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(200, 200), invariant=1)
    for page in range(2):
        c.bookmarkPage(f"p{page}")
        c.addOutlineEntry(f"{bookmark} {page + 1}", f"p{page}", level=0)
        c.drawString(20, 100, f"{text} {page + 1}")
        c.showPage()
    c.save()
    return buffer.getvalue()


def test_parts_joined_with_their_pages_bookmarks_and_strings_as_written():
    out = bytearray()
    pages = join([("One", part(LOOKS_LIKE, LOOKS_LIKE)), ("Two", part("two", "b"))], out.extend,
                 Document("title", "subject", "author", "creator", "keywords"))
    reader = PdfReader(io.BytesIO(bytes(out)), strict=True)
    assert pages == len(reader.pages) == 4
    assert [p.extract_text().strip() for p in reader.pages] == [f"{LOOKS_LIKE} 1", f"{LOOKS_LIKE} 2", "two 1", "two 2"]
    one, one_kids, two, two_kids = reader.outline
    assert (one.title, two.title) == ("One", "Two")
    assert [k.title for k in one_kids] == [f"{LOOKS_LIKE} 1", f"{LOOKS_LIKE} 2"]
    assert [reader.get_destination_page_number(k) for k in [*one_kids, *two_kids]] == [0, 1, 2, 3]
    assert reader.metadata.title == "title"


def test_a_duplex_join_starts_each_part_on_a_fresh_sheet():
    out = bytearray()
    odd = io.BytesIO()
    c = canvas.Canvas(odd, pagesize=(200, 200), invariant=1)
    c.drawString(20, 100, "alone")
    c.showPage()
    c.save()
    pad = io.BytesIO()
    c = canvas.Canvas(pad, pagesize=(200, 200), invariant=1)
    c.drawString(20, 100, "blank")
    c.showPage()
    c.save()
    join([("a", odd.getvalue()), ("b", part("b", "b"))], out.extend, Document("t", "s", "a", "c", "k", duplex=True),
         padding=pad.getvalue())
    texts = [p.extract_text().strip() for p in PdfReader(io.BytesIO(bytes(out))).pages]
    assert texts == ["alone", "blank", "b 1", "b 2"]


@pytest.mark.larger_budget
def test_a_default_build_loads_no_pdf_library(tmp_path):
    code = ("import sys, runpy; sys.argv = ['bailout', 'build', '--quiet', '--out', sys.argv[1]]\n"
            "try:\n    runpy.run_module('generator', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pypdf'))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "[]", done.stdout
