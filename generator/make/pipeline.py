"""Render the outputs a build asks for, one file at a time, into a sink (memory or a folder).

`build_into` is `bailout build`: the rendering below inside the all-or-nothing transaction of
generator/make/transaction.py.
"""

import functools
from dataclasses import dataclass
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from generator.make.manifest import LIBRARIES, library_versions, manifest
from generator.make.lanes import Board, run_lanes
from generator.make.outputs import Output, all_file_names, part_pdf, selected
from generator.make.progress import FileProgress
from generator.make.transaction import MANIFEST, is_file, transaction, write_file
from generator.content.context import BuildContext, Since
from generator.content.rows import table_for
from generator.content.words import SOURCE_LANGUAGE, load_words
from generator.data.glossary import read_glossary, translated
from generator.data.model import KitData
from generator.engine.odds import compute
from generator.layout.paper import PAPERS, Paper
from generator.data.sources import template_folder
from generator.errors import RenderError, one_line
from generator.options import BuildOptions, check_source_date_epoch
from generator.profiles.print_profile import Prepress

if TYPE_CHECKING:
    from generator.content.compare import Compared

Progress = Callable[[str, bytes], None]


@dataclass(frozen=True)
class Built:
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
               ctx: BuildContext | None = None) -> dict[str, bytes]:
    """{file name: bytes} for every output the options ask for (for checks, releases and tests).

    Rendered into a temporary folder (the build's processes share files, not memory), then read.
    `ctx` is the build's context when the caller made it already (a release reads its stamp)."""
    ctx = ctx if ctx is not None else context(kit, options, templates)
    with tempfile.TemporaryDirectory(prefix="bailout-render-") as temp:
        folder = Path(temp) / "out"
        folder.mkdir()
        names, pages = _render(ctx, folder, progress, earlier)
        from generator.render.pdf.canvas import Pdf     # bytes that know their page count
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
    folder.mkdir()
    ctx = context(kit, options, templates)
    if notice is not None:
        notice(ctx)
    return _render(ctx, folder, progress, earlier)[0]


def context(kit: KitData, options: BuildOptions, templates: Path | None = None) -> BuildContext:
    """The BuildContext of one build: the data checked printable, its odds, the --since base."""
    from generator.render.pdf.glyphs import check_printable
    check_source_date_epoch()
    words = load_words(options.lang)
    kit = edition_data(kit, options.lang)
    check_printable(kit, words)     # before any part: no PDF may print an empty box for a name or word
    if options.profile.cmyk:        # colours that keep their contrast as inks
        from generator.render.pdf.shop_pdf import cmyk_problems
        if problems := cmyk_problems(kit, options.print_profile):
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




def _render(ctx: BuildContext, folder: Path, progress: Progress | None = None,
            earlier: Iterable[str] = ()) -> tuple[list[str], dict[str, int | None]]:
    """Every output into `folder` in a fixed order, then MANIFEST.txt; returns the names and the
    page counts the renderers reported.

    The work runs in lanes side by side (make/lanes.py, `_plan`), each lane importing the
    renderers it uses.  MANIFEST.txt names any of the `earlier` files (already in the output
    folder) that this build leaves as they were.
    """
    kit, options = ctx.kit, ctx.options
    papers = [PAPERS[p] for p in options.papers]
    outputs = selected(options.parts)
    lanes = _plan(outputs, papers, long_tables=(options.rows or 0) > LONG_TABLE)
    _prepare(ctx, lanes)
    owner = os.getpid()
    board = Board()
    made: Made = []
    work = [functools.partial(_lane, ctx, folder, lane, progress, owner, board) for lane in lanes]
    work[0] = functools.partial(_then_versions, work[0])
    for lane_made in run_lanes(work, board):
        made += lane_made
    pages = {name: count for name, count, _ in made}
    order = [o.file_name(p) for o in outputs for p in (papers if o.per_paper else [None])]
    begin = getattr(progress, "begin", None)     # a FileProgress shows each file as it is made
    for name, _, reported in sorted(made, key=lambda m: order.index(m[0])):
        if progress is not None and not reported:       # made in another process: say so now
            if begin is not None:
                begin(name)
            progress(name, (folder / name).read_bytes())
    names = [name for name in order if name in pages]
    opener: Callable[[str], BinaryIO] = lambda name: open(folder / name, "rb")    # noqa: E731
    if begin is not None:
        begin(MANIFEST)
    content = manifest(kit, names, options, [n for n in earlier if n not in names], opener, ctx.changes, pages,
                       stamp=ctx.stamp)
    write_file(folder, MANIFEST, content)
    if progress is not None:
        progress(MANIFEST, content)
    return [*names, MANIFEST], pages


