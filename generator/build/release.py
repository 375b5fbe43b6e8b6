"""`bailout release`: the whole kit as one zip to post for the community.

The files come from build.render_all (every part, both papers), plus what only a release
carries: counter face images and page thumbnails (rasterised with pypdfium2 from the PDFs just
rendered), a players' README.txt, an index.html and a MANIFEST.txt of everything.  The zip is
byte-identical for the same data, options and library versions: fixed timestamps (from
SOURCE_DATE_EPOCH when set), sorted names, fixed permissions and compression.
"""

import io
import os
import time
import zipfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from generator import __version__
from generator.build.manifest import manifest
from generator.build.pipeline import render_all
from generator.build.progress import progress as print_progress
from generator.build.pipeline import edition_data
from generator.content.words import SOURCE_LANGUAGE, load_words
from generator.data.model import KitData
from generator.options import PAPER_KEYS, PARTS, BuildOptions, check_source_date_epoch

FIXED_DATE = (2000, 1, 1, 0, 0, 0)      # the PDFs' own fixed date when no SOURCE_DATE_EPOCH is set


def zip_name(kit: KitData) -> str:
    return f"bailout-kit-{__version__}-{kit.hash[:8]}.zip"


def make_release(kit: KitData, options: BuildOptions, *, templates: Path | None = None,
                 quiet: bool = True) -> tuple[str, bytes]:
    """(zip file name, zip bytes) for the whole kit, both papers, with the options' settings."""
    options = _whole_kit(options)
    progress = None if quiet else print_progress
    from generator.render.html.release_pages import index_html, readme_text
    from generator.render.images import FACE_PAPER, face_images, thumbnails
    words = load_words(options.lang)        # a build's words, as every part's context has them
    files = render_all(kit, options, templates=templates, progress=progress)
    files.pop("MANIFEST.txt")       # remade below, over everything the zip holds
    # placed by the counters of the words (and the edition's data) the PDF printed
    files.update(face_images(edition_data(kit, options.lang), options, files[f"counters-{FACE_PAPER}.pdf"], words))
    thumbs = thumbnails({n: c for n, c in files.items() if n.endswith(".pdf")})
    files.update(thumbs)
    files["README.txt"] = readme_text(kit, options, files, words)
    files["index.html"] = index_html(kit, options, files, words)
    files["MANIFEST.txt"] = manifest(kit, files, options)
    name = zip_name(kit)
    return name, zip_bytes(name[:-len(".zip")], files)


# -- issue 19: one zip of several editions -----------------------------------------------------------

def make_editions_release(kit: KitData, options: BuildOptions, langs: tuple[str, ...], *,
                          templates: Path | None = None, quiet: bool = True) -> tuple[str, bytes]:
    """(zip name, bytes): each language's whole release in its own folder (en/, de/, ...), its
    files named for the language (kit-a4-de.pdf), an index.html listing the editions and a
    MANIFEST.txt of everything.  English alone is make_release's zip, as it always was."""
    if langs == (SOURCE_LANGUAGE,):
        return make_release(kit, replace(options, lang=SOURCE_LANGUAGE), templates=templates, quiet=quiet)
    files: dict[str, bytes] = {}
    for lang in langs:
        name, content = make_release(kit, replace(options, lang=lang), templates=templates, quiet=quiet)
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            edition = {info.filename.split("/", 1)[1]: archive.read(info) for info in archive.infolist()}
        files.update({f"{lang}/{n}": c for n, c in language_named(edition, lang).items()})
    from generator.render.html.release_pages import editions_index
    files["index.html"] = editions_index(kit, langs)
    files["MANIFEST.txt"] = manifest(kit, files, replace(options, lang=",".join(langs)))
    name = zip_name(kit)
    return name, zip_bytes(name[:-len(".zip")], files)


def language_named(files: Mapping[str, bytes], lang: str) -> dict[str, bytes]:
    """The edition's files with the language in each top-level PDF, HTML and CSV name
    (kit-a4.pdf -> kit-a4-de.pdf), and its index.html and README.txt linking the new names."""
    renamed = {n: f"{n.rsplit('.', 1)[0]}-{lang}.{n.rsplit('.', 1)[1]}" for n in files
               if "/" not in n and n.endswith((".pdf", ".html", ".csv")) and n != "index.html"}
    out: dict[str, bytes] = {}
    for name, content in files.items():
        if name in ("index.html", "README.txt"):
            for old, new in sorted(renamed.items(), key=lambda pair: -len(pair[0])):
                content = content.replace(old.encode(), new.encode())
        out[renamed.get(name, name)] = content
    return out


def _whole_kit(options: BuildOptions) -> BuildOptions:
    """A release always holds every part for both papers; the other options stand as given."""
    return replace(options, papers=PAPER_KEYS, parts=PARTS)


def zip_bytes(folder: str, files: Mapping[str, bytes]) -> bytes:
    """A reproducible zip of {name: bytes}, every file under `folder/`, in sorted order."""
    stamp = _zip_date()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=stamp)
            info.create_system = 3                  # unix, so the permissions below are read
            info.external_attr = 0o100644 << 16     # a plain file, rw-r--r--
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def _zip_date() -> tuple[int, int, int, int, int, int]:
    check_source_date_epoch()
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return FIXED_DATE
    return max(time.gmtime(int(epoch))[:6], (1980, 1, 1, 0, 0, 0))     # zip dates start in 1980
