"""The kit's look, in one module: the type scale, the palette, its black-and-white variant, and
the ink rules.

Type: one scale of four roles (title, head, body, small) for every page, set in one superfamily,
IBM Plex (render/pdf/canvas.py registers it): IBM Plex Sans for prose, IBM Plex Sans Condensed for
table cells, table heads, the flowchart's rule tabs and the counters (whose own sizes, by counter
size, are layout/face_layout.py's: a face is geometry before it is type); the Japanese edition
sets every role in IBM Plex Sans JP (FaceSet below: the faces are the edition's).  The aid's PDF fits its
body to two pages and takes the scale around it (TypeScale.at).

Values are plain hex ('#rrggbb') or grey levels (0 black .. 1 white), so the web aid's CSS and
the PDFs read the same numbers; render/pdf/canvas.py turns them into reportlab colours.

The ink rules (canvas.py applies them):
- a neutral colour (r = g = b), black above all, prints as pure K: a print shop's CMYK
  conversion keeps it on the black plate alone, where RGB grey would spread small text over four;
- white lays no ink: a white fill is not drawn, white text and knock-outs may stay RGB white;
- black and white (--bw): the accent is black and the fills white, so nothing prints in colour.
"""

from typing import NamedTuple

from msgspec import Struct

BLACK = "#000000"
WHITE = "#ffffff"


class Palette(Struct, frozen=True):
    """The player aid's colours, the same in its PDF and its web page."""
    accent: str     # headings, rules, the flowchart's boxes, arrows and rule tabs
    head: str       # table heads and the flowchart's title bands
    box: str        # the flowchart's boxes and the "Changes since" box
    rule: str       # the web page's table lines (the PDF's are GRID_LEVEL)


# Dark olive: near-black once printed grey; the web page's text and fills keep >= 4.5:1 contrast (WCAG AA).
COLOUR = Palette(accent="#3b4722", head="#e3dfca", box="#f7f5ed", rule="#6b6b6b")
BLACK_AND_WHITE = Palette(accent=BLACK, head=WHITE, box=WHITE, rule="#595959")


# Small type reversed out of a ground (the flowchart's rule tabs: white at 7.5 pt) on a press: the
# ground in one solid ink, black, since a ground of several screened inks a hair out of register
# fringes the letters; on screens and home printers the tab keeps the accent.
PRESS_REVERSED_GROUND = BLACK


def palette(bw: bool) -> Palette:
    """The aid's palette: --bw's, or the colour one."""
    return BLACK_AND_WHITE if bw else COLOUR


# -- type -------------------------------------------------------------------------------------

class TypeScale(Struct, frozen=True):
    """The four sizes every page sets its words in, points: a page's title, a section head, body
    text (the tables' cells too) and small words (a table's heads, legends, notes, the footer)."""
    title: float
    head: float
    body: float
    small: float

    def at(self, body: float) -> "TypeScale":
        """The same scale around another body size."""
        k = body / self.body
        return TypeScale(round(self.title * k, 2), round(self.head * k, 2), body, round(self.small * k, 2))


PAGE_TYPE = TypeScale(title=16, head=11, body=8.5, small=7.5)
# The web pages' faces: the same family where the reader has it installed, else the system's sans.
WEB_FONT = '"IBM Plex Sans", system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif'
WEB_CONDENSED = '"IBM Plex Sans Condensed", "Arial Narrow", ' + WEB_FONT.split(", ", 1)[1]
# Japanese: a Japanese face first, or the browser sets kanji in a Latin face's fallback (often a
# Chinese one); no condensed Japanese face is common, so tables take the same stack.
WEB_JAPANESE = ('"IBM Plex Sans JP", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", '
                '"Noto Sans CJK JP", "Yu Gothic", YuGothic, Meiryo, sans-serif')


class FaceSet(NamedTuple):
    """The faces an edition prints in, by role (reportlab's registered names), and how its
    paragraphs break lines.  edition_faces() chooses one by language; every renderer asks it."""
    name: str               # as the glyph check names the type
    body: str               # the aid's text, the pages' prose
    bold: str
    italic: str
    bold_italic: str
    condensed: str          # table cells, counters' small words
    condensed_medium: str   # counter text: firmer than regular at 5 and 6 pt
    condensed_bold: str     # table heads, counter titles and numerals
    condensed_italic: str   # emphasis in a table cell (the aid's)
    files: tuple[tuple[str, str], ...]      # (registered name, file in render/pdf/fonts/)
    web: str                # the web pages' font stack: the family where the reader has it, else the system's
    web_condensed: str
    word_wrap: str | None = None    # reportlab's paragraph wrapping: None at spaces, "CJK" anywhere by kinsoku rules
    # (character, stand-in): a character the kit prints that the faces lack, drawn with another
    # glyph of theirs made for the same use; the text keeps the character (copied, or read aloud)
    stand_ins: tuple[tuple[str, str], ...] = ()
    # the aid's tables' type size against the theme's: where the condensed role has no condensed
    # face, the regular one a little smaller keeps a table's figures about as wide as Latin ones
    table_scale: float = 1.0

    def file(self, face: str) -> str:
        """The file of a registered name, in render/pdf/fonts/."""
        return dict(self.files)[face]

    def upright(self) -> tuple[str, ...]:
        """The faces every renderer registers: all but the italics (only the aid prints those)."""
        return tuple(dict.fromkeys((self.body, self.bold, self.condensed, self.condensed_medium, self.condensed_bold)))

    def italics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.italic, self.bold_italic, self.condensed_italic)))


