"""The `bailout` command line: every subcommand, its options and their help."""

import argparse
import sys
from fractions import Fraction
from pathlib import Path
from typing import NoReturn

from generator import __version__
from generator.cli.argtypes import back_offset_mm, count, counter_size_mm, parts_list, positive, seed, whole
from generator.cli.argtypes import language, language_list
from generator.errors import one_line
from generator.options import DEFAULT_COUNTER_MM, DEFAULT_SEED, PAPER_KEYS, PARTS, BuildOptions


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"bailout: error: {one_line(message)}", file=sys.stderr)    # argparse echoes arguments raw
        raise SystemExit(2)


def parser() -> argparse.ArgumentParser:
    """The `bailout` parser with every subcommand."""
    p = _Parser(prog="bailout", description="Print-kit generator for Up Front variant 871, AFVs & Bail Out.")
    p.add_argument("--version", action="version", version=f"bailout {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def data_opt(q: argparse.ArgumentParser) -> None:
        q.add_argument("--data", type=Path, default=None, metavar="DIR",
                       help="the data folder (default: ./data when it holds rules.toml, else the kit's own)")

    b = sub.add_parser("build", help="write the print kit (PDFs, CSV, manifest)")
    data_opt(b)
    add_build_options(b)

    z = sub.add_parser("release", help="write the whole kit as one zip to share (PDFs, HTML aid, CSV, face images)")
    data_opt(z)
    add_build_options(z, release=True)

    c = sub.add_parser("check", help="validate the data folder and report every problem")
    data_opt(c)

    o = sub.add_parser("odds", help="print every chance, exactly")
    data_opt(o)
    o.add_argument("--json", action="store_true", help="exact fractions as JSON strings")

    w = sub.add_parser("crew", help="the crew's target Morale, and crews from your personality cards")
    data_opt(w)
    w.add_argument("nationality", help="a nationality file's name, e.g. german")
    which = w.add_mutually_exclusive_group(required=True)
    which.add_argument("--afv", metavar="NAME", help="an AFV listed in the nationality file")
    which.add_argument("--afv-morale", type=whole, metavar="M", help="the AFV's Morale")
    w.add_argument("--casualties", type=whole, default=0, metavar="K", help="commander casualties before the bail-out")
    w.add_argument("--in-use", default="", metavar="IDS", help="comma list of card ids already in play")
    w.add_argument("--most", type=positive, default=20, metavar="N", help="list at most N crews (default 20)")

    d = sub.add_parser("diff", help="what a rules edit changes in print terms, by rule number",
                       description="Compare two data folders (or git:REV, the data/ folder committed at REV) "
                                   "and list every printed figure, sentence, weapon and counter that changes. "
                                   "Exit status 0: no change, 1: changes, 2: error.")
    d.add_argument("old", metavar="OLD", help="a data folder, or git:REV (e.g. git:HEAD)")
    d.add_argument("new", metavar="NEW", help="a data folder, or git:REV")
    d.add_argument("--json", action="store_true", help="the changes as JSON, fractions as strings")

    s = sub.add_parser("simulate", help="draw cards N times and compare with the exact odds")
    data_opt(s)
    s.add_argument("n", type=positive, metavar="N", help="number of bail-outs to simulate")
    s.add_argument("--seed", type=seed, default=1, help="random seed (default 1)")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")

    i = sub.add_parser("init", help="copy the kit's data/ and templates/ into a folder, to edit them")
    i.add_argument("folder", nargs="?", default=".", type=Path, metavar="DIR", help="where (default: here)")
    return p


def add_build_options(p: argparse.ArgumentParser, *, release: bool = False) -> None:
    """The build options; a release always holds every part for both papers and lands in dist/."""
    if release:
        p.add_argument("--out", default="dist", metavar="DIR", help="where the zip lands (default dist/)")
    else:
        p.add_argument("--paper", type=str.lower, choices=PAPER_KEYS + ("both",), default="both",
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
    g.add_argument("--rows", type=count(1, 1_000_000), default=None,
                   help="rows to print (default: whole blocks, about 200)")
    g.add_argument("--seed", type=seed, default=DEFAULT_SEED,
                   help=f"random seed (default {DEFAULT_SEED})")
    g.add_argument("--mode", choices=("balanced", "independent"), default="balanced")
    g = p.add_argument_group("counters")
    g.add_argument("--counter-size", type=counter_size_mm, default=DEFAULT_COUNTER_MM,
                   metavar="SIZE", help="5/8in, 3/4in (default), 1in, or millimetres like 19mm")
    g.add_argument("--back-offset", type=back_offset_mm, default=(Fraction(0), Fraction(0)),
                   metavar="X,Y", help="shift the backs by X,Y mm to match your printer")
    g.add_argument("--sets", type=count(1, 20), default=2,
                   help="sets of crew markers per nationality, one marker per crew member (default 2)")
    g.add_argument("--no-fill", action="store_true",
                   help="leave the last sheet's spare cells empty (default: more crews and markers)")
    # issue 19: editions
    if release:
        p.add_argument("--lang", type=language_list, default=("en",), metavar="LANGS",
                       help="comma list of editions, e.g. en,de,fr (default en): one folder per language")
    else:
        p.add_argument("--lang", type=language, default="en", metavar="LANG",
                       help="the edition's language: en (default), de, fr, it or es")


def options_from_args(args: argparse.Namespace) -> BuildOptions:
    """The BuildOptions of a parsed build or release command line."""
    paper = getattr(args, "paper", "both")      # a release has no --paper or --only: it holds all
    papers = PAPER_KEYS if paper == "both" else (paper,)
    return BuildOptions(papers, getattr(args, "only", PARTS), args.bw, args.rows, args.seed, args.mode,
                        args.counter_size, args.back_offset, args.sets, not args.no_fill, getattr(args, "since", None),
                        lang=args.lang if isinstance(args.lang, str) else args.lang[0])
