"""Where the kit's own data/ and templates/ are: beside the package in a source checkout
(the README installs it editable, so editors change the files the kit reads), else in the
working folder, for a copy installed some other way and run from the source folder."""

from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent


def kit_folder(name):
    beside = SOURCE / name
    return beside if beside.is_dir() else Path.cwd() / name
