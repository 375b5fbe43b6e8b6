"""Every argparse converter: text from the command line -> a checked value, or one clear line."""

import argparse
import re
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from generator.options import MAX_COUNTER_MM, MAX_SEED, MIN_COUNTER_MM, RANDOM_SEED
from generator.profiles import registry
from generator.suggest import refusal, suggestion_by_names
from generator.units import MM_PER_INCH

if TYPE_CHECKING:
    from urllib.parse import SplitResult

# Each unit --counter-size takes, in millimetres.
UNITS_MM: dict[str, Fraction] = {"mm": Fraction(1), "cm": Fraction(10), "in": MM_PER_INCH}
# The smallest size is 5/8in, where every edition's counter words still fit (5 pt at the least).
SIZE_RANGE = f"any size from 5/8in ({float(MIN_COUNTER_MM):g} mm) to {MAX_COUNTER_MM} mm"
SIZES_HELP = f"Use 5/8in, 3/4in, 1in, or {SIZE_RANGE} in mm, cm or in, like 19mm, 2cm, 0.75in (a bare number is mm)."
MAX_OFFSET_MM = 10
OFFSET_HELP = f"Use X,Y in mm, each from -{MAX_OFFSET_MM} to {MAX_OFFSET_MM}, like 0.5,-1."
# A plain decimal (optionally with an exponent) or a fraction: read as text first, so that no
# number reaches arithmetic before its size is known (Fraction('1e99999999') would compute a
# hundred-million-digit integer first).
_NUMBER = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")
_RATIO = re.compile(r"([+-]?\d{1,6})/(\d{1,6})")
_MAX_DIGITS = 12        # far more than any length can mean here


def bounded_number(text: str, largest: int) -> Fraction | None:
    """`text` as an exact Fraction when it is a number no larger than `largest` in size (whole
    digits before any arithmetic), else None.  '0.75', '19', '-1.5', '3/4', '1.9e1'."""
    ratio = _RATIO.fullmatch(text)
    if ratio:
        return Fraction(int(ratio[1]), int(ratio[2])) if int(ratio[2]) else None
    match = _NUMBER.fullmatch(text)
    if not match or not (match[2] or match[3]):
        return None
    whole, tail = match[2].lstrip("0"), match[3] or ""
    if len(whole) + len(tail) > _MAX_DIGITS:
        return None
    if len(match[4] or "") > 3:     # an exponent of four digits or more: zero, or far too large
        return Fraction(0) if match[4].startswith("-") else None
    exponent = int(match[4] or 0)
    if whole and len(whole) + exponent > len(str(largest)):     # too many digits before the point
        return None
    if not whole and exponent > len(str(largest)) + len(tail):
        return None
    if exponent < -_MAX_DIGITS:
        return Fraction(0)      # smaller than anything a limit can tell from zero
    return Fraction(f"{match[1]}{match[2] or 0}.{tail or 0}e{exponent}")


def counter_size_mm(text: str) -> Fraction:
    """A size in inches ('5/8in', '3/4in', '0.75in'), centimetres ('2cm', '2 cm') or millimetres
    ('16mm', '20 mm', '16') -> mm as a Fraction, within MIN_COUNTER_MM to MAX_COUNTER_MM."""
    t = "".join(text.split()).lower()
    unit = t[-2:] if t[-2:] in UNITS_MM else ""
    number = t[:len(t) - len(unit)]
    size = bounded_number(number, MAX_COUNTER_MM * 100) if len(t) <= 40 else None
    if size is None:
        large = _NUMBER.fullmatch(number) and number[:1] != "-"
        what = "far too large for a counter" if large else "not a counter size"
        raise argparse.ArgumentTypeError(f"{_shown(text)} is {what}. {SIZES_HELP}") from None
    mm = size * UNITS_MM[unit or "mm"]
    if not MIN_COUNTER_MM <= mm <= MAX_COUNTER_MM:
        # A bare number meant as inches ('3/4') is tiny in mm: name the size that would work.
        meant = not unit and MIN_COUNTER_MM <= size * MM_PER_INCH <= MAX_COUNTER_MM
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is {float(mm):g} mm, too {'small' if mm < MIN_COUNTER_MM else 'large'} for a counter."
            f"{f' Did you mean {number}in?' if meant else ''} {SIZES_HELP}")
    return mm


