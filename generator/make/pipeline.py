"""Render the outputs a build asks for, one file at a time, into a sink (memory or a folder).

`build_into` is `bailout build`: the rendering below inside the all-or-nothing transaction of
generator/make/transaction.py.
"""

import contextlib
import functools
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from msgspec import Struct
from msgspec.structs import replace

from generator.content.aid import hand_over, markdown_text
from generator.content.context import BuildContext, Since
from generator.content.rows import TARGET_ROWS
from generator.content.words import SOURCE_LANGUAGE, load_words, untranslated_keys
from generator.data.glossary import read_glossary, translated
from generator.data.model import KitData
from generator.data.sources import template_folder
from generator.engine.odds import compute
from generator.errors import DataError, RenderError, one_line
from generator.layout.paper import PAPERS, Paper
from generator.make.manifest import manifest
from generator.make.outputs import Output, Writer, all_file_names, part_pdf, selected
from generator.make.progress import FileProgress
from generator.make.transaction import MANIFEST, is_file, transaction, write_file, write_stream
from generator.make.workers import Plan, Runner, plan, width, workers
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
               quiet: bool = False) -> Built:
    """`bailout build`: every output into `out`, all or nothing."""
    earlier: list[str] = []
    progress = None if quiet else FileProgress()
    made_in: list[BuildContext] = []

    def started(ctx: BuildContext) -> None:
        made_in.append(ctx)
        if not quiet:
            rows_notice(ctx)

    def make(folder: Path) -> list[str]:
        earlier.extend(name for name in all_file_names(PAPERS.values()) if is_file(out / name))
        return render_files(folder, kit, options, templates=templates, progress=progress,
                            earlier=earlier, notice=started)
    try:
        made = transaction(out, make)
    finally:
        if progress is not None:
            progress.close()        # a build that failed or was stopped leaves the terminal as it was
    stale = [name for name in earlier if name not in made]
    if stale and not quiet:
        print(one_line(f"note: {out} still holds files this build did not make (see {MANIFEST}): "
                       f"{', '.join(stale)}"), file=sys.stderr)
    return Built(made, made_in[0].stamp_words(), made_in[0].templates)


def render_all(kit: KitData, options: BuildOptions, *, templates: Path | None = None,
               progress: Progress | None = None, earlier: Iterable[str] = (),
               ctx: BuildContext | None = None, paperless: bool = True) -> dict[str, bytes]:
    """{file name: bytes} for every output the options ask for (for checks, releases and tests).

    Rendered into a temporary folder (the build's processes share files, not memory), then read.
    `ctx` is the build's context when the caller made it already (a release reads its stamp);
    without `paperless`, only the outputs made per paper (a release's second paper, whose web
    aid and CSV the first paper's files hold already)."""
    with tempfile.TemporaryDirectory(prefix="bailout-render-") as temp:
        folder = Path(temp) / "out"
        names, pages = _rendered(folder, kit, options, templates, progress, earlier, ctx=ctx, paperless=paperless)
        from generator.render.pdf.canvas import Pdf  # bytes that know their page count
        outputs: dict[str, bytes] = {}
        for name in names:
            content = (folder / name).read_bytes()
            count = pages.get(name)
            outputs[name] = Pdf(content, count) if count is not None else content
    return outputs


def render_files(folder: Path, kit: KitData, options: BuildOptions, *, templates: Path | None = None,
                 progress: Progress | None = None, earlier: Iterable[str] = (),
                 notice: Callable[[BuildContext], None] | None = None) -> list[str]:
    """Render every output into `folder` (made here), one file at a time; return the names."""
    return _rendered(folder, kit, options, templates, progress, earlier, notice=notice)[0]


