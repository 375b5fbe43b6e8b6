"""Render the outputs a build asks for, one file at a time, into a sink (memory or a folder).

`build_into` is `bailout build`: the rendering below inside the all-or-nothing transaction of
generator/make/transaction.py.
"""

import contextlib
import functools
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from msgspec import Struct

from generator.content.context import BuildContext, Since, make_context
from generator.content.words import SOURCE_LANGUAGE, load_words, untranslated_keys
from generator.data.glossary import read_glossary, translated
from generator.data.model import KitData
from generator.data.sources import template_folder
from generator.engine.odds import compute
from generator.errors import DataError, KitError, RenderError, UsageError, one_line, without_memory_error
from generator.layout.paper import PAPERS, Paper
from generator.make import workers
from generator.make.manifest import manifest
from generator.make.outputs import OUTPUTS, Output, all_file_names, part_pdf, selected
from generator.make.products import COUNTER_SHEETS, ROWS, Products
from generator.make.progress import FileProgress
from generator.make.temporary import temporary_folder
from generator.make.transaction import DISK_FULL, MANIFEST, is_file, transaction, write_file, write_stream
from generator.options import BuildOptions, check_source_date_epoch
from generator.profiles.print_profile import Prepress

if TYPE_CHECKING:
    from generator.content.compare import Compared

Progress = Callable[[str, bytes], None]


class Built(Struct, frozen=True):
    """What a build wrote, and what its closing line names."""
    names: list[str]
    stamp: str              # the edition stamp as the footers print it (with the label)
    templates: Path         # the templates it read


def build_into(out: Path, kit: KitData, options: BuildOptions, *, templates: Path | None = None,
               quiet: bool = False, jobs: int = 1) -> Built:
    """`bailout build`: every output into `out`, all or nothing; `jobs` processes at most."""
    earlier: list[str] = []
    progress = None if quiet else FileProgress()
    made_in: list[BuildContext] = []

    def make(folder: Path) -> list[str]:
        earlier.extend(name for name in all_file_names(PAPERS.values()) if is_file(out / name))
        ctx = context(kit, options, templates)
        made_in.append(ctx)
        if not quiet:
            rows_notice(ctx)
            deck_notice(ctx)
        return render_files(folder, ctx, progress=progress, earlier=earlier, jobs=jobs)
    try:
        made = transaction(out, make)
    finally:
        if progress is not None:
            progress.close()        # a build that failed or was stopped leaves the terminal as it was
    stale = [name for name in earlier if name not in made]
    if stale and not quiet:
        print(one_line(f"bailout: note: {out} still holds files this build did not make (see {MANIFEST}): "
                       f"{', '.join(stale)}"), file=sys.stderr)
    return Built(made, made_in[0].stamp_words(), made_in[0].templates)


def render_all(kit: KitData, options: BuildOptions, *, templates: Path | None = None,
               progress: Progress | None = None, earlier: Iterable[str] = (),
               ctx: BuildContext | None = None, products: Products | None = None,
               paperless: bool = True, papers: Sequence[str] | None = None) -> dict[str, bytes]:
    """{file name: bytes} for every output the options ask for (for checks, releases and tests).

    Rendered into a temporary folder (a merged kit reads its parts' files), then read.  `ctx` is
    the build's context when the caller made it already, `products` the build's products when
    the caller makes more of them after (a release's face images); without `paperless`, only the
    outputs made per paper (a further print profile's, whose web aid and CSV the release holds);
    `papers`: the files of these of the options' papers alone (a release's share of an edition)."""
    if products is not None:
        ctx = products.ctx
    made = ctx if ctx is not None else context(kit, options, templates)
    with temporary_folder("bailout-render-") as temp:
        folder = temp / "out"
        try:
            names, pages = without_memory_error(lambda: _written(folder, made, progress, earlier, products,
                                                                 paperless, 1, papers), "nothing was written")
        except OSError as error:
            if error.errno not in DISK_FULL:
                raise
            raise UsageError(f"the temporary folder {temp} (TMPDIR): cannot write ({error.strerror}); "
                             f"nothing was written") from None
        from generator.render.pdf.canvas import Pdf  # bytes that know their page count
        outputs: dict[str, bytes] = {}
        for name in names:
            content = (folder / name).read_bytes()
            count = pages.get(name)
            outputs[name] = Pdf(content, count) if count is not None else content
    return outputs


