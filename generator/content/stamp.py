"""The edition stamp: one hash over everything that shapes the print.

Data, templates, every catalogue (content/locale/*.po), a translated edition's glossary
(data/glossary/<lang>.toml, read after the data), every field of BuildOptions (read from the
record's fields, so options added later are covered without more work) and the kit version.
Same inputs, same stamp; any of them changed, another stamp.  The footers print it, MANIFEST.txt
lists it with what went into it, and the release's zip is named by it.
"""

import hashlib
from pathlib import Path

from msgspec import Struct
from msgspec.structs import fields

from generator import __version__
from generator.content.words import LOCALE
from generator.data.model import KitData
from generator.options import BuildOptions

SHORT = 10      # the stamp as footers print it
# Fields that choose which files a build makes, not what any file holds: an aid-only build prints
# the same aid as a whole build.  --since is stamped by what it marks (the changes), not by name,
# so a base with no printed change leaves every byte as it was.
UNSTAMPED = ("papers", "parts", "since")


class Stamp(Struct, frozen=True):
    """The stamp and its inputs, [(name, sha256 or value)], as MANIFEST.txt lists them."""
    hash: str
    inputs: tuple[tuple[str, str], ...]

    @property
    def short(self) -> str:
        return self.hash[:SHORT]


def folder_hash(folder: Path, pattern: str = "*", largest: int | None = None) -> str:
    """sha256 over every file under `folder` matching `pattern` (of at most `largest` bytes, when
    given): relative path and bytes, in path order, each file read a piece at a time."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts):
        if largest is not None and path.stat().st_size > largest:
            continue
        digest.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        with open(path, "rb") as handle:
            for piece in iter(lambda: handle.read(1 << 20), b""):
                digest.update(piece)
        digest.update(b"\0")
    return digest.hexdigest()


def templates_hash(folder: Path) -> str:
    """folder_hash of the files in a templates folder a template can be read from: a file past
    the most a template may hold (a stray video, say) can shape nothing printed, and is not read."""
    # imported here: what imports the stamp (the parser) loads Jinja only when it renders
    from generator.content.template_sandbox import MAX_TEMPLATE_BYTES
    return folder_hash(folder, largest=MAX_TEMPLATE_BYTES)


def options_text(options: BuildOptions) -> str:
    """Every field of the options (but UNSTAMPED) as name=repr(value), one a line, in declaration order."""
    return "\n".join(f"{f.name}={getattr(options, f.name)!r}" for f in fields(options) if f.name not in UNSTAMPED)


def edition_stamp(kit: KitData, options: BuildOptions, templates: Path,
                  since: tuple[str, str] | None = None) -> Stamp:
    """The stamp of a build of `kit` with `options` and the templates in `templates`; `since` is
    the hashes of the --since base's data and templates when the aid marks changes from it."""
    inputs: tuple[tuple[str, str], ...] = (("data", kit.hash), ("templates", templates_hash(templates)),
                                          ("catalogues", folder_hash(LOCALE, "*.po")),
                                          ("options", hashlib.sha256(options_text(options).encode()).hexdigest()),
                                          ("kit", __version__))
    if kit.edition is not None:
        inputs += (("glossary", kit.edition.digest),)
    if since is not None:
        inputs += (("since", since[0]), ("since_templates", since[1]))
    text = "".join(f"{name} {value}\n" for name, value in inputs)
    return Stamp(hashlib.sha256(text.encode()).hexdigest(), inputs)
