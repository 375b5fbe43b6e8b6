"""What every PDF of the kit shares: embedded fonts, colours, metadata, viewer hints, reproducibility.

The kit's type is one superfamily, IBM Plex (SIL Open Font License 1.1, shipped in fonts/ beside
this file with its LICENSE): IBM Plex Sans for the aid's text, IBM Plex Sans Condensed for the
counters, the tables and every table head (render/theme.py says which role takes which face and
size), IBM Plex Sans JP in every role of the Japanese edition: the faces are the edition's
(theme.FaceSet, chosen by edition_faces).  All are registered as TrueType, so they are embedded
and subset (the PDFs that bring parts together tag each subset by what it holds:
subset_tags.py).  No standard-14 font is ever referenced.  Canvases are made in
invariant mode, which (with SOURCE_DATE_EPOCH when set) fixes the dates and document IDs: same
input, same bytes.  Colours are the theme's (render/theme.py) made reportlab colours here, by
its ink rules.  The document info (author, creator, keywords) is the catalogue's words filled
from the data's [variant]; a canvas takes it with its footer, which every page carries and
which has the build's context.
"""

import functools
import math
import os
import struct
from collections.abc import Callable
from typing import Any

from msgspec import Struct
from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from generator import __version__
from generator.content.context import BuildContext
from generator.errors import RenderError
from generator.layout.paper import Paper
from generator.render import theme
from generator.render.pdf.pdf_join import FOOTER_FORM, tag_subsets
from generator.render.theme import LATIN, FaceSet, edition_faces
from generator.text import ELLIPSIS, truncate, words_of
from generator.units import mm

# Every stream deflated alone, where reportlab's default (rl_settings.useA85) writes the deflated
# bytes again as ASCII85 text, for 7-bit mail no PDF travels by today: the counters' files an
# eighth smaller, and whatever reads them (a shop's conversion, pdfium, pypdf) skips a pass.
rl_config.useA85 = 0

FONT_FOLDER = os.path.join(os.path.dirname(__file__), "fonts")
EDGE_MM = 5            # nothing is drawn nearer a page edge than this (many printers' margin)
MM = mm(1)
FOOTER_SIZE = 7.0       # the footer's type, on every page


# -- the theme's colours for reportlab (the ink rules: generator/render/theme.py) ---------------

def grey(level: float) -> CMYKColor:
    """Grey of `level` (0 black .. 1 white) as pure K: a print shop's CMYK conversion keeps it
    on the black plate alone, where RGB grey would spread small text over four plates."""
    return CMYKColor(0, 0, 0, round(1 - level, 4))


@functools.lru_cache(maxsize=256)
def colour(hex_colour: str) -> Color:
    """A colour ('#rrggbb', the theme's or the data's) for reportlab: neutral ones as pure K, others as given.
    Kept, as INK is: every face of a nationality paints its colours again, and a colour is only read."""
    level = theme.grey_level(hex_colour)
    return grey(level) if level is not None else HexColor(hex_colour)


def fill(hex_colour: str) -> Color | None:
    """A fill colour, or None for white: white lays no ink, so the fill is left undrawn."""
    return colour(hex_colour) if theme.lays_ink(hex_colour) else None


INK = colour(theme.BLACK)       # every black the kit prints
PAPER = HexColor(theme.WHITE)   # white text and knock-outs, the paper's own: RGB 1 1 1 lays no ink


# -- what every PDF says of itself --------------------------------------------------------------

class DocumentInfo(Struct, frozen=True):
    """The author, creator and keywords every PDF of the kit carries."""
    author: str
    creator: str
    keywords: str


def document_info(ctx: BuildContext) -> DocumentInfo:
    r = ctx.kit.rules
    fields = {"version": __version__, "number": r.number, "title": r.title, "game": r.game, "credit": r.credit}
    return DocumentInfo(ctx.words("pdf.author", **fields), ctx.words("pdf.creator", **fields),
                        ctx.words("pdf.keywords", **fields))


def register_fonts(face_set: FaceSet = LATIN, *, italics: bool = False) -> None:
    """Register `face_set`'s faces as TrueType (embedded), with `italics` the italics too; map
    bold/italic for Paragraph markup.  LATIN's upright faces are always registered: platypus'
    own canvases start in its body face.

    Parsing a face costs every build that registers it; only the aid prints italics (the tables
    and counters never do), so only its renderer asks for them."""
    if face_set is not LATIN:
        register_fonts(LATIN)
    registered = pdfmetrics.getRegisteredFontNames()
    for name in (*face_set.upright(), *(face_set.italics() if italics else ())):
        if name not in registered:
            font = TTFont(name, os.path.join(FONT_FOLDER, face_set.file(name)))
            _stand_in(font, face_set.stand_ins)
            pdfmetrics.registerFont(font)
    if face_set.body in registered:
        return
    addMapping(face_set.body, 0, 0, face_set.body)
    addMapping(face_set.body, 1, 0, face_set.bold)
    addMapping(face_set.body, 0, 1, face_set.italic)
    addMapping(face_set.body, 1, 1, face_set.bold_italic)
    if face_set.condensed != face_set.body:
        addMapping(face_set.condensed, 0, 0, face_set.condensed)
        addMapping(face_set.condensed, 1, 0, face_set.condensed_bold)
        addMapping(face_set.condensed, 0, 1, face_set.condensed_italic)
        # no bold italic in a table: the bold says enough
        addMapping(face_set.condensed, 1, 1, face_set.condensed_bold)
    if face_set is LATIN:
        rl_config.canvas_basefontname = LATIN.body   # platypus' own canvases start in the body face too


