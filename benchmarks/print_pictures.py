"""The pictures of docs/printing.md's print profiles: a fold sheet, and a shop page with its boxes drawn.

    python benchmarks/print_pictures.py [--out pictures] [--dpi 150] [--paper a4]

Builds the counters with `--print fold` and `--print shop` from the kit's own data (in memory,
nothing else written), renders with pypdfium2 (installed with the kit) and writes, into --out:
  fold-sheet.png, fold-sheet-grey.png     page 2 of the fold counters: fronts, fold line, backs
  shop-page.png, shop-page-grey.png       page 1 of the shop counters (sheet 1's fronts), whole media box, with the
                                          TrimBox drawn in cyan and the BleedBox in magenta
  fold-instructions.png                   page 1 of the fold counters: how to fold and glue
The PNGs are generated, not kept in git (pictures/ is ignored); rerun this to see them.
"""

import argparse
import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageOps
from pypdf import PdfReader

from generator.data import load
from generator.data.sources import data_folder
from generator.make.pipeline import render_all
from generator.options import BuildOptions, default_counter_mm

TRIM, BLEED = (0, 160, 255), (255, 0, 200)


def page_image(pdf: bytes, index: int, dpi: int) -> Image.Image:
    """Page `index` of `pdf`, its whole media box, as an RGB image at `dpi`."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def draw_boxes(image: Image.Image, pdf: bytes, index: int, dpi: int) -> Image.Image:
    """The page's TrimBox and BleedBox drawn on its render (PDF y runs up, the image's down)."""
    page = PdfReader(io.BytesIO(pdf)).pages[index]
    height, k = float(page.mediabox.height), dpi / 72
    draw = ImageDraw.Draw(image)
    for key, colour in (("/TrimBox", TRIM), ("/BleedBox", BLEED)):
        x0, y0, x1, y1 = (float(v) for v in page[key])
        draw.rectangle([x0 * k, (height - y1) * k, x1 * k, (height - y0) * k], outline=colour, width=2)
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("pictures"))
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
    args = parser.parse_args()
    kit = load(data_folder(None))
    name = f"counters-{args.paper}.pdf"
    fold = render_all(kit, BuildOptions(parts=("counters",), papers=(args.paper,), print_profile="fold"))[name]
    shop = render_all(kit, BuildOptions(parts=("counters",), papers=(args.paper,), print_profile="shop",
                                        counter_mm=default_counter_mm(("shop",))))[name]
    args.out.mkdir(parents=True, exist_ok=True)
    pictures = {"fold-sheet": page_image(fold, 1, args.dpi), "fold-instructions": page_image(fold, 0, args.dpi),
                "shop-page": draw_boxes(page_image(shop, 0, args.dpi), shop, 0, args.dpi)}
    for stem in ("fold-sheet", "shop-page"):
        pictures[f"{stem}-grey"] = ImageOps.grayscale(pictures[stem])
    for stem, image in pictures.items():
        path = args.out / f"{stem}.png"
        image.save(path)
        print(path)


if __name__ == "__main__":
    main()
