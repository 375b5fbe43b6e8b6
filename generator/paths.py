"""Where the kit's own data/ and templates/ are, and probing the folders a user names.

The kit's folders: beside the package in a source checkout (the README installs it editable, so
editors change the files the kit reads), else in the working folder, for a copy installed some
other way and run from the source folder."""

import errno
import os
import stat
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent


def kit_folder(name):
    beside = SOURCE / name
    return beside if beside.is_dir() else Path.cwd() / name


class PathProblem(Exception):
    """A path that cannot even be looked at; the message is a few words, without the path."""


def probe(path):
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
