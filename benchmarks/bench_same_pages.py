"""The full kit's floor: a bare reportlab script writing the same pages as `bailout build` does.

    python benchmarks/bench_same_pages.py [--out FOLDER]

Nothing of the kit: start the interpreter, import reportlab, register the kit's seven faces of
IBM Plex (read from the kit's font folder) as embedded TrueType, then write, for A4 and for
Letter, the four PDFs a default build writes, page for page: the aid (2 pages of two columns
of body text, bold heads and a flowchart of boxes and curves), the pre-rolled table (200 rows
over 4 pages: a row number and ten cells each, bands, tints and rules), the counters (6 pages:
a calibration page, an instructions page, four sheets of 88 faces drawn from 22 forms of a
filled square, four words and a pictogram of curves) and the kit (those 12 pages drawn again
into one PDF).  48 pages in 8 files, each drawn with plain canvas calls, in one process.  The
counts follow what the kit's own pages hold.
benchmarks/bench_speed.py runs it beside `bailout build`.
"""

import argparse
import os
import random
import tempfile

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generator", "render", "pdf", "fonts")
FACES = {"Sans": "IBMPlexSans-Regular.ttf", "SansBold": "IBMPlexSans-Bold.ttf", "SansItalic": "IBMPlexSans-Italic.ttf",
         "SansBoldItalic": "IBMPlexSans-BoldItalic.ttf", "Cond": "IBMPlexSansCondensed-Regular.ttf",
         "CondMedium": "IBMPlexSansCondensed-Medium.ttf", "CondBold": "IBMPlexSansCondensed-Bold.ttf"}
TEXT = ("the crew may bail out only after a kill by the exact number needed on the kill card; a Hero card "
        "played before its man's cell replaces it, and the weapon column is read for a man who gets out")
WORDS = TEXT.split()
ROWS = (44, 63, 63, 30)


def register():
    for name, file in FACES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(FONTS, file)))


def line(rng, n=9):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def aid_page(c, size, rng, chart):
    width, height = size
    col = (width - 72) / 2
    for i in range(2):
        x, y = 28 + i * (col + 16), height - 40
        for n in range(111):
            if n % 12 == 0:
                c.setFont("SansBold", 9)
                c.drawString(x, y, line(rng, 4).capitalize())
            else:
                c.setFont("SansItalic" if n % 7 == 0 else "Sans", 8.5)
                c.drawString(x, y, line(rng))
            y -= 6.8
    c.setFillGray(0.9)
    for n in range(19 if chart else 7):
        c.rect(40 + n * 25, height / 2, 20, 12, stroke=1, fill=1)
    if chart:
        path = c.beginPath()
        for n in range(112):
            path.moveTo(50 + n * 4, 300)
            path.curveTo(52 + n * 4, 310, 55 + n * 4, 310, 57 + n * 4, 300)
        c.drawPath(path, stroke=1, fill=0)
    c.setFillGray(0)
    c.setFont("Sans", 7)
    c.drawCentredString(width / 2, 18, "871 Bail-Out kit \u00b7 page footer")


def table_page(c, size, rng, rows, first):
    width, height = size
    top = height - (300 if first else 71)
    c.setFont("SansBold", 11)
    c.drawString(30, height - 41, "871 Pre-rolled bail-out tables")
    if first:
        c.setFont("Sans", 7.5)
        for n in range(26):
            c.drawString(30, height - 60 - n * 9, line(rng, 14))
    c.setFont("CondBold", 7.5)
    for n in range(13):
        c.drawCentredString(40 + n * 40, top + 3, f"Man {n % 5 + 1}")
    c.setFillColorRGB(0.93, 0.95, 0.96)
    for slot in range(0, rows, 2):
        c.rect(30, top - (slot + 1) * 11.5, 535, 11.5, stroke=0, fill=1)
    c.setFillColorRGB(0.97, 0.85, 0.83)
    for slot in range(rows):
        for _ in range(4):
            c.rect(64 + rng.randrange(10) * 50, top - (slot + 1) * 11.5 + 1, 50, 9.5, stroke=0, fill=1)
    c.setLineWidth(0.3)
    for n in range(13):
        c.line(50 + n * 42, top, 50 + n * 42, top - rows * 11.5)
    c.setFillGray(0)
    for slot in range(rows):
        y = top - (slot + 1) * 11.5 + 3.2
        c.setFont("Cond", 7.5)
        c.drawRightString(49, y, str(slot + 1))
        for n in range(10):
            c.setFont("CondBold" if n % 3 == 0 else "Cond", 7.5)
            c.drawCentredString(92 + n * 47, y, rng.choice(("Unhurt", "Wounded", "Killed", "pistol", "rifle")))
    c.setFont("Sans", 7)
    c.drawCentredString(width / 2, 18, "871 Bail-Out kit \u00b7 page footer")


