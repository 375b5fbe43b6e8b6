"""`bailout release`: the whole kit as one zip to post for the community.

The files come from pipeline.render_all (every part, both papers), plus what only a release
carries: counter face images and page thumbnails (rasterised with pypdfium2 from the PDFs just
rendered), a players' README.txt, an index.html and a MANIFEST.txt of everything.  The zip is
byte-identical for the same data, options and library versions: fixed timestamps (from
SOURCE_DATE_EPOCH when set), sorted names, fixed permissions and compression.
"""

import contextlib
import functools
import hashlib
import io
import os
import time
import zipfile
from collections.abc import Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from generator import __version__
from generator.content.context import BuildContext, Since
from generator.content.stamp import Stamp
from generator.content.words import SOURCE_LANGUAGE, load_words
from generator.data.model import KitData
from generator.layout.paper import PAPERS
from generator.make.manifest import IMAGE_LIBRARIES, LIBRARIES, manifest
from generator.make.outputs import OUTPUTS, Output, all_file_names, part_pdf
from generator.make.pipeline import context, edition_data, render_all
from generator.make.progress import FileProgress
from generator.make.transaction import MANIFEST
from generator.make.workers import one_by_one, plan, start_cost, width, workers
from generator.options import PAPER_KEYS, PARTS, BuildOptions, check_source_date_epoch
from generator.profiles import registry

if TYPE_CHECKING:
    from generator.render.html.release_pages import Listed

FIXED_DATE = (2000, 1, 1, 0, 0, 0)      # the PDFs' own fixed date when no SOURCE_DATE_EPOCH is set
# An edition's work on the paper its faces come from (its PDFs, web aid, CSV, face images and
# thumbnails) and on another (its PDFs and thumbnails), and on each of its pre-rolled rows; what it
# costs once in each process that makes any of it (its context, the aid's text, and for the first
# edition of a process the release's page templates); the release's own besides (its start, the
# pages and manifest of each edition, the zip); what a worker costs before its first edition (a
# forked one still imports the renderers and parses the fonts, as _warm does; a spawned one is a
# new interpreter besides); in milliseconds of one core on the development machine, measured by
# benchmarks/bench_parallel.py: what the plan weighs side by side against one by one.
LEAD_PAPER = 290.0
OTHER_PAPER = 160.0
PER_ROW = sum(o.cost_per_row for o in OUTPUTS if o.per_paper)
LEAD_PER_ROW = sum(o.cost_per_row for o in OUTPUTS if not o.per_paper)
EDITION_SETUP = 80.0
FIXED = 185.0
WORKER_START = {"fork": 150.0, "spawn": 300.0}
README = "README.txt"
# What the release's pages describe beside the outputs (index.html is the page itself).
OWN_FILES = ((README, "readme"), (MANIFEST, "manifest"))


def zip_name(stamp: Stamp) -> str:
    """The zip's name carries the edition stamp: two releases of different inputs never share one."""
    return f"bailout-kit-{__version__}-{stamp.hash[:8]}.zip"


def make_release(kit: KitData, options: BuildOptions, *, templates: Path | None = None,
                 quiet: bool = True, more_profiles: Sequence[str] = ()) -> tuple[str, bytes]:
    """(zip file name, zip bytes) for the whole kit, both papers, with the options' settings.
    `more_profiles`: further print profiles, each one's PDFs in a folder of its name.  Its work
    runs side by side only where the release's plan expects that to pay (one edition's seldom
    does: its face images follow its PDFs)."""
    side_by_side = len(_plan((options.lang,), options.rows)) > 1
    with contextlib.nullcontext() if side_by_side else one_by_one():
        files, stamp = release_files(kit, options, templates=templates, quiet=quiet, more_profiles=more_profiles)
    name = zip_name(stamp)
    return name, zip_bytes(name[:-len(".zip")], files)


def release_files(kit: KitData, options: BuildOptions, *, templates: Path | None = None, quiet: bool = True,
                  more_profiles: Sequence[str] = (), editions: Sequence[str] = ()) -> tuple[dict[str, bytes], Stamp]:
    """Every file of one edition's release, by name, and the edition's stamp; `editions`: the
    languages of a release of several, which its index links."""
    options = _whole_kit(options)
    progress = None if quiet else FileProgress()
    ctx = context(kit, options, templates)     # its stamp names the zip
    try:
        files = paper_files(kit, options, options.papers, templates, tuple(more_profiles), ctx=ctx,
                            progress=progress)[0]
    finally:
        if progress is not None:
            progress.close()        # a release that failed or was stopped leaves the terminal as it was
    return edition_files(kit, options, files, _told(ctx), editions), ctx.stamp


class Told(Struct, frozen=True):
    """What an edition's README, index and MANIFEST say of its build: its stamp, the edition's
    label, and the changes `--since` marked."""
    stamp: Stamp
    edition: str
    changes: Since | None


def _told(ctx: BuildContext) -> Told:
    return Told(ctx.stamp, ctx.stamp_words(), ctx.changes)


