"""Where the kit's data/ and templates/ come from, and `bailout init`, which copies them out.

Lookup order (README, "Your own copy of the data"): `--data DIR`; else `./data` when it holds
rules.toml; else the copy shipped inside the package.  Templates: `./templates` when it holds
the aid template, else the shipped copy.  The wheel carries the repository's top-level data/
and templates/ as generator/shipped/data and generator/shipped/templates (pyproject.toml maps
them), read through importlib.resources.  A source checkout has no generator/shipped: there
the shipped copy is the checkout's own data/ and templates/, so an editable install reads the
files its editors change.  Nothing else is guessed (never a stray site-packages/data).
"""

import atexit
import errno
import os
import shutil
import stat
import tempfile
import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from generator.errors import UsageError

NAMES = ("data", "templates")
# The file that marks a folder as the kit's (what `./data` or `./templates` must hold to be used).
MARKERS = {"data": "rules.toml", "templates": "aid.md.j2"}
PROJECT = "bailout-kit"


def data_folder(given: str | os.PathLike[str] | None = None) -> Path:
    """The data folder a command reads: `given` (--data), else ./data with rules.toml, else shipped."""
    if given is not None:
        return Path(given)
    return _local("data") or shipped("data")


def template_folder(data: str | os.PathLike[str] | None = None,
                    given: str | os.PathLike[str] | None = None) -> Path:
    """The template folder: `given` (--templates); else, with --data X/data, X/templates when it
    holds the aid template (what `bailout init` makes); else ./templates; else the shipped one."""
    if given is not None:
        folder = Path(given)
        if not (folder / MARKERS["templates"]).is_file():
            raise UsageError(f"--templates {folder}: no {MARKERS['templates']} there (give the kit's templates/ folder)")
        return folder
    if data is not None:
        beside = Path(data).parent / "templates"
        try:
            found = (beside / MARKERS["templates"]).is_file()
        except (OSError, ValueError):       # a path this system cannot look at: the data's own check says so
            found = False
        return beside if found else shipped("templates")
    return _local("templates") or shipped("templates")


def source_label(folder: Path, name: str) -> str:
    """How a closing line names a data or templates folder: "the kit's own", or the path (issue 20)."""
    try:
        own = shipped(name)
    except UsageError:
        return str(folder)
    return "the kit's own" if folder.resolve() == own.resolve() else str(folder)


def _local(name: str) -> Path | None:
    folder = Path.cwd() / name
    return folder if (folder / MARKERS[name]).is_file() else None


def shipped(name: str) -> Path:
    """The package's own copy of data/ or templates/, as a folder on the file system."""
    inside = resources.files("generator") / "shipped" / name
    if inside.is_dir():
        return inside if isinstance(inside, Path) else _extracted(inside, name)
    checkout = source_checkout()
    if checkout is not None and (checkout / name / MARKERS[name]).is_file():
        return checkout / name
    raise UsageError(f"this install of {PROJECT} lacks its own {name}/ folder; reinstall it, "
                     f"or give a data folder with --data DIR (`bailout init` makes one)")


def source_checkout() -> Path | None:
    """The repository folder when the package runs from one (editable install or PYTHONPATH)."""
    root = Path(__file__).resolve().parents[2]
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text())["project"]["name"]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return None
    return root if project == PROJECT else None


_EXTRACTED: dict[str, Path] = {}


def _extracted(traversable: Traversable, name: str) -> Path:
    """A shipped folder that is not plain files (a zipped install): copied once to a temp folder."""
    if name not in _EXTRACTED:
        temp = Path(tempfile.mkdtemp(prefix=f"bailout-{name}-"))
        atexit.register(shutil.rmtree, temp, ignore_errors=True)
        _copy_tree(traversable, temp / name)
        _EXTRACTED[name] = temp / name
    return _EXTRACTED[name]


def _copy_tree(source: Traversable, target: Path) -> None:
    target.mkdir(parents=True)
    for entry in sorted(source.iterdir(), key=lambda e: e.name):
        if entry.name == "__pycache__":
            continue
        if entry.is_dir():
            _copy_tree(entry, target / entry.name)
        else:
            (target / entry.name).write_bytes(entry.read_bytes())


def init(folder: str | os.PathLike[str]) -> list[Path]:
    """Copy the shipped data/ and templates/ into `folder` for editing; never overwrite.

    Returns the folders made.  Refuses (UsageError) when any of them exists already.
    """
    folder = Path(folder)
    targets = [folder / name for name in NAMES]
    existing = [str(t) for t in targets if t.exists() or t.is_symlink()]
    if existing:
        raise UsageError(f"init: {' and '.join(existing)} already exist{'s' if len(existing) == 1 else ''}; "
                         f"nothing was copied (move {'it' if len(existing) == 1 else 'them'} away, "
                         f"or init another folder)")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"init: {folder} is not a folder")
    sources = [shipped(name) for name in NAMES]     # before any copy: all or nothing
    made: list[Path] = []
    try:
        for source, target in zip(sources, targets):
            made.append(target)
            _copy_tree(source, target)
    except OSError as error:
        for target in made:
            shutil.rmtree(target, ignore_errors=True)
        raise UsageError(f"init: cannot write into {folder} ({error.strerror})") from None
    return made


class PathProblem(Exception):
    """A path that cannot even be looked at; the message is a few words, without the path."""


def probe(path: str | os.PathLike[str]) -> str:
    """'folder', 'file' (anything not a folder) or 'missing' for `path`.

    Path.is_dir() raises on a name longer than PATH_MAX or a parent folder without search
    permission; here any such failure is a PathProblem saying why, for a one-line message.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            raise PathProblem("the path is too long for this system") from None
        raise PathProblem(f"cannot be looked at ({error.strerror})") from None
    except ValueError:          # a NUL in the name (only possible from Python, not argv)
        raise PathProblem("is not a usable path") from None
    return "folder" if stat.S_ISDIR(mode) else "file"