def _stand_in(font: TTFont, stand_ins: tuple[tuple[str, str], ...]) -> None:
    """Map each character the face lacks to its stand-in's glyph and width: the PDF draws the
    stand-in's glyph, and its text (ToUnicode) still says the character."""
    face = font.face
    for char, stand_in in stand_ins:
        if ord(char) not in face.charToGlyph:
            face.charToGlyph[ord(char)] = face.charToGlyph[ord(stand_in)]
            face.charWidths[ord(char)] = face.charWidths[ord(stand_in)]


@functools.cache
def _glyph_boxes(font: str) -> tuple[tuple[int, int, int, int] | None, ...]:
    """(x_min, y_min, x_max, y_max) of every glyph of a registered TrueType face, in its units:
    read from the header of each glyph's outline (the glyf table), None for a glyph with none
    (a space)."""
    face = pdfmetrics.getFont(font).face
    glyf, _ = face.get_table_pos("glyf")
    boxes: list[tuple[int, int, int, int] | None] = []
    for start, end in zip(face.glyphPos, face.glyphPos[1:], strict=False):
        if end <= start:
            boxes.append(None)
            continue
        _contours, x_min, y_min, x_max, y_max = struct.unpack(">hhhhh", face.get_chunk(glyf + start, 10))
        boxes.append((x_min, y_min, x_max, y_max))
    return tuple(boxes)


def ink(text: str, font: str, size: float) -> tuple[float, float]:
    """(top, bottom) of the ink `text` lays in `font` at `size`, points about its baseline
    (bottom negative under it): an accent over a capital, a descender, as the glyphs draw them."""
    face = pdfmetrics.getFont(font).face
    boxes = [box for box in (_glyph_boxes(font)[face.charToGlyph.get(ord(ch), 0)] for ch in text)
             if box is not None]
    if not boxes:
        return 0.0, 0.0
    top = max(box[3] for box in boxes)
    bottom = min(box[1] for box in boxes)
    return top * size / face.unitsPerEm, bottom * size / face.unitsPerEm


def ink_span(text: str, font: str, size: float) -> tuple[float, float]:
    """(left, right) of the ink `text` lays in `font` at `size`, points from where it starts:
    a glyph's outline past its advance (a 'V', an 'f') shows here, as the advance width hides it."""
    face = pdfmetrics.getFont(font).face
    boxes = _glyph_boxes(font)
    unit = size / face.unitsPerEm
    x, left, right = 0.0, math.inf, -math.inf
    for ch in text:
        box = boxes[face.charToGlyph.get(ord(ch), 0)]
        if box is not None:
            left, right = min(left, x + box[0] * unit), max(right, x + box[2] * unit)
        x += stringWidth(ch, font, size)
    return (left, right) if left <= right else (0.0, 0.0)


def footer_text(ctx: BuildContext, paper: Paper, page: int | None = None, pages: int | None = None,
                part: str | None = None) -> str:
    """The footer every page of the kit carries: the variant (and the edition's --label) and the
    paper, then the part and page (`part`: the catalogue key of the part's name,
    page.footer.part.*), so a page says what its number counts.  The kit's version and stamp are
    the colophon's (colophon_text)."""
    r, label = ctx.kit.rules, ctx.options.label
    if label:
        text = ctx.words("page.footer.named", number=r.number, title=r.title, label=label, paper=paper.label)
    else:
        text = ctx.words("page.footer", number=r.number, title=r.title, paper=paper.label)
    if page is not None:
        assert part is not None, "a numbered page names its part"
        text += ctx.words("page.footer.page", part=ctx.words(part), page=page, pages=pages)
    fits_one_line(ctx, paper, text, FOOTER_SIZE, "footer")
    return text


def fits_one_line(ctx: BuildContext, paper: Paper, text: str, size: float, what: str) -> None:
    """Refuse a footer or colophon line (`what`) wider than `paper` between its EDGE_MM margins:
    the variant's number and title (and the --label) from the data run off the page otherwise."""
    width = stringWidth(text, edition_faces(ctx.words.lang).body, size)
    room = paper.width - 2 * EDGE_MM * MM
    if width > room:
        raise RenderError(f"{ctx.kit.directory / 'rules.toml'}: variant.number, variant.title: the {what} line "
                          f"'{truncate(text, 60)}' is {width / MM:.0f} mm wide at {size:g} pt, {paper.label} "
                          f"gives {room / MM:.0f} mm: shorten the title (or --label)")


def colophon_text(ctx: BuildContext) -> str:
    """The colophon's one line (BuildContext.colophon)."""
    return ctx.colophon()