def back_offset_mm(text: str) -> tuple[Fraction, Fraction]:
    """'X,Y' in millimetres (each within +-MAX_OFFSET_MM; '0.5mm,-1mm' too) -> (x, y) Fractions."""
    parts = ["".join(p.split()).lower().removesuffix("mm") for p in text.split(",")] if len(text) <= 60 else []
    numbers = [bounded_number(p, MAX_OFFSET_MM * 1000) for p in parts]
    if len(numbers) != 2 or None in numbers:
        far = len(numbers) == 2 and all(_NUMBER.fullmatch(p) or _RATIO.fullmatch(p) for p in parts if p)
        what = f"far more than {MAX_OFFSET_MM} mm" if far and all(parts) else "not an offset"
        raise argparse.ArgumentTypeError(f"{_shown(text)} is {what}. {OFFSET_HELP}") from None
    x, y = (n for n in numbers if n is not None)
    if abs(x) > MAX_OFFSET_MM or abs(y) > MAX_OFFSET_MM:
        raise argparse.ArgumentTypeError(f"{_shown(text)}: a back offset over {MAX_OFFSET_MM} mm means the printer "
                                         f"needs fixing, not the counters. {OFFSET_HELP}")
    return x, y


def _shown(text: str) -> str:
    """`text` quoted for a message, cut to 40 characters (an argument may be a megabyte long)."""
    return repr(text if len(text) <= 40 else text[:40] + "...")


def choice(accepted: tuple[str, ...], *, what: str) -> Callable[[str], str]:
    """A converter to one of `accepted` (any case), or a refusal that lists them and the closest."""
    def parse(text: str) -> str:
        if text.lower() in accepted:
            return text.lower()
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not {what}; {refusal(text.lower(), accepted)}")
    return parse


def parts_list(text: str) -> tuple[str, ...]:
    """--only's comma list -> the parts it names (the output registry's), in build order."""
    from generator.make.outputs import parts as registered
    known = registered()
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in known]
    if bad or not parts:
        hint = (f"{_shown(bad[0])} is not a part; {refusal(bad[0], known)}" if bad
                else f"{_shown(text)} names no part; accepted: {', '.join(known)}")
        raise argparse.ArgumentTypeError(f"{hint} (a comma list of them, like aid,counters)")
    return tuple(p for p in known if p in parts)


def jobs(text: str) -> int:
    """--jobs: a whole number of processes of at least 1, or `auto` for as many as the cores."""
    if text.strip().lower() == "auto":
        from generator.make.workers import usable_cores
        return usable_cores()
    value = _integer(text, "a whole number of at least 1, or auto")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, or auto; got {value}")
    return value


def count(low: int, high: int) -> Callable[[str], int]:
    """A converter to a whole number from `low` to `high`."""
    def parse(text: str) -> int:
        value = _integer(text, f"a whole number from {low:,} to {high:,}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low:,} to {high:,}, got {value:,}")
        return value
    return parse


def _integer(text: str, wanted: str) -> int:
    """int(text), its length checked first (int() of 5,000 digits is refused, of 4,000 slow)."""
    digits = text.strip().lstrip("+-").lstrip("0")
    if len(digits) > 20:
        raise argparse.ArgumentTypeError(f"expected {wanted}, got a number of {len(digits):,} digits")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {_shown(text)}") from None


def seed(text: str) -> int:
    """A random seed, 0 to 2**63 - 1: Python's Random draws the same for -n as for n, so no negatives.
    "random" gives RANDOM_SEED, for options_from_args to draw a private one."""
    if text.strip().lower() == "random":
        return RANDOM_SEED
    value = _integer(text, f"a seed, a whole number from 0 to {MAX_SEED}, or random")
    if not 0 <= value <= MAX_SEED:
        why = f" (it would draw the same as {-value})" if value < 0 else ""
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED}, got {value}{why}")
    return value


def positive(text: str) -> int:
    """A whole number of at least 1."""
    value = _integer(text, "a whole number of at least 1")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {value}")
    return value


def whole(text: str) -> int:
    """Any whole number (the commands check their own ranges)."""
    return _integer(text, "a whole number")


def print_profiles(text: str) -> tuple[str, ...]:
    """release --print's comma list -> the profiles it names, first as given, no repeats."""
    names = [p.strip().lower() for p in text.split(",") if p.strip()]
    bad = [p for p in names if p not in registry.names()]
    if bad or not names:
        hint = (f"{_shown(bad[0])} is not a print profile; {refusal(bad[0], registry.names())}" if bad
                else f"{_shown(text)} names no print profile; accepted: {', '.join(registry.names())}")
        raise argparse.ArgumentTypeError(f"{hint} (a comma list of them, like duplex,fold)")
    return tuple(dict.fromkeys(names))


# -- the edition's label -----------------------------------------------------------------------

MAX_LABEL = 40      # an edition name shares the footer line with the version, stamp, paper and page


