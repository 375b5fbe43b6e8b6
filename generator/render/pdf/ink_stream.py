"""A content stream's colours rewritten as a print shop's inks, in the stream's own bytes.

What changes (shop_pdf.py's docstring says why): every RGB and grey colour operator becomes its
DeviceCMYK one (rg -> k, g -> k, and the strokes) through the press's output profile
(press_colour.py); text set in a grey (K alone, under 100%) is set in 100% K; a line stroked in a
tint (any ink under 100%) is stroked at least SCREENED_LINE wide; with `overprint`, text in 100% K
and lines stroked in 100% K overprint what lies beneath (a press's misregistration then leaves no
white gap round black type or a rule), by the ExtGStates of OVERPRINT_STATES, which the caller
puts in the stream's resources; every other fill and stroke knocks out as before.  To know that,
the rewrite follows the fill, the stroke, the line width and the overprint through q and Q, and
the text objects (BT ... ET).

Only those operators are read.  A content stream is a run of tokens, and the kit's renderers
(reportlab's canvas and platypus) write most of it as paths and text whose bytes never change
here, so the rewrite finds each operator it needs with one pattern, skipping strings, names,
comments and inline images whole, and copies every other byte as it was.  A page of counters
is tens of thousands of tokens; reading each as an object, as a general PDF library does, was
three quarters of a shop build.
"""

import re
from collections.abc import Iterable
from typing import cast

from generator.render.pdf.pdf_syntax import number as pdf_number
from generator.render.pdf.press_colour import Cmyk, cmyk_of_rgb

SCREENED_LINE = 0.5     # points: the thinnest line a shop prints in a tint
BLACK: Cmyk = (0.0, 0.0, 0.0, 1.0)

_DELIMITER = rb"\s()<>\[\]{}/%"
_NUMBER = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
_OPERATORS = rb"rg|RG|g|G|k|K|w|q|Q|BT|ET|cs|CS|scn|SCN|sc|SC|S|s|B\*|B|b\*|b|BI"
_TOKEN = re.compile(
    # what is skipped whole, so that nothing inside it reads as an operator
    rb"(?P<skip>%[^\r\n]*|\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>|/[^" + _DELIMITER + rb"]*)"
    # an operator the rewrite follows, with the numbers before it (its operands)
    rb"|(?<![^" + _DELIMITER + rb"])(?P<args>(?:" + _NUMBER + rb"\s+)*+)(?P<op>" + _OPERATORS + rb")"
    rb"(?![^" + _DELIMITER + rb"])"
    # a string holding unescaped parentheses, which the pattern above cannot balance
    rb"|(?P<open>\()", re.S)
_IMAGE_DATA = re.compile(rb"\sID\s")
_IMAGE_END = re.compile(rb"\sEI(?![^" + _DELIMITER + rb"])")
STROKES = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
# (stroke overprint, fill overprint) -> the ExtGState that sets both, with overprint mode 1 (a
# CMYK colour's zero inks leave the plates beneath as they are): both flags always given, since
# an ExtGState's OP alone sets the fill's overprint too (PDF 32000-1, 8.6.7)
OVERPRINT_STATES = {(stroke, fill): f"OP{int(stroke)}{int(fill)}".encode()
                    for stroke in (False, True) for fill in (False, True)}
_FILL_SPACE, _STROKE_SPACE = {b"cs", b"scn", b"sc"}, {b"CS", b"SCN", b"SC"}
_COLOURS = {b"rg", b"RG", b"g", b"G", b"k", b"K"}
_OVERPRINT_CHANGES = _COLOURS | {b"BT", b"ET", b"Q"}     # where the overprint a stream wants can change


def overprint_states() -> str:
    """OVERPRINT_STATES as the entries of a resource dictionary's /ExtGState, in PDF syntax."""
    return " ".join(f"/{name.decode()} << /Type /ExtGState /OP {str(stroke).lower()} /op {str(fill).lower()} "
                    f"/OPM 1 >>" for (stroke, fill), name in OVERPRINT_STATES.items())


def screened(inks: Cmyk | None) -> bool:
    """Whether a colour is a tint: some ink laid at under 100% (a press screens it)."""
    return inks is not None and any(0 < v < 1 for v in inks)


def grey_tint(inks: Cmyk | None) -> bool:
    """A grey the kit prints as K alone, under 100%."""
    return inks is not None and inks[:3] == (0, 0, 0) and 0 < inks[3] < 1


def number(value: float) -> bytes:
    """A number as the pages print one (pdf_stream.number), as bytes of the stream."""
    return pdf_number(value).encode()


def numbers(values: Iterable[float]) -> bytes:
    return b" ".join(number(v) for v in values)


