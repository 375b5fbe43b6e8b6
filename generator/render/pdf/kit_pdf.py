"""The kit: every part for one paper merged into one bookmarked PDF with pypdf.

Each part starts on a fresh sheet (a blank page pads a part with an odd page count), so the
counter fronts and backs still fall on the two sides of one sheet when the kit prints duplex.
"""

import io
from typing import BinaryIO

from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from generator.render.pdf.canvas import AUTHOR, CREATOR, Pdf


def render(ctx, paper, parts):
    """The kit for one paper: `parts` is [(bookmark title, PDF)] in kit order.

    Each PDF is its bytes or a binary file open for reading (a build passes its staged files,
    so no part need be held in memory whole)."""
    r = ctx.kit.rules
    return merge(parts, paper, f"{r.number} {r.title}: print kit ({paper.label})",
                 f"{r.game} variant {r.number}: player aid, pre-rolled bail-out tables, crew counters")


def merge(parts, paper, title, subject):
    """`parts` is [(bookmark title, PDF bytes or binary file)]; return the merged PDF's bytes."""
    writer = PdfWriter()
    readers = [(name, PdfReader(content if hasattr(content, "read") else io.BytesIO(content)))
               for name, content in parts]
    for name, reader in readers:
        if len(writer.pages) % 2:
            writer.add_blank_page(paper.width, paper.height)
        writer.append(reader, outline_item=name)
    # The parts' dates (fixed, or SOURCE_DATE_EPOCH) are the kit's: no clock is read here.
    first = readers[0][1].metadata or {}
    dates = {key: first[key] for key in ("/CreationDate", "/ModDate") if key in first}
    writer.add_metadata({"/Title": title, "/Subject": subject, "/Author": AUTHOR,
                         "/Creator": CREATOR, "/Producer": CREATOR, **dates})
    prefs = writer.create_viewer_preferences()
    prefs.print_scaling = NameObject("/None")
    prefs.duplex = NameObject("/DuplexFlipLongEdge")
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
