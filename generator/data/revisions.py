"""The OLD and NEW of `bailout diff` (and `build --since`): a data folder, or `git:REV`.

`git:REV` is the data/ folder (and templates/, when the commit has one) as committed at REV in
the git repository of the current folder, written into a temporary folder for as long as the
`with` block lasts.  The commit's tree is listed with `git ls-tree -l` and each file read with
`git cat-file`, under the limits a data folder has: regular files only (a symbolic link or a
submodule is refused, never unpacked), each at most MAX_FILE_BYTES, at most MAX_FILES of them
and MAX_TOTAL_BYTES in all (a small repository of highly compressible files would otherwise
unpack into gigabytes), all checked from the listing before a byte is read.  SIGTERM or SIGHUP meanwhile still
removes the temporary folder.  Problems (no such folder, not a git repository, an unknown revision, no
data/ at REV, a file past the limits) are UsageErrors: one line each, exit status 2.
"""

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Literal, overload

from msgspec import Struct

from generator.data.model import KitData
from generator.data.sources import NAMES, holds, template_folder
from generator.data.toml_file import MAX_FILE_BYTES
from generator.errors import DataError, UsageError, one_line
from generator.signals import ended_as_interrupt

GIT = "git:"
MAX_FILES = 1000        # data/ and templates/ together; the shipped ones hold about 20
MAX_TOTAL_BYTES = 32 << 20      # data/ and templates/ together, unpacked; the shipped ones hold about 150 KB


class Side(Struct, frozen=True):
    spec: str               # as given: a folder or git:REV
    folder: Path            # the data folder to load
    label: str              # how the output names it: the folder, or "git:REV (abc1234)"
    commit: str | None      # the full commit id for git:REV
    templates: Path | None = None   # the templates that go with the data


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
    entries = _listing(spec, top, commit)
    if not any(path.startswith("data/") for path, _, _ in entries):
        raise UsageError(f"{spec}: the commit {commit[:10]} has no data/ folder at the top of {top}")
    with ended_as_interrupt(), tempfile.TemporaryDirectory(prefix="bailout-rev-") as temp:
        _write_blobs(spec, top, entries, Path(temp))
        label = spec if commit.startswith(rev) else f"{spec} ({commit[:7]})"    # no "git:abc1234 (abc1234)"
        # templates/ at the rev when it has one (beside its data/), else the kit's own
        yield Side(spec, Path(temp) / "data", label, commit, template_folder(Path(temp) / "data"))


def _listing(spec: str, top: str, commit: str) -> list[tuple[str, str, int]]:
    """(path, blob id, size) of every file under data/ and templates/ at `commit`, checked
    against the limits from the listing alone (`git ls-tree -r -l -z`), before any is read."""
    raw = _git(spec, "ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", *NAMES, cwd=top, raw=True)
    entries: list[tuple[str, str, int]] = []
    total = 0
    for record in raw.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        path = name.decode("utf-8", "surrogateescape")
        mode, kind, blob, size = meta.split()
        shown = f"{spec}: {one_line(path)}"
        if mode == b"120000":
            raise UsageError(f"{shown} is a symbolic link at {commit[:10]}; a data folder holds regular files only")
        if kind != b"blob" or mode not in (b"100644", b"100755"):
            raise UsageError(f"{shown} is not a regular file at {commit[:10]} (git mode {mode.decode()})")
        if not _plain_path(path):
            raise UsageError(f"{shown}: not a usable path inside the folder")
        if int(size) > MAX_FILE_BYTES:
            raise UsageError(f"{shown} is {int(size):,} bytes at {commit[:10]}; a data file may hold at most "
                             f"{MAX_FILE_BYTES:,}")
        entries.append((path, blob.decode("ascii"), int(size)))
        total += int(size)
        if len(entries) > MAX_FILES:
            raise UsageError(f"{spec}: data/ and templates/ at {commit[:10]} hold more than {MAX_FILES:,} files; "
                             f"a kit's folders hold far fewer")
        if total > MAX_TOTAL_BYTES:
            raise UsageError(f"{spec}: data/ and templates/ at {commit[:10]} hold more than {MAX_TOTAL_BYTES:,} "
                             f"bytes, the most a revision is unpacked with; a kit's folders hold far fewer")
    return entries


def _plain_path(path: str) -> bool:
    parts = path.split("/")
    return all(part not in ("", ".", "..") and "\\" not in part for part in parts) and parts[0] in NAMES


def _write_blobs(spec: str, top: str, entries: list[tuple[str, str, int]], temp: Path) -> None:
    """Each listed file, read by `git cat-file --batch` and written under `temp` (sizes as listed)."""
    batch = subprocess.Popen(["git", "cat-file", "--batch"], cwd=top, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert batch.stdin is not None and batch.stdout is not None
    try:
        for path, blob, size in entries:
            batch.stdin.write(blob.encode("ascii") + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline(200).split()
            if len(header) != 3 or header[1] != b"blob" or int(header[2]) != size:
                raise UsageError(f"{spec}: git cat-file could not read {one_line(path)}")
            target = temp / path
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as out:
                out.write(batch.stdout.read(size))
            batch.stdout.read(1)        # the newline after each object
    except OSError as error:
        raise UsageError(f"{spec}: cannot write the files of the commit into a temporary folder "
                         f"({error.strerror})") from None
    finally:
        batch.stdin.close()
        batch.kill()
        batch.wait()


def folder_side(spec: str) -> Side:
    """A folder named on the command line: a data folder (templates beside it, else the kit's
    own), or a project folder holding data/ (and maybe templates/)."""
    folder = Path(spec)
    if not folder.is_dir():
        raise UsageError(f"{spec}: no such data folder (give a data folder, a project folder or git:REV)")
    if not holds(folder, "data") and holds(folder / "data", "data"):
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


@overload
def _git(spec: str, *args: str, cwd: str | None = None, missing: str | None = None,
         raw: Literal[False] = False) -> str: ...


@overload
def _git(spec: str, *args: str, cwd: str | None = None, missing: str | None = None, raw: Literal[True]) -> bytes: ...


def _git(spec: str, *args: str, cwd: str | None = None, missing: str | None = None, raw: bool = False) \
        -> str | bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise UsageError(f"{spec}: git is not installed") from None
    if done.returncode:
        if missing:
            raise UsageError(missing)
        raise UsageError(f"{spec}: {_first_line(done.stderr) or 'git ' + args[0] + ' failed'}")
    return done.stdout if raw else done.stdout.decode()


def _first_line(raw: bytes) -> str:
    text = raw.decode(errors="replace").strip()
    return text.splitlines()[0] if text else ""
