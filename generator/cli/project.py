"""The project file, bailout.toml: the build options by name, written once, so a printer's
offset is not retyped on every build.

Found like ./data: `bailout.toml` in the folder the command runs in, or `--config FILE`.
Each key is the long option of the same name (`counter_size` is `--counter-size`) and goes
through that option's own converter, so a value means what it means on the command line, and
options given on the command line win.  Read with the data layer's schema reader: unknown keys
and bad values are one line each naming the file and key, exit status 2.  A key whose option a
command lacks (`paper` on release, which always holds both papers) is left out for that command.
"""

import argparse
import json
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.data.schema import Problems, Reader
from generator.data.toml_file import Unreadable, parse_toml, read_limited
from generator.errors import DataError, UsageError
from generator.text import or_list

FILE = "bailout.toml"
# The keys and their TOML kinds; each is the option --KEY (underscores as hyphens) of a build command.
KEYS: dict[str, type] = {"paper": str, "lang": str, "print": str, "counter_size": str, "back_offset": str,
                         "bw": bool, "sets": int, "rows": int, "seed": int, "mode": str, "label": str, "since": str,
                         "image_url": str}
BUILD_COMMANDS = ("build", "release", "serve")      # each reads the project file; the others do not
# Keys a command reads and checks but leaves out (cli/parser.py LEFT_OUT says why): a release is
# for every printer, so one printer's back offset stays out of it.
NEUTRAL = {"release": ("back_offset",)}

HEADER = """\
# bailout.toml: the build options of this project, written once (bailout build, release, serve
# read it from the folder they run in, or from --config FILE).  Options given on the command
# line win.  Uncomment what you need.
"""
NOTE_WIDTH = 66     # a key's note, so the lines keep to 96 characters


def template() -> str:
    """The commented bailout.toml `bailout init` writes: every key with a value that builds as it
    stands once uncommented, the lists in its comments read from the kit's registries."""
    import textwrap
    lines = []
    for key, value, note in _entries():
        first, *more = textwrap.wrap(note, NOTE_WIDTH)
        lines += [f"# {f'{key} = {_toml(value)}':24}  # {first}", *(f"{'#':28}# {line}" for line in more)]
    return HEADER + "\n" + "\n".join(lines) + "\n"


def _entries() -> list[tuple[str, object, str]]:
    """(key, example value, what it sets) for every key, in the order the template lists them."""
    from generator.content.rows import MODES, TARGET_ROWS
    from generator.content.words import available_languages
    from generator.options import (
        DEFAULT_SEED,
        MAX_COUNTER_MM,
        MIN_COUNTER_MM,
        NAMED_SIZES,
        PAPER_KEYS,
        PRINT_PROFILES,
        BuildOptions,
    )
    default = BuildOptions()
    return [
        ("paper", "both", or_list([*PAPER_KEYS, "both"])),
        ("counter_size", "3/4in", f"{', '.join(NAMED_SIZES)}, or {float(MIN_COUNTER_MM):g} to {MAX_COUNTER_MM} mm "
                                  f'like "19mm"'),
        ("back_offset", "0,0", "X,Y in mm: shift the counter backs to match your printer"),
        ("bw", default.bw, "ink-saving black and white"),
        ("sets", default.sets, "sets of crew markers per nationality"),
        ("rows", TARGET_ROWS, f"pre-rolled rows (default {TARGET_ROWS}; whole blocks in balanced mode)"),
        ("seed", DEFAULT_SEED, "printed on the table: anyone can print the same rows"),
        ("mode", default.mode, or_list(MODES)),
        ("label", "2026 errata 2", "an edition name printed beside the stamp in every footer"),
        ("since", "data", "mark on the player aid what changed since a data folder (a copy of data/ from "
                          "before your edits) or git:REV, like git:HEAD"),
        ("lang", default.lang, f"the edition's language: {or_list(available_languages())}"),
        ("print", default.print_profile, f"the print profile: {or_list(PRINT_PROFILES)}"),
        ("image_url", "https://example.org/bailout/", "where the Tabletop Simulator object loads its images from: "
                                                      "the web address you upload its folder's files to (default: "
                                                      "the folder in this computer's Saved Objects)"),
    ]


