"""The project file, bailout.toml: the build options by name, written once, so a printer's
offset is not retyped on every build (issue 20).

Found like ./data: `bailout.toml` in the folder the command runs in, or `--config FILE`.
Each key is the long option of the same name (`counter_size` is `--counter-size`) and goes
through that option's own converter, so a value means what it means on the command line, and
options given on the command line win.  Read with the data layer's schema reader: unknown keys
and bad values are one line each naming the file and key, exit status 2.  A key that belongs to
an option this kit does not have yet (`lang`, `print`) is refused with a line saying so, and
passed through as soon as a build command has that option.
"""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.data.schema import Problems, Reader
from generator.data.toml_file import read_toml
from generator.errors import DataError, UsageError

FILE = "bailout.toml"
# The keys and their TOML kinds; each is the option --KEY (underscores as hyphens).
KEYS: dict[str, type] = {"paper": str, "lang": str, "print": str, "counter_size": str, "back_offset": str,
                         "bw": bool, "sets": int, "rows": int, "seed": int, "mode": str, "label": str, "since": str}
BUILD_COMMANDS = ("build", "release", "serve")      # each reads the project file; the others do not

TEMPLATE = '''\
# bailout.toml: the build options of this project, written once (bailout build, release, serve
# read it from the folder they run in, or from --config FILE).  Options given on the command
# line win.  Uncomment what you need.

# paper = "both"            # a4, letter or both
# counter_size = "3/4in"    # 5/8in, 3/4in, 1in, or millimetres like "19mm"
# back_offset = "0,0"       # X,Y in mm: shift the counter backs to match your printer
# bw = false                # ink-saving black and white
# sets = 2                  # sets of crew markers per nationality
# rows = 200                # pre-rolled rows (default 200; whole blocks in balanced mode)
# seed = 871                # printed on the table: anyone can print the same rows
# mode = "independent"      # independent or balanced
# label = "2026 errata 2"   # an edition name printed beside the stamp in every footer
# since = "git:v1.0"        # mark what changed since a data folder or git:REV on the player aid
# lang = "en"               # the kit's language, once this kit has --lang
# print = "home"            # the print profile, once this kit has --print
'''


def project_file(given: Path | None) -> Path | None:
    """--config FILE (which must exist), else ./bailout.toml when there is one, else None."""
    if given is not None:
        if not given.is_file():
            raise UsageError(f"--config {given}: no such file")
        return given
    here = Path.cwd() / FILE
    return here if here.is_file() else None


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
    table = read_toml(problems, path.parent, path.name)
    if table is None:
        raise DataError(problems.lines)
    reader = Reader(problems, path.name, table)
    defaults: dict[str, Any] = {}
    for key, kind in KEYS.items():
        if key not in table:
            reader.get(key, kind, default=None)     # marked as read
            continue
        value = reader.get(key, kind, default=None)
        here = _action(commands[command], key)
        if value is None:
            continue
        if here is None:
            if not any(_action(p, key) for p in commands.values()):
                reader.report(key, f"this kit has no --{_option(key)} option yet; remove the key or update the kit")
            continue            # e.g. paper on release, which always holds both papers
        converted = _converted(reader, key, here, value)
        if converted is not None:
            defaults[here.dest] = converted
    reader.finish()
    if problems:
        raise DataError(problems.lines)
    return defaults


def _option(key: str) -> str:
    return key.replace("_", "-")


# A key whose option may carry a longer name on the parser (the print-profile issue's option).
ALSO = {"print": ("--print-profile",)}


def _action(p: argparse.ArgumentParser, key: str) -> argparse.Action | None:
    names = (f"--{_option(key)}", *ALSO.get(key, ()))
    return next((a for a in p._actions if any(n in a.option_strings for n in names)), None)


def _converted(reader: Reader, key: str, action: argparse.Action, value: object) -> Any:
    """The value through the option's own converter and choices; None with the problem reported."""
    if isinstance(action, argparse._StoreTrueAction):
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
    """`bailout init`: a commented bailout.toml in `folder`, unless one is there already."""
    target = folder / FILE
    if target.exists():
        return None
    target.write_text(TEMPLATE, encoding="utf-8")
    return target
