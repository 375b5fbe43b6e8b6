"""A print shop's profile: every PDF of the kit made what the shop's preflight asks for.

A renderer's PDF is rewritten page by page (pypdf), so every renderer, the player aid's
platypus pages included, gets the same treatment and the other profiles' output keeps its
bytes.  The numbers are the profile's Prepress (generator/profiles/):
- the page becomes the TrimBox; the BleedBox is the trim and the bleed on every side; the
  MediaBox is the bleed and a slug holding crop marks (none with --no-marks or a profile
  without marks: media = bleed).  No page of the kit lays colour within 5 mm of its edge (tests
  hold that), so no colour reaches a trim edge and none needs running on into the bleed;
- every colour operator becomes DeviceCMYK by theme.cmyk's stated rule: DeviceGray and neutral
  RGB as pure K; annotations lose their RGB border colour;
- the document carries a PDF/X output intent for the profile's registered characterization
  (RegistryName http://www.color.org) and no DestOutputProfile, which PDF/X-1a allows for a
  registered condition; the info says GTS_PDFXVersion and Trapped, the header what the
  version asks.
The counter cut lines, in the CutContour separation and overprinted, are drawn by
counters_pdf.py; the crop marks here are pure K.
"""

import hashlib
import io
from collections.abc import Iterable
from typing import Any, cast

from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    ContentStream,
    DictionaryObject,
    FloatObject,
    NameObject,
    RectangleObject,
    TextStringObject,
)

from generator.colour import grey_contrast
from generator.data.model import KitData
from generator.profiles.print_profile import PdfX, Prepress
from generator.render.pdf.canvas import Pdf
from generator.render.pdf.plain_pypdf import PdfReader, PdfWriter
from generator.render.theme import Cmyk, cmyk, cmyk_hex, cmyk_of_rgb
from generator.units import mm

MARK_GAP_MM = 1         # crop marks start this far outside the bleed
MARK_WIDTH = 0.25       # points
REGISTRY = "http://www.color.org"   # where the output conditions are registered
SHOP_MIN_CONTRAST = 4.5     # the greyscale contrast `bailout check` asks of a nationality's colours
CUT_CONTOUR = "CutContour"  # the cutting plotters' separation name

Operation = tuple[list[Any], bytes]


def margin(prepress: Prepress, marks: bool) -> float:
    """Points from the MediaBox's edge to the TrimBox's; `marks`: the build's (--no-marks: none)."""
    return mm(prepress.bleed_mm + (prepress.slug_mm if marks and prepress.marks else 0))


def to_shop(content: bytes, prepress: Prepress, marks: bool) -> Pdf:
    """The PDF `content` rewritten for a print shop (see the module's docstring); `marks`: the
    build's (--no-marks: none)."""
    reader = PdfReader(io.BytesIO(content))
    writer = PdfWriter(clone_from=reader)
    converted: set[int] = set()     # form XObjects already converted (pages share them)
    for page in writer.pages:
        if "/TrimBox" in page:      # a part already made for the shop, merged into the kit
            continue
        _convert_forms(page, converted)
        _place(page, prepress, marks and prepress.marks)
    _output_intent(writer, prepress.pdfx)
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


def _place(page: Any, prepress: Prepress, marks: bool) -> None:
    """The page's drawing moved inside the slug and bleed, in CMYK, with its boxes and marks."""
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    m, b = margin(prepress, marks), mm(prepress.bleed_mm)
    contents = page.get_contents()
    operations = cmyk_operations(contents.operations) if contents is not None else []
    stream = ContentStream(None, None)
    stream.operations = ([([], b"q"), (_numbers((1, 0, 0, 1, m, m)), b"cm")] + operations + [([], b"Q")]
                         + (crop_marks(w, h, m, prepress.bleed_mm) if marks else []))
    page.replace_contents(stream)
    page.compress_content_streams()
    page.mediabox = RectangleObject([0, 0, w + 2 * m, h + 2 * m])
    page.cropbox = RectangleObject([0, 0, w + 2 * m, h + 2 * m])
    page.bleedbox = RectangleObject([m - b, m - b, m + w + b, m + h + b])
    page.trimbox = RectangleObject([m, m, m + w, m + h])
    for ref in page.get("/Annots") or []:       # links move with the page; no RGB border colour
        annot = ref.get_object()
        x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
        annot[NameObject("/Rect")] = RectangleObject([x0 + m, y0 + m, x1 + m, y1 + m])
        if "/C" in annot:
            del annot["/C"]


def crop_marks(w: float, h: float, m: float, bleed_mm: float) -> list[Operation]:
    """Crop marks in pure K at the trim's corners, in the slug only (from MARK_GAP_MM past the
    bleed); `m`: points from the media's edge to the trim's."""
    start, end = mm(bleed_mm + MARK_GAP_MM), m - mm(MARK_GAP_MM)
    ops: list[Operation] = [([], b"q"), (_numbers((0, 0, 0, 1)), b"K"), (_numbers((MARK_WIDTH,)), b"w")]
    for x, sx in ((m, -1), (m + w, 1)):
        for y, sy in ((m, -1), (m + h, 1)):
            ops += [(_numbers((x + sx * start, y)), b"m"), (_numbers((x + sx * end, y)), b"l"), ([], b"S"),
                    (_numbers((x, y + sy * start)), b"m"), (_numbers((x, y + sy * end)), b"l"), ([], b"S")]
    return [*ops, ([], b"Q")]


def _output_intent(writer: PdfWriter, pdfx: PdfX) -> None:
    """The PDF/X output intent (a registered condition, no profile), its info keys and header."""
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"), NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(pdfx.condition),
        NameObject("/OutputCondition"): TextStringObject(pdfx.condition_info),
        NameObject("/Info"): TextStringObject(pdfx.condition_info),
        NameObject("/RegistryName"): TextStringObject(REGISTRY)})
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    writer.add_metadata({"/GTS_PDFXVersion": pdfx.version})
    # /Trapped must be a name, which add_metadata cannot write (it makes every value a string),
    # and `writer.metadata` is a copy: the info dictionary itself is pypdf's `_info`.
    info = writer._info
    assert info is not None         # add_metadata made it
    cast(DictionaryObject, info.get_object())[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = pdfx.header


def _file_id(writer: PdfWriter, content: bytes) -> None:
    """A file ID made from the input's bytes, so the same input gives the same file.  pypdf's
    public way draws it at random; its `_ID` is what the writer writes in the trailer."""
    digest = ByteStringObject(hashlib.md5(content, usedforsecurity=False).digest())
    writer._ID = ArrayObject([digest, digest])


def cut_contour_inks() -> Cmyk:
    """How a viewer shows the CutContour separation: 100% magenta, plain beside the K marks."""
    return 0.0, 1.0, 0.0, 0.0


def cmyk_problems(kit: KitData, profile: str) -> list[str]:
    """`bailout check`-style lines: a nationality whose text stops reaching SHOP_MIN_CONTRAST
    in greyscale once its colours are inks (theme.cmyk), named by file and key; `profile`: the
    --print that asks for inks."""
    problems = []
    for nat in kit.nationalities:
        ratio = grey_contrast(cmyk_hex(cmyk(nat.colour)), cmyk_hex(cmyk(nat.text_colour)))
        if ratio < SHOP_MIN_CONTRAST:
            inks = "/".join(f"{round(v * 100)}" for v in cmyk(nat.colour))
            problems.append(f"{kit.directory}/nationalities/{nat.key}.toml: text_colour: contrast with colour is "
                            f"{ratio:.2f}:1 in greyscale once printed in CMYK (colour as C/M/Y/K {inks}%); --print "
                            f"{profile} needs at least {SHOP_MIN_CONTRAST}:1")
    return problems