def new_canvas(ctx: BuildContext, paper: Paper, title: str, subject: str, *,
               duplex: bool = False) -> tuple[Any, "_Capture"]:
    """A canvas writing into memory; return (canvas, buffer).  Call `finish()` for the bytes.
    The author, creator and keywords come from the build's context."""
    face_set = edition_faces(ctx.words.lang)
    register_fonts(face_set)
    buffer = _Capture()
    c = rl_canvas.Canvas(buffer, pagesize=(paper.width, paper.height), invariant=1,
                         initialFontName=face_set.body, initialFontSize=9, pageCompression=1)
    set_metadata(c, title, subject, duplex=duplex)
    set_document_info(c, document_info(ctx))
    c.setPageCallBack(lambda number: page_ended())
    return c, buffer


# Who hears of every page as it ends (the build's progress line, generator/make/progress.py):
# the renderers need not know.  Only while a build is showing progress; never changes a byte.
PAGE_LISTENERS: list[Callable[[], None]] = []


def page_ended() -> None:
    """Tell PAGE_LISTENERS a page has ended (a canvas's page callback; the pre-rolled pages call it)."""
    for listener in PAGE_LISTENERS:
        listener()


def set_metadata(c: Any, title: str, subject: str, *, duplex: bool = False) -> None:
    """Title, subject and the viewer hints every kit PDF carries."""
    c.setTitle(title)
    c.setSubject(subject)
    c.setViewerPreference("PrintScaling", "None")
    if duplex:
        c.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    c.showOutline()


def set_document_info(c: Any, info: DocumentInfo) -> None:
    """Author, creator (also the producer) and keywords; setting them again changes nothing."""
    c.setAuthor(info.author)
    c.setCreator(info.creator)
    c.setProducer(info.creator)
    c.setKeywords(info.keywords)


class Pdf(bytes):
    """A rendered PDF's bytes, knowing its page count (so MANIFEST.txt needs no PDF parser)."""
    pages: int

    def __new__(cls, content: bytes | bytearray, pages: int) -> "Pdf":
        pdf = super().__new__(cls, content)
        pdf.pages = pages
        return pdf

    def __reduce__(self) -> tuple[type["Pdf"], tuple[bytes, int]]:
        # Pickled with its page count (a release's editions come back from other processes).
        return type(self), (bytes(self), self.pages)


class _Capture:
    """What a canvas saves into: it keeps the written bytes objects as they are (a BytesIO would
    copy them, and a long table would then sit in memory three times at the peak)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.parts.append(data)


def finish(c: Any, buffer: _Capture) -> Pdf:
    c.save()        # shows a last page still being drawn, so the count below includes it
    c.setPageCallBack(None)     # the callback holds the canvas: a cycle would keep its pages alive
    content = buffer.parts[0] if len(buffer.parts) == 1 else b"".join(buffer.parts)
    buffer.parts.clear()
    return Pdf(tag_subsets(content), c.getPageNumber() - 1)


def footer_baseline(size: float = 7) -> float:
    """The footer's baseline: its descenders stay EDGE_MM clear of the paper's edge."""
    return EDGE_MM * MM + size * 0.3


def draw_footer(c: Any, ctx: BuildContext, paper: Paper, page: int | None = None, pages: int | None = None,
                margin: float = 18, size: float = FOOTER_SIZE, *, part: str | None = None) -> None:
    """The footer line, `margin` (points) up from the foot but never nearer it than EDGE_MM;
    `part`: footer_text's.  A numbered page's footer is its form FOOTER_FORM + page (pdf_join.py)."""
    text = footer_text(ctx, paper, page, pages, part)
    name = f"{FOOTER_FORM}{page}" if page is not None else None
    if name is not None:
        c.beginForm(name, 0, 0, paper.width, paper.height)
    c.saveState()
    c.setFont(edition_faces(ctx.words.lang).body, size)
    c.setFillGray(theme.FOOTER_LEVEL)         # DeviceGray: pure K
    c.drawCentredString(paper.width / 2, max(margin * 0.6, footer_baseline(size)), text)
    c.restoreState()
    if name is not None:
        c.endForm()
        c.doForm(name)


def escape(text: object) -> str:
    """Text from data, safe inside reportlab Paragraph markup.  Reportlab breaks lines at a narrow
    no-break space (U+202F, French spacing, CLDR's French digit groups), so it gets the no-break
    space reportlab keeps (U+00A0)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\u202f", "\u00a0")


def ellipsise(text: object, font: str, size: float, width: float) -> str:
    """`text` on one line, cut to fit `width` points with the kit's one ellipsis (text.ELLIPSIS).

    Bisection, not a walk: data text may run to 10,000 characters."""
    line = " ".join(words_of(str(text)))     # a no-break space stays one
    if stringWidth(line, font, size) <= width:
        return line
    low, high = 0, len(line)        # the longest prefix that fits with the ellipsis lies in [low, high)
    while low < high - 1:
        mid = (low + high) // 2
        if stringWidth(line[:mid] + ELLIPSIS, font, size) <= width:
            low = mid
        else:
            high = mid
    return line[:low].rstrip() + ELLIPSIS
