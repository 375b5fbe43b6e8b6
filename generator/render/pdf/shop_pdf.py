"""A print shop's profile: every PDF of the kit made what the shop's preflight asks for.

A renderer's PDF is rewritten page by page (pypdf for the file, ink_stream.py for the colours
of its content streams), so every renderer, the player aid's platypus pages included, gets the
same treatment and the other profiles' output keeps its bytes.  The numbers are the
profile's Prepress (generator/profiles/):
- the page becomes the TrimBox; the BleedBox is the trim and the bleed on every side; the
  MediaBox is the bleed and a slug holding crop marks (none with --no-marks or a profile
  without marks: media = bleed).  No page of the kit lays colour within 5 mm of its edge (tests
  hold that), so no colour reaches a trim edge and none needs running on into the bleed;
- every colour operator becomes DeviceCMYK through the press's output profile (press_colour.py):
  DeviceGray and neutral RGB as pure K; annotations lose their RGB border colour;
- text set in a grey (K alone, under 100%) is set in 100% K, and a line stroked in a tint
  (any ink under 100%) is stroked at least ink_stream.SCREENED_LINE wide: a press screens a
  tint, and small type or a hairline breaks up in the screen;
- text and lines in 100% K overprint (ink_stream.OVERPRINT_STATES in every page's and form's
  resources): a plate a hair out of register leaves no white edge round black type or a rule;
- the document carries a PDF/X output intent for the profile's registered characterization
  (RegistryName http://www.color.org): for PDF/X-1a with no DestOutputProfile, which it allows
  for a registered condition; for PDF/X-4 with the profile's ICC output profile embedded and
  the XMP metadata that version asks for.  The info says GTS_PDFXVersion and Trapped, the
  header what the version asks.
The counter cut lines, in the CutContour separation and overprinted, are drawn by
counters_pdf.py; the crop marks here are pure K.
"""

import hashlib
import io
from typing import Any, cast

from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    RectangleObject,
    TextStringObject,
)

from generator.profiles.print_profile import PdfX, Prepress
from generator.render.pdf.canvas import Pdf
from generator.render.pdf.ink_stream import OVERPRINT_STATES, in_inks, numbers
from generator.render.pdf.pdfx import crop_marks, icc_profile, intent_entries, margin, xmp
from generator.render.pdf.plain_pypdf import PdfReader, PdfWriter
from generator.render.pdf.press_colour import Cmyk
from generator.render.pdf.subset_tags import SUBSET_NAME, program_tag
from generator.units import mm

CUT_CONTOUR = "CutContour"  # the cutting plotters' separation name


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
    _tag_subsets(writer)
    _output_intent(writer, prepress.pdfx)
    if "/ID" not in reader.trailer:     # PDF/X asks for a file ID: the kit's merge writes none
        _file_id(writer, content)
    if prepress.pdfx.x4:
        _xmp(writer, prepress.pdfx, content)
    out = io.BytesIO()
    writer.write(out)
    return Pdf(out.getvalue(), len(writer.pages))


def _tag_subsets(writer: PdfWriter) -> None:
    """Each font subset named by its program (subset_tags.py): the files a shop gangs on one
    sheet never hold two different subsets under one name."""
    done: set[int] = set()
    for page in writer.pages:
        resources = page.get("/Resources") or {}
        holders = [resources, *((x.get_object().get("/Resources") or {})
                                for x in ((resources.get("/XObject") or {}).values()))]
        for ref in (f for holder in holders for f in (holder.get("/Font") or {}).values()):
            font = ref.get_object()
            if id(font) in done or "/FontDescriptor" not in font:
                continue
            done.add(id(font))
            descriptor = font["/FontDescriptor"].get_object()
            found = SUBSET_NAME.fullmatch(b"/BaseFont " + str(font["/BaseFont"]).encode())
            if found is None or "/FontFile2" not in descriptor:
                continue
            tag = program_tag(found.group(3), descriptor["/FontFile2"].get_object().get_data())
            name = NameObject(f"/{tag}+{found.group(3).decode()}")
            font[NameObject("/BaseFont")] = name
            descriptor[NameObject("/FontName")] = name


def _convert_forms(page: Any, converted: set[int]) -> None:
    """The page's form XObjects (each counter face is one) in CMYK, each once."""
    xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
    for ref in xobjects.values():
        form = ref.get_object()
        if form.get("/Subtype") != "/Form" or id(form) in converted:
            continue
        converted.add(id(form))
        data = in_inks(form.get_data(), overprint=True)
        _overprint_states(form)
        form[NameObject("/Filter")] = NameObject("/FlateDecode")    # set_data re-encodes Flate alone
        form.pop("/DecodeParms", None)
        form.set_data(data)


