"""The kit: every part for one paper joined into one bookmarked PDF (pdf_join.py: the parts'
own objects copied, nothing parsed again).

Each part starts on a fresh sheet (a page that says it is left blank pads a part with an odd
page count), so the counter fronts and backs still fall on the two sides of one sheet when the
kit prints duplex.
"""

import gc
from collections.abc import Iterator, Sequence
from typing import BinaryIO

from generator.content.context import BuildContext
from generator.layout.paper import Paper
from generator.profiles.print_profile import PdfX
from generator.render import theme
from generator.render.pdf.canvas import (
    DocumentInfo,
    Pdf,
    document_info,
    draw_footer,
    edition_faces,
    finish,
    new_canvas,
)
from generator.render.pdf.pdf_join import Footers, join
from generator.render.pdf.pdf_stream import Document

Part = tuple[str, bytes | BinaryIO]     # (bookmark, a PDF's bytes or a binary file open for reading)
Source = tuple[str, str, bytes | BinaryIO]      # (the part, the catalogue key of its bookmark, its PDF)


def render(ctx: BuildContext, paper: Paper | None, sources: Sequence[Source]) -> Pdf:
    """The kit for one paper: `sources` is [(part, the catalogue key of its bookmark, PDF)] in kit
    order, each PDF its bytes or a binary file open for reading (a build passes its staged files).
    Each page's footer counts the kit's pages, in the part's name."""
    assert paper is not None, "the kit is made per paper"
    r = ctx.kit.rules
    title = ctx.words("kit.title", number=r.number, title=r.title, paper=paper.label)
    subject = ctx.words("kit.subject", number=r.number, title=r.title, game=r.game)
    duplex = ctx.options.profile.duplex_hint
    parts = [(ctx.words(key), source) for _, key, source in sources]     # in the edition's language
    part_of = {ctx.words(key): part for part, key, _ in sources}
    prepress = ctx.options.profile.prepress
    blank = blank_page(ctx, paper, title, subject) if duplex else None
    if prepress is not None and blank is not None:      # a shop's parts: the padding page the shop's too
        from generator.render.pdf.shop_pdf import to_shop
        blank = bytes(to_shop(blank, prepress, ctx.options.marks))

    def footers(owners: Sequence[str | None]) -> Iterator[bytes]:
        return kit_footers(ctx, paper, title, subject, [part_of.get(o) if o is not None else None for o in owners])
    return merge(parts, paper, title, subject, document_info(ctx), duplex=duplex, blank=blank, footers=footers,
                 pdfx=prepress.pdfx if prepress is not None else None)


# The kit's footers are drawn, and for a print shop converted, this many pages a file at a time:
# a shop's conversion (pypdf) holds every page of the file it converts, and a kit of a long table
# has thousands of pages, so the footers' memory stays that of one such file.
FOOTER_PAGES = 200


def kit_footers(ctx: BuildContext, paper: Paper, title: str, subject: str,
                parts: Sequence[str | None]) -> Iterator[bytes]:
    """The kit's footers, in PDFs of at most FOOTER_PAGES pages: page n's footer form
    (pdf_join.FOOTER_FORM + n) counts the kit's pages, in the name of the part `parts[n - 1]`
    (None: a blank page, which has none); in a print shop's inks where the kit is the shop's."""
    prepress = ctx.options.profile.prepress
    for first in range(0, len(parts), FOOTER_PAGES):
        c, buffer = new_canvas(ctx, paper, title, subject)
        for n, part in enumerate(parts[first:first + FOOTER_PAGES], first + 1):
            if part is not None:
                draw_footer(c, ctx, paper, n, len(parts), part=f"page.footer.part.{part}")
            c.showPage()
        pdf = bytes(finish(c, buffer))
        if prepress is None:
            yield pdf
        else:
            from generator.render.pdf.shop_pdf import to_shop
            shop_pdf = bytes(to_shop(pdf, prepress, ctx.options.marks))
            # the conversion's pypdf objects refer to each other: collected now, not left to
            # pile up one file after another until the kit's seldom collections (workers.py)
            gc.collect()
            yield shop_pdf


def blank_page(ctx: BuildContext, paper: Paper, title: str, subject: str) -> bytes:
    """The page that pads a part to a whole sheet: it says, in the edition's words, that it is
    left blank on purpose, so no player wonders what failed to print."""
    c, buffer = new_canvas(ctx, paper, title, subject)
    c.setFillGray(theme.FOOTER_LEVEL)
    c.setFont(edition_faces(ctx.words.lang).body, theme.PAGE_TYPE.small)
    c.drawCentredString(paper.width / 2, paper.height / 2, ctx.words("page.blank"))
    c.showPage()
    return bytes(finish(c, buffer))


def merge(parts: Sequence[Part], paper: Paper, title: str, subject: str, info: DocumentInfo, *,
          duplex: bool = True, blank: bytes | None = None, footers: Footers | None = None,
          pdfx: PdfX | None = None) -> Pdf:
    """`parts` is [(bookmark title, PDF bytes or binary file)]; return the joined PDF.
    `duplex`: the viewer hint for a long-edge duplex print, and each part on a fresh sheet,
    padded with the page `blank`; `footers`: the kit's own footers (pdf_join.join's); `pdfx`: a
    print shop's parts, joined as that PDF/X file.  The
    dates are the parts' own (fixed, or SOURCE_DATE_EPOCH): no clock is read here."""
    if duplex and blank is None:
        blank = _empty_page(paper)
    written = bytearray()
    contents = [(name, content if isinstance(content, bytes) else content.read()) for name, content in parts]
    pages = join(contents, written.extend, Document(title, subject, info.author, info.creator, info.keywords,
                                                    duplex=duplex), padding=blank if duplex else None,
                 footers=footers, pdfx=pdfx)
    return Pdf(written, pages)


def _empty_page(paper: Paper) -> bytes:
    """A page with nothing on it, for a caller that gives no blank page of its own."""
    from generator.render.pdf.pdf_stream import PdfStream
    written = bytearray()
    doc = PdfStream(written.extend, paper.width, paper.height, Document("", "", "", "", "", outline=False))
    doc.page("")
    doc.close()
    return bytes(written)


def page_count(handle: BinaryIO) -> int:
    """The pages of a PDF read back (a renderer of ours counts its own; this is for the others)."""
    from generator.render.pdf.plain_pypdf import PdfReader
    return len(PdfReader(handle).pages)
