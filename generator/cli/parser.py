"""The `bailout` command line: every subcommand, its options and their help."""

import argparse
import re
import secrets
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from generator import __version__
from generator.cli.argtypes import (
    SIZE_RANGE,
    back_offset_mm,
    choice,
    count,
    counter_size_mm,
    image_url,
    jobs,
    label_text,
    language,
    language_list,
    parts_list,
    positive,
    print_profiles,
    seed,
    whole,
)
from generator.engine.simulate import MAX_TRIALS
from generator.errors import UsageError, one_line
from generator.make.outputs import parts
from generator.options import (
    DEFAULT_SEED,
    MAX_SEED,
    PAPER_KEYS,
    RANDOM_SEED,
    BuildOptions,
    default_counter_mm,
)
from generator.profiles import registry
from generator.suggest import refusal, suggestion
from generator.text import or_list

MODES = ("independent", "balanced")
SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")      # what shtab writes completion for


class _Help(argparse.HelpFormatter):
    """argparse's help, with '(default: X)' after every option whose help does not say it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or not action.option_strings or default is None or default is False \
                or default == "" or default is argparse.SUPPRESS:
            return text
        return f"{text} (default: {action.default})"


class _Parser(argparse.ArgumentParser):
    """argparse as people expect it: negative numbers are values (`--back-offset -0.5,1`), each
    command reports its own usage, an unknown choice names the closest."""

    commands: dict[str, "argparse.ArgumentParser"]
    summaries: dict[str, str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)
        # argparse reads '-0.5,1' as an option, since only '-1' and '-0.5' look like numbers to it;
        # no option of the kit starts with '-' and a digit, so anything that does is a value.
        self._negative_number_matcher = re.compile(r"^-\.?\d")
        self.commands, self.summaries = {}, {}

    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit status 2, whatever the mistake: what is wrong, with the
        closest accepted name where one is close, else where the options are listed.  The usage
        block is shown only when asked for (--help)."""
        bad = re.fullmatch(r"argument (\S+): invalid choice: '?(.*?)'? \(choose from (.*)\)", message)
        if bad:     # a command's name (the only choices argparse checks itself): say which one was meant
            choices = list(dict.fromkeys(c.strip(" '") for c in bad[3].split(",")))
            message = f"{bad[2]!r} is not a {bad[1].lower()}; {refusal(bad[2], choices)}"
        elif "did you mean" not in message and not _REFUSED_VALUE.match(message):
            message += f"; {self.help_hint()}"
        # as the commands' own refusals read: 'bailout: crew: ...', '--paper: ...' for 'argument --paper: ...';
        # one_line, as argparse echoes arguments raw
        where = "".join(f"{word}: " for word in self.prog.split()[1:])
        print(f"bailout: {where}{one_line(message.removeprefix('argument '))}", file=sys.stderr)
        raise SystemExit(2)

    def help_hint(self) -> str:
        """Where this parser's options (or, for `bailout` itself, the commands) are listed."""
        command = self.prog.split()[1:]
        return f"bailout help {command[0]} lists its options" if command else "bailout lists the commands"


# argparse's "argument --rows: <the converter's own message>": the converter says what is accepted
_REFUSED_VALUE = re.compile(r"argument [\w/-]+: (?!expected (one|at|\d)|ignored explicit|not allowed)")


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line; a word it does not know is refused by that command's parser, with
    that command's usage and the closest option."""
    p = parser()
    args, extra = p.parse_known_args(argv)
    if extra:
        where = p.commands.get(args.command or "", p)
        where.error(f"unrecognized arguments: {' '.join(extra)}{_unrecognized_hint(where, extra[0])}")
    return args


def _unrecognized_hint(where: argparse.ArgumentParser, word: str) -> str:
    """'; did you mean --out?' for an option misspelt, '; did you mean --out out2?' for a folder
    given without its option."""
    options = sorted({o for action in where._actions for o in action.option_strings if o.startswith("--")})
    if word.startswith("-"):
        hint = suggestion(word.split("=", 1)[0], options)
    else:
        hint = f"did you mean --out {word}?" if "--out" in options else ""
    return f"; {hint}" if hint else ""


