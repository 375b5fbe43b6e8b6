"""Reading one file of the data folder safely, turning every failure into a problem line.

Data folders are shared and may be hostile: a data file must be a regular file (a FIFO would
block the read forever, /dev/zero would fill memory) of at most MAX_FILE_BYTES, and its TOML may
nest tables and arrays at most MAX_DEPTH deep (deeper, the parser itself would overflow).
"""

import copy
import functools
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from generator.data.schema import Problems

MAX_FILE_BYTES = 8 * 1024 * 1024    # 100,000 [[roster]] tables take about 5 MB
MAX_DEPTH = 32                      # the shipped data nests 4 deep
_CHUNK = 1 << 20
# A file's table is kept for its bytes up to this size (a file a person writes: the shipped data's
# largest is 14 KB); a longer one, a generated roster of thousands of tables, is parsed each time.
KEPT_BYTES = 256 * 1024
NOT_REGULAR = "is not a regular file"


class Unreadable(Exception):
    """A data file that is missing, not a regular file, too large or unreadable (one line)."""


def read_limited(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of regular file `path`, or Unreadable (never blocks, never reads past `limit`)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):     # look before opening: no device is opened
            raise Unreadable(NOT_REGULAR)
        # O_NONBLOCK: should the path become a FIFO after the stat, the open still returns at once.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise Unreadable("file not found") from None
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    except ValueError:                                  # a NUL in the name
        raise Unreadable("is not a usable file name") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(NOT_REGULAR)
        if info.st_size > limit:
            raise Unreadable(f"is {info.st_size:,} bytes; a data file may hold at most {limit:,}")
        return _read_up_to(fd, limit)
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    finally:
        os.close(fd)


def _read_up_to(fd: int, limit: int) -> bytes:
    """What the open file `fd` holds, read in chunks; Unreadable once it is past `limit` (a file
    may grow after its size was looked at)."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise Unreadable(f"is over {limit:,} bytes; a data file may hold at most {limit:,}")
    return b"".join(chunks)


def read_toml(problems: Problems, data_dir: Path, rel: str, seen: dict[str, bytes] | None = None) \
        -> dict[str, Any] | None:
    """The table in data_dir/rel, or None with the problem added (naming the file).

    The file must resolve inside the data folder (no symbolic link, of the file or of a folder on
    the way, leads out of it).  The bytes read are put in `seen` under `rel`, for the data hash.
    """
    try:
        content = read_limited(data_dir / rel)
        _inside(data_dir, rel)
    except Unreadable as error:
        problems.add(rel, "", str(error))
        return None
    if seen is not None:
        seen[rel] = content
    return parse_toml(problems, rel, content)


def parse_toml(problems: Problems, rel: str, content: bytes) -> dict[str, Any] | None:
    """The table `content` holds (the file `rel`), or None with the problem added."""
    kept = len(content) <= KEPT_BYTES
    try:
        table, depth = _parsed(content) if kept else _parse(content)
    except UnicodeDecodeError as error:
        problems.add(rel, "", f"cannot be read: not UTF-8 ({error.reason} at byte {error.start})")
        return None
    except tomllib.TOMLDecodeError as error:
        problems.add(rel, "", f"not valid TOML: {error}")
        return None
    except RecursionError:
        problems.add(rel, "", f"tables or arrays nest too deep (at most {MAX_DEPTH} levels)")
        return None
    if depth > MAX_DEPTH:
        problems.add(rel, "", f"tables or arrays nest too deep (at most {MAX_DEPTH} levels)")
        return None
    return copy.deepcopy(table) if kept else table


def _parse(content: bytes) -> tuple[dict[str, Any], int]:
    """The table `content` holds, and how deep it nests."""
    table = tomllib.loads(content.decode("utf-8"))
    return table, _depth(table)


# Each build reads its data folder anew (serve after every save, a release for each edition's
# glossary, a test for each build): a file is parsed once for the same bytes, and each reader
# is given a copy of its own to keep.
_parsed = functools.lru_cache(maxsize=64)(_parse)


def _inside(data_dir: Path, rel: str) -> None:
    """Unreadable unless data_dir/rel, every link followed, lies inside data_dir (itself resolved)."""
    try:
        folder = os.path.realpath(data_dir, strict=True)
        target = os.path.realpath(data_dir / rel, strict=True)
    except (OSError, RuntimeError) as error:      # a loop of links, or a name gone meanwhile
        raise Unreadable(f"cannot be resolved ({getattr(error, 'strerror', None) or 'a loop of links'})") from None
    if os.path.commonpath([folder, target]) != folder:
        raise Unreadable(f"leads outside the data folder (to {target}, through a symbolic link); data files "
                         f"must lie inside it")


def _depth(value: dict[str, Any] | list[Any]) -> int:
    """How deep tables and arrays nest in `value` (walked without recursion)."""
    deepest = 0
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest
