"""`bailout release`: the whole kit as one zip to post for the community.

The files come from pipeline.render_all (every part, both papers), plus what only a release
carries: counter face images and page thumbnails (rasterised with pypdfium2 from the PDFs just
rendered), a players' README.txt, an index.html and a MANIFEST.txt of everything.  The zip is
byte-identical for the same data, options and library versions: fixed timestamps (from
SOURCE_DATE_EPOCH when set), sorted names, fixed permissions and compression.
"""

import functools
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from generator import __version__
from generator.archive import zip_bytes
from generator.content.context import BuildContext, Since
from generator.content.stamp import Stamp
from generator.content.words import SOURCE_LANGUAGE, load_words
from generator.data.model import KitData
from generator.layout.paper import PAPERS
from generator.make import workers
from generator.make.manifest import CUT_LIBRARIES, IMAGE_LIBRARIES, LIBRARIES, manifest
from generator.make.outputs import OUTPUTS, Output, all_file_names, parts
from generator.make.pipeline import context, edition_data, render_all
from generator.make.products import COUNTERS_PDF, FACE_IMAGES, Products
from generator.make.progress import FileProgress
from generator.make.transaction import MANIFEST
from generator.options import PAPER_KEYS, BuildOptions
from generator.profiles import registry

if TYPE_CHECKING:
    from generator.render.html.release_pages import Listed

README = "README.txt"
# A worker process is a new interpreter that imports the kit and parses its fonts: with one
# edition of its own it ends little sooner than the editions in one process would
# (benchmarks/bench_parallel.py; docs/speed.md), so each process takes two at the least.
EDITIONS_A_PROCESS = 2
# What the release's pages describe beside the outputs (index.html is the page itself).
OWN_FILES = ((README, "readme"), (MANIFEST, "manifest"))


def zip_name(stamp: Stamp, more_profiles: Sequence[str] = ()) -> str:
    """The zip's name carries the edition stamp, and the further print profiles where there are
    any: two releases of different inputs or different profiles never share one."""
    return _named(stamp.hash, more_profiles)


def _named(key: str, more_profiles: Sequence[str]) -> str:
    if more_profiles:
        key = hashlib.sha256(" ".join((key, *more_profiles)).encode()).hexdigest()
    return f"bailout-kit-{__version__}-{key[:8]}.zip"


def make_release(kit: KitData, options: BuildOptions, *, templates: Path | None = None,
                 quiet: bool = True, more_profiles: Sequence[str] = ()) -> tuple[str, bytes]:
    """(zip file name, zip bytes) for the whole kit, both papers, with the options' settings.
    `more_profiles`: further print profiles, each one's PDFs in a folder of its name."""
    files, stamp = release_files(kit, options, templates=templates, quiet=quiet, more_profiles=more_profiles)
    name = zip_name(stamp, more_profiles)
    return name, zip_bytes(files, name[:-len(".zip")])


def release_files(kit: KitData, options: BuildOptions, *, templates: Path | None = None, quiet: bool = True,
                  more_profiles: Sequence[str] = (), editions: Sequence[str] = ()) -> tuple[dict[str, bytes], Stamp]:
    """Every file of one edition's release, by name, and the edition's stamp; `editions`: the
    languages of a release of several, which its index links.  Its files: every output for both
    papers (and the further profiles' PDFs), the counter face images, a punchboard's slugs and
    each PDF's thumbnail, then its README.txt, index.html and MANIFEST.txt."""
    from generator.render.images import thumbnails
    options = _whole_kit(options)
    progress = None if quiet else FileProgress()
    products = Products(context(kit, options, templates))
    try:
        files = render_all(kit, options, progress=progress, products=products)
    finally:
        if progress is not None:
            progress.close()        # a release that failed or was stopped leaves the terminal as it was
    files.pop(MANIFEST)             # made anew over everything the zip holds
    for profile in (p for p in dict.fromkeys(more_profiles) if p != options.print_profile):
        # only what its folder keeps
        more_options = replace(options, print_profile=profile, parts=_shop_parts(profile))
        more_products = Products(context(kit, more_options, templates))
        more = render_all(kit, more_options, products=more_products, paperless=False)
        files.update({f"{profile}/{name}": content for name, content in more.items() if _in_folder(name, profile)})
        files.update(_boards(more_products, f"{profile}/"))
    files.update(_boards(products, ""))
    files.update(products.get(FACE_IMAGES))
    files.update(thumbnails({n: c for n, c in files.items() if n.endswith(".pdf") and "/" not in n}))
    ctx = products.ctx
    return edition_files(kit, options, files, _told(ctx), editions), ctx.stamp


