"""--print shop (issue 25): every PDF of the kit made what a print shop's preflight asks for.

A renderer's PDF is rewritten page by page (pypdf), so every renderer, the player aid's
platypus pages included, gets the same treatment and the duplex output keeps its bytes:
- the page becomes the TrimBox; the BleedBox is the trim and BLEED_MM on every side; the
  MediaBox is the bleed and a SLUG_MM slug holding crop marks (none with --no-marks: media =
  bleed).  No page of the kit lays colour within 5 mm of its edge (tests hold that), so no
  colour reaches a trim edge and none needs running on into the bleed;
- every colour operator becomes DeviceCMYK by theme.cmyk's stated rule: DeviceGray and neutral
  RGB as pure K; annotations lose their RGB border colour;
- the document carries a PDF/X output intent for the registered characterization FOGRA39
  (RegistryName http://www.color.org) and no DestOutputProfile: the ICC profile's licence does
  not let the kit ship it, and PDF/X-1a lets a registered condition stand without one; the
  info says GTS_PDFXVersion and Trapped, the header PDF 1.4 as PDF/X-1a:2003 asks.
The counter cut lines, in the CutContour separation and overprinted, are drawn by
counters_pdf.py; the crop marks here are pure K.
"""

import hashlib
import io
from collections.abc import Iterable
from typing import Any, cast

from generator.colour import grey_contrast
from generator.data.model import KitData
from generator.render.pdf.canvas import Pdf
from generator.render.pdf.plain_pypdf import PdfReader, PdfWriter
from pypdf.generic import (ArrayObject, ByteStringObject, ContentStream, DictionaryObject, FloatObject, NameObject, RectangleObject,
                           TextStringObject)
from generator.render.theme import Cmyk, cmyk, cmyk_hex, cmyk_of_rgb
from generator.units import mm

BLEED_MM = 3            # the shops' usual bleed
SLUG_MM = 8             # past the bleed: room for crop marks
MARK_GAP_MM = 1         # crop marks start this far outside the bleed
MARK_WIDTH = 0.25       # points
OUTPUT_CONDITION = "FOGRA39"
OUTPUT_CONDITION_INFO = "Coated FOGRA39 (ISO 12647-2:2004)"
REGISTRY = "http://www.color.org"
PDFX_VERSION = "PDF/X-1a:2003"
PDF_HEADER = "%PDF-1.4"
SHOP_MIN_CONTRAST = 4.5     # the greyscale contrast `bailout check` asks of a nationality's colours
CUT_CONTOUR = "CutContour"  # the cutting plotters' separation name

Operation = tuple[list[Any], bytes]


def margin(marks: bool) -> float:
    """Points from the MediaBox's edge to the TrimBox's."""
    return mm(BLEED_MM + (SLUG_MM if marks else 0))


def to_shop(content: bytes, marks: bool) -> Pdf:
    """The PDF `content` rewritten for a print shop (see the module's docstring)."""
    reader = PdfReader(io.BytesIO(content))
    writer = PdfWriter(clone_from=reader)
    converted: set[int] = set()     # form XObjects already converted (pages share them)
    for page in writer.pages:
        if "/TrimBox" in page:      # a part already made for the shop, merged into the kit
            continue
        _convert_forms(page, converted)
        _place(page, marks)
    _output_intent(writer)
    if "/ID" not in reader.trailer:     # PDF/X asks for a file ID: the kit's merge writes none
        _file_id(writer, content)
    out = io.BytesIO()
    writer.write(out)
    return Pdf(out.getvalue(), len(writer.pages))


def cmyk_operations(operations: Iterable[Operation]) -> list[Operation]:
    """Every RGB and grey colour operator as its CMYK one (rg -> k, g -> k, and the strokes)."""
    result: list[Operation] = []
    for operands, operator in operations:
        if operator in (b"rg", b"RG") and len(operands) == 3:
            inks = cmyk_of_rgb(*(float(v) for v in operands))
            result.append((_numbers(inks), b"k" if operator == b"rg" else b"K"))
        elif operator in (b"g", b"G") and len(operands) == 1:
            inks = cmyk_of_rgb(*(float(operands[0]),) * 3)
            result.append((_numbers(inks), b"k" if operator == b"g" else b"K"))
        else:
            result.append((operands, operator))
    return result


def _numbers(values: Iterable[float]) -> list[Any]:
    return [FloatObject(round(v, 4)) for v in values]


def _convert_forms(page: Any, converted: set[int]) -> None:
    """The page's form XObjects (each counter face is one) in CMYK, each once."""
    xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
    for ref in xobjects.values():
        form = ref.get_object()
        if form.get("/Subtype") != "/Form" or id(form) in converted:
            continue
        converted.add(id(form))
        stream = ContentStream(form, None)
        stream.operations = cmyk_operations(stream.operations)
        data = stream.get_data()
        form[NameObject("/Filter")] = NameObject("/FlateDecode")    # set_data re-encodes Flate alone
        form.pop("/DecodeParms", None)
        form.set_data(data)


