"""`bailout build`: all or nothing, one build at a time per output folder, in bounded memory.

1. Lock: generator.locking.folder_lock on --out (the folder itself where the system can lock
   one, so nothing of the lock stays in a folder a player may zip).  A second build into the same
   folder stops at once with a message naming the folder (it does not wait: a build of a million
   rows takes minutes, and a silent wait looks like a hang).
2. Render: every output goes to its own file in a staging folder of this build's own inside
   --out (STAGING_PREFIX and a random name, made by mkdtemp: private to its user; one
   filesystem, so the final moves are renames), one at a time; nothing is kept in memory once
   written.  MANIFEST.txt is made last, by streaming the staged files.
3. Commit: a plan naming every file is written, then for each file the earlier one (if any) is
   moved into the staging folder and the new one renamed into place.  Any failure, Ctrl-C,
   SIGTERM or SIGHUP before the last rename puts every earlier file back; after the last rename a
   `done` mark is written.  The staging folder is then removed.
After a SIGKILL the staging folder stays; the next build (holding the lock, so nothing else is
using it) finishes what its plan says, rolling back an unfinished commit, and removes it.  An
output folder may be shared (a team's sticky folder): only a staging folder this user owns and
nobody else can enter is read or followed, since no other user can have written a plan there;
any other is left as it is.
"""

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import BinaryIO, TypeVar

from generator.data.sources import remove_made
from generator.data.toml_file import Unreadable, read_limited
from generator.errors import UsageError, one_line, without_memory_error
from generator.layout.paper import PAPERS
from generator.locking import LOCK_NAME, folder_lock
from generator.make.outputs import all_file_names
from generator.signals import Terminated, ended_as_interrupt, signals_held

__all__ = ["LOCK_NAME", "Terminated", "folder_lock"]    # what the commands that write a folder use
# A build's staging folder: this prefix and mkdtemp's random name.  It holds new/ (the rendered
# files), old/ (the files replaced), plan and done.
STAGING_PREFIX = ".bailout-staging-"
MANIFEST = "MANIFEST.txt"
# Test hook, read only in the commit phase: seconds to sleep before each rename, so a test can
# interrupt a build or start another one while it is renaming.  Never set it otherwise.
SLOW_COMMIT = "BAILOUT_TEST_SLOW_COMMIT"
# Test hook, likewise: a file whose existence the commit phase waits for (at most a minute) before
# its first rename, so a test can run a second build against a build that is surely renaming.
HOLD_COMMIT = "BAILOUT_TEST_HOLD_COMMIT"
# Errors that mean the disk (or the quota) is full, from whatever a build writes while rendering.
DISK_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def _hold(until: str) -> None:
    """The HOLD_COMMIT test hook: wait until the file `until` exists (at once when unset)."""
    deadline = time.monotonic() + 60
    while until and not os.path.exists(until) and time.monotonic() < deadline:
        time.sleep(0.01)


def umask() -> int:
    """The process's umask, read where files are written (os.umask can only be read by setting it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_all(out: Path, outputs: Mapping[str, bytes], *, held: bool = False) -> None:
    """Write {name: bytes} into `out` as a build does: under its lock (`held`: the caller holds
    it already, as serve does), all or nothing."""
    def make(folder: Path) -> list[str]:
        folder.mkdir()
        for name, content in outputs.items():
            write_file(folder, name, content)
        return list(outputs)
    transaction(out, make, held=held)


def write_one(out: Path, name: str, content: bytes) -> None:
    """One file into `out` (made, with its missing parents, if need be), whole or not at all and
    nothing else left there: written to a name of its own beside it (never through a link), then
    renamed over `name`.  No lock: a rename is all or nothing, and each writer writes its own
    temporary file (a release's zip is named by what it holds)."""
    if Path(name).name != name:
        raise UsageError(f"refusing to write {name!r} outside {out}")
    temp = out / f".{name}.{secrets.token_hex(4)}.tmp"
    with ended_as_interrupt(), _Folder(out):
        try:
            with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666),
                      "wb") as handle:
                handle.write(content)
            os.replace(temp, out / name)
        except BaseException as failure:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            if isinstance(failure, OSError):
                raise UsageError(f"--out {out}: cannot write {name} ({failure.strerror}); nothing was changed") \
                    from None
            raise


def transaction(out: Path, make: Callable[[Path], list[str]], *, held: bool = False) -> list[str]:
    """Lock `out` (unless the caller `held` its lock), let make(staging folder) fill a new folder
    and return the names, then commit."""
    committed = False
    try:
        with ended_as_interrupt(), contextlib.nullcontext() if held else _Lock(out):
            staging = _fresh_staging(out)
            try:
                try:
                    names = without_memory_error(lambda: make(staging / "new"), "nothing was changed")
                except OSError as error:
                    if error.errno not in DISK_FULL:
                        raise
                    raise UsageError(f"--out {out}: cannot write ({error.strerror}); nothing was changed") from None
                _commit(out, staging, names)
                committed = True
            finally:
                _remove(staging)
    except KeyboardInterrupt as interrupt:
        if committed:       # too late to stop: say so, rather than that nothing changed
            raise Terminated("the build had finished; the new outputs are in place",
                             getattr(interrupt, "status", 130)) from None
        raise
    return names