def _rendered(folder: Path, kit: KitData, options: BuildOptions, templates: Path | None, progress: Progress | None,
              earlier: Iterable[str], *, ctx: BuildContext | None = None,
              notice: Callable[[BuildContext], None] | None = None,
              paperless: bool = True) -> tuple[list[str], dict[str, int | None]]:
    """Make `folder` and render into it.  The workers start first, so that their start (a
    forked worker's imports of what it renders, a spawned one's whole interpreter) overlaps the
    context's work here (the data checked, the fonts parsed, the odds); the context reaches them
    with their work."""
    folder.mkdir()
    lanes = _plan(options, width(), paperless)
    with workers(max(map(len, lanes), default=1), _warm(lanes)) as runner:
        ctx = ctx if ctx is not None else context(kit, options, templates)
        if notice is not None:
            notice(ctx)
        return _render(ctx, folder, runner, lanes, progress, earlier)


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
        from generator.render.pdf.shop_pdf import cmyk_problems, ink_problems
        if problems := cmyk_problems(kit, options.print_profile) + ink_problems(kit, prepress, options.print_profile):
            raise RenderError(problems)
    templates = templates if templates is not None else template_folder(kit.directory)    # X/templates beside X/data
    ctx = BuildContext(kit, compute(kit), options, templates, words=words)
    if options.since is not None:
        ctx = BuildContext(kit, ctx.odds, options, templates, changes=since_base(kit, options, templates), words=words)
    return ctx


Job = tuple[Output, Paper | None]
Made = list[tuple[str, int | None, bool]]       # (file name, pages, reported as made)


def shop(content: bytes, prepress: Prepress, marks: bool) -> bytes:
    """A PDF made for a print shop (a profile with a prepress): render/pdf/shop_pdf.py."""
    from generator.render.pdf.shop_pdf import to_shop
    return to_shop(content, prepress, marks)


def _render(ctx: BuildContext, folder: Path, runner: Runner, lanes: Plan[Job],
            progress: Progress | None = None, earlier: Iterable[str] = ()) -> tuple[list[str], dict[str, int | None]]:
    """Every output into `folder`, then MANIFEST.txt; returns the names and the page counts the
    renderers reported.

    `lanes` is _plan's: the parts, then what merges them, each phase's lanes run side by side by
    `runner` (make/workers.py).  A merged PDF reads its parts from `folder`, so it is made once
    every part is.  MANIFEST.txt names any of the `earlier` files (already in the output folder)
    that this build leaves as they were.
    """
    kit, options = ctx.kit, ctx.options
    papers = [PAPERS[p] for p in options.papers]
    outputs = selected(options.parts, options.profile)
    _ = ctx.stamp   # worked out once, here, and sent to the workers with the context
    sent = replace(ctx, memo=dict(ctx.memo))     # what this process works out later stays here
    made: Made = []
    for planned in lanes:
        phase, ahead = _text_ahead(ctx, sent, folder, runner, planned)
        made += [m for lane in runner.map(functools.partial(_lane, sent, folder), phase,
                                          here=functools.partial(_lane, ctx, folder, progress=progress))
                 for m in lane]
        if ahead is not None:
            made += ahead()[0]
    pages = {name: count for name, count, _ in made}
    order = [o.file_name(p) for o in outputs for p in (papers if o.per_paper else [None])]
    _report(folder, sorted(made, key=lambda m: order.index(m[0])), progress)
    names = [name for name in order if name in pages]
    # manifest() reads each file through `with opener(name)`, which closes it.
    opener: Callable[[str], BinaryIO] = lambda name: open(folder / name, "rb")    # noqa: E731, SIM115
    begin = getattr(progress, "begin", None)     # a FileProgress shows each file as it is made
    if begin is not None:
        begin(MANIFEST)
    content = manifest(kit, names, options, [n for n in earlier if n not in names], opener, ctx.changes, pages,
                       stamp=ctx.stamp)
    write_file(folder, MANIFEST, content)
    if progress is not None:
        progress(MANIFEST, content)
    return [*names, MANIFEST], pages