def render_files(folder: Path, ctx: BuildContext, *, progress: Progress | None = None, earlier: Iterable[str] = (),
                 jobs: int = 1) -> list[str]:
    """Make `folder` and write into it every output ctx's options ask for, then MANIFEST.txt;
    return the names.  With `jobs` over 1, each paper's files are made in a process of their
    own (make/workers.py); the files made once for every paper, and the merged kits, here.

    MANIFEST.txt names any of the `earlier` files (already in the output folder) that this
    build leaves as they were."""
    return _written(folder, ctx, progress, earlier, None, True, jobs)[0]


def _written(folder: Path, ctx: BuildContext, progress: Progress | None, earlier: Iterable[str],
             products: Products | None, paperless: bool, jobs: int,
             only: Sequence[str] | None = None) -> tuple[list[str], dict[str, int | None]]:
    """render_files, with the page counts the renderers reported; `products` the build's (made
    here unless given); without `paperless`, only the outputs made per paper; `only`: of the
    options' papers, these alone."""
    folder.mkdir()
    options = ctx.options
    papers = [PAPERS[p] for p in options.papers if only is None or p in only]
    outputs = selected(options.parts, options.profile)
    files: list[Job] = [(o, p) for p in papers for o in outputs if o.per_paper and not o.merges]
    if paperless:
        files = [(o, None) for o in outputs if not o.per_paper] + files
    products = products if products is not None else Products(ctx)
    split = workers.lanes(papers, jobs)
    if len(split) > 1:      # a lane a paper: the first here, with the files of no paper
        mine = [job for job in files if job[1] is None or job[1] in split[0]]
        theirs = [[job for job in files if job[1] in lane] for lane in split[1:]]
        made = _made_aside(products, folder, mine, theirs, progress)
    else:
        made = write_files(products, folder, files, progress)
    merged: list[Job] = [(o, p) for o in outputs if o.merges for p in papers]
    made += write_files(products, folder, merged, progress)
    order = [o.file_name(p) for o in outputs for p in (papers if o.per_paper else [None])]
    made.sort(key=lambda m: order.index(m[0]))
    _report(folder, made, progress)
    names = [name for name, _, _ in made]
    pages = {name: count for name, count, _ in made}
    # manifest() reads each file through `with opener(name)`, which closes it.
    opener: Callable[[str], BinaryIO] = lambda name: open(folder / name, "rb")    # noqa: E731, SIM115
    begin = getattr(progress, "begin", None)     # a FileProgress shows each file as it is made
    if begin is not None:
        begin(MANIFEST)
    content = manifest(ctx.kit, names, options, [n for n in earlier if n not in names], opener, ctx.changes, pages,
                       stamp=ctx.stamp)
    write_file(folder, MANIFEST, content)
    if progress is not None:
        progress(MANIFEST, content)
    return [*names, MANIFEST], pages


def context(kit: KitData, options: BuildOptions, templates: Path | None = None) -> BuildContext:
    """The BuildContext of one build: the data checked printable, its odds, the --since base."""
    from generator.render.pdf.glyphs import check_printable
    check_source_date_epoch()
    words = load_words(options.lang)
    if lacking := untranslated_keys(words):     # every key at once, not the first a renderer asks for
        raise DataError(lacking)
    glossary = None if options.lang == SOURCE_LANGUAGE else read_glossary(kit, options.lang)
    kit = translated(kit, glossary) if glossary is not None else kit
    check_printable(kit, words, glossary)   # before any part: no PDF may print an empty box for a name or word
    prepress = options.profile.prepress
    if prepress is not None:        # colours that keep their contrast as inks, under the shop's ink ceiling
        from generator.render.pdf.press_colour import cmyk_problems, ink_problems
        if problems := cmyk_problems(kit, options.print_profile) + ink_problems(kit, prepress, options.print_profile):
            raise RenderError(problems)
    templates = templates if templates is not None else template_folder(kit.directory)    # X/templates beside X/data
    changes = since_base(kit, options, templates) if options.since is not None else None
    return make_context(kit, compute(kit), options, templates, changes=changes, words=words)


Job = tuple[Output, Paper | None]
Made = list[tuple[str, int | None, bool]]       # (file name, pages, reported as made)