def label_text(text: str) -> str:
    """--label TEXT: a short edition name on one line, printed beside the stamp in every footer."""
    shown = " ".join(text.split())
    if not shown or not shown.isprintable():
        raise argparse.ArgumentTypeError(f"a label is printable text on one line, got {text!r}")
    if len(shown) > MAX_LABEL:
        raise argparse.ArgumentTypeError(f"a label fits the footer in {MAX_LABEL} characters; got {len(shown)}")
    from generator.render.pdf.canvas import LATIN
    from generator.render.pdf.glyphs import unprintable  # the font, only when a label is given
    lacking = unprintable(shown)
    if lacking:
        raise argparse.ArgumentTypeError(f"a label prints in every footer, and the kit's font ({LATIN.name}) cannot "
                                         f"print {lacking}; write it another way")
    return shown


# -- editions -----------------------------------------------------------------------------------

def language(text: str) -> str:
    """--lang of build: one language that has a catalogue (generator/content/locale/<lang>.po)."""
    from generator.content.words import available_languages
    # A catalogue's own spelling, found in any case and with - or _ (gettext names a regional
    # catalogue pt_BR.po; a web page's tag is pt-BR)
    asked = text.strip().lower().replace("-", "_")
    lang = next((known for known in available_languages() if known.lower() == asked), None)
    if lang is None:
        from generator.content.words import language_names
        hint = suggestion_by_names(text, {known: language_names(known) for known in available_languages()})
        if "," in text:         # a release's comma list given to a command that makes one edition
            hint = "one language here (bailout release takes a comma list);"
        raise argparse.ArgumentTypeError(f"no catalogue for {_shown(text)}; {hint + ' ' if hint else ''}"
                                         f"the kit has {', '.join(available_languages())}")
    return lang


def language_list(text: str) -> tuple[str, ...]:
    """--lang of release: a comma list of languages, each once, in the order given."""
    langs = [language(part) for part in text.split(",") if part.strip()]
    if not langs:
        from generator.content.words import available_languages
        raise argparse.ArgumentTypeError(f"{_shown(text)} names no language; the kit has "
                                         f"{', '.join(available_languages())} (a comma list of them, like en,de)")
    return tuple(dict.fromkeys(langs))


MAX_URL = 2000      # far more than a host and a folder need
# What an address may hold as it is (RFC 3986's unreserved and reserved characters, and '%' of an
# escape): no space, quote, angle bracket or control character, which TTS would read otherwise.
_URL_CHARS = re.compile(r"[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_FOLDER_HINT = "give an http://, https:// or file:// folder's address, like https://example.org/bailout/"


def image_url(text: str) -> str:
    """--image-url: a web address (http or https) or a file:// folder of this computer the
    Tabletop Simulator object's files are loaded from; returned ending in '/'."""
    if len(text) > MAX_URL or not _URL_CHARS.fullmatch(text) or _BAD_ESCAPE.search(text):
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not an address: give one like "
                                         f"https://example.org/bailout/ (a space is %20, a % starts an escape "
                                         f"like %25; at most {MAX_URL} characters)")
    problem = _folder_address_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a folder's address: {problem}; {_FOLDER_HINT}")
    return text if text.endswith("/") else text + "/"


def _folder_address_problem(text: str) -> str | None:
    """Why `text` cannot be the folder every file's address starts with (None when it can).  Each
    file's path is added at its end, so a '?' or '#' would turn the paths into a query and a '.'
    or '..' part would point elsewhere; the saved object is shared, so a user name or password in
    it would be shared too; a file:// address of another computer (file://host/ or
    file:////host/) would have TTS open a network share."""
    from urllib.parse import unquote, urlsplit
    parts = urlsplit(text)
    if "?" in text or "#" in text:
        return "it holds a ? or #"
    if any(unquote(part) in (".", "..") for part in parts.path.split("/")):
        return "it holds a . or .. part"
    if parts.scheme in ("http", "https"):
        return _web_host_problem(parts)
    if parts.scheme == "file":
        local = parts.netloc in ("", "localhost") and parts.path.startswith("/") and not parts.path.startswith("//")
        return None if local else "a file:// address names a folder of this computer (file:///...)"
    return f"its scheme is {parts.scheme}" if parts.scheme else "it has no scheme"


def _web_host_problem(parts: "SplitResult") -> str | None:
    if "@" in parts.netloc:
        return "it holds a user name or password, which everyone given the object would read"
    try:
        parts.port      # noqa: B018  (reading it checks it)
    except ValueError:
        return "its port is not a number up to 65535"
    return None if parts.hostname else "no host"
