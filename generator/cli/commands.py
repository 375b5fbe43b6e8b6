"""What each subcommand does, once its arguments are parsed."""

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from generator.errors import DataError, UsageError, one_line
from generator.data.model import KitData
from generator.data.sources import PathProblem, probe

Command = Callable[[argparse.Namespace], int | None]    # returns the exit status; None is 0


def _load(args: argparse.Namespace) -> KitData:
    from generator.data import load
    return load(args.data)


def cmd_check(args: argparse.Namespace) -> None:
    from generator.options import check_source_date_epoch
    check_source_date_epoch()       # check renders every part, as a build would
    kit = _load(args)
    # Text the font cannot draw or fit is found only by rendering: render (not write) it all.
    from generator.build.pipeline import render_all
    from generator.options import BuildOptions
    render_all(kit, BuildOptions())
    _check_catalogues(kit)
    r = kit.rules
    print(f"{one_line(args.data)}: OK: rule {r.number} ({r.title}), {len(kit.nationalities)} nationalities, "
          f"deck of RPC columns {', '.join(map(str, r.columns))}"
          f"{' (transcribed: ' + r.deck_file + ')' if r.deck_file else ' (ideal)'}, data hash {kit.short_hash}; "
          f"every part renders with the default options")


def _check_catalogues(kit: KitData) -> None:
    """Every edition's catalogue translates every English key, and its glossary every sentence and
    name of the data (issue 19): name what is missing."""
    from generator.content.words import available_languages, missing_translations
    from generator.data.glossary import read_glossary, untranslated
    problems = [line for lang in available_languages()[1:] for line in missing_translations(lang)]
    for lang in available_languages()[1:]:
        try:
            problems += untranslated(kit, read_glossary(kit, lang))
        except DataError as error:
            problems += error.problems
    if problems:
        raise DataError(problems)


def cmd_odds(args: argparse.Namespace) -> None:
    from generator.engine.odds import as_json, compute
    from generator.cli.odds_report import odds_lines
    kit = _load(args)
    odds = compute(kit)
    if args.json:
        print(json.dumps(as_json(odds), indent=2))
    else:
        print("\n".join(odds_lines(kit, odds)))


def cmd_simulate(args: argparse.Namespace) -> None:
    from generator.engine import procedure as R
    from generator.cli.odds_report import figure_label
    from generator.engine.simulate import simulate
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
    labels = [figure_label(r, f) for f in figures]
    width = max(len("figure"), *(len(label) for label in labels))
    print(f"{'figure':{width}} {'exact':>9} {'':>8} {'observed':>9} {'std err':>8} {'z':>6}")
    for f, label in zip(figures, labels):
        print(f"{label:{width}} {str(f.exact):>9} {float(f.exact):8.4f} {f.observed:9.4f} {f.se:8.4f} {f.z:6.2f}")
    worst = max(abs(f.z) for f in figures)
    print(f"largest |z| = {worst:.2f}")


def cmd_crew(args: argparse.Namespace) -> None:
    from generator.cli.crew_report import crew_lines
    print("\n".join(crew_lines(_load(args), args.nationality, afv=args.afv, afv_morale=args.afv_morale,
                               casualties=args.casualties, in_use=args.in_use, most=args.most)))


def cmd_diff(args: argparse.Namespace) -> int:
    from generator.cli.diff_report import as_json, text_lines
    from generator.content.compare import compare
    result = compare(args.old, args.new)
    if args.json:
        print(json.dumps(as_json(result.groups), indent=2, ensure_ascii=False))
    else:
        print("\n".join(text_lines(result.groups, result.old.label, result.new.label)))
    return 1 if result.groups else 0


def cmd_build(args: argparse.Namespace) -> None:
    from generator.build.pipeline import build_into
    from generator.cli.parser import options_from_args
    from generator.options import check_source_date_epoch
    check_source_date_epoch()
    _check_out(args.out)
    options = options_from_args(args)
    build_into(Path(args.out), _load(args), options, quiet=args.quiet)


def cmd_release(args: argparse.Namespace) -> None:
    from generator.build.release import make_editions_release
    from generator.build.transaction import write_all
    from generator.cli.parser import options_from_args
    from generator.options import check_source_date_epoch
    check_source_date_epoch()
    _check_out(args.out)
    options = options_from_args(args)
    name, content = make_editions_release(_load(args), options, tuple(args.lang), quiet=args.quiet)
    out = Path(args.out)
    write_all(out, {name: content})
    print(out / name)


def cmd_init(args: argparse.Namespace) -> None:
    from generator.data.sources import init
    made = init(args.folder)
    print(f"copied the kit's {' and '.join(p.name + '/' for p in made)} into {args.folder}; edit them there, "
          f"then run bailout check and bailout build in that folder (they use ./data and ./templates)")


def _check_out(out: str) -> None:
    """--out must be a folder or not exist yet, and be a path this system can look at."""
    try:
        kind = probe(out)
    except PathProblem as why:
        raise UsageError(f"--out {out}: {why}") from None
    if kind == "file":
        raise UsageError(f"--out {out}: is a file, not a folder")


COMMANDS: dict[str, Command] = {"build": cmd_build, "release": cmd_release, "check": cmd_check, "crew": cmd_crew,
                                "diff": cmd_diff, "init": cmd_init, "odds": cmd_odds, "simulate": cmd_simulate}