def _toml(value: object) -> str:
    """A value as TOML writes it: true/false, a number, or a quoted string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else json.dumps(value, ensure_ascii=False)


def project_file(given: Path | None) -> Path | None:
    """--config FILE (which must exist), else ./bailout.toml when there is one, else None.  A
    link is followed (the file is the user's own, wherever it lies); anything there that is not
    a regular file (a folder, a FIFO, a link to nothing) is a UsageError, not silently passed over."""
    path, option = (given, f"--config {given}") if given is not None else (Path.cwd() / FILE, str(Path.cwd() / FILE))
    what = _kind(path)
    if what == "missing" and given is None:
        return None
    if what == "missing":
        raise UsageError(f"{option}: no such file")
    if what != "file":
        raise UsageError(f"{option}: is {what}, not a project file; give a TOML file"
                         f"{'' if given is not None else ' (or remove it)'}")
    return path


def _kind(path: Path) -> str:
    """'file', 'missing', or what else `path` is ('a folder', 'a FIFO', ...), its link followed."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to nothing" if os.path.islink(path) else "missing"
    except OSError as error:
        return f"a path that cannot be looked at ({error.strerror})"
    if stat.S_ISREG(mode):
        return "file"
    return "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"


def with_project(argv: Sequence[str] | None, args: argparse.Namespace) -> argparse.Namespace:
    """`args` reparsed with the project file's values as defaults: the command line wins."""
    from generator.cli.parser import parser
    path = project_file(args.config)
    if path is None:
        return args
    top = parser()
    defaults = project_defaults(path, subparsers(top), args.command)
    subparsers(top)[args.command].set_defaults(**defaults)
    return top.parse_args(sys.argv[1:] if argv is None else argv)


def subparsers(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """{command: its parser} of the `bailout` parser."""
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def project_defaults(path: Path, commands: dict[str, argparse.ArgumentParser], command: str) -> dict[str, Any]:
    """{dest: value} of the project file for `command`; DataError with every problem at once."""
    problems = Problems(str(path.parent) if path.parent != Path(".") and path.parent != Path.cwd() else "")
    table = _read(problems, path)
    if table is None:
        raise DataError(problems.lines)
    reader = Reader(problems, path.name, table)
    defaults: dict[str, Any] = {"left_out": []}
    for key, kind in KEYS.items():
        if key not in table:
            reader.get(key, kind, default=None)     # marked as read
            continue
        value = reader.get(key, kind, default=None)
        here = _action(commands[command], key)
        if value is None or here is None:       # no option here: paper on release, which holds both papers
            continue
        if key in NEUTRAL.get(command, ()):     # read and checked, then left out (the command says so)
            if _converted(reader, key, here, value) not in (None, here.default):
                defaults["left_out"].append(key)
            continue
        converted = _converted(reader, key, here, value)
        if converted is not None:
            defaults[here.dest] = converted
    reader.finish()
    if problems:
        raise DataError(problems.lines)
    return {k: v for k, v in defaults.items() if k != "left_out" or v}


def _option(key: str) -> str:
    return key.replace("_", "-")


def _action(p: argparse.ArgumentParser, key: str) -> argparse.Action | None:
    return next((a for a in p._actions if f"--{_option(key)}" in a.option_strings), None)


def _read(problems: Problems, path: Path) -> dict[str, Any] | None:
    """The project file's table (a UTF-8 byte order mark, as some editors write, is let be), or
    None with the problem added.  Read as a data file is (never blocking, at most 8 MiB), but
    wherever a link leads: the file is the user's own."""
    try:
        content = read_limited(path)
    except Unreadable as error:
        problems.add(path.name, "", str(error))
        return None
    return parse_toml(problems, path.name, content.removeprefix(b"\xef\xbb\xbf"))


def _converted(reader: Reader, key: str, action: argparse.Action, value: object) -> Any:
    """The value through the option's own converter and choices; None with the problem reported."""
    if isinstance(action, (argparse._StoreTrueAction, argparse.BooleanOptionalAction)):
        return value
    try:
        converted = action.type(str(value)) if callable(action.type) else str(value)
    except (argparse.ArgumentTypeError, ValueError, TypeError) as error:
        reader.report(key, str(error) or f"{value!r} is not a value of --{_option(key)}")
        return None
    if action.choices is not None and converted not in action.choices:
        reader.report(key, f"{value!r} is not one of {', '.join(map(str, action.choices))}")
        return None
    return converted


def write_template(folder: Path) -> Path | None:
    """`bailout init`: a commented bailout.toml in `folder`, unless one is there already; never
    through a link (not even one to nothing), which would write the file wherever it points."""
    target = folder / FILE
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)     # O_EXCL: no link followed
    try:
        handle = os.open(target, flags, 0o666)
    except FileExistsError:
        return None
    except OSError as error:
        raise UsageError(f"init: cannot write {target} ({error.strerror})") from None
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(template())
    return target
