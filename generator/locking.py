"""One command at a time per folder: the lock every command that writes a folder holds.

Nothing of the lock stays in the folder, which a player may zip and share:

- Where the system can lock a folder itself (flock on the folder's own descriptor: Linux, macOS,
  the BSDs), that is the lock, and there is no lock file at all.  Every user who can open the
  folder locks the same folder, so two users building into one shared folder exclude each other
  too, and the system lets go of it when the process ends, however it ends.
- Elsewhere (Windows, or a network file system that can lock files but not folders) the lock is
  the file LOCK_NAME in the folder, through filelock: LockFileEx on Windows, flock of the file,
  and where the system has no locks at all the file's existence.  Windows' lock and the
  existence-only lock remove the file as they let go; a file system that locks files but not
  folders keeps it (removing a file another process may be about to lock would let two hold it).
"""

import contextlib
import errno
import os
import stat
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import UsageError

LOCK_NAME = ".bailout.lock"
# What flock of a folder's descriptor gives where the file system cannot lock a folder (NFS: EBADF
# for an exclusive lock on a descriptor opened to read, ENOLCK without a lock manager).
_CANNOT_LOCK_FOLDERS = {errno.EBADF, errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL}


class _Busy(Exception):
    """Another command holds the folder's lock."""


@contextmanager
def folder_lock(folder: Path, *, option: str = "--out") -> Iterator[None]:
    """Hold the lock on `folder` for the body, or stop at once with one line naming `option` and
    the folder (no wait: a build of a million rows takes minutes, and a silent wait looks like a
    hang).  `folder` must exist."""
    busy = (f"{option} {folder}: another build is writing this folder now; run again when it has finished, "
            f"or choose another {option}")
    try:
        held = _lock_folder_itself(folder)
    except _Busy:
        raise UsageError(busy) from None
    except OSError as error:
        raise UsageError(f"{option} {folder}: cannot lock the folder ({error.strerror or error})") from None
    if held is None:
        with _lock_file(folder, option, busy):
            yield
        return
    try:
        _remove_earlier_lock_file(folder)
        yield
    finally:
        os.close(held)      # closing the descriptor lets go of its lock


def _lock_folder_itself(folder: Path) -> int | None:
    """The folder's own descriptor, locked (flock), or None where the system cannot lock a folder
    (no fcntl, as on Windows, or a file system that refuses); _Busy when another holds it."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise _Busy() from None
    except OSError as error:
        os.close(fd)
        if error.errno in _CANNOT_LOCK_FOLDERS:
            return None
        raise
    return fd


def _remove_earlier_lock_file(folder: Path) -> None:
    """The empty LOCK_NAME an earlier version of the kit left in the folder (it kept its lock
    file), removed while this lock is held: only a regular, empty file of this user's."""
    path = folder / LOCK_NAME
    with contextlib.suppress(OSError):
        info = os.lstat(path)
        own = not hasattr(os, "getuid") or info.st_uid == os.getuid()
        if stat.S_ISREG(info.st_mode) and info.st_size == 0 and own:
            os.unlink(path)


@contextmanager
def _lock_file(folder: Path, option: str, busy: str) -> Iterator[None]:
    """The lock as the file LOCK_NAME in `folder`, through filelock (see the module's docstring)."""
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
    lock = FileLock(path, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        stale = (f"; if none is running, one was stopped before it could remove {LOCK_NAME} (this system "
                 f"has no file locks, only the file): delete it") if soft else ""
        raise UsageError(busy + stale) from None
    except OSError as error:
        raise UsageError(f"{option} {folder}: cannot lock {LOCK_NAME} ({error.strerror or error})") from None
    try:
        yield
    finally:
        lock.release()
