"""Every argparse converter: text from the command line -> a checked value, or one clear line."""

import argparse
from collections.abc import Callable
from fractions import Fraction

from generator.options import MAX_COUNTER_MM, MAX_SEED, MIN_COUNTER_MM, PARTS
from generator.units import MM_PER_INCH

SIZES_HELP = f"Use 5/8in, 3/4in, 1in, or {MIN_COUNTER_MM} to {MAX_COUNTER_MM} millimetres like 19mm."


def counter_size_mm(text: str) -> Fraction:
    """A size in inches ('5/8in', '3/4in', '1in') or millimetres ('16mm', '16') -> mm as a Fraction."""
    t = "".join(text.split()).lower()
    unit = t[-2:] if t[-2:] in ("in", "mm") else ""
    number = t[:len(t) - len(unit)]
    try:
        size = Fraction(number)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a counter size. {SIZES_HELP}") from None
    mm = size * MM_PER_INCH if unit == "in" else size
    if not MIN_COUNTER_MM <= mm <= MAX_COUNTER_MM:
        # A bare number meant as inches ('3/4') is tiny in mm: name the size that would work.
        meant = not unit and MIN_COUNTER_MM <= size * MM_PER_INCH <= MAX_COUNTER_MM
        raise argparse.ArgumentTypeError(
            f"{text!r} is {float(mm):g} mm, too {'small' if mm < MIN_COUNTER_MM else 'large'} for a counter."
            f"{f' Did you mean {number}in?' if meant else ''} {SIZES_HELP}")
    return mm


def back_offset_mm(text: str) -> tuple[Fraction, Fraction]:
    """'X,Y' in millimetres (each within +-10) -> (x, y) Fractions."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (Fraction(p.strip()) for p in parts)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not an offset; use X,Y in mm, like 0.5,-1") from None
    if abs(x) > 10 or abs(y) > 10:
        raise argparse.ArgumentTypeError(f"{text!r}: a back offset over 10 mm means the printer needs fixing")
    return x, y


def parts_list(text: str) -> tuple[str, ...]:
    """--only's comma list -> the parts it names, in build order."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        raise argparse.ArgumentTypeError(f"--only takes a comma list of {', '.join(PARTS)}; got {text!r}")
    return tuple(p for p in PARTS if p in parts)


def count(low: int, high: int) -> Callable[[str], int]:
    """A converter to a whole number from `low` to `high`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, got {value}")
        return value
    return parse


def seed(text: str) -> int:
    """A random seed, 0 to 2**63 - 1: Python's Random draws the same for -n as for n, so no negatives."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED}, got {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        why = f" (it would draw the same as {-value})" if value < 0 else ""
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED}, got {value}{why}")
    return value


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


# -- issue 19: editions ---------------------------------------------------------------------------

def language(text: str) -> str:
    """--lang of build: one language that has a catalogue (generator/content/locale/<lang>.po)."""
    from generator.content.words import available_languages
    lang = text.strip().lower()
    if lang not in available_languages():
        raise argparse.ArgumentTypeError(f"no catalogue for {text!r}; the kit has {', '.join(available_languages())}")
    return lang


def language_list(text: str) -> tuple[str, ...]:
    """--lang of release: a comma list of languages, each once, in the order given."""
    langs = [language(part) for part in text.split(",") if part.strip()]
    if not langs:
        raise argparse.ArgumentTypeError(f"--lang takes a comma list of languages, like en,de; got {text!r}")
    return tuple(dict.fromkeys(langs))
