"""A PDF written page by page as it is drawn: each page deflated and handed to the sink as it
ends, so a document of any length holds one page at a time.

Why not a reportlab canvas: a canvas keeps every page of a document until save(), and then
formats every object at once; a pre-rolled table of a million rows would hold some 16,000
pages (benchmarks/README.md has the figures).  This writer is for pages whose operators the
caller makes itself (generator/render/pdf/prerolled_pdf.py): text in the kit's registered
TrueType faces, each embedded as subsets by reportlab's own subsetter (TTFontFile.makeSubset)
and tagged by what they hold (subset_tags.subset_tag), fills and strokes as plain operators.
It writes only what those pages use: pages, a font resource per subset, an outline, the
document info and viewer hints.  Same calls, same bytes.
"""

import hashlib
import os
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFontFace, makeToUnicodeCMap

from generator.render.pdf.ink_stream import in_inks, overprint_states
from generator.render.pdf.pdf_syntax import number
from generator.render.pdf.pdfx import Press, icc_profile, intent_entries, xmp
from generator.render.pdf.subset_tags import subset_tag

FIXED_EPOCH = 946684800         # 2000-01-01, the date reportlab's invariant mode prints
LEVEL = 6                       # zlib's default: the size reportlab's own streams have
ESCAPES = str.maketrans({"\\": "\\\\", "(": "\\(", ")": "\\)", "\r": "\\r", "\n": "\\n"})
Sink = Callable[[bytes], object]


def pdf_date(epoch: int | None = None) -> str:
    """D:YYYYMMDDHHmmSS+00'00' of SOURCE_DATE_EPOCH, or of the fixed date: no clock is read."""
    if epoch is None:
        given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
        epoch = int(given) if given else FIXED_EPOCH
    return time.strftime("D:%Y%m%d%H%M%S+00'00'", time.gmtime(epoch))


def text_string(text: str) -> str:
    """A PDF text string: ASCII as it is, anything else as UTF-16BE with its byte-order mark."""
    if text.isascii():
        return f"({text.translate(ESCAPES)})"
    return f"<FEFF{text.encode('utf-16-be').hex().upper()}>"


@lru_cache(maxsize=64)
def _font_program(face: TTFontFace, subset: tuple[int, ...]) -> tuple[int, bytes]:
    """(its size, deflated) of the TrueType program of `face`'s `subset`: made once a process, as
    the same subset of a face is the same bytes in every document (a table's two papers)."""
    program = face.makeSubset(list(subset))
    return len(program), zlib.compress(program, LEVEL)


class _Face:
    """One registered TrueType face as the document uses it: each character's code in a subset
    of at most 256, given as first met (printable ASCII keeps its own code, so the content
    stays readable), and each subset's resource name."""

    def __init__(self, name: str, resources: Callable[[], str]) -> None:
        self.face = pdfmetrics.getFont(name).face
        self.glyphs = self.face.charToGlyph
        self.resources = resources
        self.subsets: list[list[int]] = []     # per subset: code -> character (0: none)
        self.names: list[str] = []
        self.codes: dict[int, tuple[int, int]] = {}
        self.free: list[int] = []
        self.first: set[str] = set()                # the characters the first subset holds
        self.first_codes: dict[int, int] = {}       # ... and their codes, for str.translate

    def _new_subset(self) -> None:
        self.subsets.append([0] * 256)
        self.names.append(self.resources())
        first = len(self.subsets) == 1      # the first keeps ASCII's codes for ASCII
        self.free = [c for c in range(255, 0, -1) if c != 32 and not (first and 32 < c < 127)]
        self.subsets[-1][32] = 32          # code 32 is always the space

    def code(self, char: int) -> tuple[int, int]:
        if char == 0xA0:
            char = 32
        found = self.codes.get(char)
        if found is not None:
            return found
        if not self.subsets:
            self._new_subset()
        if char not in self.glyphs:
            found = (0, 0)
        elif char == 32:
            found = (len(self.subsets) - 1, 32)
        elif 32 < char < 127:
            self.subsets[0][char] = char
            found = (0, char)
        else:
            if not self.free:
                self._new_subset()
            code = self.free.pop()
            self.subsets[-1][code] = char
            found = (len(self.subsets) - 1, code)
        self.codes[char] = found
        if found[0] == 0 and char in self.glyphs:
            self.first.add(chr(char))
            self.first_codes[char] = found[1]
        return found

    def runs(self, text: str) -> list[tuple[str, str]]:
        """[(resource name, the run's codes as a latin-1 string)] of `text`, one run a subset."""
        if self.first.issuperset(text):       # all of it met before, in the first subset
            return [(self.names[0], text.translate(self.first_codes))]
        runs: list[tuple[int, list[str]]] = []
        for char in map(ord, text):
            subset, code = self.code(char)
            if not runs or runs[-1][0] != subset:
                runs.append((subset, []))
            runs[-1][1].append(chr(code))
        return [(self.names[subset], "".join(codes)) for subset, codes in runs]