# IBM Plex Sans and Sans Condensed: Latin with Latin Extended, Greek, Cyrillic.
LATIN = FaceSet(
    "IBM Plex Sans", "IBMPlexSans", "IBMPlexSans-Bold", "IBMPlexSans-Italic", "IBMPlexSans-BoldItalic",
    "IBMPlexSansCondensed", "IBMPlexSansCondensed-Medium", "IBMPlexSansCondensed-Bold", "IBMPlexSansCondensed-Italic",
    (("IBMPlexSans", "IBMPlexSans-Regular.ttf"), ("IBMPlexSans-Bold", "IBMPlexSans-Bold.ttf"),
     ("IBMPlexSans-Italic", "IBMPlexSans-Italic.ttf"), ("IBMPlexSans-BoldItalic", "IBMPlexSans-BoldItalic.ttf"),
     ("IBMPlexSansCondensed", "IBMPlexSansCondensed-Regular.ttf"),
     ("IBMPlexSansCondensed-Medium", "IBMPlexSansCondensed-Medium.ttf"),
     ("IBMPlexSansCondensed-Bold", "IBMPlexSansCondensed-Bold.ttf"),
     ("IBMPlexSansCondensed-Italic", "IBMPlexSansCondensed-Italic.ttf")),
    WEB_FONT, WEB_CONDENSED)
# IBM Plex Sans JP (its Latin is Plex Sans's): no condensed width and no italic, as Japanese
# type has neither, so those roles take the upright faces; lines break between any two
# characters but where Japanese kinsoku rules forbid.
JAPANESE = FaceSet(
    "IBM Plex Sans JP", "IBMPlexSansJP", "IBMPlexSansJP-Bold", "IBMPlexSansJP", "IBMPlexSansJP-Bold",
    "IBMPlexSansJP", "IBMPlexSansJP", "IBMPlexSansJP-Bold", "IBMPlexSansJP",
    (("IBMPlexSansJP", "IBMPlexSansJP-Regular.ttf"), ("IBMPlexSansJP-Bold", "IBMPlexSansJP-Bold.ttf")),
    WEB_JAPANESE, WEB_JAPANESE, "CJK",
    # the kit's minus (text.MINUS, U+2212): the JP faces have none; their figure dash is a digit wide
    # its tables 94% of the theme's: the survivors' nine columns fit their column, and at Letter's
    # 8.5 pt body (tables 7.5 pt) no table type is smaller than the footer's 7 pt
    (("\u2212", "\u2012"),), 0.94)
SCRIPT_FACES = {"ja": JAPANESE}     # by language; every other edition prints in LATIN


def edition_faces(lang: str) -> FaceSet:
    """The faces of the edition in `lang` (a catalogue's language: "ja", "pt_BR")."""
    return SCRIPT_FACES.get(lang.split("_", maxsplit=1)[0], LATIN)


# -- the web pages --------------------------------------------------------------------------
WEB_INK = "#1a1a1a"     # body text on screen: a shade off black; printed, the page uses BLACK
MUTED = "#444"          # the subtitle and the footer
LINK = "#1d4d8f"        # the release index's links
CHANGE_BAR = BLACK      # the web aid's change bars, in colour and --bw alike

# -- the PDFs' greys, as levels ---------------------------------------------------------------
GRID_LEVEL = 0.55       # table lines
FOOTER_LEVEL = 0.25     # the footer line
MARK_LEVEL = 0          # change bars and their key: pure K, one plate

# -- the pre-rolled tables' tints: light, so text stays black-on-light in greyscale; dropped with --bw
BAND = "#eef1f5"
KILLED_TINT = "#f7d9d4"
YES_TINT = "#dcefd8"


def grey_level(hex_colour: str) -> float | None:
    """The grey level of a neutral colour (r = g = b), which prints as pure K; None for a hue."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return r / 255 if r == g == b else None


def lays_ink(hex_colour: str) -> bool:
    """False for white: a white fill is left undrawn."""
    return hex_colour.lower() != WHITE


def short_hex(hex_colour: str) -> str:
    """'#ffffff' as CSS's short '#fff' where each channel's digits repeat; else as given."""
    digits = hex_colour[1:]
    if len(digits) == 6 and all(digits[i] == digits[i + 1] for i in (0, 2, 4)):
        return "#" + digits[0::2]
    return hex_colour
