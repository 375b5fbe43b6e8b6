"""README's pictures, made from the kit's own data: run it again whenever the look changes.

    python docs/make_pictures.py [--out docs]

Builds the English kit in memory (A4, the default options; nothing else is written), then writes:
  counters.png    one of each counter face of four nationalities, a row each: crew front and
                  back, a rifle, an SMG, the bailed-out AFV marker front and back (the release's
                  own face images, placed by the same layout code as the PDF)
  player-aid.png  the player aid's first page
Both are palette PNGs kept small (README is read over the network), and committed under docs/.
"""

import argparse
import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from generator.content.context import make_context
from generator.content.words import load_words
from generator.data import load
from generator.data.sources import data_folder, shipped
from generator.engine.odds import compute
from generator.make.pipeline import render_all
from generator.make.products import FACE_IMAGES, Products
from generator.options import BuildOptions

NATIONS = ("american", "british", "german", "soviet")
FACES = ("crew-front", "crew-back", "rifle-*-front", "smg-*-front", "bailed-out-afv-front", "bailed-out-afv-back")
FACE_PX, GAP_PX = 132, 14           # a face in the picture, and the gap around it
AID_PX = 720                        # the player aid's page, wide
COLOURS = 96                        # a palette this size keeps the flat colours and the type's edges


def face_grid(faces: dict[str, bytes]) -> Image.Image:
    """The faces of NATIONS, a row each, in FACES order, on white."""
    side = FACE_PX + GAP_PX
    grid = Image.new("RGB", (GAP_PX + side * len(FACES), GAP_PX + side * len(NATIONS)), "white")
    for row, nation in enumerate(NATIONS):
        for col, pattern in enumerate(FACES):
            head, _, tail = pattern.partition("*")
            name = sorted(n for n in faces if n.startswith(f"faces/{nation}-{head}") and n.endswith(f"{tail}.png")
                          and (tail or n == f"faces/{nation}-{head}.png"))[0]
            face = Image.open(io.BytesIO(faces[name])).convert("RGB").resize((FACE_PX, FACE_PX), Image.LANCZOS)
            grid.paste(face, (GAP_PX + col * side, GAP_PX + row * side))
    return grid


def first_page(pdf: bytes, width: int) -> Image.Image:
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        return page.render(scale=width / page.get_width()).to_pil().convert("RGB")
    finally:
        doc.close()


def save(image: Image.Image, path: Path) -> None:
    image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, format="PNG", optimize=True)
    print(f"{path}: {image.width} x {image.height} px, {path.stat().st_size // 1024} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args()
    kit = load(data_folder(None))
    options = BuildOptions(parts=("aid", "counters"), papers=("a4",))
    files = render_all(kit, options)
    ctx = make_context(kit, compute(kit), options, shipped("templates"), words=load_words())
    faces = Products(ctx).get(FACE_IMAGES)      # the release's own face images
    args.out.mkdir(parents=True, exist_ok=True)
    save(face_grid(faces), args.out / "counters.png")
    save(first_page(files["player-aid-a4.pdf"], AID_PX), args.out / "player-aid.png")


if __name__ == "__main__":
    main()
