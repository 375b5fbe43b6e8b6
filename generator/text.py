"""Text helpers every output shares: signs, year spans, fractions, truncation, lists.

One place, one ellipsis: the aid, the counters, the pre-rolled tables and the CLI all print
modifiers, spans and shortened names the same way.
"""

import re
from collections.abc import Sequence
from fractions import Fraction

ELLIPSIS = "\u2026"
MINUS = "\u2212"        # a typographic minus: modifiers read as modifiers (the font has the glyph)
_BREAKING = re.compile(r"[^\S\u00a0\u202f]+")     # whitespace a line may break at: all but the no-break spaces


def words_of(text: str) -> list[str]:
    """The pieces of `text` a line may break between: split at any whitespace but a no-break
    space (a tie, French spacing's narrow one: "33,3 %" holds), no empty piece."""
    return [word for word in _BREAKING.split(text) if word]


# A space a line must not break at: between a word (or an abbreviation's point, escaped or not)
# and the number after it ("note 8", "column 3", "прим. 8"), and between a count and the word after
# it ("5 men", "24 cards") where the count is not a reference's number already: a reference or a
# count split over two lines reads as two things, and a chain of ties ("column 3 reads 1") would not
# fit a narrow box.
_REFERENCE = re.compile(r"(?<=[^\W\d_]) (?=\d)|(?<=[^\W\d_]\.) (?=\d)|(?<=[^\W\d_]\\\.) (?=\d)")
_COUNT = re.compile(r"(?<![\w\u00a0.,\\])(\d+(?:\\?[.,]\d+)*) (?=[^\W\d_])")      # "871\.3": Markdown-escaped


def tie_numbers(text: str) -> str:
    """`text` with a no-break space inside each reference ("note 8") and count ("5 men")."""
    return _COUNT.sub("\\1\u00a0", _REFERENCE.sub("\u00a0", text))


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