class Told(Struct, frozen=True):
    """What an edition's README, index and MANIFEST say of its build: its stamp, the edition's
    label, and the changes `--since` marked."""
    stamp: Stamp
    edition: str
    changes: Since | None


def _told(ctx: BuildContext) -> Told:
    return Told(ctx.stamp, ctx.stamp_words(), ctx.changes)


def edition_files(kit: KitData, options: BuildOptions, files: dict[str, bytes], told: Told,
                  editions: Sequence[str] = ()) -> dict[str, bytes]:
    """`files` (every paper's) with the edition's README.txt, index.html and MANIFEST.txt."""
    from generator.render.html.release_pages import index_html, readme_text
    words = load_words(options.lang)
    pdfs, others = listed(options)
    files[README] = readme_text(kit, options, files, words, told.edition, pdfs=pdfs, others=others)
    files["index.html"] = index_html(kit, options, files, words, told.edition, pdfs=pdfs, others=others,
                                     editions=editions, printed=edition_data(kit, options.lang))
    files[MANIFEST] = manifest(kit, files, options, since=told.changes, stamp=told.stamp,
                               libraries=LIBRARIES + IMAGE_LIBRARIES + CUT_LIBRARIES)
    return files


def _boards(products: Products, folder: str) -> dict[str, bytes]:
    """A punchboard profile's slugs as images, each side a PNG, under `folder`: the shop's
    upload page takes images, not the PDF, and takes them in RGB, so they are made from the
    design's own RGB counters (the PDF before its shop's CMYK conversion), page and bleed."""
    from generator.layout.sheets import board_of
    from generator.render.images import FACE_PAPER, board_images
    from generator.render.pdf.pdfx import margin
    options = products.ctx.options
    prepress = options.profile.prepress
    if board_of(options) is None or prepress is None:
        return {}
    design = products.get(COUNTERS_PDF, PAPERS[FACE_PAPER])     # a board is one size on any paper
    return {folder + name: png for name, png in board_images(design, margin(prepress, options.marks)).items()}


def _shop_parts(profile: str) -> tuple[str, ...]:
    """The parts a profile's shop prints (every part for a profile without a shop, or a shop
    that prints them all)."""
    shop = registry.profile(profile).prepress
    return tuple(shop.parts) if shop is not None and shop.parts is not None else parts()


def _in_folder(name: str, profile: str) -> bool:
    """Whether a further profile's file goes in its folder: its PDFs and cut files, of the parts
    its shop prints."""
    parts = _shop_parts(profile)
    output = next((o for o in OUTPUTS for p in PAPERS.values() if o.file_name(p) == name), None)
    if output is None or not name.endswith((".pdf", ".svg", ".dxf")):
        return False
    return output.part in parts if not output.merges else set(output.merges) <= set(parts)


def listed(options: BuildOptions) -> tuple[list["Listed"], list["Listed"]]:
    """The files a release's pages describe, from the Output registry: every PDF for each paper,
    what merges parts first (the kit is what most players print), then every other output and
    the release's own files."""
    from generator.render.html.release_pages import Listed
    papers = [PAPERS[p] for p in options.papers]

    def entry(output: Output) -> "Listed":
        names = [(output.file_name(p), p.key) for p in papers] if output.per_paper else [(output.name, None)]
        return Listed(output.kind, tuple(names))
    made = [o for o in OUTPUTS if o.made_for(options.profile)]
    pdfs = sorted((o for o in made if o.name.endswith(".pdf")), key=lambda o: not o.merges)
    return ([entry(o) for o in pdfs], [entry(o) for o in made if not o.name.endswith(".pdf")]
            + [Listed(kind, ((name, None),)) for name, kind in OWN_FILES])


