"""Where the kit's data/ and templates/ come from, and `bailout init`, which copies them out.

Lookup order (docs/reference.md, "Where the kit finds its data"): `--data DIR`; else `./data`
when it holds rules.toml; else the copy shipped inside the package.  Templates: `--templates
DIR`; else, with `--data X/data`, `X/templates` when it holds the aid template; else
`./templates` when it does; else the shipped copy.  A folder "holds" its file when there is
anything by that name (a FIFO, a dangling link, a folder): the command then reads that folder
and says what is wrong with the file, rather than taking the kit's own in its place.  The
wheel carries the repository's top-level data/ and templates/ as generator/shipped/data and
generator/shipped/templates (pyproject.toml maps them), read through importlib.resources.  A
source checkout has no generator/shipped: there the shipped copy is the checkout's own data/ and
templates/, so an editable install reads the files its editors change.  Nothing else is
guessed (never a stray site-packages/data).
"""

import atexit
import contextlib
import errno
import os
import shutil
import stat
import tempfile
import tomllib
import warnings
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
        if not holds(folder, "templates"):
            raise UsageError(f"--templates {folder}: no {MARKERS['templates']} there "
                             f"(give the kit's templates/ folder)")
        return folder
    if data is not None:
        beside = Path(data).parent / "templates"
        return beside if holds(beside, "templates") else shipped("templates")
    return _local("templates") or shipped("templates")


def source_label(folder: Path, name: str) -> str:
    """How a closing line names a data or templates folder: "the kit's own", or the path."""
    try:
        own = shipped(name)
    except UsageError:
        return str(folder)
    return "the kit's own" if folder.resolve() == own.resolve() else str(folder)


def _local(name: str) -> Path | None:
    folder = Path.cwd() / name
    return folder if holds(folder, name) else None


def holds(folder: Path, name: str) -> bool:
    """Whether `folder` has anything named as the marker of `name` ("data": rules.toml): a file
    that cannot be read (a FIFO, a dangling link) is the folder's to report, never a reason to
    take the kit's own."""
    try:
        return os.path.lexists(folder / MARKERS[name])
    except (OSError, ValueError):       # a path this system cannot look at: the command's own check says so
        return False


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


INIT_LOCK = ".bailout-init.lock"
STAGING_PREFIX = ".bailout-init-"


def init(folder: str | os.PathLike[str]) -> list[Path]:
    """Copy the shipped data/ and templates/ into `folder` for editing; never overwrite.

    Returns the folders made.  Refuses (UsageError) when any of them exists already.  The copies
    are made in a staging folder inside `folder`, then renamed into place under a lock: a second
    init at the same time is refused and takes nothing of the first one's; a failed init (a full
    disk) leaves nothing behind, not even the folder it made.
    """
    folder = Path(folder)
    targets = [folder / name for name in NAMES]
    _refuse_existing(targets)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"init: {folder} is not a folder")
    sources = [shipped(name) for name in NAMES]     # before any copy: all or nothing
    made: list[Path] = []       # the folders this init made, outermost first
    try:
        for new in _missing_folders(folder):
            try:
                new.mkdir()
            except FileExistsError:     # another init made it just now: not ours to remove
                continue
            made.append(new)
        _locked_copy(folder, sources, targets)
    except OSError as error:
        remove_made(made)
        raise UsageError(f"init: cannot write into {folder} ({error.strerror}); nothing was copied") from None
    except BaseException:
        remove_made(made)
        raise
    return targets


def _locked_copy(folder: Path, sources: list[Path], targets: list[Path]) -> None:
    """_copy_into_place holding INIT_LOCK in `folder`; refused at once if another init holds it.
    The lock file is removed before the lock is let go, so init leaves only data/ and templates/."""
    if os.path.islink(folder / INIT_LOCK):      # never open (or truncate) a file elsewhere through it
        raise UsageError(f"init: {folder / INIT_LOCK} is a symbolic link; remove it; nothing was copied")
    with warnings.catch_warnings():     # "only soft file lock is available": no platform call needed here
        warnings.simplefilter("ignore")
        from filelock import FileLock, Timeout  # lazily: only init takes this lock
    lock = FileLock(folder / INIT_LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise UsageError(f"init: another bailout init is writing into {folder} now; nothing was copied") from None
    try:
        _remove_stale_staging(folder)
        _copy_into_place(folder, sources, targets)
    finally:
        _unlink_quietly(folder / INIT_LOCK)
        lock.release()


def _remove_stale_staging(folder: Path) -> None:
    """The staging folders of an init that was killed: with the lock held, no other init uses one."""
    with os.scandir(folder) as entries:
        stale = [e.path for e in entries if e.name.startswith(STAGING_PREFIX) and e.is_dir(follow_symlinks=False)]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)


def _refuse_existing(targets: list[Path]) -> None:
    existing = [str(t) for t in targets if t.exists() or t.is_symlink()]
    if existing:
        raise UsageError(f"init: {' and '.join(existing)} already exist{'s' if len(existing) == 1 else ''}; "
                         f"nothing was copied (move {'it' if len(existing) == 1 else 'them'} away, "
                         f"or init another folder)")


def _copy_into_place(folder: Path, sources: list[Path], targets: list[Path]) -> None:
    """Copy `sources` into a staging folder in `folder`, then rename each to its target (under
    the caller's lock); a rename that fails puts the earlier ones back into the staging folder."""
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
    try:
        for source, target in zip(sources, targets, strict=True):
            _copy_tree(source, staging / target.name)
        _refuse_existing(targets)       # again, holding the lock: another init may have just finished
        moved: list[Path] = []
        try:
            for target in targets:
                os.rename(staging / target.name, target)    # fails, rather than merges, onto a full folder
                moved.append(target)
        except BaseException:
            for target in moved:        # only what this init renamed: never another's files
                os.rename(target, staging / target.name)
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _missing_folders(folder: Path) -> list[Path]:
    """`folder` and each missing parent, outermost first: what init makes, and removes on failure."""
    missing: list[Path] = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.insert(0, folder)
        folder = folder.parent
    return missing


def remove_made(made: list[Path]) -> None:
    """Folders a command made (shallowest first), removed deepest first as far as they are empty."""
    for new in reversed(made):
        try:
            new.rmdir()
        except OSError:
            break


def _unlink_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


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
