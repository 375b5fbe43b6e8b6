"""Text helpers every output shares: signs, year spans, fractions, truncation, lists.

One place, one ellipsis: the aid, the counters, the pre-rolled tables and the CLI all print
modifiers, spans and shortened names the same way.
"""

import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction

ELLIPSIS = "\u2026"
MINUS = "\u2212"        # a typographic minus: modifiers read as modifiers (the font has the glyph)
_BREAKING = re.compile(r"[^\S\u00a0\u202f]+")     # whitespace a line may break at: all but the no-break spaces


def words_of(text: str) -> list[str]:
    """The pieces of `text` a line may break between: split at any whitespace but a no-break
    space (a tie, French spacing's narrow one: "33,3 %" holds), no empty piece."""
    return [word for word in _BREAKING.split(text) if word]


# Japanese line breaking (kinsoku shori, JIS X 4051, as reportlab's wordWrap="CJK" applies it in
# the aid's paragraphs): a line may break between two characters where either is a wide one (kanji,
# kana, full-width marks), except before a mark that must not start a line (closing brackets and
# quotes, the ideographic comma and full stop, small kana, the prolonged sound mark) or after one
# that must not end it (opening brackets and quotes).
CANNOT_START = set("、。，．・：；？！゛゜ヽヾゝゞ々〻ー‐—―〜…‥ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
                   "）〕］｝〉》」』】〙〗〟’”｠»)]}!?,.:;%‰℃°′″％")
CANNOT_END = set("（〔［｛〈《「『【〘〖〝‘“｟«([{")


NO_BREAK_SPACES = ("\u00a0", "\u202f")
FULL_STOPS = ".\u3002\uff0e"     # the Latin full stop, the ideographic one and its full-width form


def without_full_stop(text: str) -> str:
    """`text` without the full stop that ends it ("…a rifle instead." -> "…a rifle instead",
    "…小銃を持つ。" -> "…小銃を持つ"): a sentence a message goes on to cite a note after, and ends
    as its language does."""
    text = text.rstrip()
    return text[:-1] if text.endswith(tuple(FULL_STOPS)) else text