def paper_files(kit: KitData, options: BuildOptions, papers: tuple[str, ...], templates: Path | None,
                more_profiles: tuple[str, ...], *, ctx: BuildContext | None = None,
                progress: FileProgress | None = None) -> tuple[dict[str, bytes], Told]:
    """The files of one edition's release for some of its papers: those papers' PDFs (and the
    further profiles'), their thumbnails, and with the paper the faces come from, the outputs
    made once (the web aid, the CSV), the face images and a punchboard's slugs.  `options` is
    the whole edition's (both papers): its context, and so every stamp, is the edition's."""
    from generator.render.images import FACE_PAPER, face_images, thumbnails
    ctx = ctx if ctx is not None else context(kit, options, templates)
    lead = FACE_PAPER in papers
    one = replace(options, papers=papers)
    files = render_all(kit, one, templates=templates, progress=progress, ctx=replace(ctx, options=one),
                       paperless=lead)
    files.pop(MANIFEST)             # made anew over everything the zip holds
    for profile in (p for p in dict.fromkeys(more_profiles) if p != options.print_profile):
        more_options = replace(one, print_profile=profile, parts=_shop_parts(profile))    # only what its folder keeps
        more = render_all(kit, more_options, templates=templates, progress=progress, paperless=False)
        files.update({f"{profile}/{name}": content for name, content in more.items() if _in_folder(name, profile)})
        if lead:
            files.update(_boards(more, more_options, f"{profile}/"))
    if lead:
        files.update(_boards(files, options, ""))
        # placed by the counters of the words (and the edition's data) the PDF printed
        counters = files[part_pdf("counters").file_name(PAPERS[FACE_PAPER])]
        files.update(face_images(edition_data(kit, options.lang), options, counters, load_words(options.lang)))
    files.update(thumbnails({n: c for n, c in files.items() if n.endswith(".pdf") and "/" not in n}))
    return files, _told(ctx)


def edition_files(kit: KitData, options: BuildOptions, files: dict[str, bytes], told: Told,
                  editions: Sequence[str] = ()) -> dict[str, bytes]:
    """`files` (every paper's) with the edition's README.txt, index.html and MANIFEST.txt."""
    from generator.render.html.release_pages import index_html, readme_text
    words = load_words(options.lang)
    pdfs, others = listed(options)
    files[README] = readme_text(kit, options, files, words, told.edition, pdfs=pdfs, others=others)
    files["index.html"] = index_html(kit, options, files, words, told.edition, pdfs=pdfs, others=others,
                                     editions=editions)
    files[MANIFEST] = manifest(kit, files, options, since=told.changes, stamp=told.stamp,
                               libraries=LIBRARIES + IMAGE_LIBRARIES)
    return files


def _boards(files: dict[str, bytes], options: BuildOptions, folder: str) -> dict[str, bytes]:
    """A punchboard profile's slugs as images, each side a PNG, under `folder`: the shop's
    upload page takes images, not the PDF."""
    from generator.layout.sheets import board_of
    from generator.render.images import FACE_PAPER, board_images
    if board_of(options) is None:
        return {}
    counters = files[part_pdf("counters").file_name(PAPERS[FACE_PAPER])]       # a board is one size on any paper
    return {folder + name: png for name, png in board_images(counters).items()}


def _shop_parts(profile: str) -> tuple[str, ...]:
    """The parts a profile's shop prints (every part for a profile without a shop, or a shop
    that prints them all)."""
    shop = registry.profile(profile).prepress
    return tuple(shop.parts) if shop is not None and shop.parts is not None else PARTS


def _in_folder(name: str, profile: str) -> bool:
    """Whether a further profile's file goes in its folder: its PDFs and cut files, of the parts
    its shop prints."""
    parts = _shop_parts(profile)
    output = next((o for o in OUTPUTS for p in PAPERS.values() if o.file_name(p) == name), None)
    if output is None or not name.endswith((".pdf", ".svg")):
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
                          more_profiles: Sequence[str] = ()) -> tuple[str, bytes]:
    """(zip name, bytes): each language's whole release in its own folder (en/, de/, ...), its
    files named for the language (kit-a4-de.pdf), an index.html listing the editions and a
    MANIFEST.txt of everything.  English alone is make_release's zip, as it always was.

    The editions are made side by side (make/workers.py), whole, but for those left over once
    each core has as many whole ones: their papers are spread one by one, so the cores end
    together (five languages on two: two editions and a paper each)."""
    if langs == (SOURCE_LANGUAGE,):
        return make_release(kit, replace(options, lang=SOURCE_LANGUAGE), templates=templates, quiet=quiet,
                            more_profiles=more_profiles)
    lanes = _plan(langs, options.rows)
    made_by = functools.partial(_papers, kit, options, templates, tuple(more_profiles), langs)
    with workers(len(lanes), functools.partial(_warm, kit, templates)) as runner:
        made = dict(pair for lane in runner.map(made_by, lanes) for pair in lane)
    files: dict[str, bytes] = {}
    stamps = []
    for lang in langs:
        told = next(told for (of, _), (_, told) in made.items() if of == lang)
        own = {name: content for (of, _), (part, _) in made.items() if of == lang for name, content in part.items()}
        if not all(papers == PAPER_KEYS for (of, papers) in made if of == lang):     # its papers made apart
            own = _finished(kit, options, lang, own, told, langs)
        files.update({f"{lang}/{n}": c for n, c in own.items()})
        stamps.append(f"{lang}:{told.stamp.hash}")
    from generator.render.html.release_pages import editions_index
    files["index.html"] = editions_index(kit, langs)
    files["MANIFEST.txt"] = manifest(kit, files, replace(_whole_kit(options), lang=",".join(langs)),
                                     libraries=LIBRARIES + IMAGE_LIBRARIES)
    name = f"bailout-kit-{__version__}-{hashlib.sha256(' '.join(stamps).encode()).hexdigest()[:8]}.zip"
    return name, zip_bytes(name[:-len(".zip")], files)


