"""Pictures of each named shop preset's counter sheets at 150 dpi, for looking at (not shipped):
the page's trim (cyan) and bleed (magenta) boxes, and on every counter its cut (red), its bleed
(blue) and its safe zone (green), all from the layout's own geometry; then the cut file's paths
(red) over the same sheet.

    python benchmarks/shop_pictures.py --out pictures     # pictures/PRESET-sheet.png, PRESET-cut.png
"""

import argparse
from pathlib import Path

import pypdfium2 as pdfium
from PIL import ImageDraw

from generator.content.faces import all_counters
from generator.content.words import load_words
from generator.data import load
from generator.layout import sheets
from generator.layout.paper import PAPERS
from generator.make.pipeline import render_all
from generator.options import BuildOptions, default_counter_mm
from generator.render.pdf.pdfx import margin

DPI = 150
PRESETS = ("shop", "drivethru", "meinspiel", "tgc-punchout")


def picture(pdf: bytes, page: int, options: BuildOptions, cut: bytes | None = None):
    """The page at DPI with the boxes and each counter's cut, bleed and safe zone drawn on it."""
    prepress = options.profile.prepress
    assert prepress is not None
    paper = PAPERS["a4"]
    grid, _, placed = sheets.sheet_plan(paper, options, lambda spare: all_counters(
        load(Path("data")), options.sets, load_words("en"), spare))
    m = margin(prepress, options.marks)
    image = pdfium.PdfDocument(pdf)[page].render(scale=DPI / 72).to_pil().convert("RGB")
    if cut is not None:         # the cut file's page over the sheet: its dark strokes stay visible
        over = pdfium.PdfDocument(cut)[0].render(scale=DPI / 72).to_pil().convert("L")
        image.paste((255, 0, 0), mask=over.point(lambda v: 255 if v < 200 else 0))
    draw = ImageDraw.Draw(image)
    height = image.height

    def box(x0: float, y0: float, x1: float, y1: float, colour: str) -> None:
        k = DPI / 72
        draw.rectangle(((x0 + m) * k, height - (y1 + m) * k, (x1 + m) * k, height - (y0 + m) * k), outline=colour)
    b = sheets.mm(prepress.bleed_mm)
    box(0, 0, grid.page_w, grid.page_h, "cyan")
    box(-b, -b, grid.page_w + b, grid.page_h + b, "magenta")
    if cut is None:
        for slot in placed[0]:
            x, y = grid.front(slot.col, slot.row)
            s, bl, safe = grid.size, grid.bleed, grid.safe_inset()
            box(x, y, x + s, y + s, "red")
            box(x - bl, y - bl, x + s + bl, y + s + bl, "blue")
            box(x + safe, y + safe, x + s - safe, y + s - safe, "lime")
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("pictures"))
    args = parser.parse_args()
    args.out.mkdir(exist_ok=True)
    for preset in PRESETS:
        options = BuildOptions(parts=("counters",), papers=("a4",), print_profile=preset,
                               counter_mm=default_counter_mm((preset,)))
        files = render_all(load(Path("data")), options)
        first = sheets.page_of_sheet(options, 1, "front")
        picture(files["counters-a4.pdf"], first, options).save(args.out / f"{preset}-sheet.png")
        print(args.out / f"{preset}-sheet.png")
        if "cut-a4.pdf" in files:
            picture(files["counters-a4.pdf"], first, options, files["cut-a4.pdf"]).save(args.out / f"{preset}-cut.png")
            print(args.out / f"{preset}-cut.png")


if __name__ == "__main__":
    main()