def _place(page: Any, prepress: Prepress, marks: bool) -> None:
    """The page's drawing moved inside the slug and bleed, in CMYK, with its boxes and marks."""
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    m, b = margin(prepress, marks), mm(prepress.bleed_mm)
    stream = DecodedStreamObject()
    _overprint_states(page)
    stream.set_data(b"q 1 0 0 1 %s cm\n%s\nQ\n%s" % (numbers((m, m)), in_inks(_contents(page), overprint=True),
                                                     crop_marks(w, h, m, prepress.bleed_mm) if marks else b""))
    page.replace_contents(stream.flate_encode())
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


def _overprint_states(holder: Any) -> None:
    """The ExtGStates that ink_stream's black overprint names, in a page's or form's resources."""
    if "/Resources" not in holder:
        holder[NameObject("/Resources")] = DictionaryObject()
    resources = holder["/Resources"].get_object()
    if "/ExtGState" not in resources:
        resources[NameObject("/ExtGState")] = DictionaryObject()
    states = resources["/ExtGState"].get_object()
    for (stroke, fill), name in OVERPRINT_STATES.items():
        states[NameObject("/" + name.decode())] = DictionaryObject({
            NameObject("/Type"): NameObject("/ExtGState"), NameObject("/OP"): BooleanObject(stroke),
            NameObject("/op"): BooleanObject(fill), NameObject("/OPM"): NumberObject(1)})


def _contents(page: Any) -> bytes:
    """The page's content stream, decoded (its streams joined, where it has several)."""
    contents = page.get("/Contents")
    if contents is None:
        return b""
    contents = contents.get_object()
    streams = contents if isinstance(contents, ArrayObject) else [contents]
    return b"\n".join(stream.get_object().get_data() for stream in streams)


def _output_intent(writer: PdfWriter, pdfx: PdfX) -> None:
    """The PDF/X output intent (a registered condition, and the ICC profile where the version
    asks for one), its info keys and header."""
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"), NameObject("/S"): NameObject("/GTS_PDFX"),
        **{NameObject(f"/{key}"): TextStringObject(value) for key, value in intent_entries(pdfx).items()}})
    profile = icc_profile(pdfx)
    if profile is not None:
        intent[NameObject("/DestOutputProfile")] = writer._add_object(_icc_stream(profile))
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    writer.add_metadata({"/GTS_PDFXVersion": pdfx.version})
    # /Trapped must be a name, which add_metadata cannot write (it makes every value a string),
    # and `writer.metadata` is a copy: the info dictionary itself is pypdf's `_info`.
    info = writer._info
    assert info is not None         # add_metadata made it
    cast(DictionaryObject, info.get_object())[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = pdfx.header


def _icc_stream(profile: bytes) -> DecodedStreamObject:
    """An ICC output profile as a four-channel profile stream, deflated."""
    stream = DecodedStreamObject()
    stream.set_data(profile)
    stream[NameObject("/N")] = NumberObject(4)
    return cast(DecodedStreamObject, stream.flate_encode(level=9))


def _xmp(writer: PdfWriter, pdfx: PdfX, content: bytes) -> None:
    """The document's XMP metadata (pdfx.xmp), from the info dictionary as the writer has it; the
    document ID from the input's bytes."""
    info = cast(DictionaryObject, writer._info.get_object()) if writer._info is not None else DictionaryObject()
    stream = DecodedStreamObject()
    stream.set_data(xmp(pdfx, {key[1:]: str(value) for key, value in info.items()}, content))
    stream[NameObject("/Type")] = NameObject("/Metadata")      # uncompressed, so any tool can read it
    stream[NameObject("/Subtype")] = NameObject("/XML")
    writer.root_object[NameObject("/Metadata")] = writer._add_object(stream)


def _file_id(writer: PdfWriter, content: bytes) -> None:
    """A file ID made from the input's bytes, so the same input gives the same file.  pypdf's
    public way draws it at random; its `_ID` is what the writer writes in the trailer."""
    digest = ByteStringObject(hashlib.md5(content, usedforsecurity=False).digest())
    writer._ID = ArrayObject([digest, digest])


def cut_contour_inks() -> Cmyk:
    """How a viewer shows the CutContour separation: 100% magenta, plain beside the K marks."""
    return 0.0, 1.0, 0.0, 0.0