def face(c, name, n):
    c.beginForm(name, 0, 0, 54, 54)
    c.setFillColorRGB(0.4 + n % 5 * 0.1, 0.5, 0.45)
    c.rect(0, 0, 54, 54, stroke=0, fill=1)
    c.setFillGray(1)
    c.setFont("CondBold", 7)
    c.drawCentredString(27, 45, f"Crew {n}")
    c.setFont("CondMedium", 6)
    c.drawCentredString(27, 8, "M 7 \u00b7 1942")
    c.drawCentredString(10, 28, "4")
    c.setFont("Cond", 5)
    c.drawCentredString(44, 28, "rifle")
    path = c.beginPath()
    path.moveTo(20, 20)
    for k in range(45):
        path.curveTo(20 + k % 9, 22 + k % 7, 24 + k % 5, 30 - k % 4, 27 + k % 8, 25 + k % 6)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    c.endForm()


def counter_pages(c, size, rng, prefix):
    width, height = size
    c.setFont("Sans", 8)
    for n in range(120):
        c.drawString(30 + n % 3 * 180, height - 40 - n // 3 * 18, line(rng, 5))
    path = c.beginPath()
    for n in range(372):
        path.moveTo(40 + n % 30 * 17, 100 + n // 30 * 12)
        path.curveTo(45 + n % 30 * 17, 104 + n // 30 * 12, 50 + n % 30 * 17, 96 + n // 30 * 12, 55 + n % 30 * 17,
                     100 + n // 30 * 12)
    c.drawPath(path, stroke=1, fill=0)
    c.showPage()
    c.setFont("Sans", 9)
    for n in range(17):
        c.drawString(40, height - 60 - n * 14, line(rng, 12))
    c.showPage()
    for sheet in range(4):
        names = [f"{prefix}{sheet}-{n}" for n in range(22)]
        for i, name in enumerate(names):
            face(c, name, i)
        for slot in range(88):
            c.saveState()
            c.translate(40 + slot % 10 * 54, 60 + slot // 10 * 54)
            c.doForm(names[slot % 22])
            c.restoreState()
        c.setFont("Sans", 7)
        c.drawCentredString(width / 2, 18, "871 Bail-Out kit \u00b7 counters, sheet footer")
        c.showPage()


def part(c, size, rng, kind, prefix):
    if kind == "aid":
        for page in range(2):
            aid_page(c, size, rng, page == 0)
            c.showPage()
    elif kind == "table":
        for page, rows in enumerate(ROWS):
            table_page(c, size, rng, rows, page == 0)
            c.showPage()
    else:
        counter_pages(c, size, rng, prefix)


def write(folder):
    register()
    for label, size in (("a4", A4), ("letter", LETTER)):
        for kind in ("aid", "table", "counters"):
            c = Canvas(os.path.join(folder, f"{kind}-{label}.pdf"), pagesize=size, invariant=1,
                       initialFontName="Sans", pageCompression=1)
            part(c, size, random.Random(871), kind, "f")
            c.save()
        kit = Canvas(os.path.join(folder, f"kit-{label}.pdf"), pagesize=size, invariant=1, initialFontName="Sans",
                     pageCompression=1)
        for kind in ("aid", "table", "counters"):
            part(kit, size, random.Random(871), kind, f"k{kind}")
        kit.save()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="write the PDFs into this folder (default: a temporary one, removed after)")
    args = p.parse_args()
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        write(args.out)
        return
    with tempfile.TemporaryDirectory(prefix="bench-same-pages-") as folder:
        write(folder)


if __name__ == "__main__":
    main()