def is_wide(char: str) -> bool:
    """Whether `char` is set one em wide in East Asian text (kanji, kana, full-width marks)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def has_wide(text: str) -> bool:
    return any(is_wide(char) for char in text)


def columns(text: str) -> int:
    """The columns `text` takes in a plain-text file or a terminal: two for a wide character."""
    return sum(2 if is_wide(char) else 1 for char in text)


def fill_pieces(text: str, width: int) -> list[str]:
    """`text` filled to lines of at most `width` columns (a longer piece has a line of its own),
    broken where line_pieces allows."""
    out, line = [], ""
    for piece in line_pieces(text, phrases=True):
        word = piece.lstrip(" ")
        if line and columns(line + piece) > width:
            out.append(line)
            line = word
        else:
            line = line + piece if line else word
    return [*out, line] if line else out


def is_hiragana(char: str) -> bool:
    return "\u3041" <= char <= "\u309f"


def _phrase_ends(previous: str, char: str) -> bool:
    """Whether a Japanese phrase ends between `previous` and `char`: after its particles (the
    hiragana after a word: "乗員が|別の|レンジチットへ|移動時"), after a comma, full stop or
    colon, after a closing bracket but for the particle after it ("（Hero）が"), and before an
    opening bracket.  Latin letters and figures are a word as kanji are ("ルール33を|除く")."""
    kind = unicodedata.category(previous)
    if kind == "Po" or char in CANNOT_END:
        return True
    if kind in ("Pe", "Pf"):
        return not is_hiragana(char)
    return is_hiragana(previous) and not is_hiragana(char)


def _may_break(previous: str, char: str, *, space: bool, phrases: bool) -> bool:
    """Whether a line may break before `char`, after `previous` (and a breaking space between
    them, with `space`): see line_pieces."""
    return space or (bool(previous) and (is_wide(previous) or is_wide(char))
                     and char not in CANNOT_START and previous not in CANNOT_END
                     and "\u00a0" not in (char, previous)
                     and not (previous.isdigit() and unicodedata.category(char) == "Lo")
                     and (not phrases or _phrase_ends(previous, char)))


def line_pieces(text: str, *, phrases: bool = False) -> list[str]:
    """The pieces of `text` a line may break between, each with the space before it (if any):
    at plain spaces (a no-break space holds), and between wide characters as kinsoku allows;
    with `phrases`, only where a Japanese phrase ends too (_phrase_ends).  Joined, they give
    `text` back, its runs of breaking whitespace one plain space."""
    first = next((i for i, char in enumerate(text) if not _breaking_space(char)), None)
    if first is None:
        return []
    starts = [first, *break_starts(text, phrases=phrases)]
    pieces = []
    for start, stop in zip(starts, [*starts[1:], len(text)], strict=True):
        end = next(i for i in range(stop, start, -1) if not _breaking_space(text[i - 1]))     # the spaces after it go
        pieces.append((" " if start > first and _breaking_space(text[start - 1]) else "") + text[start:end])
    return pieces


def break_starts(text: str, *, phrases: bool = False) -> list[int]:
    """The indices in `text` a line may start at: the first character after a plain space (a
    no-break space holds) or, between wide characters, where kinsoku allows (and with `phrases`
    only where a Japanese phrase ends too); never the first character."""
    starts: list[int] = []
    previous, space = "", False
    for i, char in enumerate(text):
        if _breaking_space(char):
            space = bool(previous)
            continue
        if previous and _may_break(previous, char, space=space, phrases=phrases):
            starts.append(i)
        previous, space = char, False
    return starts


def _breaking_space(char: str) -> bool:
    return char not in NO_BREAK_SPACES and char.isspace()


def filled_line_starts(text: str, advances: Sequence[float], widths: Sequence[float]) -> list[int]:
    """Where each line of `text` after the first starts, filled greedily: as many characters
    (`advances`, one width each) as fit each line's width (`widths`, the last for the lines
    after), broken only where break_starts allows, or between any two characters where no
    allowed break leaves a line its width; no character hangs past it (a space at a line's end
    is never measured).  A newline in `text` starts a line of its own and is no start here."""
    allowed = set(break_starts(text))
    starts: list[int] = []
    start, line, latest = 0, 0, 0

    def limit() -> float:
        return widths[min(line, len(widths) - 1)] + 1e-6

    for i, char in enumerate(text):
        if char == "\n":
            start, line, latest = i + 1, line + 1, 0
            continue
        if i in allowed and i > start:
            latest = i
        if char.isspace():
            continue
        while i > start and sum(advances[start:i + 1]) > limit():
            start = latest if latest > start else i
            starts.append(start)
            line += 1
    return starts


# A space a line must not break at: between a word (or an abbreviation's point, escaped or not)
# and the number after it ("note 8", "column 3", "прим. 8"), and between a count and the word after
# it ("5 men", "24 cards") where the count is not a reference's number already: a reference or a
# count split over two lines reads as two things, and a chain of ties ("column 3 reads 1") would not
# fit a narrow box.  A number that starts a product ("give 2 × 3 × 4") is no reference's: the verb
# before it may end a line.
_REFERENCE = re.compile(r"(?<=[^\W\d_]) (?=\d)(?!\d+\s×)|(?<=[^\W\d_]\.) (?=\d)|(?<=[^\W\d_]\\\.) (?=\d)"
                        r"|(?<=\d:) (?=\d)")       # ... and a column and what it reads ("3: 1")
# ... and between a word and the modifier after it ("the AFV's \u22122", "CCV +1", its plus escaped
# in Markdown as "CCV \+1"): the sign alone at a line's start reads as a dash or a sum.
_MODIFIER = re.compile(r"(?<=[^\W\d_]|['\u2019]) (?=\\?[\u2212+\u00b1]\d)")
# A count starts after a space or a mark, or right after a wide character: Japanese sets no space
# before it ("中心から1.5 mm以内").
_COUNT = re.compile(r"(?<![^\W\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]|[\u00a0.,\\])(\d+(?:\\?[.,]\d+)*) "
                    r"(?=[^\W\d_])")      # "871\.3": Markdown-escaped
# ... and between a length and its millimetres, even where the length is tied to the word before it
# ("within 1.5 mm"): a unit alone at a line's start reads as a word of its own.
_UNIT = re.compile(r"(?<=\d) (?=mm\b)")
# ... and on either side of an equals sign between numbers ("2 × 3 × 4 = 24"): a line ending in
# "=" or starting with it reads as an unfinished or a new sum.
_EQUALS = re.compile(r"(?<=\d) (?== \d)|(?<=\d =) (?=\d)")


def tie_numbers(text: str) -> str:
    """`text` with a no-break space inside each reference ("note 8") and count ("5 men"), before
    a modifier ("the AFV's \u22122") and a length's unit ("1.5 mm"), and around an equals sign
    between numbers ("4 = 24")."""
    tied = _MODIFIER.sub("\u00a0", _COUNT.sub("\\1\u00a0", _REFERENCE.sub("\u00a0", text)))
    return _UNIT.sub("\u00a0", _EQUALS.sub("\u00a0", tied))


# A straight apostrophe inside a word ("AFV's") or after a plural's s ("cards' Morale").
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])|(?<=s)'(?=[\s.,;:)]|$)")


def curly_apostrophes(text: str) -> str:
    """`text` with each straight apostrophe the typographic one (\u2019), as its curly quotes are."""
    return _APOSTROPHE.sub("\u2019", text)


def signed(n: int) -> str:
    """A modifier: '+1', '\u22122', '\u00b10'."""
    return f"+{n}" if n > 0 else (f"{MINUS}{-n}" if n < 0 else "\u00b10")


def year_span(first: int, last: int) -> str:
    """'1942', '1939\u201345', '1999\u20132001'."""
    if first == last:
        return str(first)
    tail = str(last)[2:] if str(first)[:2] == str(last)[:2] else str(last)
    return f"{first}\u2013{tail}"


def fraction_text(p: Fraction | int) -> str:
    """An exact chance as '1/3' (a whole number as '1')."""
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def truncate(text: str, limit: int) -> str:
    """`text` on one line, at most `limit` characters, ending in an ellipsis when cut."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + ELLIPSIS


def or_list(names: Sequence[str]) -> str:
    """'a, b or c': a list in the command line's English (help texts, the project file); a
    printed list joins with its catalogue's 'or' instead."""
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)