@dataclass
class _Outline:
    title: str
    page: int       # the object number of the page it opens


@dataclass
class Document:
    """What the document says of itself: the info dictionary's entries and the viewer hints."""
    title: str
    subject: str
    author: str
    creator: str
    keywords: str
    duplex: bool = False
    outline: bool = True        # opened with its bookmarks shown
    extra: dict[str, str] = field(default_factory=dict)


class PdfStream:
    """A PDF of `width` x `height` pages written into `sink` as each page ends; with `press`, a
    print shop's file (pdfx.Press): each page's drawing moved inside the shop's bleed and slug,
    its colours as the shop's inks (ink_stream.py), its boxes and crop marks, and the document's
    PDF/X output intent, as shop_pdf.py makes a renderer's PDF, one page at a time.

    Object numbers 1 to 3 are the catalog, the page tree and the shared resources; the rest
    follow in the order written.  Fonts, the tree, the outline and the info are written by
    close(), when every page has said what it uses."""

    CATALOG, PAGES, RESOURCES = 1, 2, 3

    def __init__(self, sink: Sink, width: float, height: float, document: Document,
                 press: Press | None = None) -> None:
        self.sink, self.document, self.press = sink, document, press
        self.box = f"[0 0 {number(width)} {number(height)}]"
        self.page_boxes = f"/MediaBox {self.box}" if press is None else " ".join(
            f"/{name} [{' '.join(map(number, box))}]" for name, box in press.boxes(width, height).items())
        self.offsets: dict[int, int] = {}
        self.position = 0
        self.digest = hashlib.md5(usedforsecurity=False)
        self.next_object = 4
        self.pages: list[int] = []
        self.faces: dict[str, _Face] = {}
        self.resource_count = 0
        self.outlines: list[_Outline] = []
        self.forms: list[tuple[str, int]] = []     # (resource name, object number)
        header = press.pdfx.header if press is not None else "%PDF-1.4"
        self._write(header.encode("latin-1") + b"\n%\xe2\xe3\xcf\xd3\n")

    # -- what a page's operators are made of -----------------------------------------------

    def show(self, font: str, size: float, text: str) -> str:
        """The operators that set `text` in `font` at `size` where the text cursor is: each of
        its subsets' runs selected and shown in turn."""
        return " ".join(f"/{name} {number(size)} Tf ({codes.translate(ESCAPES)}) Tj"
                        for name, codes in self.face(font).runs(text))

    def face(self, font: str) -> _Face:
        face = self.faces.get(font)
        if face is None:
            face = self.faces[font] = _Face(font, self._resource_name)
        return face

    def _resource_name(self) -> str:
        self.resource_count += 1
        return f"F{self.resource_count}"

    # -- writing -----------------------------------------------------------------------------

    def form(self, content: str, name: str | None = None) -> str:
        """Write `content` once as a form XObject the size of the page; the operator that draws it.
        `name`: its resource name (a page's footer is named for its page: pdf_join.FOOTER_FORM)."""
        n = self._object()
        data = content.encode("latin-1")
        if self.press is not None:
            data = in_inks(data, overprint=True)
        self._stream(n, data,
                     f"/Type /XObject /Subtype /Form /BBox {self.box} /Resources {self.RESOURCES} 0 R")
        self.forms.append((name or f"X{len(self.forms) + 1}", n))
        return f"/{self.forms[-1][0]} Do"

    def page(self, content: str, bookmark: str | None = None) -> None:
        """Write one page whose operators are `content`; `bookmark`: an outline entry opening it."""
        stream = self._object()
        data = content.encode("latin-1")
        if self.press is not None:      # inside the shop's margin, in its inks, with its marks
            m = number(self.press.margin).encode()
            data = b"q 1 0 0 1 %s %s cm\n%s\nQ\n%s" % (m, m, in_inks(data, overprint=True), self.press.marks)
        self._stream(stream, data)
        page = self._object()
        self._dictionary(page, f"/Type /Page /Parent {self.PAGES} 0 R {self.page_boxes} "
                               f"/Resources {self.RESOURCES} 0 R /Contents {stream} 0 R")
        self.pages.append(page)
        if bookmark is not None:
            self.outlines.append(_Outline(bookmark, page))

    def close(self) -> int:
        """Write the fonts, the page tree, the outline, the info and the trailer; the page count."""
        fonts = self._fonts()
        forms = " ".join(f"/{name} {n} 0 R" for name, n in self.forms)
        self._dictionary(self.RESOURCES, f"/Font << {fonts} >> /ProcSet [/PDF /Text]"
                                         + (f" /XObject << {forms} >>" if forms else "")
                                         + (f" /ExtGState << {overprint_states()} >>" if self.press else ""))
        self._dictionary(self.PAGES, f"/Type /Pages /Count {len(self.pages)} "
                                     f"/Kids [{' '.join(f'{p} 0 R' for p in self.pages)}]")
        outline = self._outline()
        d = self.document
        prefs = self._object()
        self._dictionary(prefs, "/PrintScaling /None" + (" /Duplex /DuplexFlipLongEdge" if d.duplex else ""))
        mode = " /PageMode /UseOutlines" if d.outline else ""
        date = pdf_date()
        entries = {"Title": d.title, "Subject": d.subject, "Author": d.author, "Creator": d.creator,
                   "Producer": d.creator, "Keywords": d.keywords, **d.extra}
        pdfx = self._pdfx({**entries, "CreationDate": date}) if self.press is not None else ""
        self._dictionary(self.CATALOG, f"/Type /Catalog /Pages {self.PAGES} 0 R /ViewerPreferences {prefs} 0 R"
                                       + (f" /Outlines {outline} 0 R" if outline else "") + mode + pdfx)
        if self.press is not None:
            entries["GTS_PDFXVersion"] = self.press.pdfx.version
        info = self._object()
        self._dictionary(info, " ".join(f"/{k} {text_string(v)}" for k, v in entries.items())
                         + f" /CreationDate {text_string(date)} /ModDate {text_string(date)} /Trapped /False")
        self._trailer(info)
        return len(self.pages)

    def _pdfx(self, info: dict[str, str]) -> str:
        """The catalog's PDF/X entries (written before it): the output intent, with its ICC
        profile for PDF/X-4 and the XMP metadata that version asks for."""
        assert self.press is not None
        pdfx = self.press.pdfx
        entries = " ".join(f"/{key} {text_string(value)}" for key, value in intent_entries(pdfx).items())
        profile = icc_profile(pdfx)
        if profile is not None:
            icc = self._object()
            self._packed(icc, zlib.compress(profile, 9), "/N 4")
            entries += f" /DestOutputProfile {icc} 0 R"
        intent = self._object()
        self._dictionary(intent, f"/Type /OutputIntent /S /GTS_PDFX {entries}")
        found = f" /OutputIntents [{intent} 0 R]"
        if pdfx.x4:
            metadata = self._object()
            packet = xmp(pdfx, info, self.digest.digest())
            self._begin(metadata)       # uncompressed, so any tool can read it
            self._write(f"<< /Type /Metadata /Subtype /XML /Length {len(packet)} >>\nstream\n".encode("latin-1"))
            self._write(packet + b"\nendstream\nendobj\n")
            found += f" /Metadata {metadata} 0 R"
        return found

    def _fonts(self) -> str:
        """Every subset of every face as a TrueType font; the resource dictionary's entries."""
        entries = []
        for face in self.faces.values():
            for name, subset in zip(face.names, face.subsets, strict=True):
                entries.append(f"/{name} {self._font(face, self._trimmed(subset))} 0 R")
        return " ".join(entries)

    @staticmethod
    def _trimmed(subset: list[int]) -> list[int]:
        last = max(i for i, char in enumerate(subset) if char)
        return subset[:last + 1]

    def _font(self, face: _Face, subset: list[int]) -> int:
        f = face.face
        base = f"{subset_tag(f.name, subset)}+{f.name.decode('latin-1')}{f.subfontNameX.decode('latin-1')}"
        size, packed = _font_program(f, tuple(subset))
        file = self._object()
        self._packed(file, packed, f"/Length1 {size}")
        descriptor = self._object()
        flags = (f.flags & ~32) | 4       # symbolic, as reportlab marks its subsets
        self._dictionary(descriptor, f"/Type /FontDescriptor /FontName /{base} /Flags {flags} "
                                     f"/FontBBox [{' '.join(map(number, f.bbox))}] "
                                     f"/ItalicAngle {number(f.italicAngle)} /Ascent {number(f.ascent)} "
                                     f"/Descent {number(f.descent)} "
                                     f"/CapHeight {number(f.capHeight)} /StemV {number(f.stemV)} "
                                     f"/MissingWidth {number(f.defaultWidth)} /FontFile2 {file} 0 R")
        cmap = self._object()
        self._stream(cmap, makeToUnicodeCMap(base, subset).encode("latin-1"))
        font = self._object()
        widths = " ".join(number(f.getCharWidth(char)) for char in subset)
        self._dictionary(font, f"/Type /Font /Subtype /TrueType /BaseFont /{base} /FirstChar 0 "
                               f"/LastChar {len(subset) - 1} /Widths [{widths}] /FontDescriptor {descriptor} 0 R "
                               f"/ToUnicode {cmap} 0 R")
        return font

    def _outline(self) -> int | None:
        if not self.outlines:
            return None
        root = self._object()
        items = [self._object() for _ in self.outlines]
        for i, (item, entry) in enumerate(zip(items, self.outlines, strict=True)):
            links = (f" /Prev {items[i - 1]} 0 R" if i else "") + (f" /Next {items[i + 1]} 0 R" if i + 1 < len(items)
                                                                  else "")
            self._dictionary(item, f"/Title {text_string(entry.title)} /Parent {root} 0 R{links} "
                                   f"/Dest [{entry.page} 0 R /Fit]")
        self._dictionary(root, f"/Type /Outlines /Count {len(items)} /First {items[0]} 0 R /Last {items[-1]} 0 R")
        return root

    def _trailer(self, info: int) -> None:
        xref = self.position
        size = self.next_object
        lines = ["xref", f"0 {size}", "0000000000 65535 f "]
        lines += [f"{self.offsets[n]:010d} 00000 n " for n in range(1, size)]
        ident = self.digest.hexdigest().upper()
        lines += ["trailer", f"<< /Size {size} /Root {self.CATALOG} 0 R /Info {info} 0 R "
                             f"/ID [<{ident}> <{ident}>] >>", "startxref", str(xref), "%%EOF", ""]
        self._write("\n".join(lines).encode("latin-1"))

    def _object(self) -> int:
        self.next_object += 1
        return self.next_object - 1

    def _dictionary(self, n: int, body: str) -> None:
        self._begin(n)
        self._write(f"<< {body} >>\nendobj\n".encode("latin-1"))

    def _stream(self, n: int, data: bytes, entries: str = "") -> None:
        self._packed(n, zlib.compress(data, LEVEL), entries)

    def _packed(self, n: int, packed: bytes, entries: str = "") -> None:
        """A stream whose data is `packed` (deflated already)."""
        self._begin(n)
        self._write(f"<< /Filter /FlateDecode /Length {len(packed)}{' ' + entries if entries else ''} >>\n"
                    f"stream\n".encode("latin-1"))
        self._write(packed)
        self._write(b"\nendstream\nendobj\n")

    def _begin(self, n: int) -> None:
        self.offsets[n] = self.position
        self._write(f"{n} 0 obj\n".encode("latin-1"))

    def _write(self, data: bytes) -> None:
        self.sink(data)
        self.digest.update(data)
        self.position += len(data)
