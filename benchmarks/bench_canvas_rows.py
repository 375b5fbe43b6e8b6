"""The pre-rolled table's floor: a bare reportlab canvas drawing the same cells one string at a time.

    python benchmarks/bench_canvas_rows.py [--rows 100000] [--out FILE]

Nothing of the kit: start the interpreter, import reportlab, register the kit's type (IBM Plex
Sans Condensed and its bold for the cells, IBM Plex Sans and its bold for the heads, read from
the kit's font folder) as embedded TrueType, then draw --rows rows on A4, 44 on the first page
and 63 on every later one as the kit's table does, each row its number and ten cells (five
fates, five weapons, the kit's words and sizes, bold for Killed and the armed cells), every
cell one drawString or drawCentredString, a running head and a footer on every page; write the
PDF.  No rules, fills or tick boxes: the floor draws less than the kit's table does.
benchmarks/bench_speed.py runs it beside `bailout build --only prerolled --paper a4 --rows N`.
"""

import argparse
import os
import random
import tempfile

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generator", "render", "pdf", "fonts")
FACES = {"Cond": "IBMPlexSansCondensed-Regular.ttf", "CondBold": "IBMPlexSansCondensed-Bold.ttf",
         "Sans": "IBMPlexSans-Regular.ttf", "SansBold": "IBMPlexSans-Bold.ttf"}
FATES = ("Unhurt", "Wounded", "Killed")
WEAPONS = ("pistol", "rifle", "SMG", "\u2013")
FIRST, LATER, PITCH, BODY = 44, 63, 11.5, 7.5
LEFT, ROW_RIGHT, FATE_X, FATE_W, WEAPON_X, WEAPON_W = 30.0, 49.0, 92.0, 57.06, 370.5, 43.28


def register():
    for name, file in FACES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(FONTS, file)))


def draw(path, rows):
    register()
    rng = random.Random(871)
    c = Canvas(str(path), pagesize=A4, invariant=1, initialFontName="Sans", pageCompression=1)
    width, height = A4
    done, page = 0, 1
    while done < rows:
        n = min(rows - done, FIRST if page == 1 else LATER)
        c.setFont("SansBold", 11)
        c.drawString(LEFT, height - 41, "871 Pre-rolled bail-out tables")
        top = height - (300 if page == 1 else 71)
        for slot in range(n):
            y = top - (slot + 1) * PITCH + 3.2
            c.setFont("Cond", BODY)
            c.drawRightString(ROW_RIGHT, y, str(done + slot + 1))
            fates = [rng.choice(FATES) for _ in range(5)]
            for man, fate in enumerate(fates):
                c.setFont("CondBold" if fate == "Killed" else "Cond", BODY)
                c.drawCentredString(FATE_X + man * FATE_W, y, fate)
            for man, fate in enumerate(fates):
                weapon = WEAPONS[3] if fate == "Killed" else rng.choice(WEAPONS[:3])
                c.setFont("CondBold" if weapon in ("rifle", "SMG") else "Cond", BODY)
                c.drawCentredString(WEAPON_X + man * WEAPON_W, y, weapon)
        c.setFont("Sans", 7)
        c.drawCentredString(width / 2, 18, f"871 Bail-Out kit \u00b7 A4 \u00b7 page {page}")
        c.showPage()
        done += n
        page += 1
    c.save()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--out", help="write the PDF here (default: a temporary folder, removed after)")
    args = p.parse_args()
    if args.out:
        draw(args.out, args.rows)
        return
    with tempfile.TemporaryDirectory(prefix="bench-canvas-rows-") as folder:
        draw(os.path.join(folder, "rows.pdf"), args.rows)


if __name__ == "__main__":
    main()
