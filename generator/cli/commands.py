"""What each subcommand does, once its arguments are parsed."""

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from generator.data.model import KitData
from generator.errors import DataError, UsageError, one_line, terminal_text

if TYPE_CHECKING:
    from generator.content.context import BuildContext
    from generator.options import BuildOptions
from generator.data.sources import PathProblem, probe

Command = Callable[[argparse.Namespace], int | None]    # returns the exit status; None is 0


def say(lines: object, *, json: bool = False) -> None:
    """Print one line (or each of a list of lines) to stdout, control and bidirectional characters
    escaped: data text may hold them, and a model name must not drive the terminal or forge a line.
    With `json`, `lines` is JSON text (its line breaks are its own) and escapes stay valid JSON."""
    if json:
        print(terminal_text(str(lines), json=True))
        return
    for line in lines if isinstance(lines, list) else [lines]:
        print(one_line(line))


def _load(args: argparse.Namespace) -> KitData:
    from generator.data import load
    return load(args.data)


def cmd_check(args: argparse.Namespace) -> None:
    from generator.options import check_source_date_epoch
    check_source_date_epoch()       # check renders every part, as a build would
    kit = _load(args)
    # Text the font cannot draw or fit is found only by rendering: render (not write) it all.
    from generator.make.pipeline import render_all
    from generator.options import BuildOptions
    render_all(kit, BuildOptions(), templates=args.templates)
    _check_catalogues(kit)
    r = kit.rules
    say(f"{args.data}: OK: rule {r.number} ({r.title}), {len(kit.nationalities)} nationalities, "
          f"deck of RPC columns {', '.join(map(str, r.columns))}"
          f"{' (transcribed: ' + r.deck_file + ')' if r.deck_file else ' (ideal)'}, data hash {kit.short_hash}; "
          f"every part renders with the default options")


def _check_catalogues(kit: KitData) -> None:
    """Every edition's catalogue translates every English key with fields the formatter takes, its
    aid sentences likewise, its glossary every sentence and name of the data, and every text says
    the glossary's terms: name what is missing."""
    from generator.content.aid_text import aid_catalogue_problems, name_cell_problems
    from generator.content.rows import csv_word_problems
    from generator.content.terms import term_problems
    from generator.content.words import available_languages, load_words, missing_translations
    from generator.data.glossary import read_glossary, translated, untranslated
    from generator.make.pipeline import counter_fit_problems
    from generator.render.pdf.canvas import edition_faces
    from generator.render.pdf.glyphs import undrawable_edition, undrawable_text
    problems = name_cell_problems(kit)
    for lang in available_languages():
        try:
            problems += missing_translations(lang)
            problems += csv_word_problems(load_words(lang))     # the CSV's header: no formula in a spreadsheet
            if lang == available_languages()[0]:
                continue
            problems += aid_catalogue_problems(lang)
            problems += undrawable_edition(lang)      # what `build --lang` refuses, named here too
            glossary = read_glossary(kit, lang)
        except DataError as error:      # a catalogue or glossary that cannot be read: its problem, then the next
            problems += error.problems
            continue
        edition = translated(kit, glossary)
        problems += untranslated(kit, glossary) + term_problems(kit, glossary) + name_cell_problems(edition)
        drawn = list(undrawable_text(edition, glossary, edition_faces(lang)))
        problems += drawn or counter_fit_problems(kit, lang)      # the edition's words on its counters
    if problems:
        raise DataError(problems)


def cmd_odds(args: argparse.Namespace) -> None:
    from generator.cli.odds_report import odds_lines
    from generator.engine.odds import as_json, compute
    kit = _load(args)
    odds = compute(kit)
    if args.json:
        say(json.dumps(as_json(odds), indent=2), json=True)
    else:
        say(odds_lines(kit, odds))