def in_inks(data: bytes, overprint: bool = False) -> bytes:
    """The content stream `data` (decoded) with its colours as the shop prints them; with
    `overprint`, black text and lines overprinting (the module's docstring)."""
    ink = _InkState(overprint)
    out: list[bytes] = []
    copied = position = 0
    while (found := _TOKEN.search(data, position)) is not None:
        position = found.end()
        if found.group("skip") is not None:
            continue
        if found.group("open") is not None:
            position = _string_end(data, found.start())
            continue
        operator = found.group("op")
        if operator == b"BI":
            position = _image_end(data, position)
            continue
        operands = found.group("args").split()
        replaced = ink.step([float(v) for v in operands], operator)
        if replaced is None:
            continue
        # a colour is written anew with its operands; any other operator keeps what comes before it
        start = found.start() if operator in _COLOURS else found.start("op")
        out += [data[copied:start], replaced]
        copied = position
    out.append(data[copied:])
    return b"".join(out)


def _string_end(data: bytes, start: int) -> int:
    """Just past the literal string opening at `start`, its parentheses balanced."""
    depth, i = 0, start
    while i < len(data):
        ch = data[i]
        if ch == 0x5C:      # a backslash escapes the next byte
            i += 2
            continue
        depth += (ch == 0x28) - (ch == 0x29)
        i += 1
        if depth == 0:
            return i
    return len(data)


def _image_end(data: bytes, start: int) -> int:
    """Just past an inline image's EI: its data may hold any byte."""
    begin = _IMAGE_DATA.search(data, start)
    end = _IMAGE_END.search(data, begin.end()) if begin is not None else None
    return end.end() if end is not None else len(data)


class _InkState:
    """The fill, stroke, line width and overprint along a content stream (q and Q included), and
    what sets text in 100% K, widens tinted lines and overprints black."""

    def __init__(self, overprint: bool) -> None:
        # the stream's own colours; None: a colour space of its own (the CutContour separation)
        self.fill: Cmyk | None = BLACK
        self.stroke: Cmyk | None = BLACK
        self.width = 1.0
        self.text = False
        self.overprint = overprint
        # the (stroke, fill) overprint in force; None: as the stream was invoked (a form's is its caller's)
        self.overprinting: tuple[bool, bool] | None = None
        self.saved: list[tuple[Cmyk | None, Cmyk | None, float, tuple[bool, bool] | None]] = []

    def step(self, operands: list[float], operator: bytes) -> bytes | None:
        """What the operation (its operands and operator) is written as for the shop; None: as it was."""
        replaced = self._step(operands, operator)
        if not self.overprint or operator not in _OVERPRINT_CHANGES:
            return replaced
        wanted = (self.stroke == BLACK, self.text and (self.fill == BLACK or grey_tint(self.fill)))
        if wanted == self.overprinting:
            return replaced
        self.overprinting = wanted
        if replaced is None:
            replaced = numbers(operands) + b" " + operator if operator in _COLOURS else operator
        return replaced + b" /" + OVERPRINT_STATES[wanted] + b" gs"

    def _step(self, operands: list[float], operator: bytes) -> bytes | None:
        if operator in (b"rg", b"RG") and len(operands) == 3:
            return self._colour(cmyk_of_rgb(*operands), operator == b"rg")
        if operator in (b"g", b"G") and len(operands) == 1:
            return self._colour(cmyk_of_rgb(operands[0], operands[0], operands[0]), operator == b"g")
        if operator in (b"k", b"K") and len(operands) == 4:
            return self._colour(cast(Cmyk, tuple(operands)), operator == b"k", given=True)
        if operator in (b"q", b"Q"):
            self._save(operator)
        elif operator in _FILL_SPACE:
            self.fill = None
        elif operator in _STROKE_SPACE:
            self.stroke = None
        elif operator == b"w" and len(operands) == 1:
            self.width = operands[0]
        elif operator in (b"BT", b"ET"):
            return self._text(operator)
        elif operator in STROKES and screened(self.stroke) and self.width < SCREENED_LINE:
            return b"%s w %s %s w" % (number(SCREENED_LINE), operator, number(self.width))
        return None

    def _save(self, operator: bytes) -> None:
        if operator == b"q":
            self.saved.append((self.fill, self.stroke, self.width, self.overprinting))
        elif self.saved:
            self.fill, self.stroke, self.width, self.overprinting = self.saved.pop()

    def _colour(self, inks: Cmyk, fill: bool, given: bool = False) -> bytes | None:
        """A colour noted; written as CMYK, and a grey fill inside a text object as 100% K."""
        if not fill:
            self.stroke = inks
            return None if given else numbers(inks) + b" K"
        self.fill = inks
        if self.text and grey_tint(inks):
            return numbers(BLACK) + b" k"
        return None if given else numbers(inks) + b" k"

    def _text(self, operator: bytes) -> bytes | None:
        """BT sets a grey fill to 100% K for the text object; ET puts the grey back."""
        begin = operator == b"BT"
        self.text = begin
        if not grey_tint(self.fill):
            return None
        if begin:
            return b"BT " + numbers(BLACK) + b" k"
        return b"ET " + numbers(cast(Cmyk, self.fill)) + b" k"