def _text_ahead(ctx: BuildContext, sent: BuildContext, folder: Path, runner: Runner, phase: list[list[Job]]) \
        -> tuple[list[list[Job]], Callable[[], tuple[Made, str]] | None]:
    """`phase` without the web aid where a worker makes it and this process the aid's PDF: the web
    aid is then made ahead of that worker's lane, and the aid's Markdown it renders is handed to
    this process, which imports the PDF library meanwhile rather than render the template too.
    What the web aid made is the second value's, when called."""
    def is_web_aid(job: Job) -> bool:
        return job[0].part == "aid" and not job[0].per_paper

    if len(phase) < 2 or not any(o.part == "aid" and o.per_paper for o, _ in phase[0]):
        return phase, None
    lane = next((i for i, jobs in enumerate(phase[1:], 1) if any(map(is_web_aid, jobs))), None)
    if lane is None:
        return phase, None
    [web] = [job for job in phase[lane] if is_web_aid(job)]
    made = runner.ahead(functools.partial(_web_aid, sent, folder, web))
    hand_over(ctx, lambda: made()[1])
    return [[job for job in jobs if job is not web] for jobs in phase], made


def _web_aid(ctx: BuildContext, folder: Path, job: Job) -> tuple[Made, str]:
    """The web aid made into `folder` (in a worker), and the aid's Markdown it rendered."""
    return _lane(ctx, folder, [job]), markdown_text(ctx)


def _report(folder: Path, made: Made, progress: Progress | None) -> None:
    """Show the files a worker made (they could not be shown as they were made)."""
    begin = getattr(progress, "begin", None)
    for name, _, reported in made:
        if progress is not None and not reported:
            if begin is not None:
                begin(name)
            progress(name, (folder / name).read_bytes())


# A build's own work besides its files, the same one by one or side by side (the interpreter's
# start and imports, the data read and checked, the odds, MANIFEST.txt, the exit), in the units
# of Output.cost.
FIXED = 140.0


def _plan(options: BuildOptions, width: int, paperless: bool = True) -> Plan[Job]:
    """The build's files as phases of lanes, the first lane of each run by this process: the
    parts, then the outputs that merge them (they read the parts' files).  Spread over `width`
    lanes where the registry's costs say that pays (workers.plan), else one lane a phase.
    Without `paperless`, the outputs made once for every paper are left out."""
    papers = [PAPERS[p] for p in options.papers]
    rows = options.rows or TARGET_ROWS
    jobs = [(o, p) for o in selected(options.parts, options.profile)
            for p in (papers if o.per_paper else [None] if paperless else [])]

    def cost(lane: Sequence[Job]) -> float:
        """A lane's work: its files', and once each the setup of every output it makes files of."""
        outputs = dict.fromkeys(output for output, _ in lane)
        return sum(output.work(rows) for output, _ in lane) + sum(output.setup for output in outputs)
    phases = [[job for job in jobs if not job[0].merges], [job for job in jobs if job[0].merges]]
    units = [_units(phase, cost, width) for phase in phases if phase]
    return [[sorted(lane, key=jobs.index) for lane in phase] for phase in plan(units, cost, width, FIXED)]


def _units(jobs: list[Job], cost: Callable[[Sequence[Job]], float], width: int) -> list[list[Job]]:
    """What must share a lane: an output's files (one a paper), and with them their setup
    (imports, the text or rows they print), unless their own work, setup aside, outweighs a
    lane's share (a long --rows table for each paper): then each file is a unit of its own."""
    share = cost(jobs) / width
    units: list[list[Job]] = []
    for output in dict.fromkeys(job[0] for job in jobs):
        files = [job for job in jobs if job[0] is output]
        own = sum(cost([job]) - output.setup for job in files)      # each file's work alone
        units += [files] if own <= share else [[job] for job in files]
    return units


def _warm(lanes: Plan[Job]) -> Callable[[], None] | None:
    """What a worker does as it starts, while this process makes the context: the renderers of
    the lanes it may run (all but each phase's first) made ready (make/workers.py)."""
    elsewhere = tuple(dict.fromkeys(job[0] for phase in lanes for lane in phase[1:] for job in lane))
    return functools.partial(_ready, elsewhere) if elsewhere else None


def _ready(outputs: tuple[Output, ...]) -> None:
    """`outputs`' renderers imported and the fonts they draw with parsed: what takes a worker
    about as long as the context takes here (what they read besides waits for their work, which
    would wait for it)."""
    for output in outputs:
        output.merger() if output.merges else output.renderer()
    from generator.render.pdf.canvas import register_fonts
    register_fonts()