# -- one zip of several editions ---------------------------------------------------------------------

def make_editions_release(kit: KitData, options: BuildOptions, langs: tuple[str, ...], *,
                          templates: Path | None = None, quiet: bool = True,
                          more_profiles: Sequence[str] = (), jobs: int = 1) -> tuple[str, bytes]:
    """(zip name, bytes): each language's whole release in its own folder (en/, de/, ...), its
    files named for the language (kit-a4-de.pdf), an index.html listing the editions and a
    MANIFEST.txt of everything.  English alone is make_release's zip, as it always was.

    With `jobs` over 1, the editions are dealt out over that many processes (make/workers.py),
    at least EDITIONS_A_PROCESS each: each edition is whole work of its own."""
    if langs == (SOURCE_LANGUAGE,):
        return make_release(kit, replace(options, lang=SOURCE_LANGUAGE), templates=templates, quiet=quiet,
                            more_profiles=more_profiles)
    mine, *theirs = workers.lanes(langs, jobs, EDITIONS_A_PROCESS)
    editions = functools.partial(_editions, kit, options, templates, tuple(more_profiles), langs)
    made: dict[str, tuple[dict[str, bytes], Stamp]] = {}
    for lane in workers.side_by_side(functools.partial(editions, mine), editions, theirs):
        made |= lane
    files: dict[str, bytes] = {}
    for lang in langs:
        files.update({f"{lang}/{n}": c for n, c in made[lang][0].items()})
    from generator.render.html.release_pages import editions_index
    files["index.html"] = editions_index(kit, langs)
    files["MANIFEST.txt"] = manifest(kit, files, replace(_whole_kit(options), lang=",".join(langs)),
                                     libraries=LIBRARIES + IMAGE_LIBRARIES + CUT_LIBRARIES)
    stamps = " ".join(f"{lang}:{made[lang][1].hash}" for lang in langs)
    name = _named(hashlib.sha256(stamps.encode()).hexdigest(), more_profiles)
    return name, zip_bytes(files, name[:-len(".zip")])


def _editions(kit: KitData, options: BuildOptions, templates: Path | None, more_profiles: tuple[str, ...],
              langs: tuple[str, ...], mine: list[str]) -> dict[str, tuple[dict[str, bytes], Stamp]]:
    """{lang: (its folder's files, its stamp)} for each edition of `mine`, one after the other: its
    release's files, each named for its language (kit-a4-de.pdf), its index linking `langs`."""
    made = {}
    for lang in mine:
        files, stamp = release_files(kit, replace(options, lang=lang), templates=templates,
                                     more_profiles=more_profiles, editions=langs)
        made[lang] = (language_named(files, lang), stamp)
    return made


def language_named(files: Mapping[str, bytes], lang: str) -> dict[str, bytes]:
    """The edition's files with the language in the name of each output the registry declares
    (kit-a4.pdf -> kit-a4-de.pdf), and its index.html and README.txt linking the new names."""
    declared = set(all_file_names(PAPERS.values()))
    renamed = {n: f"{n.rsplit('.', 1)[0]}-{lang}.{n.rsplit('.', 1)[1]}" for n in files if n in declared}
    out: dict[str, bytes] = {}
    for name, content in files.items():
        linked = content
        if name in ("index.html", README):
            for old, new in sorted(renamed.items(), key=lambda pair: -len(pair[0])):
                linked = linked.replace(old.encode(), new.encode())
        out[renamed.get(name, name)] = linked
    return out


def _whole_kit(options: BuildOptions) -> BuildOptions:
    """A release always holds every part for both papers; the other options stand as given."""
    return replace(options, papers=PAPER_KEYS, parts=None)
