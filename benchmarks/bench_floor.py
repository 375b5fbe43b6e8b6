"""The floor every build is measured against: what any reportlab program pays for a counter sheet.

    python benchmarks/bench_floor.py [--out FILE]

A bare reportlab canvas, nothing of the kit: start the interpreter, import reportlab, register
Vera and Vera Bold as TrueType (so they are embedded, as the kit's are), draw four A4 pages of
140 counters each (a filled 3/4 in square, a bold title and two short lines of text), write the
PDF.  Without --out it writes into a temporary folder it then removes.  benchmarks/bench_ratios.py
runs this as a fresh process beside each piece of work and prints the work as a ratio to it.
"""

import argparse
import os
import tempfile

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

PAGES, COLUMNS, ROWS = 4, 10, 14          # 140 counters a page
SIDE = 0.75 * 72                          # 3/4 in, in points
COLOURS = [(0.55, 0.6, 0.5), (0.45, 0.5, 0.6), (0.6, 0.45, 0.4), (0.5, 0.5, 0.45)]


def register_vera():
    import reportlab
    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    pdfmetrics.registerFont(TTFont("Vera", os.path.join(folder, "Vera.ttf")))
    pdfmetrics.registerFont(TTFont("Vera-Bold", os.path.join(folder, "VeraBd.ttf")))


def draw(path):
    register_vera()
    c = Canvas(str(path), pagesize=A4, invariant=1, initialFontName="Vera")   # no standard-14 font
    width, height = A4
    left, top = (width - COLUMNS * SIDE) / 2, height - (height - ROWS * SIDE) / 2
    for page in range(PAGES):
        for row in range(ROWS):
            for col in range(COLUMNS):
                x, y = left + col * SIDE, top - (row + 1) * SIDE
                c.setFillColorRGB(*COLOURS[page])
                c.rect(x, y, SIDE, SIDE, stroke=1, fill=1)
                c.setFillGray(1)
                c.setFont("Vera-Bold", 7)
                c.drawCentredString(x + SIDE / 2, y + SIDE - 11, "Crew")
                c.setFont("Vera", 6)
                c.drawCentredString(x + SIDE / 2, y + SIDE / 2 - 2, f"M{(row + col) % 5 + 5}")
                c.drawCentredString(x + SIDE / 2, y + 5, f"No. {page * 140 + row * COLUMNS + col + 1}")
        c.showPage()
    c.save()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="write the PDF here (default: a temporary folder, removed after)")
    args = p.parse_args()
    if args.out:
        draw(args.out)
        return
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as folder:
        draw(os.path.join(folder, "floor.pdf"))


if __name__ == "__main__":
    main()
