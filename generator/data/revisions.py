"""The OLD and NEW of `bailout diff` (and `build --since`): a data folder, or `git:REV`.

`git:REV` is the data/ folder as committed at REV in the git repository of the current folder,
extracted with `git archive` into a temporary folder for as long as the `with` block lasts.
Problems (no such folder, not a git repository, an unknown revision, no data/ at REV) are
UsageErrors: one line each, exit status 2.
"""

import contextlib
import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.data.model import KitData
from generator.data.sources import MARKERS, template_folder
from generator.errors import DataError, UsageError

GIT = "git:"


@dataclass(frozen=True)
class Side:
    spec: str               # as given: a folder or git:REV
    folder: Path            # the data folder to load
    label: str              # how the output names it: the folder, or "git:REV (abc1234)"
    commit: str | None      # the full commit id for git:REV
    templates: Path | None = None   # the templates that go with the data (issue 20)


@contextlib.contextmanager
def opened(spec: str) -> Iterator[Side]:
    """The data folder `spec` names, as a Side; a git revision lives in a temp folder meanwhile."""
    if not spec.startswith(GIT):
        yield folder_side(spec)
        return
    rev = spec[len(GIT):]
    if not rev or rev.startswith("-"):
        raise UsageError(f"{spec}: expected git:REV, a revision such as git:HEAD or git:v0.1.0")
    top = _git(spec, "rev-parse", "--show-toplevel",
               missing=f"{spec}: the current folder ({Path.cwd()}) is not in a git repository").strip()
    commit = _git(spec, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", cwd=top,
                  missing=f"{spec}: unknown revision {rev!r} in the git repository at {top}").strip()
    listing = _git(spec, "ls-tree", "--name-only", commit, "data", "templates", cwd=top).split()
    if "data" not in listing:
        raise UsageError(f"{spec}: the commit {commit[:10]} has no data/ folder at the top of {top}")
    folders = [name for name in ("data", "templates") if name in listing]     # templates/ too, when committed
    archive = subprocess.run(["git", "archive", "--format=tar", commit, *folders], cwd=top, capture_output=True)
    if archive.returncode:
        raise UsageError(f"{spec}: git archive failed: {_first_line(archive.stderr)}")
    with tempfile.TemporaryDirectory(prefix="bailout-rev-") as temp:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            if hasattr(tarfile, "data_filter"):     # Python 3.11.4+: refuse links and paths out
                tar.extractall(temp, filter="data")
            else:
                tar.extractall(temp, members=[m for m in tar if m.isfile() or m.isdir()])
        label = spec if commit.startswith(rev) else f"{spec} ({commit[:7]})"    # no "git:abc1234 (abc1234)"
        yield Side(spec, Path(temp) / "data", label, commit, template_folder(Path(temp) / "data"))


def folder_side(spec: str) -> Side:
    """A folder named on the command line: a data folder (templates beside it, else the kit's
    own), or a project folder holding data/ (and maybe templates/)."""
    folder = Path(spec)
    if not folder.is_dir():
        raise UsageError(f"{spec}: no such data folder (give a data folder, a project folder or git:REV)")
    if not (folder / MARKERS["data"]).is_file() and (folder / "data" / MARKERS["data"]).is_file():
        folder = folder / "data"        # a project folder, as `bailout init` makes
    return Side(spec, folder, spec, None, template_folder(folder))


def load_side(side: Side, name: str) -> KitData:
    """Load a side's data; each problem line says which side (OLD or NEW) and names the file."""
    from generator.data import load
    try:
        return load(side.folder)
    except DataError as error:
        where = str(side.folder)
        shown = f"{side.spec}:data" if side.commit else where
        raise DataError([f"{name} ({side.spec}): {line.replace(where, shown, 1)}" for line in error.problems]) from None


def _git(spec: str, *args: str, cwd: str | None = None, missing: str | None = None) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    except FileNotFoundError:
        raise UsageError(f"{spec}: git is not installed") from None
    if done.returncode:
        if missing:
            raise UsageError(missing)
        raise UsageError(f"{spec}: {_first_line(done.stderr) or 'git ' + args[0] + ' failed'}")
    return done.stdout.decode()


def _first_line(raw: bytes) -> str:
    text = raw.decode(errors="replace").strip()
    return text.splitlines()[0] if text else ""