def shop(content: bytes, prepress: Prepress, marks: bool) -> bytes:
    """A PDF made for a print shop (a profile with a prepress): render/pdf/shop_pdf.py."""
    from generator.render.pdf.shop_pdf import to_shop
    return to_shop(content, prepress, marks)


def _made_aside(products: Products, folder: Path, mine: list[Job], theirs: list[list[Job]],
                progress: Progress | None) -> Made:
    """`mine` made here while each list of `theirs` is made by a worker, into the same folder."""
    # each job by its output's name and its paper's key: a worker has the registries' own
    named = [[(o.name, p.key if p else None) for o, p in lane] for lane in theirs]
    lanes = workers.side_by_side(functools.partial(write_files, products, folder, mine, progress),
                                 functools.partial(_worker_files, products.ctx, folder), named)
    return [made for lane in lanes for made in lane]


def _worker_files(ctx: BuildContext, folder: Path, jobs: list[tuple[str, str | None]]) -> Made:
    """A worker's lane of a build, (output name, paper key) each: its files written into `folder`
    from products of its own."""
    outputs = {o.name: o for o in OUTPUTS}
    return write_files(Products(ctx), folder, [(outputs[name], PAPERS[p] if p else None) for name, p in jobs])


def _report(folder: Path, made: Made, progress: Progress | None) -> None:
    """Show the files a worker made (they could not be shown as they were made)."""
    begin = getattr(progress, "begin", None)
    for name, _, reported in made:
        if progress is not None and not reported:
            if begin is not None:
                begin(name)
            progress(name, (folder / name).read_bytes())


def write_files(products: Products, folder: Path, jobs: list[Job], progress: Progress | None = None) -> Made:
    """Write each job's file into `folder`, from the build's `products`; what each was, and
    whether it was reported yet."""
    made: Made = []
    begin = getattr(progress, "begin", None)      # a FileProgress: each file as it is made
    prepress = products.ctx.options.profile.prepress
    for output, paper in jobs:
        name = output.file_name(paper)
        if begin is not None:
            begin(name, _pages_ahead(products, output, paper))
        if output.stream is not None:      # written as it is made (a shop's too): never held whole
            pages: int | None = _streamed(products, folder, output, paper)
            written = getattr(progress, "written", None)    # a FileProgress: the size will do
            if written is not None:
                written(name, (folder / name).stat().st_size, pages)
            elif progress is not None:
                progress(name, _read_back(folder / name, pages))
        else:
            content = _content(products, folder, output, paper)
            # a shop's PDF, but the kit: its parts are the shop's already, and the join says PDF/X
            if prepress is not None and name.endswith(".pdf") and not output.merges:
                content = shop(content, prepress, products.ctx.options.marks)
            write_file(folder, name, content)
            pages = getattr(content, "pages", None)     # PDFs count their pages
            if progress is not None:
                progress(name, content)
            del content         # written: a long table is not held while the next file is made
        made.append((name, pages, progress is not None))
    return made


def _streamed(products: Products, folder: Path, output: Output, paper: Paper | None) -> int | None:
    """`output`'s file on `paper` written into `folder` as it is made; a PDF's page count."""
    assert output.stream is not None
    stream, made = output.stream, products.made(output.needs, paper)
    return write_stream(folder, output.file_name(paper), lambda handle: stream(made, handle.write))


def _content(products: Products, folder: Path, output: Output, paper: Paper | None) -> bytes:
    """The bytes of `output`'s file on `paper`: made from its products (and not kept: nothing else
    asks for an output's own bytes), or merged from its parts' files in `folder`."""
    if output.product is not None:
        return products.take(output.product, paper)
    assert output.merge is not None
    with contextlib.ExitStack() as stack:
        sources = [(o.part, o.title, stack.enter_context(open(folder / o.file_name(paper), "rb")))
                   for o in map(part_pdf, output.merges)]
        return output.merge(products.made(output.needs, paper), sources)


def _read_back(path: Path, pages: int | None) -> bytes:
    """A file written as it was made, read back for the progress line (its size, digest, and a
    PDF's pages)."""
    from generator.render.pdf.canvas import Pdf
    return Pdf(path.read_bytes(), pages) if pages is not None else path.read_bytes()


