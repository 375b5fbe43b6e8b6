"""`bailout build | release | check | crew | diff | odds | simulate | init`.

Imports stay lazy so `bailout --help` answers at once: reportlab loads only to build.
Every user-fixable problem ends as a message on stderr and exit status 2, never a traceback.
"""

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from .errors import KitError, UsageError, one_line
from .options import seed
from .paths import PathProblem, probe


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"bailout: error: {one_line(message)}", file=sys.stderr)    # argparse echoes arguments raw
        raise SystemExit(2)


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _whole(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def parser():
    p = _Parser(prog="bailout", description="Print-kit generator for Up Front variant 871, AFVs & Bail Out.")
    from . import __version__
    p.add_argument("--version", action="version", version=f"bailout {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def data_opt(q):
        q.add_argument("--data", type=Path, default=None, metavar="DIR",
                       help="the data folder (default: ./data when it holds rules.toml, else the kit's own)")

    b = sub.add_parser("build", help="write the print kit (PDFs, CSV, manifest)")
    data_opt(b)
    from .options import add_build_options
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
    which.add_argument("--afv-morale", type=_whole, metavar="M", help="the AFV's Morale")
    w.add_argument("--casualties", type=_whole, default=0, metavar="K", help="commander casualties before the bail-out")
    w.add_argument("--in-use", default="", metavar="IDS", help="comma list of card ids already in play")
    w.add_argument("--most", type=_positive, default=20, metavar="N", help="list at most N crews (default 20)")

    d = sub.add_parser("diff", help="what a rules edit changes in print terms, by rule number",
                       description="Compare two data folders (or git:REV, the data/ folder committed at REV) "
                                   "and list every printed figure, sentence, weapon and counter that changes. "
                                   "Exit status 0: no change, 1: changes, 2: error.")
    d.add_argument("old", metavar="OLD", help="a data folder, or git:REV (e.g. git:HEAD)")
    d.add_argument("new", metavar="NEW", help="a data folder, or git:REV")
    d.add_argument("--json", action="store_true", help="the changes as JSON, fractions as strings")

    s = sub.add_parser("simulate", help="draw cards N times and compare with the exact odds")
    data_opt(s)
    s.add_argument("n", type=_positive, metavar="N", help="number of bail-outs to simulate")
    s.add_argument("--seed", type=seed, default=1, help="random seed (default 1)")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")

    i = sub.add_parser("init", help="copy the kit's data/ and templates/ into a folder, to edit them")
    i.add_argument("folder", nargs="?", default=".", type=Path, metavar="DIR", help="where (default: here)")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        if "data" in args:
            from .paths import data_folder
            args.data = data_folder(args.data)
        status = _COMMANDS[args.command](args) or 0
        sys.stdout.flush()      # a closed pipe shows here, not at exit
        return status
    except KitError as error:
        for line in error.problems:
            print(f"bailout: {line}", file=sys.stderr)
        return 2
    except BrokenPipeError:     # `bailout odds | head`: the reader has what it wanted
        # Python would report the pipe again when it flushes stdout at exit: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt as interrupt:     # Ctrl-C, or SIGTERM during a build
        print(f"bailout: interrupted; {str(interrupt) or 'earlier outputs are untouched'}", file=sys.stderr)
        return getattr(interrupt, "status", 130)


def _load(args):
    from .data import load
    return load(args.data)


def cmd_check(args):
    from .options import check_source_date_epoch
    check_source_date_epoch()       # check renders every part, as a build would
    kit = _load(args)
    # Text the font cannot draw or fit is found only by rendering: render (not write) it all.
    from .build import render_all
    from .options import BuildOptions
    render_all(kit, BuildOptions())
    r = kit.rules
    print(f"{one_line(args.data)}: OK: rule {r.number} ({r.title}), {len(kit.nationalities)} nationalities, "
          f"deck of RPC columns {', '.join(map(str, r.columns))}"
          f"{' (transcribed: ' + r.deck_file + ')' if r.deck_file else ' (ideal)'}, data hash {kit.short_hash}; "
          f"every part renders with the default options")


def cmd_odds(args):
    from .odds import as_json, compute
    from .odds_table import odds_lines
    kit = _load(args)
    odds = compute(kit)
    if args.json:
        print(json.dumps(as_json(odds), indent=2))
    else:
        print("\n".join(odds_lines(kit, odds)))


def cmd_simulate(args):
    from . import rules as R
    from .simulate import simulate
    kit = _load(args)
    figures = simulate(kit, args.n, args.seed)
    if args.json:
        print(json.dumps([{"name": f.name, "exact": str(f.exact), "observed": f.observed, "se": f.se,
                           "z": f.z, "trials": f.trials} for f in figures], indent=2))
        return
    r = kit.rules
    note = next(i.note for i in r.interpretations if i.name == "hero_card")
    print(f"{args.n} simulated bail-outs, seed {args.seed}: each reads one kill card for both checks "
          f"({r.closed.rule}, {r.open.rule}), then resolves a crew of {R.crew_size(r)} of a destroyed AFV twice, "
          f"without and with a Hero card in {r.hero.fate_rule} (note {note})")
    width = max(len("figure"), *(len(f.label) for f in figures))
    print(f"{'figure':{width}} {'exact':>9} {'':>8} {'observed':>9} {'std err':>8} {'z':>6}")
    for f in figures:
        print(f"{f.label:{width}} {str(f.exact):>9} {float(f.exact):8.4f} {f.observed:9.4f} {f.se:8.4f} {f.z:6.2f}")
    worst = max(abs(f.z) for f in figures)
    print(f"largest |z| = {worst:.2f}")


def cmd_crew(args):
    from .crew_report import crew_lines
    print("\n".join(crew_lines(_load(args), args)))


def cmd_diff(args):
    from .changes import as_json, text_lines
    from .revisions import compare
    result = compare(args.old, args.new)
    if args.json:
        print(json.dumps(as_json(result.groups), indent=2, ensure_ascii=False))
    else:
        print("\n".join(text_lines(result.groups, result.old.label, result.new.label)))
    return 1 if result.groups else 0


def cmd_build(args):
    from .build import build
    from .options import check_source_date_epoch
    check_source_date_epoch()
    _check_out(args.out)
    build(args)


def cmd_release(args):
    from .options import check_source_date_epoch
    from .release import release
    check_source_date_epoch()
    _check_out(args.out)
    release(args)


def cmd_init(args):
    from .paths import init
    made = init(args.folder)
    print(f"copied the kit's {' and '.join(p.name + '/' for p in made)} into {args.folder}; edit them there, "
          f"then run bailout check and bailout build in that folder (they use ./data and ./templates)")


def _check_out(out):
    """--out must be a folder or not exist yet, and be a path this system can look at."""
    try:
        kind = probe(out)
    except PathProblem as why:
        raise UsageError(f"--out {out}: {why}") from None
    if kind == "file":
        raise UsageError(f"--out {out}: is a file, not a folder")


_COMMANDS = {"build": cmd_build, "release": cmd_release, "check": cmd_check, "crew": cmd_crew, "diff": cmd_diff,
             "init": cmd_init,
             "odds": cmd_odds, "simulate": cmd_simulate}


if __name__ == "__main__":
    sys.exit(main())
