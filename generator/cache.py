"""A per-user folder of what the kit derives from its inputs and may keep between runs.

A build is a fresh process: without this it parses every catalogue (.po, through Babel) and
compiles the aid template (Jinja2) again each time, a good share of a cold build's work.  Nothing
kept here changes an output: every entry is named by the SHA-256 of what it was made from (and
the versions of the library that made it), so an edited catalogue or template is made afresh,
and an entry that cannot be read or written is only made again.

The folder is trusted no further than its owner: it is used only when it (and the kit's folder
above it) belongs to the user running the kit and nobody else can write it; otherwise the run
goes without it and says so once (a shared folder named by BAILOUT_CACHE could hold entries
another user planted: Jinja's bytecode is code the kit runs).  Each entry is a regular file of
at most MAX_ENTRY bytes, owned by the user and writable by nobody else, opened without following
a link or waiting on a FIFO; the kit's own entries hold a SHA-256 digest of their name and
content, checked before a byte of one is used, and Jinja's bytecode (content/aid_text.py) is
Jinja's file, checked against the template's text.

BAILOUT_CACHE names another folder, or "off" for none.  The folder is the platform's own
(platformdirs: ~/.cache/bailout-kit on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on
Windows), made readable by its owner only.
"""

import contextlib
import hashlib
import os
import re
import secrets
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from generator.errors import one_line

CACHE = "BAILOUT_CACHE"
MAX_ENTRY = 16 << 20        # far more than any entry the kit makes (a catalogue, the compiled aid)
_MAGIC = b"bailout-cache 1\n"
_KEY = re.compile(r"[0-9a-f]{16,128}")      # an entry's name: a hex digest, never a path
_UNSAFE_MODE = stat.S_IWGRP | stat.S_IWOTH
# Where the platform has them (not Windows): links are not followed, a FIFO does not block.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)

_said: set[str] = set()     # folders whose refusal this process has said
quiet = False               # --quiet: the refusal is not said (the command line sets it)


def base_folder() -> Path | None:
    """The cache's top folder (BAILOUT_CACHE, else the platform's), or None when it is off."""
    given = os.environ.get(CACHE, "").strip()
    if given.lower() == "off":
        return None
    if given:
        return Path(given)
    import platformdirs
    return platformdirs.user_cache_path("bailout-kit", appauthor=False)


def cache_folder(kind: str) -> Path | None:
    """The folder for entries of `kind` (made if need be), or None: off, unsafe, or it cannot be made."""
    base = base_folder()
    if base is None:
        return None
    folder = base / kind
    try:
        base.parent.mkdir(parents=True, exist_ok=True)
        # The kit's folder checked before anything is made in it; BAILOUT_CACHE may name a link to
        # a folder, but a kind's folder must be a folder itself (a link would lead elsewhere).
        for path, look in ((base, os.stat), (folder, os.lstat)):
            with contextlib.suppress(FileExistsError):
                os.mkdir(path, 0o700)
            why = _unsafe(look(path))
            if why:
                _say(path, why)
                return None
    except OSError:
        return None
    return folder


def _unsafe(info: os.stat_result) -> str:
    """Why a folder of these properties is no place to read entries from ('' if it is)."""
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link, not a folder"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if not hasattr(os, "getuid"):      # Windows: the per-user folder's own permissions hold
        return ""
    if info.st_uid != os.getuid():
        return "is owned by another user"
    if info.st_mode & _UNSAFE_MODE:
        return "is writable by group or others (chmod go-w it to use it again)"
    return ""


def _say(base: Path, why: str) -> None:
    """The one line, once a process (and never from a build's worker processes), that the cache is not used."""
    if quiet or str(base) in _said:
        return
    import multiprocessing  # here, not above: a build that says nothing need not load it
    if multiprocessing.parent_process() is not None:
        return
    _said.add(str(base))
    print(one_line(f"bailout: note: the cache folder {base} {why}; building without it"), file=sys.stderr)


# Where entries can be opened, renamed and removed relative to their folder's descriptor (Linux,
# macOS; not Windows).  os.rename stands for os.replace, which takes the same descriptors but is
# not listed in os.supports_dir_fd; on POSIX a rename replaces its target as os.replace does.
_BY_DESCRIPTOR = {os.open, os.rename, os.unlink} <= os.supports_dir_fd


@contextlib.contextmanager
def _opened(kind: str) -> Iterator[tuple[Path, int | None] | None]:
    """(folder, its descriptor where entries can be opened relative to one) or None: entries are
    then opened in the very folder that was checked, whatever is renamed above it meanwhile, and
    a folder that is a link by now is not opened at all."""
    folder = cache_folder(kind)
    if folder is None:
        yield None
        return
    if not _BY_DESCRIPTOR:
        yield folder, None
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        yield None
        return
    try:
        yield (folder, fd) if not _unsafe(os.fstat(fd)) else None
    finally:
        os.close(fd)


def digest(*parts: bytes | str) -> str:
    """The name of an entry made from `parts`."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _sealed(kind: str, key: str, content: bytes) -> bytes:
    return _MAGIC + digest(kind, key, content).encode("ascii") + b"\n" + content


def read(kind: str, key: str) -> bytes | None:
    """The content kept as `key`, or None: none kept, or an entry that is not surely the kit's own."""
    data = read_file(kind, key)
    if data is None or not data.startswith(_MAGIC):
        return None
    seal, _, content = data[len(_MAGIC):].partition(b"\n")
    return content if seal == digest(kind, key, content).encode("ascii") else None


def read_file(kind: str, name: str) -> bytes | None:
    """The bytes of the file `name` (a hex digest, never a path) in the folder of `kind`, or None:
    no such file, or not a regular file of at most MAX_ENTRY bytes that only this user can write.
    Its content is not checked here: `read` checks its seal, Jinja's bytecode cache its own."""
    if not _KEY.fullmatch(name):
        return None
    with _opened(kind) as where:
        if where is None:
            return None
        folder, fd = where
        path = name if fd is not None else str(folder / name)
        try:
            if not hasattr(os, "O_NOFOLLOW") and stat.S_ISLNK(os.stat(path, dir_fd=fd, follow_symlinks=False).st_mode):
                return None     # where open() cannot refuse a link itself
            handle = os.open(path, _READ_FLAGS, dir_fd=fd)
        except OSError:
            return None
        try:
            return _read_entry(handle)
        finally:
            os.close(handle)


def _read_entry(handle: int) -> bytes | None:
    """The bytes of an open entry, if it is a regular file of at most MAX_ENTRY bytes that only its
    user (this one) can write."""
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY or info.st_mode & _UNSAFE_MODE:
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_ENTRY:
        chunk = os.read(handle, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    return None


def write(kind: str, key: str, content: bytes) -> None:
    """Keep `content` as the entry `key`: whole or not at all (written aside, then renamed)."""
    if not _KEY.fullmatch(key) or len(content) > MAX_ENTRY - 256:
        return
    with _opened(kind) as where:
        if where is None:
            return
        folder, fd = where
        temp = f".{key[:16]}-{secrets.token_hex(8)}"
        at = (lambda name: name) if fd is not None else (lambda name: str(folder / name))
        try:
            handle = os.open(at(temp), _WRITE_FLAGS, 0o600, dir_fd=fd)
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(_sealed(kind, key, content))
            if fd is not None:
                os.rename(temp, key, src_dir_fd=fd, dst_dir_fd=fd)
            else:
                os.replace(at(temp), at(key))
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(at(temp), dir_fd=fd)