def cmd_simulate(args: argparse.Namespace) -> None:
    from generator.cli.odds_report import figure_label, with_notes
    from generator.cli.parser import drawn_seed
    from generator.engine import procedure as R
    from generator.engine.simulate import simulate
    kit = _load(args)
    args.seed = drawn_seed(args.seed)       # random: a fresh one, said below so the run can be repeated
    figures = simulate(kit, args.n, args.seed)
    if args.json:
        say(json.dumps([{"name": f.name, "exact": str(f.exact), "observed": f.observed, "se": f.se,
                         "z": f.z, "trials": f.trials} for f in figures], indent=2), json=True)
        return
    r = kit.rules
    note = next(i.note for i in r.interpretations if i.name == "hero_card")
    lines = [f"{args.n} simulated bail-outs, seed {args.seed}: each reads one kill card for both checks "
             f"({r.closed.rule}, {r.open.rule}), then resolves a crew of {R.crew_size(r)} of a destroyed AFV twice, "
             f"without and with a Hero card in {r.hero.fate_rule} (note {note})"]
    labels = [figure_label(r, f) for f in figures]
    width = max(len("figure"), *(len(label) for label in labels))
    lines.append(f"{'figure':{width}} {'exact':>9} {'':>8} {'observed':>9} {'std err':>8} {'z':>6}")
    for f, label in zip(figures, labels, strict=True):
        lines.append(f"{label:{width}} {f.exact!s:>9} {float(f.exact):8.4f} {f.observed:9.4f} {f.se:8.4f} {f.z:6.2f}")
    worst = max(abs(f.z) for f in figures)
    # what chance alone gives: the |z| that n independent figures all stay under 19 times in 20
    from statistics import NormalDist
    usual = NormalDist().inv_cdf(1 - (1 - 0.95 ** (1 / len(figures))) / 2)
    lines.append(f"largest |z| = {worst:.2f} (with {len(figures)} figures, chance alone keeps the largest under "
                 f"about {usual:.1f} 19 times in 20)")
    say(with_notes(r, lines))


def cmd_crew(args: argparse.Namespace) -> None:
    from generator.cli.crew_report import crew_lines
    say(crew_lines(_load(args), args.nationality, afv=args.afv, afv_morale=args.afv_morale,
                   casualties=args.casualties, in_use=args.in_use, most=args.most))


def cmd_diff(args: argparse.Namespace) -> int:
    from generator.cli.diff_report import as_json, text_lines
    from generator.content.compare import compare
    from generator.data.revisions import Side
    new_side = None if args.new is not None else Side(str(args.data), args.data, str(args.data), None, args.templates)
    result = compare(args.old, args.new or str(args.data), new_side=new_side)
    if args.json:
        say(json.dumps(as_json(result.groups), indent=2, ensure_ascii=False), json=True)
    else:
        say(text_lines(result.groups, result.old.label, result.new.label))
    return 1 if result.groups else 0


def cmd_build(args: argparse.Namespace) -> None:
    from generator.make.pipeline import build_into
    from generator.options import check_source_date_epoch
    check_source_date_epoch()
    _check_out(args.out, args)
    options = _options(args)
    kit = _load(args)
    built = build_into(Path(args.out), kit, options, templates=args.templates, quiet=args.quiet, jobs=args.jobs)
    if not args.quiet:
        _closing(len(built.names), Path(args.out), args.data, built.templates, built.stamp)


def cmd_release(args: argparse.Namespace) -> None:
    from generator.cli.parser import release_profiles
    from generator.make.release import make_editions_release
    from generator.make.transaction import write_one
    from generator.options import check_source_date_epoch
    check_source_date_epoch()
    _check_out(args.out, args)
    if any(args.back_offset):       # the project file's is left out (option_notes says so)
        raise UsageError("--back-offset: a release is for every printer, so its backs are not shifted; shift "
                         "them for your own printer with bailout build --back-offset X,Y")
    options = _options(args)
    kit = _load(args)
    name, content = make_editions_release(kit, options, tuple(args.lang), templates=args.templates,
                                          quiet=args.quiet, more_profiles=release_profiles(args)[1:], jobs=args.jobs)
    out = Path(args.out)
    write_one(out, name, content)       # the zip alone: no lock or staging left beside it
    say(out / name)
    if not args.quiet:
        from generator.cli.parser import release_notes
        from generator.data.sources import template_folder
        for note in release_notes(args):
            print(f"bailout: {note}", file=sys.stderr)
        templates = args.templates if args.templates is not None else template_folder(kit.directory)
        _closing(1, out, args.data, templates, name[:-len(".zip")].rsplit("-", 1)[-1])   # the zip's stamp


def _options(args: argparse.Namespace) -> "BuildOptions":
    """The build options of the command line, and the notes on what they leave out (unless --quiet)."""
    from generator.cli.parser import option_notes, options_from_args
    options = options_from_args(args)
    if not args.quiet:
        for note in option_notes(args):
            print(f"bailout: {note}", file=sys.stderr)
    return options


