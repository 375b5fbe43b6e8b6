"""PDFs of the kit's own making joined into one, their objects copied as they were written.

Why not a PDF library: the parts are the kit's own (reportlab's canvases and platypus, and
pdf_stream.py), each written with a classic cross-reference table that gives every object's
place, so no object need be parsed: each is copied byte for byte under a new number, and only
the references in its dictionary (never in a stream, never in a string) are renumbered.  Each
part's catalog, page tree and document info give way to the joined document's own; its pages
join one page tree; its outline becomes the entry of a bookmark named for the part; each of its
font subsets is named by its program (subset_tags.py), so no two parts' subsets share a name.

A part's page draws its footer as a form of its own, named for the page (FOOTER_FORM):
given footers that count the joined document's pages, the join puts each in the place of the
part's own, so a page of the kit says "page 10 of 24", not its part's "page 4 of 6".
"""

import hashlib
import itertools
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from generator.profiles.print_profile import PdfX
from generator.render.pdf.pdf_stream import Document, Sink, pdf_date, text_string
from generator.render.pdf.pdfx import icc_profile, intent_entries, xmp
from generator.render.pdf.subset_tags import SUBSET_NAME, program_tag

# A string (literal, with its parentheses escaped as reportlab and pdf_stream write them; or
# hex), or a reference: only references are renumbered.
_TOKENS = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|(\d+) (\d+) R")
_OBJECT = re.compile(rb"\s*(\d+) (\d+) obj")
_REF = rb"(\d+) \d+ R"
# The footer of a numbered page is a form XObject of its own, FOOTER_FORM and the page's number:
# the kit, joining the parts' files, puts a form that counts the kit's pages in its place, so
# each part is drawn once and each file numbers its own pages.
FOOTER_FORM = "PageFooter"
# A page's footer form in a resource dictionary, as reportlab (FormXob.NAME) or pdf_stream names it
_FOOTER = re.compile(rb"/(?:FormXob\.)?" + FOOTER_FORM.encode() + rb"(\d+)\s+" + _REF)


class NotOurPdf(ValueError):
    """A part written in a form the join does not read (no classic cross-reference table)."""


@dataclass
class _Part:
    """One part as written: its objects' bytes (number -> everything between obj and endobj)."""
    objects: dict[int, bytes]
    root: int
    info: int | None

    def entry(self, number: int, key: bytes) -> int | None:
        found = re.search(rb"/" + key + rb" " + _REF, self.head(number))
        return int(found.group(1)) if found else None

    def head(self, number: int) -> bytes:
        """The object's dictionary: what comes before its stream, if any."""
        body = self.objects[number]
        cut = body.find(b"stream")
        return body if cut < 0 else body[:cut]

    def press_objects(self) -> set[int]:
        """A shop's part's own PDF/X objects (its output intents, their ICC profiles, its XMP
        metadata): the joined document declares its own."""
        intents = re.search(rb"/OutputIntents\s*\[([^\]]*)\]", self.head(self.root))
        found = {int(n) for n in re.findall(_REF, intents.group(1))} if intents is not None else set()
        found |= {n for intent in list(found) if (n := self.entry(intent, b"DestOutputProfile")) is not None}
        metadata = self.entry(self.root, b"Metadata")
        return found | ({metadata} if metadata is not None else set())

    def pages(self, node: int) -> list[int]:
        """The page objects under the page-tree node `node`, in order."""
        head = self.head(node)
        if b"/Type /Page" in head and b"/Type /Pages" not in head:
            return [node]
        kids = re.search(rb"/Kids\s*\[([^\]]*)\]", head)
        if kids is None:
            raise NotOurPdf("a page-tree node without /Kids")
        return [page for kid in re.findall(_REF, kids.group(1)) for page in self.pages(int(kid))]

    def tree(self, node: int) -> list[int]:
        """Every page-tree node (not the pages) from `node` down."""
        head = self.head(node)
        if b"/Type /Pages" not in head:
            return []
        kids = re.search(rb"/Kids\s*\[([^\]]*)\]", head)
        return [node, *(n for kid in re.findall(_REF, kids.group(1) if kids else b"") for n in self.tree(int(kid)))]


