"""MANIFEST.txt: every file of a build with its SHA-256 and page count, and what made it."""

import hashlib
import io
import platform
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
# A print shop's colours go through its output profile by Pillow's littleCMS (render/pdf/press_colour.py).
SHOP_COLOUR_LIBRARY = "Pillow"
# A release's images are rasterised by pypdfium2 and written as PNG by Pillow.
IMAGE_LIBRARIES = ("pypdfium2", "Pillow")
CUT_LIBRARIES = ("ezdxf",)     # writes the cut DXF (render/cut_files.py), where a profile makes cut files


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


def _page_count(handle: BinaryIO) -> int:
    from generator.render.pdf.kit_pdf import page_count  # only for a PDF whose renderer did not count
    return page_count(handle)


def build_libraries(options: BuildOptions) -> tuple[str, ...]:
    """The libraries that write a build with `options`: pypdf and Pillow only for a print
    shop's profile, ezdxf only for a profile that makes cut files."""
    shop = options.profile.prepress is not None
    names = [name for name in LIBRARIES if name != SHOP_LIBRARY or shop]
    names += [SHOP_COLOUR_LIBRARY] if shop else []
    names += list(CUT_LIBRARIES) if options.profile.cut_files else []
    return tuple(names)


@lru_cache(maxsize=4)
def library_versions(libraries: tuple[str, ...] = LIBRARIES) -> list[tuple[str, str]]:
    """[("Python", "3.11.7"), ("reportlab", "4.2.5"), ...]: what a byte-for-byte rebuild needs."""
    return [("Python", platform.python_version())] + [(name, installed_version(name)) for name in libraries]


def installed_version(name: str) -> str:
    """The version pip installed of the distribution `name`, from its metadata ("unknown" where
    none is installed): the same whether or not this process has imported the library."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"
