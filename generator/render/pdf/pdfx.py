"""What a PDF/X file says of itself, as text any of the kit's PDF writers puts in: the output
intent's entries, the ICC output profile it embeds (PDF/X-4), the XMP metadata PDF/X-4 asks for,
and a print shop's page geometry for a writer that draws its pages itself (Press).

shop_pdf.py rewrites a renderer's PDF with pypdf; pdf_stream.py (a long pre-rolled table, page by
page) and pdf_join.py (the kit, its parts joined) write their own objects: all three take these
entries from here, so the three kinds of file say the same.
"""

import hashlib
from pathlib import Path
from xml.sax.saxutils import escape

from msgspec import Struct

from generator.profiles.print_profile import Mm, PdfX, Prepress
from generator.render.pdf.pdf_syntax import number
from generator.units import mm

REGISTRY = "http://www.color.org"   # where the output conditions are registered
MARK_GAP_MM = 1         # crop marks start this far outside the bleed
MARK_WIDTH = 0.25       # points
ICC_FOLDER = Path(__file__).parent / "icc"      # the output profiles a PDF/X-4 embeds (README.md there)


class Press(Struct, frozen=True):
    """A print shop's page, for a writer that draws its own pages: the drawing moved `margin`
    points in (the bleed and any slug), the boxes round the trim, `marks` the crop marks'
    operators (b"" for none), and the PDF/X flavour the document declares."""
    pdfx: PdfX
    margin: float       # points from the MediaBox's edge to the TrimBox's
    bleed: float        # points from the TrimBox to the BleedBox
    marks: bytes

    def boxes(self, width: float, height: float) -> dict[str, tuple[float, float, float, float]]:
        """The page boxes of a `width` x `height` page (its trim) on the shop's media."""
        m, b = self.margin, self.bleed
        media = (0.0, 0.0, width + 2 * m, height + 2 * m)
        return {"MediaBox": media, "CropBox": media, "BleedBox": (m - b, m - b, m + width + b, m + height + b),
                "TrimBox": (m, m, m + width, m + height)}


def margin(prepress: Prepress, marks: bool) -> float:
    """Points from the MediaBox's edge to the TrimBox's; `marks`: the build's (--no-marks: none)."""
    return mm(prepress.bleed_mm + (prepress.slug_mm if marks and prepress.marks else 0))


def crop_marks(w: float, h: float, m: float, bleed_mm: Mm) -> bytes:
    """Crop marks in pure K at the trim's corners, in the slug only (from MARK_GAP_MM past the
    bleed); `m`: points from the media's edge to the trim's."""
    def numbers(*values: float) -> bytes:
        return " ".join(number(v) for v in values).encode()
    start, end = mm(bleed_mm + MARK_GAP_MM), m - mm(MARK_GAP_MM)
    lines = [b"q", b"0 0 0 1 K", numbers(MARK_WIDTH) + b" w"]
    for x, sx in ((m, -1), (m + w, 1)):
        for y, sy in ((m, -1), (m + h, 1)):
            lines += [numbers(x + sx * start, y) + b" m " + numbers(x + sx * end, y) + b" l S",
                      numbers(x, y + sy * start) + b" m " + numbers(x, y + sy * end) + b" l S"]
    return b"\n".join([*lines, b"Q"]) + b"\n"


def press(prepress: Prepress, marks: bool, width: float, height: float) -> Press:
    """The shop's page round a `width` x `height` trim, for a writer that draws its own pages
    (pdf_stream.py); `marks`: the build's."""
    m, shown = margin(prepress, marks), marks and prepress.marks
    return Press(prepress.pdfx, m, mm(prepress.bleed_mm),
                 crop_marks(width, height, m, prepress.bleed_mm) if shown else b"")


def intent_entries(pdfx: PdfX) -> dict[str, str]:
    """The output intent's text entries, by key (its /Type, /S and profile aside)."""
    return {"OutputConditionIdentifier": pdfx.condition, "OutputCondition": pdfx.condition_info,
            "Info": pdfx.condition_info, "RegistryName": REGISTRY}


def icc_profile(pdfx: PdfX) -> bytes | None:
    """The ICC output profile the intent embeds (PDF/X-4), as shipped; None for none."""
    return (ICC_FOLDER / pdfx.icc).read_bytes() if pdfx.icc is not None else None


def pdf_date_to_xmp(date: str) -> str:
    """A PDF date (D:YYYYMMDDHHmmSS and a zone: +HH'mm', Z) as XMP writes it (ISO 8601)."""
    import re
    match = re.fullmatch(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(?:([+-])(\d\d)'?(\d\d)'?|Z.*)?", date)
    if match is None:
        raise ValueError(f"not a PDF date: {date!r}")
    y, mo, d, h, mi, sec, sign, zh, zm = match.groups()
    zone = f"{sign}{zh}:{zm}" if sign else "Z"
    return f"{y}-{mo}-{d}T{h}:{mi}:{sec}{zone}"


XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
<xmp:CreateDate>{created}</xmp:CreateDate>
<xmp:ModifyDate>{modified}</xmp:ModifyDate>
<xmp:MetadataDate>{modified}</xmp:MetadataDate>
<xmp:CreatorTool>{creator}</xmp:CreatorTool>
<pdf:Producer>{producer}</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped>
<xmpMM:DocumentID>uuid:{uuid}</xmpMM:DocumentID>
<xmpMM:InstanceID>uuid:{uuid}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


def xmp(pdfx: PdfX, info: dict[str, str], identity: bytes) -> bytes:
    """The document's XMP metadata, as PDF/X-4 asks: the version, and `info`'s Title, dates
    (PDF dates), Creator and Producer as the info dictionary has them; its document ID made from
    `identity` (bytes that stand for the document: the same input, the same ID)."""
    uuid = hashlib.md5(identity, usedforsecurity=False).hexdigest()
    created = info["CreationDate"]
    packet = XMP.format(version=pdfx.version, uuid=f"{uuid[:8]}-{uuid[8:12]}-{uuid[12:16]}-{uuid[16:20]}-{uuid[20:32]}",
                        created=pdf_date_to_xmp(created), modified=pdf_date_to_xmp(info.get("ModDate", created)),
                        **{key.lower(): escape(info.get(key, "")) for key in ("Title", "Creator", "Producer")})
    return packet.encode("utf-8")