def read(content: bytes) -> _Part:
    """The objects of a PDF written with one classic cross-reference table and no updates."""
    at = content.rfind(b"startxref")
    if at < 0:
        raise NotOurPdf("no startxref")
    xref = int(content[at + 9:].split()[0])
    table = content[xref:content.find(b"trailer", xref)]
    if not table.startswith(b"xref"):
        raise NotOurPdf("no cross-reference table")
    offsets: dict[int, int] = {}
    fields = table.split()
    first, count = int(fields[1]), int(fields[2])
    for i in range(count):
        if fields[5 + 3 * i] == b"n":
            offsets[first + i] = int(fields[3 + 3 * i])
    following = dict(itertools.pairwise([*sorted(offsets.values()), xref]))
    objects = {}
    for number, offset in offsets.items():
        chunk = content[offset:following[offset]]
        head = _OBJECT.match(chunk)
        stop = chunk.rfind(b"endobj")
        if head is None or int(head.group(1)) != number or stop < 0:
            raise NotOurPdf(f"object {number} is not where its table says")
        objects[number] = chunk[head.end():stop].strip(b"\r\n")
    trailer = content[content.find(b"trailer", xref):at]
    root = re.search(rb"/Root " + _REF, trailer)
    info = re.search(rb"/Info " + _REF, trailer)
    if root is None:
        raise NotOurPdf("no /Root")
    return _Part(objects, int(root.group(1)), int(info.group(1)) if info else None)


def renumbered(body: bytes, numbers: Callable[[int], int], names: dict[bytes, bytes] | None = None) -> bytes:
    """`body` with every reference in its dictionary renumbered and each font subset's name in
    `names` ({old name: new}) renamed; its stream, if any, as it was."""
    cut = body.find(b"stream")
    head, rest = (body, b"") if cut < 0 else (body[:cut], body[cut:])

    def swap(m: re.Match[bytes]) -> bytes:
        return m.group(0) if m.group(1) is None else b"%d 0 R" % numbers(int(m.group(1)))
    head = _TOKENS.sub(swap, head)
    if names and (b"/BaseFont" in head or b"/FontName" in head):
        def rename(m: re.Match[bytes]) -> bytes:
            old = m.group(2) + b"+" + m.group(3)
            return b"/%s /%s" % (m.group(1), names.get(old, old))
        head = SUBSET_NAME.sub(rename, head)
    return head + rest


def subset_names(part: _Part) -> dict[bytes, bytes]:
    """{a subset's name in the part: its name in the joined PDF}, each tagged by its program, so
    two parts' different subsets never share a name (subset_tags.py)."""
    names = {}
    for number in part.objects:
        head = part.head(number)
        if b"/FontFile2" not in head:
            continue
        found = SUBSET_NAME.search(head)
        program = part.entry(number, b"FontFile2")
        if found is None or program is None:
            continue
        tag = program_tag(found.group(3), part.objects[program]).encode()
        names[found.group(2) + b"+" + found.group(3)] = tag + b"+" + found.group(3)
    return names


def tag_subsets(content: bytes) -> bytes:
    """`content` with each font subset named by its program, as the join names it: reportlab tags
    each font's first subset AAAAAA+, so a part of its own would hold several subsets under one tag
    (ISO 32000-1, 9.6.4).  A tag is six letters, as the one it replaces: no object moves, and the
    cross-reference table still gives every object's place."""
    names = subset_names(read(content))

    def rename(m: re.Match[bytes]) -> bytes:
        old = m.group(2) + b"+" + m.group(3)
        return b"/%s /%s" % (m.group(1), names.get(old, old))
    return SUBSET_NAME.sub(rename, content) if names else content


class _Writer:
    def __init__(self, sink: Sink) -> None:
        self.sink, self.position = sink, 0
        self.offsets: dict[int, int] = {}
        self.digest = hashlib.md5(usedforsecurity=False)     # the file ID: the same bytes, the same ID

    def write(self, data: bytes) -> None:
        self.sink(data)
        self.digest.update(data)
        self.position += len(data)

    def object(self, number: int, body: bytes) -> None:
        self.offsets[number] = self.position
        self.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")


Item = tuple[int, str, int, tuple[int, int, int] | None]    # (number, title, first page, (first, last, count))
# Given the part each page of the joined document belongs to (its title, None for padding), the
# PDFs whose forms FOOTER_FORM + n are the joined document's pages' footers (page n's in one of them)
Footers = Callable[[Sequence[str | None]], Iterable[bytes]]