def _then_versions(lane: Callable[[], Made]) -> Made:
    """The first lane, then the library versions MANIFEST.txt names, read while another lane may
    still be working rather than after it."""
    made = lane()
    library_versions(LIBRARIES)      # the key manifest() asks with: read once, not twice
    return made


def _prepare(ctx: BuildContext, lanes: list[list[Job]]) -> None:
    """What several lanes share, made once before they fork: the aid's text (its PDFs and its web
    page) and the pre-rolled rows, each only when more than one lane uses it (a lane alone makes
    it itself, beside the others: less work before the fork).  The renderers are imported in the
    lanes that use them."""
    def shared(part: str) -> bool:
        return sum(any(job[0].part == part for job in lane) for lane in lanes) > 1
    if shared("aid"):
        from generator.content.aid import markdown_text     # Jinja2 and the aid's catalogue: only for the aid
        markdown_text(ctx)
    if shared("prerolled"):
        table_for(ctx)


LONG_TABLE = 1_000      # --rows past this: a pre-rolled table is most of a build's work (0.1 ms a row a paper)


def _plan(outputs: list[Output], papers: list[Paper], *, long_tables: bool = False) -> list[list[Job]]:
    """The build's files as lanes, the first run by this process.

    With a kit to merge, the aid (the longest work: Jinja2, then platypus and a fitting pass a
    size for each paper's PDF) is the first lane and everything else the second, the kits last: a
    kit waits for its paper's aid on the lanes' Board, which the first lane posts.  The lanes
    import apart (Jinja2, Markdown and platypus in one, pypdf in the other), so neither pays for
    the other's imports.  With `long_tables` the pre-rolled tables of the papers after the first
    join the first lane, ahead of the aid: a long table each, the lanes stay even.  Without a
    kit: a lane per paper (the paper-free files join the first); one paper: the aid apart from
    the rest."""
    jobs = [(o, p) for o in outputs for p in (papers if o.per_paper else [None])]
    parts = [job for job in jobs if not job[0].merges]
    kits = [job for job in jobs if job[0].merges]
    aid = [job for job in parts if job[0].part == "aid" and job[1] is not None]
    if kits and aid:
        first = [job for job in parts if job[0].part == "aid"]
        if long_tables:
            first = [job for job in parts if job[0].part == "prerolled" and job[1] not in (None, papers[0])] + first
        return [first, [job for job in parts if job not in first] + kits]
    if len(papers) > 1:
        lanes: list[list[Job]] = [[job for job in parts if job[1] == paper] for paper in papers]
        lanes[0] += [job for job in parts if job[1] is None]
        return [lane for lane in lanes if lane]
    rest = [job for job in parts if job not in aid]
    return [lane for lane in (aid, rest) if lane]


def _lane(ctx: BuildContext, folder: Path, lane: list[Job], progress: Progress | None, owner: int,
          board: Board) -> Made:
    """Render one lane's files into `folder`, posting each on `board`; what each was, and whether
    it was reported yet.  A kit first waits for the parts another lane makes."""
    made: Made = []
    live = progress is not None and os.getpid() == owner
    begin = getattr(progress, "begin", None) if live else None      # a FileProgress: each file as it is made
    for output, paper in lane:
        name = output.file_name(paper)
        if begin is not None:
            begin(name, _pages_ahead(ctx, output.part, name, paper))
        if output.merges:
            mine = {m[0] for m in made}
            for needed in (part_pdf(part).file_name(paper) for part in output.merges):
                if needed not in mine:
                    board.wait(needed)
            sources = [(o.title, open(folder / o.file_name(paper), "rb")) for o in map(part_pdf, output.merges)]
            try:
                content = output.merger()(ctx, paper, sources)
            finally:
                for _, source in sources:
                    source.close()
        else:
            content = output.renderer()(ctx, paper)
        prepress = ctx.options.profile.prepress
        if prepress is not None and name.endswith(".pdf"):
            content = shop(content, prepress, ctx.options.marks)
        write_file(folder, name, content)
        board.post(name)
        made.append((name, getattr(content, "pages", None), live))    # renderers of PDFs count their pages
        if live and progress is not None:
            progress(name, content)
        del content             # a 200,000-row table is some 18 MB a paper: not kept
    return made


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