def write_file(folder: Path, name: str, content: bytes) -> None:
    write_stream(folder, name, lambda handle: handle.write(content))


T = TypeVar("T")


def write_stream(folder: Path, name: str, write: Callable[[BinaryIO], T]) -> T:
    """write(handle) into the new file `name` of `folder` as it goes (a long table is never held
    whole); what write returns."""
    if Path(name).name != name:     # names are ours, but never let one escape the folder
        raise UsageError(f"refusing to write {name!r} outside {folder}")
    try:
        with open(folder / name, "xb") as handle:
            result = write(handle)
        os.chmod(folder / name, 0o666 & ~umask())    # outputs are for sharing
    except OSError as error:        # a full disk, most likely: the staging folder goes, nothing changed
        raise UsageError(f"{written_where(folder)}: cannot write {name} ({error.strerror}); nothing was changed") \
            from None
    return result


def written_where(folder: Path) -> str:
    """How a problem names the folder a file of `folder` (a build's new/, or a temporary folder's
    own) was being written to: --out for a build, else the temporary folder, which is not --out."""
    if folder.parent.name.startswith(STAGING_PREFIX):
        return f"--out {folder.parent.parent}"
    return f"the temporary folder {folder.parent} (TMPDIR)"


# -- one build per folder --------------------------------------------------------------------

class _Folder:
    """--out and its missing parents, made on entry and removed again when the block fails (a
    failed build or release leaves no --out behind)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.made: list[Path] = []      # folders this build made, deepest last: removed again on failure

    def __enter__(self) -> "_Folder":
        out = self.out
        try:
            missing = out
            while not os.path.lexists(missing) and missing != missing.parent:
                self.made.insert(0, missing)
                missing = missing.parent
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--out {out}: cannot create the folder ({error.strerror})") from None
        return self

    def __exit__(self, failed: type[BaseException] | None, *exc: object) -> None:
        if failed:
            remove_made(self.made)      # the folders this build made


class _Lock(_Folder):
    """folder_lock on --out, held for the whole build, in the folder _Folder makes."""

    def __init__(self, out: Path) -> None:
        super().__init__(out)
        self.held = folder_lock(out)

    def __enter__(self) -> "_Lock":
        super().__enter__()
        try:
            self.held.__enter__()
        except UsageError:
            remove_made(self.made)
            raise
        return self

    def __exit__(self, failed: type[BaseException] | None, *exc: object) -> None:
        if failed and self.made:
            _remove(self.out / LOCK_NAME)      # while still held, so no other build has locked this file
        self.held.__exit__(None, None, None)
        super().__exit__(failed)


def is_file(path: Path) -> bool:
    """Whether `path` is a regular file; a UsageError when it cannot even be looked at."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            return False
        raise UsageError(f"--out {path.parent}: cannot look at {path.name} ({error.strerror})") from None


# -- staging, commit, roll back --------------------------------------------------------------

def _fresh_staging(out: Path) -> Path:
    """A new staging folder of this build's own (mkdtemp: a fresh name, private to this user),
    after finishing whatever a killed build of this user left (we hold the lock)."""
    try:
        for leftover in _leftovers(out):
            _recover(out, leftover)
        _remove_old_temporaries(out)
        return Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
    except OSError as error:
        raise UsageError(f"--out {out}: cannot prepare a staging folder ({error.strerror})") from None


def _leftovers(out: Path) -> list[Path]:
    """The staging folders in `out` a killed build of this user left: folders this user owns that
    nobody else can enter, so no other user can have written in them.  Any other (planted by
    another user, or where the system cannot say whose it is) is never read: it is left as it is,
    said once."""
    with os.scandir(out) as entries:
        found = sorted(Path(e.path) for e in entries if e.name.startswith(STAGING_PREFIX))
    ours = [path for path in found if own_private_folder(path)]
    others = [path.name for path in found if path not in ours]
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3:,} more" if len(others) > 3 else "")
        print(one_line(f"bailout: note: --out {out} holds {shown}, not a private folder of yours (as a build of "
                       f"yours leaves one): left as {'it is' if len(others) == 1 else 'they are'}"), file=sys.stderr)
    return ours


def own_private_folder(path: Path) -> bool:
    """Whether `path` is a folder (not a link) of this user's that no one else may read, write or
    enter; False where the system cannot say who owns a file (Windows)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and hasattr(os, "getuid") and info.st_uid == os.getuid() \
        and not info.st_mode & 0o077


def _recover(out: Path, staging: Path) -> None:
    """A killed build's staging folder: an unfinished commit rolled back by its plan, then removed."""
    if (staging / "plan").exists() and not (staging / "done").exists():
        _roll_back(out, staging, _read_plan(out, staging))
    _remove(staging, strict=True)


_OLD_TEMP = re.compile(r"\.(.+)\.[a-z0-9_]{8}\.tmp")


def _remove_old_temporaries(out: Path) -> None:
    """The `.NAME.xxxxxxxx.tmp` files an interrupted build of an earlier version left behind (this
    user's own: another's are not ours to remove)."""
    ours = set(all_file_names(PAPERS.values())) | {MANIFEST}
    for entry in os.scandir(out):
        match = _OLD_TEMP.fullmatch(entry.name)
        if match and match.group(1) in ours and entry.is_file(follow_symlinks=False):
            own = not hasattr(os, "getuid") or entry.stat(follow_symlinks=False).st_uid == os.getuid()
            if own:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _commit(out: Path, staging: Path, names: Iterable[str]) -> None:
    """Rename every staged file into `out`, keeping the files replaced until the last rename."""
    new, old = staging / "new", staging / "old"
    old.mkdir()
    plan: list[tuple[str, str]] = []   # (name, how): 'had' an earlier file, 'new', or a 'folder' in the way
    for name in names:
        if os.path.lexists(out / name) and os.path.isdir(out / name) and not os.path.islink(out / name):
            plan.append((name, "folder"))       # found again in the loop below, after renames
        else:
            plan.append((name, "had" if os.path.lexists(out / name) else "new"))
    try:
        (staging / "plan").write_text("".join(f"{how} {name}\n" for name, how in plan))
    except OSError as error:        # nothing renamed yet: the staging folder goes, nothing changed
        raise UsageError(f"--out {out}: cannot write {staging.name}/plan ({error.strerror}); nothing was changed") \
            from None
    delay = float(os.environ.get(SLOW_COMMIT, "0") or 0)
    _hold(os.environ.get(HOLD_COMMIT, ""))
    try:
        for name, how in plan:
            if delay:
                time.sleep(delay)
            if how == "folder":
                raise UsageError(f"--out {out}: {name} is a folder; move it away and build again")
            if how == "had":
                os.rename(out / name, old / name)
            os.rename(new / name, out / name)
        (staging / "done").touch()
    except BaseException as failure:
        with signals_held():
            _roll_back(out, staging, [(how, name) for name, how in plan])
        if isinstance(failure, OSError):
            raise UsageError(f"--out {out}: cannot write ({failure.strerror}); earlier outputs restored") \
                from None
        raise


_PLAN_HOWS = ("had", "new", "folder")
# The release's zip name (release.zip_name): version and the data hash's first 8 hex digits.
_RELEASE_ZIP = re.compile(r"bailout-kit-[0-9A-Za-z.+_-]{1,40}-[0-9a-f]{8}\.zip")


def is_kit_file_name(name: str) -> bool:
    """Whether `name` is one the kit itself writes into --out: a build output, MANIFEST.txt or a
    release zip; never a path (no separator, no ..)."""
    if not name or "/" in name or "\\" in name or "\0" in name or name in (".", ".."):
        return False
    return name in set(all_file_names(PAPERS.values())) | {MANIFEST} or bool(_RELEASE_ZIP.fullmatch(name))


def _read_plan(out: Path, staging: Path) -> list[tuple[str, str]]:
    """The (how, name) lines a killed build left in its plan, every name one the kit writes.

    The output folder may be shared, synced or unpacked from elsewhere: a plan is trusted only
    as far as it names the kit's own files, so a forged one cannot move or delete anything else.
    Anything else is refused (UsageError) before a file is touched.
    """
    name = staging.name
    where = f"--out {out}: {name}/plan"
    for folder in ("new", "old"):       # a linked folder would move files in from elsewhere
        if os.path.islink(staging / folder):
            raise UsageError(f"--out {out}: {name}/{folder} is a symbolic link, so not a folder this kit "
                             f"made; nothing was changed; move {name} away and build again")
    try:
        text = read_limited(staging / "plan", limit=1 << 20).decode("utf-8")
    except Unreadable as error:
        raise UsageError(f"{where} cannot be read as a plan ({error}); move {name} away and build again") \
            from None
    except UnicodeDecodeError:
        raise UsageError(f"{where} is not UTF-8, so not a plan this kit wrote; move {name} away "
                         f"and build again") from None
    plan: list[tuple[str, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        how, _, name = line.partition(" ")
        if how not in _PLAN_HOWS or not is_kit_file_name(name):
            raise UsageError(f"{where}: line {number} ({line!r}) is not a line this kit writes; nothing was "
                             f"changed; move {name} away and build again")
        plan.append((how, name))
    return plan


def _roll_back(out: Path, staging: Path, plan: Iterable[tuple[str, str]]) -> None:
    """Undo a commit by its plan: every earlier file back in place, every new one gone."""
    new, old = staging / "new", staging / "old"
    for how, name in plan:
        if how == "had" and os.path.lexists(old / name):
            os.replace(old / name, out / name)
        elif how == "new" and not os.path.lexists(new / name) and os.path.lexists(out / name):
            os.unlink(out / name)       # ours: renamed there by this commit


def _remove(path: Path, strict: bool = False) -> None:
    try:
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
            os.unlink(path)
        elif os.path.lexists(path):
            shutil.rmtree(path)
    except OSError:
        if strict:
            raise               # a build leaves it for the next one; preparing must not