def parser() -> _Parser:
    """The `bailout` parser with every subcommand."""
    p = _Parser(prog="bailout", description="Print-kit generator for Up Front variant 871, AFVs & Bail Out.",
                epilog="`bailout` alone lists the commands; `bailout help COMMAND` (or `bailout COMMAND --help`) "
                       "shows one command's options.")
    p.add_argument("--version", action="version", version=f"bailout {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """A command's parser, recorded for `bailout` alone and `bailout help`."""
        summary = kwargs.get("help", "")
        kwargs.setdefault("description", summary[:1].upper() + summary[1:] + ".")    # what `CMD --help` says first
        made = sub.add_parser(name, **kwargs)
        p.commands[name], p.summaries[name] = made, kwargs.get("help", "")
        return made

    b = add("build", help="write the print kit (PDFs, CSV, manifest)")
    _data_opt(b)
    add_build_options(b)
    add_edition_options(b)
    _jobs_opt(b, "1", "each paper's files in a process of their own, which pays for long pre-rolled tables")

    z = add("release", help="write the whole kit as one zip to share (PDFs, HTML aid, CSV, face images)")
    _data_opt(z)
    add_build_options(z, release=True)
    add_edition_options(z, release=True)
    _jobs_opt(z, "auto", "the editions of a release of several languages, whole, over that many processes")

    c = add("check", help="validate the data folder and report every problem")
    _data_opt(c)
    templates_opt(c)

    o = add("odds", help="print every chance, exactly")
    _data_opt(o)
    o.add_argument("--json", action="store_true", help="exact fractions as JSON strings")

    _add_study_commands(add)
    _add_editing_commands(add)
    _add_help_commands(p, add)
    return p


def _jobs_opt(q: argparse.ArgumentParser, default: str, what: str) -> None:
    q.add_argument("-j", "--jobs", type=jobs, default=default, metavar="N",
                   help=f"processes to run at once, or auto for one a core (default {default}): {what}")


def _data_opt(q: argparse.ArgumentParser) -> None:
    q.add_argument("--data", type=Path, default=None, metavar="DIR",
                   help="the data folder (default: ./data when it holds rules.toml, else the kit's own)")


def _add_study_commands(add: Callable[..., argparse.ArgumentParser]) -> None:
    """`bailout crew`, `bailout diff` and `bailout simulate`: what the data says, printed as text."""
    w = add("crew", help="the crew's target Morale, and crews from your personality cards")
    _data_opt(w)
    w.add_argument("nationality", help="a nationality file's name, e.g. german")
    which = w.add_mutually_exclusive_group(required=True)
    which.add_argument("--afv", metavar="NAME", help="an AFV listed in the nationality file")
    which.add_argument("--afv-morale", type=whole, metavar="M", help="the AFV's Morale")
    w.add_argument("--casualties", type=whole, default=0, metavar="K", help="commander casualties before the bail-out")
    w.add_argument("--in-use", default="", metavar="IDS", help="comma list of card ids already in play (default: none)")
    w.add_argument("--most", type=positive, default=20, metavar="N", help="list at most N crews (default 20)")

    d = add("diff", help="what a rules edit changes in print terms, by rule number",
            description="Compare two editions: data folders (with the templates beside them), "
                        "project folders, or git:REV (the data/ and templates/ committed at REV), "
                        "and list every printed figure, sentence, weapon and counter that changes. "
                        "Exit status 0: no change, 1: changes, 2: error.")
    d.add_argument("old", metavar="OLD", help="a data folder, a project folder, or git:REV (e.g. git:HEAD)")
    d.add_argument("new", metavar="NEW", nargs="?", default=None,
                   help="a data folder, a project folder, or git:REV (default: the --data folder)")
    _data_opt(d)
    templates_opt(d)
    d.add_argument("--json", action="store_true", help="the changes as JSON, fractions as strings")

    s = add("simulate", help="draw cards N times and compare with the exact odds")
    _data_opt(s)
    s.add_argument("n", type=count(1, MAX_TRIALS), metavar="N",
                   help=f"number of bail-outs to simulate, 1 to {MAX_TRIALS:,}")
    s.add_argument("--seed", type=seed, default=DEFAULT_SEED,
                   help=f"random seed, 0 to 2^63 - 1 (default {DEFAULT_SEED}, as for build)")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")


def _add_editing_commands(add: Callable[..., argparse.ArgumentParser]) -> None:
    """`bailout serve` and `bailout init`: a live preview while editing, and a copy to edit."""
    v = add("serve", help="a live preview: the outputs served on this machine, made again as you save",
            description="Serve the kit on 127.0.0.1 and make it again whenever a file of the data, "
                        "the templates, the catalogues or bailout.toml is saved; open pages reload "
                        "themselves.  Nothing is written unless --out is given.")
    _data_opt(v)
    add_build_options(v, preview=True)
    add_edition_options(v)
    v.add_argument("--port", type=count(0, 65535), default=0, help="the port (default: a free one, printed)")
    v.add_argument("--open", action="store_true", help="open the index in the web browser")

    i = add("init", help="copy the kit's data/ and templates/ into a folder, to edit them")
    i.add_argument("folder", nargs="?", default=".", type=Path, metavar="DIR", help="where (default: here)")


def _add_help_commands(p: _Parser, add: Callable[..., argparse.ArgumentParser]) -> None:
    """`bailout completion SHELL`, then `bailout help [COMMAND]`, which knows every command (itself too)."""
    t = add("completion", help=f"print the shell completion script for {or_list(SHELLS)}",
            description="Print a completion script for SHELL to stdout (where each shell reads it: "
                        "docs/reference.md, Shell completion).")
    t.add_argument("shell", type=choice(SHELLS, what="a shell"), metavar="SHELL", help=", ".join(SHELLS))
    h = add("help", help="show one command's options (bailout help build), or list the commands")
    h.add_argument("topic", nargs="?", choices=sorted(p.commands), metavar="COMMAND",
                   help="the command")


def command_list(p: _Parser) -> str:
    """`bailout` alone: every command on a line of its own, then how to see one's options."""
    width = max(map(len, p.commands))
    lines = [f"usage: bailout COMMAND [OPTIONS]  (bailout {__version__})", "", "commands:"]
    lines += [f"  {name:{width}}  {summary}" for name, summary in p.summaries.items()]
    lines += ["", "bailout help COMMAND (or bailout COMMAND --help) shows a command's options."]
    return "\n".join(lines)


def add_build_options(p: argparse.ArgumentParser, *, release: bool = False, preview: bool = False) -> None:
    """The build options; a release always holds every part for both papers and lands in dist/; a
    preview keeps its outputs in memory unless given a folder."""
    if release:
        p.add_argument("--out", default="dist", metavar="DIR", help="where the zip lands (default dist/)")
    else:
        p.add_argument("--paper", type=choice((*PAPER_KEYS, "both"), what="a paper"), choices=(*PAPER_KEYS, "both"),
                       default="both", help=f"{or_list([*PAPER_KEYS, 'both (default)'])}, any case")
        if preview:
            p.add_argument("--out", default=None, metavar="DIR",
                           help="also write the outputs into DIR (default: nothing written, they are served "
                                "from memory)")
        else:
            p.add_argument("--out", default="output", metavar="DIR", help="where outputs land (default output/)")
        p.add_argument("--only", type=parts_list, default=None, metavar="PARTS",
                       help=f"comma list of {','.join(parts())} (default: all)")
        p.add_argument("--since", metavar="OLD", default=None,
                       help="mark what changed since OLD (a data folder, or git:REV) on the player aid: "
                            "a list of the changes and a bar beside each")
    # --no-bw undoes bw = true in the project file; default None so no "(default: False)" is added
    p.add_argument("--bw", action=argparse.BooleanOptionalAction, default=None,
                   help="ink-saving black-and-white version (--no-bw: in colour, whatever bailout.toml says)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines and no closing line")
    g = p.add_argument_group("pre-rolled tables")
    g.add_argument("--rows", type=count(1, 1_000_000), default=None, metavar="N",
                   help="rows to print, 1 to 1,000,000 (default 200; in balanced mode whole blocks, about 200)")
    g.add_argument("--seed", type=seed, default=DEFAULT_SEED,
                   help=f"random seed, 0 to 2^63 - 1, as for simulate (default {DEFAULT_SEED}, printed on the "
                        "table: anyone can print the same rows); random: a fresh private seed of 63 bits, "
                        "never printed")
    g.add_argument("--mode", type=choice(MODES, what="a mode"), choices=MODES, default="independent",
                   help="independent (default): every cell drawn on its own; balanced: each block of rows "
                        "holds the rule's exact proportions, so used rows tell what is left of a block")
    g = p.add_argument_group("counters")
    g.add_argument("--counter-size", type=counter_size_mm, default=None,
                   metavar="SIZE", help=f"5/8in, 3/4in (default; 1in for a shop that die-cuts them), 1in, or "
                                        f"{SIZE_RANGE} in mm, cm or in: 19mm, 2cm, '20 mm', 0.75in")
    g.add_argument("--back-offset", type=back_offset_mm, default=(Fraction(0), Fraction(0)),
                   metavar="X,Y", help="shift the backs by X,Y mm (each -10 to 10, like -0.5,1) to match your "
                                       "printer, read off the calibration page (default 0,0)")
    g.add_argument("--sets", type=count(1, 20), default=2, metavar="N",
                   help="sets of crew markers per nationality, one marker per crew member, 1 to 20 (default 2)")
    g.add_argument("--no-fill", action="store_true",
                   help="leave the last sheet's spare cells empty (default: more crews and markers)")
    g = p.add_argument_group("printing")
    profiles = profiles_help()
    if release:     # a release may hold several profiles, the first at the zip's top
        g.add_argument("--print", dest="print_profile", type=print_profiles, default=(registry.DEFAULT,),
                       metavar="PROFILES",
                       help=profiles + "; a comma list puts each further profile's PDFs in a folder of its name")
    else:
        g.add_argument("--print", dest="print_profile", type=choice(registry.names(), what="a print profile"),
                       choices=registry.names(), default=registry.DEFAULT, help=profiles)
    marked = [p.name for p in registry.PROFILES.values() if p.prepress is not None and p.prepress.marks]
    g.add_argument("--no-marks", action="store_true",
                   help=f"--print {or_list(marked)}: no crop marks (the page is the bleed box)")
    g = p.add_argument_group("digital tables")
    g.add_argument("--image-url", type=image_url, default=None, metavar="URL",
                   help="where the Tabletop Simulator object loads its images and PDF from: the web address "
                        "you upload its folder's files to (http://, https://), or a file:// folder (default: "
                        "the folder it unpacks to in this computer's Tabletop Simulator Saved Objects)")


def profiles_help() -> str:
    """Every print profile with its help line, the default's said so, in registry order."""
    return or_list([f"{p.name} ({'default: ' if p.name == registry.DEFAULT else ''}{p.help})"
                   for p in registry.PROFILES.values()])


# -- templates beside the data, the project file, --label, release --since ---------------------

def templates_opt(p: argparse.ArgumentParser) -> None:
    p.add_argument("--templates", type=Path, default=None, metavar="DIR",
                   help="the templates folder (default: templates/ beside the --data folder, "
                        "else ./templates, else the kit's own)")


def add_edition_options(p: argparse.ArgumentParser, *, release: bool = False) -> None:
    """What names and stamps an edition, and where its settings are written once."""
    templates_opt(p)
    p.add_argument("--config", type=Path, default=None, metavar="FILE",
                   help="the project file (default: ./bailout.toml when there is one); "
                        "options given here win over it")
    p.add_argument("--label", type=label_text, default=None, metavar="TEXT",
                   help='an edition name ("2026 errata 2") printed beside the stamp in every footer')
    if release:
        p.add_argument("--since", metavar="OLD", default=None,
                       help="mark what changed since OLD (a data folder, or git:REV) on the zip's player aids")
    from generator.content.words import SOURCE_LANGUAGE, available_languages
    langs = available_languages()       # a language is a catalogue in content/locale, the source first
    if release:
        p.add_argument("--lang", type=language_list, default=(SOURCE_LANGUAGE,), metavar="LANGS",
                       help=f"comma list of editions, each one of {or_list(langs)} (default {SOURCE_LANGUAGE}): "
                            "one folder per language")
    else:
        p.add_argument("--lang", type=language, default=SOURCE_LANGUAGE, metavar="LANG",
                       help=f"the edition's language: {or_list(langs)} (default {SOURCE_LANGUAGE})")


def options_from_args(args: argparse.Namespace) -> BuildOptions:
    """The BuildOptions of a parsed build or release command line; an option the print profiles
    have no use for is a UsageError (--no-marks) or left out (--back-offset on fold sheets:
    `option_notes` says so)."""
    paper = getattr(args, "paper", "both")      # a release has no --paper or --only: it holds all
    papers = PAPER_KEYS if paper == "both" else (paper,)
    profiles = [registry.profile(name) for name in release_profiles(args)]
    if args.no_marks and not any(p.prepress is not None and p.prepress.marks for p in profiles):
        marked = [p.name for p in registry.PROFILES.values() if p.prepress is not None and p.prepress.marks]
        raise UsageError(f"--no-marks: --print {profiles[0].name} has no crop marks to leave out (only --print "
                         f"{or_list(marked)} has)")
    # the offset is a home duplex printer's, read off its calibration pair: no other profile takes it
    offset = args.back_offset if any(p.calibration for p in profiles) else (Fraction(0), Fraction(0))
    # Only a drawn seed is kept off the page; a chosen one could be guessed back from the
    # stamp (rebuild until the footer matches), so hiding it would promise what it cannot keep
    seed, shown = drawn_seed(args.seed), args.seed != RANDOM_SEED
    size = args.counter_size if args.counter_size is not None else default_counter_mm(release_profiles(args))
    return BuildOptions(papers, getattr(args, "only", None), bool(args.bw), args.rows, seed, args.mode,
                        size, offset, args.sets, not args.no_fill, getattr(args, "since", None),
                        print_profile=profiles[0].name, marks=not args.no_marks,
                        label=getattr(args, "label", None),
                        lang=args.lang if isinstance(args.lang, str) else args.lang[0], seed_shown=shown,
                        image_url=args.image_url)


def option_notes(args: argparse.Namespace) -> list[str]:
    """What the options ask that this build leaves out, one line each (said unless --quiet)."""
    notes = []
    profiles = [registry.profile(name) for name in release_profiles(args)]
    if any(args.back_offset) and not any(p.calibration for p in profiles):
        x, y = args.back_offset
        why = ("prints each back beside its front, to be folded and glued, so there is no second side to shift"
               if profiles[0].fold_sheets else "is printed by a press that registers its backs itself; the offset "
               "is a home duplex printer's, read off its calibration page")
        notes.append(f"note: --back-offset {float(x):g},{float(y):g} is left out: --print {profiles[0].name} {why}")
    for key in getattr(args, "left_out", ()):
        notes.append(f"note: {key} in the project file is left out: {LEFT_OUT[key]}")
    return notes


def release_notes(args: argparse.Namespace) -> list[str]:
    """What a written release's reader should know of where it loads from, one line each (said
    once the zip is written, unless --quiet: a refused argument stays the one line)."""
    if args.image_url is not None:
        return []
    from generator.render.tts import saved_objects
    return [f"note: the release's Tabletop Simulator object loads its images from {saved_objects()}, "
            f"a folder of this computer; to share it, upload its folder's files and give --image-url"]


# Project-file keys a command leaves out, and why (cli/project.py sets args.left_out).
LEFT_OUT = {"back_offset": "a printer's offset is its own, and a release is for every printer, so its backs are "
                           "not shifted (build and serve still use it)"}


def drawn_seed(value: int) -> int:
    """`value`, or for --seed random a fresh seed from the OS's secret source (nobody
    can print the same rows, not even from the stamp)."""
    return secrets.randbelow(MAX_SEED + 1) if value == RANDOM_SEED else value


def release_profiles(args: argparse.Namespace) -> tuple[str, ...]:
    """The print profiles a build (one) or a release (one or more) asks for."""
    profile = args.print_profile
    return (profile,) if isinstance(profile, str) else tuple(profile)
