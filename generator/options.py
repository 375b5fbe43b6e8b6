"""Build options: declared once for the CLI, parsed into plain values any layer may read."""

import argparse
from dataclasses import dataclass
from fractions import Fraction

from .outputs import PARTS

PAPERS = ("a4", "letter")
MM_PER_INCH = Fraction(254, 10)
NAMED_SIZES = {"5/8in": Fraction(5, 8), "3/4in": Fraction(3, 4), "1in": Fraction(1)}
MIN_COUNTER_MM, MAX_COUNTER_MM = 10, 40


def counter_size_mm(text):
    """'5/8in', '3/4in', '1in' or a size in mm ('16mm', '16') -> millimetres as a Fraction."""
    t = text.strip().lower()
    if t in NAMED_SIZES:
        return NAMED_SIZES[t] * MM_PER_INCH
    number = t[:-2] if t.endswith("mm") else t
    try:
        mm = Fraction(number)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a counter size; use 5/8in, 3/4in, 1in or millimetres like 19mm") from None
    if not MIN_COUNTER_MM <= mm <= MAX_COUNTER_MM:
        raise argparse.ArgumentTypeError(f"{text!r}: counters must be {MIN_COUNTER_MM} to {MAX_COUNTER_MM} mm")
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


def add_build_options(p, *, release=False):
    """The build options; a release always holds every part for both papers and lands in dist/."""
    if release:
        p.add_argument("--out", default="dist", metavar="DIR", help="where the zip lands (default dist/)")
    else:
        p.add_argument("--paper", choices=PAPERS + ("both",), default="both")
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
    g.add_argument("--seed", type=_count(0, 2 ** 63), default=DEFAULT_SEED,
                   help=f"random seed (default {DEFAULT_SEED})")
    g.add_argument("--mode", choices=("balanced", "independent"), default="balanced")
    g = p.add_argument_group("counters")
    g.add_argument("--counter-size", type=counter_size_mm, default=NAMED_SIZES["3/4in"] * MM_PER_INCH,
                   metavar="SIZE", help="5/8in, 3/4in (default), 1in, or millimetres like 19mm")
    g.add_argument("--back-offset", type=back_offset_mm, default=(Fraction(0), Fraction(0)),
                   metavar="X,Y", help="shift the backs by X,Y mm to match your printer")
    g.add_argument("--sets", type=_count(1, 20), default=2,
                   help="sets of crew markers per nationality, one marker per crew member (default 2)")


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
    since: str | None = None    # build --since OLD: a data folder or git:REV

    @classmethod
    def from_args(cls, args):
        paper = getattr(args, "paper", "both")
        papers = PAPERS if paper == "both" else (paper,)
        return cls(papers, getattr(args, "only", PARTS), args.bw, args.rows, args.seed, args.mode, args.counter_size,
                   args.back_offset, args.sets, getattr(args, "since", None))
