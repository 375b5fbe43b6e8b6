"""Images of the kit's PDFs: counter faces at cut size and page thumbnails (pypdfium2, Pillow)."""

import io
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pypdfium2 as pdfium
from PIL import Image

from generator.content.faces import face_names
from generator.layout import sheets as geo
from generator.options import BuildOptions
from generator.units import MM_PER_INCH

DPI = 300
THUMB_PX = 240              # a thumbnail's width
FACE_PAPER = "a4"           # counters keep their size on either paper: faces come from one


def face_px(options: BuildOptions, dpi: int) -> int:
    """A counter's width in pixels at `dpi`, half a pixel rounded up (3/4 in: 225 px at 300 dpi,
    113 at 150)."""
    return math.floor(options.counter_mm / MM_PER_INCH * dpi + Fraction(1, 2))


def face_images(options: BuildOptions, plan: geo.SheetPlan, counters_pdf: bytes,
                dpi: int = DPI) -> dict[str, bytes]:
    """{'faces/NAT-KIND[-YEARS]-front.png': png, ...}: every distinct counter face at cut size
    and `dpi`, in the design's own colours (RGB, as a screen shows them).

    Each face is cropped at its cut rectangle from `counters_pdf`, the counters as drawn on the
    paper FACE_PAPER (before any print shop's conversion), placed by the `plan` it was drawn by
    (grid, pagination, page order, mirrored backs). At a screen's dpi pdfium draws each face at
    that size, as sharp as a print-size image shrunk, in about half the time.
    """
    grid, groups, sheets = plan
    px = face_px(options, dpi)
    scale = px / grid.size
    names = face_names(groups)
    doc = pdfium.PdfDocument(counters_pdf)
    images = {}
    try:
        for n, slots in enumerate(sheets, start=1):
            for side in ("front", "back"):
                page = None
                for slot in slots:
                    counter = groups[slot.group][1][slot.item]
                    name = f"faces/{names[counter]}-{side}.png"
                    if name in images:
                        continue
                    page = page or doc[geo.page_of_sheet(options, n, side)]
                    x, y = geo.face_origin(grid, slot, side)
                    # a pixel more below and right than the face: pdfium rounds the edges, and the
                    # face is then cut exactly from its top left corner, not resampled
                    extra = 1 / scale
                    bitmap = page.render(scale=scale, crop=(x, max(0.0, y - extra),
                                                            max(0.0, grid.page_w - x - grid.size - extra),
                                                            grid.page_h - y - grid.size))
                    image = bitmap.to_pil()
                    if image.width >= px and image.height >= px:
                        image = image.crop((0, 0, px, px))
                    else:       # at the page's very edge: no pixel more to take
                        image = image.resize((px, px))
                    images[name] = _png(image, dpi=dpi)
    finally:
        doc.close()
    return images


def board_images(counters_pdf: bytes, bleed: float) -> dict[str, bytes]:
    """{'slugs/slug1-front.png': png, ...}: each side of each punchboard as a shop's upload page
    takes it, the trim and `bleed` points round it at DPI (The Game Crafter's small punchout:
    3.5 x 5.5 in, 1050 x 1650 px), from `counters_pdf`, the design's RGB pages of the boards'
    trim; a board's front, then its back, page by page."""
    doc = pdfium.PdfDocument(counters_pdf)
    images = {}
    try:
        for i in range(len(doc)):
            page = doc[i]
            width, height = page.get_width() + 2 * bleed, page.get_height() + 2 * bleed
            # the page widened by the bleed, where the design's colour runs on past the trim
            page.set_mediabox(-bleed, -bleed, width - bleed, height - bleed)
            page.set_cropbox(-bleed, -bleed, width - bleed, height - bleed)
            size = (round(width / 72 * DPI), round(height / 72 * DPI))
            image = page.render(scale=DPI / 72).to_pil()
            if image.size != size:      # the upload's size is exact
                # pdfium rounds a fraction of a pixel up: the sheet is cut from its top left corner,
                # as a face is, not resampled (which would soften every line, and takes longer)
                fits = image.width >= size[0] and image.height >= size[1]
                image = image.crop((0, 0, *size)) if fits else image.resize(size)
            side = "front" if i % 2 == 0 else "back"
            images[f"slugs/slug{i // 2 + 1}-{side}.png"] = _png(image, dpi=DPI)
    finally:
        doc.close()
    return images


def thumbnails(pdfs: Mapping[str, bytes]) -> dict[str, bytes]:
    """{'thumbs/NAME.png': png} of each PDF's first page, THUMB_PX wide."""
    thumbs = {}
    for name, content in sorted(pdfs.items()):
        doc = pdfium.PdfDocument(content)
        try:
            page = doc[0]
            image = page.render(scale=THUMB_PX / page.get_width()).to_pil()
        finally:
            doc.close()
        thumbs[f"thumbs/{name[:-len('.pdf')]}.png"] = _png(image)
    return thumbs


def page_images(pdf: bytes, dpi: int, names: Sequence[str]) -> dict[str, bytes]:
    """{names[i]: png} of each page of `pdf` in turn at `dpi`, in RGB (a card, a page of the aid)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        assert len(doc) == len(names), f"{len(doc)} pages for {len(names)} names"
        return {name: _png(doc[i].render(scale=dpi / 72).to_pil().convert("RGB"), dpi=dpi)
                for i, name in enumerate(names)}
    finally:
        doc.close()


PALETTE = 128           # the colours a deck's cards share: their few inks and the shades of their edges
SAMPLE = 8              # the first cards a deck's palette is taken from, with its back


def card_images(pdf: bytes, dpi: int, names: Sequence[str]) -> dict[str, bytes]:
    """page_images for a deck's cards, each in one palette of PALETTE colours taken from its first
    SAMPLE cards and its back (the last page): a few flat inks and their edges, kept as they are,
    in a quarter of the bytes, and a card made in a fraction of the time RGB takes."""
    doc = pdfium.PdfDocument(pdf)
    try:
        assert len(doc) == len(names), f"{len(doc)} pages for {len(names)} names"

        def drawn(i: int) -> Image.Image:
            return doc[i].render(scale=dpi / 72).to_pil().convert("RGB")
        sample = [drawn(i) for i in sorted({*range(min(SAMPLE, len(doc) - 1)), len(doc) - 1})]
        mosaic = Image.new("RGB", (sum(image.width for image in sample), max(image.height for image in sample)))
        x = 0
        for image in sample:
            mosaic.paste(image, (x, 0))
            x += image.width
        palette = mosaic.quantize(colors=PALETTE, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return {name: _png(drawn(i).quantize(palette=palette, dither=Image.Dither.NONE), dpi=dpi)
                for i, name in enumerate(names)}
    finally:
        doc.close()


def _png(image: Image.Image, dpi: int | None = None) -> bytes:
    out = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    # zlib level 3, not optimize=True (level 9): a fraction of the time over a release's faces
    # and thumbnails, for files a few percent larger
    image.save(out, format="PNG", compress_level=3, **extra)
    return out.getvalue()
