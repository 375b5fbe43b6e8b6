"""Build options: declared once for the CLI, parsed into plain values any layer may read."""

import argparse
import os
from dataclasses import dataclass
from fractions import Fraction

from .errors import UsageError
from .outputs import PARTS

PAPERS = ("a4", "letter")
MM_PER_INCH = Fraction(254, 10)
NAMED_SIZES = {"5/8in": Fraction(5, 8), "3/4in": Fraction(3, 4), "1in": Fraction(1)}
MIN_COUNTER_MM, MAX_COUNTER_MM = 10, 40
SIZES_HELP = f"Use 5/8in, 3/4in, 1in, or {MIN_COUNTER_MM} to {MAX_COUNTER_MM} millimetres like 19mm."


def counter_size_mm(text):
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


def back_offset_mm(text):
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


def parts_list(text):
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        raise argparse.ArgumentTypeError(f"--only takes a comma list of {', '.join(PARTS)}; got {text!r}")
    return tuple(p for p in PARTS if p in parts)


def _count(low, high):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, got {value}")
        return value
    return parse


DEFAULT_SEED = 871
MAX_SEED = 2 ** 63 - 1


def seed(text):
    """A random seed, 0 to 2**63 - 1: Python's Random draws the same for -n as for n, so no negatives."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED}, got {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        why = f" (it would draw the same as {-value})" if value < 0 else ""
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {MAX_SEED}, got {value}{why}")
    return value
# The last second a PDF date (D:YYYYMMDDHHmmSS, four-digit year) can hold: 9999-12-31 23:59:59 UTC.
MAX_EPOCH = 253_402_300_799


def check_source_date_epoch(environ=os.environ):
    """reportlab reads SOURCE_DATE_EPOCH for the embedded dates; a bad one would crash it there.

    Whole seconds in ASCII digits only ('²' passes str.isdigit, int() refuses it), checked by
    length before int() (5,000 digits exceed Python's int-from-text limit) and within what a
    PDF date can say (time.gmtime overflows far sooner than 20 digits).
    """
    raw = environ.get("SOURCE_DATE_EPOCH", "")
    epoch = raw.strip()
    if not epoch:
        return
    digits = epoch.lstrip("0")
    if not (epoch.isascii() and epoch.isdigit()) or len(digits) > len(str(MAX_EPOCH)) or int(digits or 0) > MAX_EPOCH:
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        raise UsageError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, 0 to {MAX_EPOCH} "
                         f"(9999-12-31), got {shown!r}")


def add_build_options(p, *, release=False):
    """The build options; a release always holds every part for both papers and lands in dist/."""
    if release:
        p.add_argument("--out", default="dist", metavar="DIR", help="where the zip lands (default dist/)")
    else:
        p.add_argument("--paper", type=str.lower, choices=PAPERS + ("both",), default="both",
                       help="a4, letter or both (default)")
        p.add_argument("--out", default="output", metavar="DIR", help="where outputs land (default output/)")
        p.add_argument("--only", type=parts_list, default=PARTS, metavar="PARTS",
                       help="comma list of aid,prerolled,counters (default: all)")
        p.add_argument("--since", metavar="OLD", default=None,
                       help="mark what changed since OLD (a data folder, or git:REV) on the player aid: "
                            "a list of the changes and a bar beside each")
    p.add_argument("--bw", action="store_true", help="ink-saving black-and-white version")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    g = p.add_argument_group("pre-rolled tables")
    g.add_argument("--rows", type=_count(1, 1_000_000), default=None,
                   help="rows to print (default: whole blocks, about 200)")
    g.add_argument("--seed", type=seed, default=DEFAULT_SEED,
                   help=f"random seed (default {DEFAULT_SEED})")
    g.add_argument("--mode", choices=("balanced", "independent"), default="balanced")
    g = p.add_argument_group("counters")
    g.add_argument("--counter-size", type=counter_size_mm, default=NAMED_SIZES["3/4in"] * MM_PER_INCH,
                   metavar="SIZE", help="5/8in, 3/4in (default), 1in, or millimetres like 19mm")
    g.add_argument("--back-offset", type=back_offset_mm, default=(Fraction(0), Fraction(0)),
                   metavar="X,Y", help="shift the backs by X,Y mm to match your printer")
    g.add_argument("--sets", type=_count(1, 20), default=2,
                   help="sets of crew markers per nationality, one marker per crew member (default 2)")
    g.add_argument("--no-fill", action="store_true",
                   help="leave the last sheet's spare cells empty (default: more crews and markers)")


@dataclass(frozen=True)
class BuildOptions:
    """What a build was asked for, independent of argparse (tests build these directly)."""
    papers: tuple = PAPERS
    parts: tuple = PARTS
    bw: bool = False
    rows: int | None = None
    seed: int = DEFAULT_SEED
    mode: str = "balanced"
    counter_mm: Fraction = NAMED_SIZES["3/4in"] * MM_PER_INCH
    back_offset_mm: tuple = (Fraction(0), Fraction(0))
    sets: int = 2
    fill: bool = True       # spare cells of the last counter sheet take more crews and markers
    since: str | None = None    # build --since OLD: a data folder or git:REV

    @classmethod
    def from_args(cls, args):
        paper = getattr(args, "paper", "both")      # a release has no --paper or --only: it holds all
        papers = PAPERS if paper == "both" else (paper,)
        return cls(papers, getattr(args, "only", PARTS), args.bw, args.rows, args.seed, args.mode, args.counter_size,
                   args.back_offset, args.sets, not args.no_fill, getattr(args, "since", None))
