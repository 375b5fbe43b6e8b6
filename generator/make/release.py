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
from generator.content.stamp import SHORT, Stamp
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
    return f"bailout-kit-{__version__}-{key[:SHORT]}.zip"


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
    options = _whole_kit(options)
    progress = None if quiet else FileProgress()
    products = Products(context(kit, options, templates))
    try:
        files = share_files(kit, products, Share(options.lang), templates, more_profiles, progress)
    finally:
        if progress is not None:
            progress.close()        # a release that failed or was stopped leaves the terminal as it was
    return edition_files(kit, options, files, _told(products.ctx), editions), products.ctx.stamp


class Share(Struct, frozen=True):
    """What of an edition's release one process makes: its files on `papers` (None: on every
    paper), and with `paperless` its files of no paper, its face images and punchboards (made
    from the counters on FACE_PAPER, the first paper)."""
    lang: str
    papers: tuple[str, ...] | None = None
    paperless: bool = True


def share_files(kit: KitData, products: Products, share: Share, templates: Path | None,
                more_profiles: Sequence[str], progress: FileProgress | None = None) -> dict[str, bytes]:
    """The files of `share` of an edition's release, made from the edition's `products`, each PDF
    with its thumbnail; not its README.txt, index.html or MANIFEST.txt."""
    from generator.render.images import thumbnails
    options = products.ctx.options
    files = render_all(kit, options, progress=progress, products=products, paperless=share.paperless,
                       papers=share.papers)
    files.pop(MANIFEST)             # made anew over everything the zip holds
    for profile in (p for p in dict.fromkeys(more_profiles) if p != options.print_profile):
        # only what its folder keeps
        more_options = replace(options, print_profile=profile, parts=_shop_parts(profile))
        more_products = Products(context(kit, more_options, templates))
        more = render_all(kit, more_options, products=more_products, paperless=False, papers=share.papers)
        files.update({f"{profile}/{name}": content for name, content in more.items() if _in_folder(name, profile)})
        if share.paperless:
            files.update(_boards(more_products, f"{profile}/"))
    if share.paperless:
        files.update(_boards(products, ""))
        files.update(products.get(FACE_IMAGES))
    files.update(thumbnails({n: c for n, c in files.items() if n.endswith(".pdf") and "/" not in n}))
    return files


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

    With `jobs` over 1, the editions are dealt out over that many processes (make/workers.py)
    by dealt(): each edition is whole work of its own, and so is its second paper."""
    if langs == (SOURCE_LANGUAGE,):
        return make_release(kit, replace(options, lang=SOURCE_LANGUAGE), templates=templates, quiet=quiet,
                            more_profiles=more_profiles)
    mine, *theirs = dealt(langs, jobs)
    made_by = functools.partial(_lane, kit, _whole_kit(options), templates, tuple(more_profiles))
    made: dict[str, dict[str, bytes]] = {lang: {} for lang in langs}
    told: dict[str, Told] = {}
    for lane in workers.side_by_side(functools.partial(made_by, mine), made_by, theirs):
        for share, its_files, its_told in lane:
            made[share.lang].update(its_files)
            if its_told is not None:
                told[share.lang] = its_told
    files: dict[str, bytes] = {}
    for lang in langs:
        whole = edition_files(kit, replace(_whole_kit(options), lang=lang), made.pop(lang), told[lang], langs)
        files.update({f"{lang}/{n}": c for n, c in language_named(whole, lang).items()})
    from generator.render.html.release_pages import editions_index
    files["index.html"] = editions_index(kit, langs)
    files["MANIFEST.txt"] = manifest(kit, files, replace(_whole_kit(options), lang=",".join(langs)),
                                     libraries=LIBRARIES + IMAGE_LIBRARIES + CUT_LIBRARIES)
    stamps = " ".join(f"{lang}:{told[lang].stamp.hash}" for lang in langs)
    name = _named(hashlib.sha256(stamps.encode()).hexdigest(), more_profiles)
    return name, zip_bytes(files, name[:-len(".zip")])


def dealt(langs: Sequence[str], jobs: int) -> list[list[Share]]:
    """The shares of a release's editions dealt over at most `jobs` lanes, this process's first.

    The editions are dealt in turn, at least EDITIONS_A_PROCESS a lane (workers.lanes: this
    process's lane never the shorter).  Where the lanes then hold unequal numbers, each edition's
    second paper is made apart from the rest of it, by the lanes that hold the fewest editions:
    seven editions on two cores are four here and three in a worker, and the worker, which starts
    an interpreter first, also makes the second paper of each edition it does not hold.  A paper's
    PDFs are a small share of an edition (its web aid, digital tables and images are made once,
    with its first paper): benchmarks/bench_speed.py's release row measures what this gains."""
    lanes = workers.lanes(langs, jobs, EDITIONS_A_PROCESS)
    fewest = min(map(len, lanes))
    takers = [n for n, lane in enumerate(lanes) if len(lane) == fewest]
    first, *others = PAPER_KEYS
    shares: list[list[Share]] = []
    apart: list[str] = []           # the editions whose second paper is made in another lane
    for lane in lanes:
        if len(lane) == fewest:
            shares.append([Share(lang) for lang in lane])
        else:
            shares.append([Share(lang, (first,)) for lang in lane])
            apart += lane
    for n, lang in enumerate(apart):
        shares[takers[n % len(takers)]].append(Share(lang, tuple(others), paperless=False))
    return shares


def _lane(kit: KitData, options: BuildOptions, templates: Path | None, more_profiles: tuple[str, ...],
          shares: list[Share]) -> list[tuple[Share, dict[str, bytes], Told | None]]:
    """What a lane made of each of `shares`, one after the other, each from products of its own:
    its files, and where it holds the edition's files of no paper, what the edition's README,
    index and MANIFEST say of its build."""
    made = []
    for share in shares:
        products = Products(context(kit, replace(options, lang=share.lang), templates))
        files = share_files(kit, products, share, templates, more_profiles)
        made.append((share, files, _told(products.ctx) if share.paperless else None))
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