def _lane(ctx: BuildContext, folder: Path, lane: list[Job], progress: Progress | None = None) -> Made:
    """Render one lane's files into `folder`; what each was, and whether it was reported yet."""
    made: Made = []
    begin = getattr(progress, "begin", None)      # a FileProgress: each file as it is made
    for output, paper in lane:
        name = output.file_name(paper)
        if begin is not None:
            begin(name, _pages_ahead(ctx, output.part, name, paper))
        prepress = ctx.options.profile.prepress
        writer = output.writer() if prepress is None else None
        if writer is not None:      # written as it is made: never held whole
            pages = _stream(ctx, folder, name, writer, paper)
            made.append((name, pages, progress is not None))
            if progress is not None:
                progress(name, _read_pdf(folder / name, pages))
            continue
        if output.merges:
            with contextlib.ExitStack() as stack:
                sources = [(o.title, stack.enter_context(open(folder / o.file_name(paper), "rb")))
                           for o in map(part_pdf, output.merges)]
                content = output.merger()(ctx, paper, sources)
        else:
            content = output.renderer()(ctx, paper)
        if prepress is not None and name.endswith(".pdf"):
            content = shop(content, prepress, ctx.options.marks)
        write_file(folder, name, content)
        made.append((name, getattr(content, "pages", None), progress is not None))    # PDFs count their pages
        if progress is not None:
            progress(name, content)
        del content             # written: a long table is not held while the next file is made
    return made


def _stream(ctx: BuildContext, folder: Path, name: str, writer: Writer, paper: Paper | None) -> int:
    """The file `name` written into `folder` by `writer` as it is made; its page count."""
    def write(handle: BinaryIO) -> int:
        return writer(ctx, paper, handle.write)
    return write_stream(folder, name, write)


def _read_pdf(path: Path, pages: int) -> bytes:
    """A PDF written as it was made, read back for the progress line (its size, digest, pages)."""
    from generator.render.pdf.canvas import Pdf
    return Pdf(path.read_bytes(), pages)


def _pages_ahead(ctx: BuildContext, part: str, name: str, paper: Paper | None) -> int | None:
    """The pages a long pre-rolled table will have (its progress bar's end); None for the rest."""
    if part != "prerolled" or not name.endswith(".pdf") or paper is None or (ctx.options.rows or 0) <= ROWS_NOTICE:
        return None
    from generator.render.pdf.prerolled_pdf import page_count
    return page_count(ctx, paper)


ROWS_NOTICE = 20_000        # --rows above this says how many pages it will make before it starts


def rows_notice(ctx: BuildContext) -> None:
    """--rows past ROWS_NOTICE: say how many pages it will make before it starts."""
    if (ctx.options.rows or 0) <= ROWS_NOTICE or "prerolled" not in ctx.options.parts:
        return
    papers = [PAPERS[p] for p in ctx.options.papers]
    from generator.render.pdf.prerolled_pdf import page_count
    pages = ", ".join(f"{page_count(ctx, paper):,} pages on {paper.label}" for paper in papers)
    print(f"note: --rows {ctx.options.rows:,} makes pre-rolled tables of {pages}; this takes a while",
          file=sys.stderr)


def edition_data(kit: KitData, lang: str) -> KitData:
    """The data as the `lang` edition prints it: its glossary's sentences and names."""
    if lang == SOURCE_LANGUAGE:
        return kit
    return translated(kit, read_glossary(kit, lang))


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
    from generator.render.pdf.canvas import FONT_NAME
    from generator.render.pdf.glyphs import undrawable_text, unprintable
    old = compared.old
    where = str(compared.old_kit.directory)
    shown = f"{old.spec}:data" if old.commit else where      # not the temporary folder of git:REV
    problems = [f"--since {spec}: {line.replace(where, shown, 1)}" for line in undrawable_text(compared.old_kit)]
    lacking = unprintable(label)
    if lacking:
        problems.append(f"--since {spec}: the base's label {label!r} holds what the kit's font ({FONT_NAME}) "
                        f"cannot print: {lacking}; name the revision another way (its commit id)")
    if problems:
        raise RenderError(problems)