def join(parts: Sequence[tuple[str, bytes]], sink: Sink, document: Document, padding: bytes | None = None,
         footers: Footers | None = None, pdfx: PdfX | None = None) -> int:
    """Write into `sink` the PDF of `parts` ([(bookmark title, PDF)], in order), with
    `document`'s info and viewer hints; its page count.  Each part gets a bookmark holding its
    own outline; with `padding` (a one-page PDF), a part that would start on the back of a
    sheet starts on the next sheet, the padding page between; with `footers`, each page's footer
    form gives way to the joined document's own.  With `pdfx`, parts a print shop's already
    (shop_pdf.py, pdf_stream.py) make a PDF/X file: the header, output intent, info keys, XMP and
    file ID that version asks for, each part's own intent left out."""
    out = _Writer(sink)
    out.write((pdfx.header if pdfx is not None else "%PDF-1.4").encode("latin-1") + b"\n%\xe2\xe3\xcf\xd3\n")
    # each part is read (its objects indexed) once to count its pages and again to be copied, so
    # no more than one part's index is held at a time
    order: list[tuple[str | None, bytes]] = []
    owners: list[str | None] = []
    for title, content in parts:
        if padding is not None and len(owners) % 2:
            order.append((None, padding))
            owners += [None] * _page_count(padding)
        order.append((title, content))
        owners += [title] * _page_count(content)
    pages: list[int] = []
    items: list[Item] = []
    next_number = 4         # 1 the catalog, 2 the page tree, 3 the outline
    kit_footers: dict[int, int] = {}
    for footer_pdf in footers(owners) if footers is not None else ():     # one file read at a time
        next_number, forms = _copy_forms(out, read(footer_pdf), next_number)
        kit_footers.update(forms)
    for owner, content in order:
        next_number = _copy(out, read(content), owner, next_number, pages, items, kit_footers)
    return _finish(out, pages, items, next_number, document, pdfx)


def _page_count(content: bytes) -> int:
    part = read(content)
    return len(part.pages(_tree_root(part)))


def _tree_root(part: _Part) -> int:
    node = part.entry(part.root, b"Pages")
    if node is None:
        raise NotOurPdf("no page tree")
    return node


def footer_forms(part: _Part) -> dict[int, int]:
    """{object number: the page it is the footer of} of the part's footer forms."""
    found: dict[int, int] = {}
    for number in part.objects:
        for page, ref in _FOOTER.findall(part.head(number)):
            found[int(ref)] = int(page)
    return found


def _copy_forms(out: "_Writer", part: _Part, next_number: int) -> tuple[int, dict[int, int]]:
    """Write the footer forms of `part` (a PDF of footers, a page each) and what they draw with,
    none of its pages; the next free number and {page: the number of its footer form}."""
    node = _tree_root(part)
    page_objects = part.pages(node)
    contents: set[int] = set()
    for page in page_objects:
        found = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+ \d+ R)", part.head(page))
        contents |= {int(ref) for ref in re.findall(_REF, found.group(1))} if found else set()
    drop = {part.root, part.info, part.entry(part.root, b"Outlines"), part.entry(part.root, b"ViewerPreferences"),
            *part.tree(node), *page_objects, *contents, *part.press_objects()}
    numbers: dict[int, int] = {}
    for n in sorted(part.objects):
        if n not in drop:
            numbers[n] = next_number
            next_number += 1
    names = subset_names(part)
    for n in sorted(numbers):
        out.object(numbers[n], renumbered(part.objects[n], numbers.__getitem__, names))
    return next_number, {page: numbers[form] for form, page in footer_forms(part).items()}


def _copy(out: "_Writer", part: _Part, title: str | None, next_number: int, pages: list[int],
          items: list[Item], kit_footers: dict[int, int]) -> int:
    """Write `part`'s objects under numbers from `next_number` on, its pages added to `pages`
    and (with a `title`) its bookmark to `items`; the next free number.  Where `kit_footers`
    has the footer of a page of the joined document, the part's own footer form gives way to it."""
    tree, outline = 2, 3
    node = _tree_root(part)
    own = part.entry(part.root, b"Outlines")
    nodes = set(part.tree(node))
    prefs = part.entry(part.root, b"ViewerPreferences")
    # the part's catalog, info and hints give way to the joined document's; its tree joins ours
    drop = {part.root, part.info, prefs, own, *nodes, *part.press_objects()}
    numbers = dict.fromkeys(nodes, tree)
    for form, page in footer_forms(part).items() if kit_footers else ():
        numbers[form] = kit_footers[len(pages) + page]
        drop.add(form)
    for n in sorted(part.objects):
        if n not in drop:
            numbers[n] = next_number
            next_number += 1
    item = next_number if title is not None else None
    next_number += item is not None
    if own is not None:     # its entries hang from the part's bookmark (an untitled part has none)
        numbers[own] = item if item is not None else outline
    names = subset_names(part)
    for n in sorted(part.objects):
        if n not in drop:
            out.object(numbers[n], renumbered(part.objects[n], numbers.__getitem__, names))
    part_pages = [numbers[p] for p in part.pages(node)]
    if item is not None and title is not None:
        items.append((item, title, part_pages[0], _kids(part, own, numbers)))
    pages += part_pages
    return next_number


def _kids(part: _Part, own: int | None, numbers: dict[int, int]) -> tuple[int, int, int] | None:
    """(first, last, count) of the part's own outline entries, renumbered; None for none."""
    if own is None:
        return None
    first, last = part.entry(own, b"First"), part.entry(own, b"Last")
    count = re.search(rb"/Count (-?\d+)", part.head(own))
    if first is None or last is None:
        return None
    return numbers[first], numbers[last], int(count.group(1)) if count else 0


