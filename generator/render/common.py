"""What every PDF of the kit shares: embedded fonts, metadata, viewer hints, reproducibility.

Only Bitstream Vera (shipped with reportlab) is used, registered as TrueType so it is embedded;
no standard-14 font is ever referenced.  Canvases are made in invariant mode, which (with
SOURCE_DATE_EPOCH when set) fixes the dates and document IDs: same input, same bytes.
"""

import io
import os
from dataclasses import dataclass, field

import reportlab
from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from .. import __version__

FONT = "Vera"
BOLD = "Vera-Bold"
ITALIC = "Vera-Italic"
BOLD_ITALIC = "Vera-BoldItalic"
_FILES = {FONT: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}
CREATOR = f"bailout-kit {__version__} (871 AFVs & Bail Out print kit)"
AUTHOR = "bailout-kit, from the 871 variant by Tom Cundiff"


def register_fonts():
    """Register Vera as TrueType (embedded) and map bold/italic for Paragraph markup."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(folder, file)))
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, BOLD)
    addMapping(FONT, 0, 1, ITALIC)
    addMapping(FONT, 1, 1, BOLD_ITALIC)
    rl_config.canvas_basefontname = FONT   # platypus' own canvases start in Vera too


@dataclass(frozen=True)
class BuildContext:
    """What every renderer needs: the data, its exact odds and the options asked for."""
    kit: object             # data.KitData
    odds: object            # odds.Odds
    options: object         # options.BuildOptions
    # What one build works out once and every paper shares (e.g. the aid's parsed text).
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    changes: object = None  # aid_changes.Since when built --since OLD

    def footer(self, paper, page=None, pages=None):
        text = f"871 Bail-Out kit {__version__} \u00b7 data {self.kit.short_hash} \u00b7 {paper.label}"
        if page is not None:
            text += f" \u00b7 page {page} of {pages}"
        return text


def new_canvas(paper, title, subject, *, duplex=False):
    """A canvas writing into memory; return (canvas, buffer).  Call `finish()` for the bytes."""
    register_fonts()
    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, pagesize=(paper.width, paper.height), invariant=1,
                         initialFontName=FONT, initialFontSize=9, pageCompression=1)
    set_metadata(c, title, subject, duplex=duplex)
    return c, buffer


def set_metadata(c, title, subject, *, duplex=False):
    """Title, subject, author, creator and the viewer hints every kit PDF carries."""
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor(AUTHOR)
    c.setCreator(CREATOR)
    c.setProducer(CREATOR)
    c.setKeywords("Up Front, 871, AFVs & Bail Out, wargame aid")
    c.setViewerPreference("PrintScaling", "None")
    if duplex:
        c.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    c.showOutline()


def finish(c, buffer):
    c.save()
    return buffer.getvalue()


def draw_footer(c, ctx, paper, page=None, pages=None, margin=18, size=7):
    c.saveState()
    c.setFont(FONT, size)
    c.setFillGray(0.25)
    c.drawCentredString(paper.width / 2, margin * 0.6, ctx.footer(paper, page, pages))
    c.restoreState()


def escape(text):
    """Text from data, safe inside reportlab Paragraph markup."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
