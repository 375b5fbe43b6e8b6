"""Reproducible zip archives: the release, the VASSAL module and extension, the Tabletop
Simulator folder.

The same files give the same bytes: entries in sorted order, each dated FIXED_DATE (or
SOURCE_DATE_EPOCH when set, within the dates a zip can say), plain files with fixed permissions,
PNGs, PDFs and zips stored (their contents are deflated already) and everything else deflated at
one level.  Every entry name is checked before it is written: a relative path of plain parts, so
no name a data folder made can climb out of the folder the archive is unpacked into.
"""

import io
import os
import re
import time
import zipfile
from collections.abc import Mapping

from generator.options import check_source_date_epoch

FIXED_DATE = (2000, 1, 1, 0, 0, 0)      # the PDFs' own fixed date when no SOURCE_DATE_EPOCH is set
STORED_AS_THEY_ARE = (".png", ".pdf", ".zip", ".vmdx", ".vmod")     # their contents are compressed already
# A part of an entry's path: printable ASCII but the separators, quotes and the characters
# Windows refuses in a file name; not '.' or '..'.
_PART = re.compile(r"[A-Za-z0-9 ._+()-]{1,200}")


def entry_problem(name: str) -> str | None:
    """Why `name` may not be an entry of an archive (None when it may): an empty, absolute or
    climbing path, a backslash, or a part a file system cannot hold as it is."""
    parts = name.split("/")
    if not name or name.startswith("/") or "\\" in name:
        return "not a relative path"
    for part in parts:
        if part in ("", ".", "..") or not _PART.fullmatch(part) or part != part.strip(" ."):
            return f"its part {part!r} is not a plain file name"
    return None


def zip_bytes(files: Mapping[str, bytes], folder: str = "") -> bytes:
    """A reproducible zip of {name: bytes}, in sorted order, every entry under `folder/` when given."""
    prefix = f"{folder}/" if folder else ""
    stamp = zip_date()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            problem = entry_problem(prefix + name)
            if problem is not None:
                raise ValueError(f"{prefix + name!r} cannot be a zip entry: {problem}")
            info = zipfile.ZipInfo(prefix + name, date_time=stamp)
            info.create_system = 3                  # unix, so the permissions below are read
            info.external_attr = 0o100644 << 16     # a plain file, rw-r--r--
            # A PNG, a PDF (its pages, fonts and images are deflated streams) and a zip of the kit's
            # own (a VASSAL file, the Tabletop Simulator folder in a release) are deflated already:
            # deflating them again saves a tenth to a sixth of their size for most of a release's
            # time in its last, single process; stored as they are.
            stored = name.endswith(STORED_AS_THEY_ARE)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


# A zip entry's date (MS-DOS time) can say 1980 to 2107: a SOURCE_DATE_EPOCH outside that (which
# a PDF's dates can still say) dates the entries at the nearest end.
ZIP_DATES = ((1980, 1, 1, 0, 0, 0), (2107, 12, 31, 23, 59, 58))


def zip_date() -> tuple[int, int, int, int, int, int]:
    """Every entry's date: SOURCE_DATE_EPOCH's when set (within ZIP_DATES), else FIXED_DATE."""
    check_source_date_epoch()
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return FIXED_DATE
    first, last = ZIP_DATES
    return min(max(time.gmtime(int(epoch))[:6], first), last)
