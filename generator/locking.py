"""One command at a time per folder: the lock every command that writes a folder holds.

Through filelock, so it works on every platform: flock on Linux and macOS, LockFileEx on
Windows, and where neither exists (a filesystem without locks) the lock file's existence.
The lock file stays after a command (a build's --out holds it), unless only its existence was
the lock, which then has to go with it.
"""

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import UsageError

LOCK_NAME = ".bailout.lock"


@contextmanager
def folder_lock(folder: Path, *, option: str = "--out") -> Iterator[None]:
    """Hold `folder`/LOCK_NAME for the body, or stop at once with one line naming `option` and
    the folder (no wait: a build of a million rows takes minutes, and a silent wait looks like a
    hang).  `folder` must exist."""
    with warnings.catch_warnings():     # "only soft file lock is available": said below, when it matters
        warnings.simplefilter("ignore")
        # lazily: `bailout --help` needs none of it.  FileLock is a native lock or, where the system
        # has none, the soft one: asked of the native classes, as importing SoftFileLock's module
        # is much of filelock's import, which every build would pay
        from filelock import FileLock, Timeout, UnixFileLock, WindowsFileLock
    soft = not issubclass(FileLock, (UnixFileLock, WindowsFileLock))
    path = folder / LOCK_NAME
    if os.path.islink(path):        # a planted link could make the lock create or truncate another file
        raise UsageError(f"{option} {folder}: {LOCK_NAME} is a symbolic link; remove it and run again")
    # A native lock's file stays (removing it would let a build lock a file another has just
    # unlinked); a soft lock's file is the lock, so it must go.
    lock = FileLock(path, timeout=0, preserve_lock_file=not soft)
    try:
        lock.acquire()
    except Timeout:
        stale = (f"; if none is running, one was stopped before it could remove {LOCK_NAME} (this system "
                 f"has no file locks, only the file): delete it") if soft else ""
        raise UsageError(f"{option} {folder}: another build is writing this folder now ({LOCK_NAME} is "
                         f"locked); run again when it has finished, or choose another {option}{stale}") from None
    except OSError as error:
        raise UsageError(f"{option} {folder}: cannot lock {LOCK_NAME} ({error.strerror or error})") from None
    try:
        yield
    finally:
        lock.release()