def _finish(out: "_Writer", pages: list[int], items: list[Item], next_number: int, document: Document,
            pdfx: PdfX | None) -> int:
    """The joined document's own objects (outline, page tree, hints, PDF/X, catalog, info) and trailer."""
    catalog, tree, outline = 1, 2, 3
    _outline(out, outline, items)
    out.object(tree, b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(pages), b" ".join(b"%d 0 R" % p
                                                                                          for p in pages)))
    prefs_number = next_number
    hints = b"/PrintScaling /None" + (b" /Duplex /DuplexFlipLongEdge" if document.duplex else b"")
    out.object(prefs_number, b"<< " + hints + b" >>")
    d = document
    date = pdf_date()
    entries = {"Title": d.title, "Subject": d.subject, "Author": d.author, "Creator": d.creator,
               "Producer": d.creator, "Keywords": d.keywords}
    declared, next_number = (b"", next_number + 1) if pdfx is None else \
        _pdfx(out, pdfx, {**entries, "CreationDate": date}, next_number + 1)
    out.object(catalog, b"<< /Type /Catalog /Pages 2 0 R /Outlines 3 0 R /PageMode /UseOutlines "
                        b"/ViewerPreferences %d 0 R%s >>" % (prefs_number, declared))
    info = next_number
    said = " ".join(f"/{k} {text_string(v)}" for k, v in entries.items())
    said += f" /CreationDate {text_string(date)} /ModDate {text_string(date)}"
    if pdfx is not None:
        said += f" /GTS_PDFXVersion {text_string(pdfx.version)} /Trapped /False"
    out.object(info, said.join(("<< ", " >>")).encode("latin-1"))
    _trailer(out, info + 1, info, pdfx is not None)
    return len(pages)


def _pdfx(out: "_Writer", pdfx: PdfX, info: dict[str, str], number: int) -> tuple[bytes, int]:
    """The joined document's output intent (its ICC profile for PDF/X-4) and, for PDF/X-4, its
    XMP metadata, written from object `number` on: (the catalog's entries, the next free number)."""
    entries = " ".join(f"/{key} {text_string(value)}" for key, value in intent_entries(pdfx).items())
    profile = icc_profile(pdfx)
    if profile is not None:
        packed = zlib.compress(profile, 9)
        out.object(number, b"<< /N 4 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (len(packed), packed))
        entries += f" /DestOutputProfile {number} 0 R"
        number += 1
    out.object(number, f"<< /Type /OutputIntent /S /GTS_PDFX {entries} >>".encode("latin-1"))
    declared = b" /OutputIntents [%d 0 R]" % number
    number += 1
    if pdfx.x4:     # uncompressed, so any tool can read it
        packet = xmp(pdfx, info, out.digest.digest())
        out.object(number, b"<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n%s\nendstream"
                   % (len(packet), packet))
        declared += b" /Metadata %d 0 R" % number
        number += 1
    return declared, number


def _outline(out: "_Writer", root: int, items: list[Item]) -> None:
    """The joined outline: a bookmark a part, each opening the part's first page and holding
    the part's own outline (its entries re-parented to the part's bookmark)."""
    for i, (number, title, page, kids) in enumerate(items):
        links = (f" /Prev {items[i - 1][0]} 0 R" if i else "") + (f" /Next {items[i + 1][0]} 0 R"
                                                                  if i + 1 < len(items) else "")
        inner = f" /First {kids[0]} 0 R /Last {kids[1]} 0 R /Count {kids[2]}" if kids else ""
        out.object(number, f"<< /Title {text_string(title)} /Parent {root} 0 R{links}{inner} "
                           f"/Dest [{page} 0 R /Fit] >>".encode("latin-1"))
    first_last = f" /First {items[0][0]} 0 R /Last {items[-1][0]} 0 R" if items else ""
    out.object(root, f"<< /Type /Outlines /Count {len(items)}{first_last} >>".encode("latin-1"))


def _trailer(out: "_Writer", size: int, info: int, identified: bool = False) -> None:
    """The cross-reference table and trailer; `identified`: with the file ID PDF/X asks for."""
    xref = out.position
    lines = [b"xref", b"0 %d" % size, b"0000000000 65535 f "]
    lines += [b"%010d 00000 n " % out.offsets[n] if n in out.offsets else b"0000000000 65535 f "
              for n in range(1, size)]
    ident = out.digest.hexdigest().upper().encode()
    file_id = b" /ID [<%s> <%s>]" % (ident, ident) if identified else b""
    lines += [b"trailer", b"<< /Size %d /Root 1 0 R /Info %d 0 R%s >>" % (size, info, file_id), b"startxref",
              b"%d" % xref, b"%%EOF", b""]
    out.write(b"\n".join(lines))