Unit = tuple[str, tuple[str, ...]]      # (language, paper keys): an edition, or one of its papers


def _units(langs: tuple[str, ...], lanes: int) -> list[list[Unit]]:
    """What the plan spreads: whole editions (an edition's two papers share its setup), and the
    editions left over once each lane has as many whole ones, paper by paper."""
    whole = len(langs) - len(langs) % lanes if lanes > 1 else len(langs)
    return [[(lang, PAPER_KEYS)] for lang in langs[:whole]] + \
        [[(lang, (paper,))] for lang in langs[whole:] for paper in PAPER_KEYS]


def _plan(langs: tuple[str, ...], rows: int | None) -> list[list[Unit]]:
    """The editions of `langs` as lanes (make/workers.py plan), a table of `rows` pre-rolled rows each."""
    from generator.content.rows import TARGET_ROWS
    rows = rows or TARGET_ROWS

    def cost(lane: Sequence[Unit]) -> float:
        """A lane's work: each paper's, the faces' paper carrying the images and the outputs made
        once, and each edition's setup once."""
        from generator.render.images import FACE_PAPER
        return sum(LEAD_PAPER + LEAD_PER_ROW * rows if paper == FACE_PAPER else OTHER_PAPER
                   for _, papers in lane for paper in papers) + \
            PER_ROW * rows * sum(len(papers) for _, papers in lane) + EDITION_SETUP * len({lang for lang, _ in lane})
    [lanes] = plan([_units(langs, width())], cost, width(), FIXED, start=start_cost(WORKER_START))
    return lanes


def _papers(kit: KitData, options: BuildOptions, templates: Path | None, more_profiles: tuple[str, ...],
            langs: tuple[str, ...], units: list[Unit]) -> list[tuple[Unit, tuple[dict[str, bytes], Told]]]:
    """[(unit, (its files, what its edition's pages tell))] for each edition of `units`, one
    after the other, its papers in this lane made together (one render, one context).  An
    edition whose every paper is made here is finished here too (its pages, its MANIFEST.txt,
    its files named for its language), beside the other lanes' work rather than after it."""
    editions: dict[str, tuple[str, ...]] = {}
    for lang, papers in units:
        editions[lang] = editions.get(lang, ()) + papers
    made = []
    for lang, papers in editions.items():
        edition = _whole_kit(replace(options, lang=lang))
        files, told = paper_files(kit, edition, papers, templates, more_profiles)
        if papers == PAPER_KEYS:
            files = _finished(kit, options, lang, files, told, langs)
        made.append(((lang, papers), (files, told)))
    return made


def _finished(kit: KitData, options: BuildOptions, lang: str, files: dict[str, bytes], told: Told,
              langs: tuple[str, ...]) -> dict[str, bytes]:
    """An edition's files of every paper with its README.txt, index.html and MANIFEST.txt, each
    named for its language (kit-a4-de.pdf), as its folder of a release of several holds them."""
    return language_named(edition_files(kit, _whole_kit(replace(options, lang=lang)), files, told, langs), lang)


def _warm(kit: KitData, templates: Path | None) -> None:
    """What every edition needs the same, done as a worker starts: the renderers imported, the
    fonts parsed and the aid template compiled."""
    import jinja2

    from generator.content.aid_text import compiled_template
    from generator.data.sources import template_folder
    from generator.make.outputs import OUTPUTS
    from generator.render.pdf.canvas import register_fonts
    for output in OUTPUTS:
        output.merger() if output.merges else output.renderer()
    import_module("generator.render.html.release_pages")
    import_module("generator.render.images")
    register_fonts(italics=True)
    # A template that does not compile is reported by the edition that renders it, as always.
    with contextlib.suppress(jinja2.TemplateError, OSError, UnicodeError):
        compiled_template(templates if templates is not None else template_folder(kit.directory))


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
            # A PNG is deflated already: deflating it again saves almost nothing for the time it
            # takes; stored as it is.
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def _zip_date() -> tuple[int, int, int, int, int, int]:
    check_source_date_epoch()
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return FIXED_DATE
    return max(time.gmtime(int(epoch))[:6], (1980, 1, 1, 0, 0, 0))     # zip dates start in 1980
