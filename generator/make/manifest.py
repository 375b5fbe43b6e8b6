"""MANIFEST.txt: every file of a build with its SHA-256 and page count, and what made it."""

import hashlib
import io
import platform
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import BinaryIO

from generator import __version__
from generator.content.context import Since
from generator.content.stamp import Stamp
from generator.data.model import KitData
from generator.make.outputs import parts
from generator.options import BuildOptions
from generator.profiles import registry

Opener = Callable[[str], BinaryIO]      # opens a file of the build, by name, for reading


# What else decides the bytes: same data, options and these versions give the same files.
LIBRARIES = ("reportlab", "pypdf", "Jinja2", "Markdown")
SHOP_LIBRARY = "pypdf"      # rewrites a print shop's PDFs (render/pdf/shop_pdf.py); no other build uses it
# Where a library says its own version, the same string pip installed: read from the module a
# build has imported anyway, or from the line of its source that assigns it where this process
# has not (a build whose worker rendered the aid's text loads no Jinja here), since
# importlib.metadata takes longer to import than a small build's work.
_OWN_VERSION = {"reportlab": ("reportlab", "Version"), "pypdf": ("pypdf", "__version__"),
                "Jinja2": ("jinja2", "__version__"), "Markdown": ("markdown", "__version__")}
# A release's images are rasterised by pypdfium2 and written as PNG by Pillow.
IMAGE_LIBRARIES = ("pypdfium2", "Pillow")


def manifest(kit: KitData, names: Mapping[str, bytes] | Iterable[str], options: BuildOptions,
             not_rebuilt: Sequence[str] = (), opener: Opener | None = None, since: Since | None = None,
             pages: Mapping[str, int | None] | None = None, libraries: tuple[str, ...] | None = None,
             stamp: Stamp | None = None) -> bytes:
    """Each file of this build with its SHA-256 and page count, the data hash, the kit version,
    the versions of Python and of each library that shapes the output, and the --since base.

    `names` is {name: bytes}, or names whose files `opener(name)` opens: a build reads its
    staged files back in chunks, so no PDF is held in memory whole.  `pages` gives the page
    counts the renderers reported; a PDF without one is counted by reading it.
    """
    if opener is None:
        assert isinstance(names, Mapping), "without an opener, `names` holds each file's bytes"
        outputs = names
        opener = lambda name: io.BytesIO(outputs[name])   # noqa: E731
        pages = {name: getattr(content, "pages", None) for name, content in outputs.items()}
    pages = pages or {}
    lines = [f"871 Bail-Out print kit {__version__}", f"data {kit.hash}",
             f"parts {', '.join(options.parts or parts())}; papers {', '.join(options.papers)}",
             f"language {options.lang}",
             *(f"{name} {version}" for name, version in library_versions(libraries or build_libraries(options)))]
    if options.profile.in_manifest:
        lines.insert(3, f"print {options.print_profile}" + ("" if options.marks else ", no marks"))
    folders = sorted({name.split("/")[0] for name in names if name.split("/")[0] in registry.names()})
    if folders:     # a release holding more profiles: each one's PDFs in a folder of its name
        lines.insert(3, f"also printed as {', '.join(folders)} (in the folders of those names)")
    lines += stamp_lines(stamp, options)
    if since is not None:
        count = sum(len(changes) for _, changes in since.groups)
        lines.append(f"since {since.spec}: {f'commit {since.commit}, ' if since.commit else ''}data {since.data_hash}; "
                     f"{count} printed change{'s' if count != 1 else ''} marked on the player aid")
    lines += ["", f"{'file':24} {'pages':>5}  sha256"]
    for name in sorted(names):
        with opener(name) as handle:
            digest = hashlib.sha256()
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
            shown = (pages.get(name) or _page_count(handle)) if name.endswith(".pdf") else "-"
        lines.append(f"{name:24} {shown:>5}  {digest.hexdigest()}")
    if not_rebuilt:
        lines += ["", "Not made by this build (left from an earlier one, maybe from other data or options):"]
        lines += [f"  {name}" for name in not_rebuilt]
    return ("\n".join(lines) + "\n").encode()


def stamp_lines(stamp: Stamp | None, options: BuildOptions) -> list[str]:
    """The edition stamp and what went into it, and the --label."""
    lines = [f"label {options.label}"] if options.label else []
    if stamp is None:
        return lines
    return [f"edition {stamp.hash}", *(f"  {name} {value}" for name, value in stamp.inputs), *lines]


def _assigned(module: str, attribute: str) -> str | None:
    """The string literal the module `module` (a package) assigns to `attribute` at the start of a
    line of its __init__, read without importing it; None where it assigns no literal."""
    import importlib.util
    import re
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith("__init__.py"):
        return None
    try:
        with open(spec.origin, encoding="utf-8") as source:
            text = source.read()
    except (OSError, UnicodeDecodeError):
        return None
    found = re.search(rf"^{re.escape(attribute)}\s*=\s*[\"']([^\"']+)[\"']\s*$", text, re.M)
    return found.group(1) if found else None


def _page_count(handle: BinaryIO) -> int:
    from generator.render.pdf.kit_pdf import page_count  # only for a PDF whose renderer did not count
    return page_count(handle)


def build_libraries(options: BuildOptions) -> tuple[str, ...]:
    """The libraries that write a build with `options`: pypdf only for a print shop's profile."""
    return tuple(name for name in LIBRARIES if name != SHOP_LIBRARY or options.profile.prepress is not None)


@lru_cache(maxsize=4)
def library_versions(libraries: tuple[str, ...] = LIBRARIES) -> list[tuple[str, str]]:
    """[("Python", "3.11.7"), ("reportlab", "4.2.5"), ...]: what a byte-for-byte rebuild needs."""
    return [("Python", platform.python_version())] + [(name, installed_version(name)) for name in libraries]


def installed_version(name: str) -> str:
    """The version pip installed of the library `name`: its module's own word for it when the
    module is loaded, else its distribution's metadata ("unknown" where pip does not know it)."""
    module, attribute = _OWN_VERSION.get(name, ("", ""))
    own = getattr(sys.modules.get(module), attribute, None)
    if isinstance(own, str):
        return own
    own = _assigned(module, attribute) if module else None
    if own is not None:
        return own
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:    # imported from somewhere pip does not know
        return "unknown"