def _pages_ahead(products: Products, output: Output, paper: Paper | None) -> int | None:
    """The pages a long pre-rolled table will have (its progress bar's end); None for the rest."""
    ctx = products.ctx
    if output.stream is None or paper is None or (ctx.options.rows or 0) <= ROWS_NOTICE:
        return None
    from generator.render.pdf.prerolled_pdf import page_count
    return page_count(ctx, paper, products.get(ROWS))


ROWS_NOTICE = 20_000        # --rows above this says how many pages it will make before it starts


def rows_notice(ctx: BuildContext) -> None:
    """--rows past ROWS_NOTICE: say how many pages it will make before it starts."""
    if (ctx.options.rows or 0) <= ROWS_NOTICE or not any(o.stream for o in selected(ctx.options.parts)):
        return
    papers = [PAPERS[p] for p in ctx.options.papers]
    from generator.content.rows import table_for
    from generator.render.pdf.prerolled_pdf import page_count
    table = table_for(ctx)
    pages = ", ".join(f"{page_count(ctx, paper, table):,} pages on {paper.label}" for paper in papers)
    print(f"bailout: note: --rows {ctx.options.rows:,} makes pre-rolled tables of {pages}; this takes a while",
          file=sys.stderr)


def deck_notice(ctx: BuildContext) -> None:
    """A table longer than a digital deck holds: say the decks hold its first rows only."""
    from generator.content.digital import DECK_ROWS
    digital = {o.part for o in selected(ctx.options.parts)} & {"vassal", "tts"}
    if (ctx.options.rows or 0) > DECK_ROWS and digital:
        print(f"bailout: note: the VASSAL and Tabletop Simulator decks hold the first {DECK_ROWS:,} of the "
              f"{ctx.options.rows:,} pre-rolled rows", file=sys.stderr)


def edition_data(kit: KitData, lang: str) -> KitData:
    """The data as the `lang` edition prints it: its glossary's sentences and names."""
    if lang == SOURCE_LANGUAGE:
        return kit
    return translated(kit, read_glossary(kit, lang))


def counter_fit_problems(kit: KitData, lang: str) -> list[str]:
    """What keeps the `lang` edition's counters from fitting their words with the default
    options (a glossary's weapon model too long for a counter): its problem lines, named by the
    file and key the words were written in.  `bailout check` asks this of every edition, as a
    build of it would find it only once it draws the counters."""
    from generator.layout.sheets import face_zones
    from generator.render.pdf.face_pdf import fit_faces
    try:
        ctx = context(kit, BuildOptions(lang=lang, parts=("counters",)))
        paper = PAPERS[ctx.options.papers[0]]
        grid, groups, _ = Products(ctx).get(COUNTER_SHEETS, paper)
        fit_faces(groups, face_zones(grid), ctx.options.counter_mm, ctx.kit, ctx.words)
    except KitError as error:
        return list(error.problems)
    return []


def since_base(kit: KitData, options: BuildOptions, templates: Path) -> Since:
    """The Since of `--since OLD`: the base (its data and templates) loaded and compared with
    `kit` and `templates` as `bailout diff` compares them."""
    from generator.content.compare import since
    assert options.since is not None
    words = load_words(options.lang)
    compared = since(options.since, kit, templates, options.sets, words,
                     edition=lambda old: edition_data(old, options.lang))
    old_kit = compared.old_kit
    label = compared.old.label if compared.old.commit else f"data {old_kit.short_hash}"
    _check_since_printable(options.since, compared, label)
    return Since(options.since, label, compared.groups, compared.old_aid, compared.old.commit, old_kit.hash,
                 compared.old_templates)


def _check_since_printable(spec: str, compared: "Compared", label: str) -> None:
    """The base's data and label are printed on the aid (the changes box): the font must draw
    them, as check_printable asks of the built data."""
    from generator.render.pdf.canvas import LATIN
    from generator.render.pdf.glyphs import undrawable_text, unprintable
    old = compared.old
    where = str(compared.old_kit.directory)
    shown = f"{old.spec}:data" if old.commit else where      # not the temporary folder of git:REV
    problems = [f"--since {spec}: {line.replace(where, shown, 1)}" for line in undrawable_text(compared.old_kit)]
    lacking = unprintable(label)
    if lacking:
        problems.append(f"--since {spec}: the base's label {label!r} holds what the kit's font ({LATIN.name}) "
                        f"cannot print: {lacking}; name the revision another way (its commit id)")
    if problems:
        raise RenderError(problems)
