"""The kit: every part for one paper merged into one bookmarked PDF with pypdf.

Each part starts on a fresh sheet (a page that says it is left blank pads a part with an odd
page count), so the counter fronts and backs still fall on the two sides of one sheet when the
kit prints duplex.
"""

import io
from collections.abc import Mapping, Sequence
from typing import Any, BinaryIO

from pypdf.generic import NameObject

from generator.content.context import BuildContext
from generator.layout.paper import Paper
from generator.render import theme
from generator.render.pdf.canvas import FONT, DocumentInfo, Pdf, document_info, finish, new_canvas
from generator.render.pdf.plain_pypdf import PdfReader, PdfWriter

Part = tuple[str, bytes | BinaryIO]     # (bookmark title, a PDF's bytes or a binary file open for reading)


def render(ctx: BuildContext, paper: Paper | None, sources: Sequence[Part]) -> Pdf:
    """The kit for one paper: `sources` is [(bookmark title, PDF)] in kit order.

    Each PDF is its bytes or a binary file open for reading (a build passes its staged files,
    so no part need be held in memory whole)."""
    assert paper is not None, "the kit is made per paper"
    r = ctx.kit.rules
    title = ctx.words("kit.title", number=r.number, title=r.title, paper=paper.label)
    subject = ctx.words("kit.subject", number=r.number, title=r.title, game=r.game)
    duplex = ctx.options.profile.duplex_hint
    return merge(sources, paper, title, subject, document_info(ctx), duplex=duplex,
                 blank=blank_page(ctx, paper, title, subject) if duplex else None)


def blank_page(ctx: BuildContext, paper: Paper, title: str, subject: str) -> bytes:
    """The page that pads a part to a whole sheet: it says, in the edition's words, that it is
    left blank on purpose, so no player wonders what failed to print."""
    c, buffer = new_canvas(ctx, paper, title, subject)
    c.setFillGray(theme.FOOTER_LEVEL)
    c.setFont(FONT, theme.PAGE_TYPE.small)
    c.drawCentredString(paper.width / 2, paper.height / 2, ctx.words("page.blank"))
    c.showPage()
    return bytes(finish(c, buffer))


def merge(parts: Sequence[Part], paper: Paper, title: str, subject: str, info: DocumentInfo, *,
          duplex: bool = True, blank: bytes | None = None) -> Pdf:
    """`parts` is [(bookmark title, PDF bytes or binary file)]; return the merged PDF's bytes.
    `duplex`: the viewer hint for a long-edge duplex print, and each part on a fresh sheet,
    padded with the page `blank` (or an empty one)."""
    writer = PdfWriter()
    readers = [(name, PdfReader(io.BytesIO(content) if isinstance(content, bytes) else content))
               for name, content in parts]
    padding = PdfReader(io.BytesIO(blank)).pages[0] if blank is not None else None
    for name, reader in readers:
        if duplex and len(writer.pages) % 2:      # single-sided: no sheet to keep, no blank page
            if padding is not None:
                writer.add_page(padding)
            else:
                writer.add_blank_page(paper.width, paper.height)
        writer.append(reader, outline_item=name)
    # The parts' dates (fixed, or SOURCE_DATE_EPOCH) are the kit's: no clock is read here.
    first: Mapping[str, Any] = readers[0][1].metadata or {}
    dates = {key: first[key] for key in ("/CreationDate", "/ModDate") if key in first}
    writer.add_metadata({"/Title": title, "/Subject": subject, "/Author": info.author,
                         "/Creator": info.creator, "/Producer": info.creator, **dates})
    prefs = writer.create_viewer_preferences()
    # Set as keys (what the properties of that name write), which pypdf's stubs type cleanly.
    prefs[NameObject("/PrintScaling")] = NameObject("/None")
    if duplex:
        prefs[NameObject("/Duplex")] = NameObject("/DuplexFlipLongEdge")
    writer.page_mode = "/UseOutlines"
    # No file /ID (optional in an unencrypted PDF): pypdf's only public way to make one draws it at
    # random, and same parts must give the same bytes.
    out = io.BytesIO()
    writer.write(out)
    pages = len(writer.pages)
    del writer, readers, first     # the parsed parts go before the bytes are copied: a lower peak
    content = out.getvalue()
    out.close()
    return Pdf(content, pages)


def page_count(handle: BinaryIO) -> int:
    """The pages of a PDF read back (a renderer of ours counts its own; this is for the others)."""
    return len(PdfReader(handle).pages)
