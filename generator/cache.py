"""A per-user folder of what the kit derives from its inputs and may keep between runs.

A build is a fresh process: without this it parses every catalogue (.po, through Babel) and
compiles the aid template (Jinja2) again each time, a good share of a cold build's work.  Nothing
kept here changes an output: every entry is named by the SHA-256 of what it was made from (and
the versions of the library that made it), so an edited catalogue or template is made afresh,
and an entry that cannot be read or written is only made again.

BAILOUT_CACHE names another folder, or "off" for none.  The folder is the platform's own
(platformdirs: ~/.cache/bailout-kit on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on
Windows), made readable by its owner only.
"""

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

CACHE = "BAILOUT_CACHE"


def cache_folder(kind: str) -> Path | None:
    """The folder for entries of `kind` (made if need be), or None: off, or it cannot be made."""
    given = os.environ.get(CACHE, "").strip()
    if given.lower() == "off":
        return None
    if given:
        base = Path(given)
    else:
        import platformdirs
        base = platformdirs.user_cache_path("bailout-kit", appauthor=False)
    folder = base / kind
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if folder.is_dir() else None


def digest(*parts: bytes | str) -> str:
    """The name of an entry made from `parts`."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def read(kind: str, key: str) -> bytes | None:
    folder = cache_folder(kind)
    if folder is None:
        return None
    try:
        return (folder / key).read_bytes()
    except OSError:
        return None


def write(kind: str, key: str, content: bytes) -> None:
    """Keep `content` as the entry `key`: whole or not at all (written aside, then renamed)."""
    folder = cache_folder(kind)
    if folder is None:
        return
    try:
        handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{key[:16]}-")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(temp, folder / key)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