def _place(page: Any, marks: bool) -> None:
    """The page's drawing moved inside the slug and bleed, in CMYK, with its boxes and marks."""
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    m, b = margin(marks), mm(BLEED_MM)
    contents = page.get_contents()
    operations = cmyk_operations(contents.operations) if contents is not None else []
    stream = ContentStream(None, None)
    stream.operations = ([([], b"q"), (_numbers((1, 0, 0, 1, m, m)), b"cm")] + operations + [([], b"Q")]
                         + (crop_marks(w, h, m) if marks else []))
    page.replace_contents(stream)
    page.compress_content_streams()
    page.mediabox = RectangleObject([0, 0, w + 2 * m, h + 2 * m])
    page.cropbox = RectangleObject([0, 0, w + 2 * m, h + 2 * m])
    page.bleedbox = RectangleObject([m - b, m - b, m + w + b, m + h + b])
    page.trimbox = RectangleObject([m, m, m + w, m + h])
    for annot in page.get("/Annots") or []:       # links move with the page; no RGB border colour
        annot = annot.get_object()
        x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
        annot[NameObject("/Rect")] = RectangleObject([x0 + m, y0 + m, x1 + m, y1 + m])
        if "/C" in annot:
            del annot["/C"]


def crop_marks(w: float, h: float, m: float) -> list[Operation]:
    """Crop marks in pure K at the trim's corners, in the slug only (from MARK_GAP_MM past the bleed)."""
    start, end = mm(BLEED_MM + MARK_GAP_MM), m - mm(MARK_GAP_MM)
    ops: list[Operation] = [([], b"q"), (_numbers((0, 0, 0, 1)), b"K"), (_numbers((MARK_WIDTH,)), b"w")]
    for x, sx in ((m, -1), (m + w, 1)):
        for y, sy in ((m, -1), (m + h, 1)):
            ops += [(_numbers((x + sx * start, y)), b"m"), (_numbers((x + sx * end, y)), b"l"), ([], b"S"),
                    (_numbers((x, y + sy * start)), b"m"), (_numbers((x, y + sy * end)), b"l"), ([], b"S")]
    return ops + [([], b"Q")]


def _output_intent(writer: PdfWriter) -> None:
    """The PDF/X output intent (a registered condition, no profile), its info keys and header."""
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"), NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(OUTPUT_CONDITION),
        NameObject("/OutputCondition"): TextStringObject(OUTPUT_CONDITION_INFO),
        NameObject("/Info"): TextStringObject(OUTPUT_CONDITION_INFO),
        NameObject("/RegistryName"): TextStringObject(REGISTRY)})
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    writer.add_metadata({"/GTS_PDFXVersion": PDFX_VERSION})
    # /Trapped must be a name, which add_metadata cannot write (it makes every value a string),
    # and `writer.metadata` is a copy: the info dictionary itself is pypdf's `_info`.
    info = writer._info
    assert info is not None         # add_metadata made it
    cast(DictionaryObject, info.get_object())[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = PDF_HEADER


def _file_id(writer: PdfWriter, content: bytes) -> None:
    """A file ID made from the input's bytes, so the same input gives the same file.  pypdf's
    public way draws it at random; its `_ID` is what the writer writes in the trailer."""
    digest = ByteStringObject(hashlib.md5(content, usedforsecurity=False).digest())
    writer._ID = ArrayObject([digest, digest])


def cut_contour_inks() -> Cmyk:
    """How a viewer shows the CutContour separation: 100% magenta, plain beside the K marks."""
    return 0.0, 1.0, 0.0, 0.0


def cmyk_problems(kit: KitData) -> list[str]:
    """`bailout check`-style lines: a nationality whose text stops reaching SHOP_MIN_CONTRAST
    in greyscale once its colours are inks (theme.cmyk), named by file and key."""
    problems = []
    for nat in kit.nationalities:
        ratio = grey_contrast(cmyk_hex(cmyk(nat.colour)), cmyk_hex(cmyk(nat.text_colour)))
        if ratio < SHOP_MIN_CONTRAST:
            inks = "/".join(f"{round(v * 100)}" for v in cmyk(nat.colour))
            problems.append(f"{kit.directory}/nationalities/{nat.key}.toml: text_colour: contrast with colour is "
                            f"{ratio:.2f}:1 in greyscale once printed in CMYK (colour as C/M/Y/K {inks}%); --print "
                            f"shop needs at least {SHOP_MIN_CONTRAST}:1")
    return problems