def _closing(count: int, out: Path, data: Path, templates: Path, stamp: str) -> None:
    """The one line every build and release ends with (stderr: stdout stays for what scripts read)."""
    from generator.data.sources import shipped
    from generator.make.progress import closing_line
    line = closing_line(count, out, data, templates, stamp, shipped=(shipped("data"), shipped("templates")))
    print(f"bailout: {line}", file=sys.stderr)


def cmd_init(args: argparse.Namespace) -> None:
    from generator.data.sources import init
    made = init(args.folder)
    from generator.cli.project import write_template
    project = write_template(args.folder)       # the project file, every key commented
    if project is not None:
        made.append(project)
    names = " and ".join(p.name + ("/" if p.is_dir() else "") for p in made)
    say(f"copied the kit's {names} into {args.folder}; edit them there, "
        f"then run bailout check and bailout build in that folder (they use ./data and ./templates)")


def cmd_serve(args: argparse.Namespace) -> None:
    """`bailout serve`: build once, serve on 127.0.0.1, rebuild what is looked at on every save."""
    import sys

    from generator.cli.parser import options_from_args
    from generator.cli.project import project_file, with_project
    from generator.data import load
    from generator.data.sources import data_folder, template_folder
    from generator.make.pipeline import context
    from generator.make.serve import Sources, check_out_not_watched, serve, watched_paths
    argv, given = getattr(args, "argv", sys.argv[1:]), (args.data, args.templates)

    def make_context() -> "BuildContext":
        now = with_project(argv, args) if project_file(args.config) is not None else args
        data = data_folder(given[0] if now.data is None else now.data)
        return context(load(data), options_from_args(now), template_folder(given[0], given[1]))
    _check_serve_folders(args)
    watched = watched_paths(args.data, args.templates, project_file(args.config))
    if args.out is not None:
        _check_out(args.out, args)
        check_out_not_watched(Path(args.out), watched)
    serve(Sources(watched, make_context), args.port, Path(args.out) if args.out else None, args.open)


def _check_serve_folders(args: argparse.Namespace) -> None:
    """What no save can mend is refused before serving, as a build refuses it: a --data or
    --since folder that is not there (a problem inside one the preview shows, and a save mends)."""
    try:
        missing = probe(args.data) != "folder"
    except PathProblem:
        missing = True
    if missing:
        raise UsageError(f"{args.data}: no such data folder (give the kit's data/ folder with --data DIR)")
    from generator.data.revisions import GIT, folder_side
    if args.since is not None and not args.since.startswith(GIT):
        folder_side(args.since)


def _check_out(out: str, args: argparse.Namespace) -> None:
    """--out must be a folder or not exist yet, a path this system can look at, and a folder of
    its own: not the data or templates folder, the file system's root or the home folder, where
    a build would scatter its files among others."""
    try:
        kind = probe(out)
    except PathProblem as why:
        raise UsageError(f"--out {out}: {why}") from None
    if kind == "file":
        raise UsageError(f"--out {out}: is a file, not a folder")
    where = Path(out).resolve()
    others = {"the data folder": args.data, "the templates folder": getattr(args, "templates", None),
              "the file system's root": Path(where.anchor), "your home folder": Path.home()}
    for what, folder in others.items():
        if folder is not None and where == Path(folder).resolve():
            raise UsageError(f"--out {out}: is {what}, where a build would scatter its files among others; "
                             f"choose a folder of its own (like output)")


def cmd_help(args: argparse.Namespace) -> None:
    """`bailout` alone and `bailout help`: the commands, one a line; `bailout help CMD`: its options."""
    from generator.cli.parser import command_list, parser
    p = parser()
    topic = getattr(args, "topic", None)
    print(p.commands[topic].format_help() if topic else command_list(p), end="\n" if not topic else "")


def cmd_completion(args: argparse.Namespace) -> None:
    """`bailout completion SHELL`: shtab's completion script for the whole parser."""
    import shtab

    from generator.cli.parser import parser
    print(shtab.complete(parser(), shell=args.shell))


COMMANDS: dict[str, Command] = {"serve": cmd_serve, "build": cmd_build, "release": cmd_release, "check": cmd_check,
                                "crew": cmd_crew, "diff": cmd_diff, "init": cmd_init, "odds": cmd_odds,
                                "simulate": cmd_simulate}
# `bailout` alone lists the commands, as `bailout help` does
COMMANDS.update({"help": cmd_help, "completion": cmd_completion})


