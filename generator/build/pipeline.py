"""Render the outputs a build asks for, one file at a time, into a sink (memory or a folder).

`build_into` is `bailout build`: the rendering below inside the all-or-nothing transaction of
generator/build/transaction.py.
"""

import io
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from generator.build.manifest import manifest
from generator.build.outputs import all_file_names, part_pdf, selected
from generator.build.progress import progress as print_progress
from generator.build.transaction import MANIFEST, is_file, transaction, write_file
from generator.content.context import BuildContext, Since
from generator.content.words import SOURCE_LANGUAGE, load_words
from generator.data.glossary import read_glossary, translated
from generator.data.model import KitData
from generator.engine.odds import compute
from generator.layout.paper import PAPERS
from generator.data.sources import template_folder
from generator.options import BuildOptions, check_source_date_epoch

Progress = Callable[[str, bytes], None]


def build_into(out: Path, kit: KitData, options: BuildOptions, *, templates: Path | None = None,
               quiet: bool = False) -> list[str]:
    """`bailout build`: every output into `out`, all or nothing; returns the names written."""
    earlier: list[str] = []

    def make(folder: Path) -> list[str]:
        earlier.extend(name for name in all_file_names(PAPERS.values()) if is_file(out / name))
        return render_files(folder, kit, options, templates=templates, progress=None if quiet else print_progress,
                            earlier=earlier, notice=None if quiet else rows_notice)
    made = transaction(out, make)
    stale = [name for name in earlier if name not in made]
    if stale and not quiet:
        print(f"note: {out} still holds files this build did not make (see {MANIFEST}): "
              f"{', '.join(stale)}", file=sys.stderr)
    return made


def render_all(kit: KitData, options: BuildOptions, *, templates: Path | None = None,
               progress: Progress | None = None, earlier: Iterable[str] = ()) -> dict[str, bytes]:
    """{file name: bytes} for every output the options ask for, in memory (for checks and tests)."""
    outputs: dict[str, bytes] = {}

    def keep(name: str, content: bytes) -> None:
        outputs[name] = content
    ctx = context(kit, options, templates)
    _render(ctx, keep, lambda name: io.BytesIO(outputs[name]), progress, earlier)
    return outputs


def render_files(folder: Path, kit: KitData, options: BuildOptions, *, templates: Path | None = None,
                 progress: Progress | None = None, earlier: Iterable[str] = (),
                 notice: Callable[[BuildContext], None] | None = None) -> list[str]:
    """Render every output into `folder` (made here), one file at a time; return the names."""
    folder.mkdir()
    names: list[str] = []

    def write(name: str, content: bytes) -> None:
        write_file(folder, name, content)
        names.append(name)
    ctx = context(kit, options, templates)
    if notice is not None:
        notice(ctx)
    _render(ctx, write, lambda name: open(folder / name, "rb"), progress, earlier)
    return names


def context(kit: KitData, options: BuildOptions, templates: Path | None = None) -> BuildContext:
    """The BuildContext of one build: the data checked printable, its odds, the --since base."""
    from generator.render.pdf.glyphs import check_printable
    check_source_date_epoch()
    words = load_words(options.lang)
    kit = edition_data(kit, options.lang)
    check_printable(kit, words)     # before any part: no PDF may print an empty box for a name or word
    templates = templates if templates is not None else template_folder()
    ctx = BuildContext(kit, compute(kit), options, templates, words=words)
    if options.since is not None:
        ctx = BuildContext(kit, ctx.odds, options, templates, changes=since_base(kit, options, templates), words=words)
    return ctx


def _render(ctx: BuildContext, sink: Callable[[str, bytes], None], opener: Callable[[str], BinaryIO],
            progress: Progress | None = None, earlier: Iterable[str] = ()) -> None:
    """Each output to `sink(name, bytes)` in a fixed order; `opener(name)` reopens one made.

    With every part asked for, the per-paper kits are added (their parts reopened, not kept);
    MANIFEST.txt always, naming any of the `earlier` files (already in the output folder) that
    this build leaves as they were.
    """
    kit, options = ctx.kit, ctx.options
    papers = [PAPERS[p] for p in options.papers]
    progress = progress or (lambda name, content: None)
    made: list[str] = []
    pages: dict[str, int | None] = {}
    earlier = list(earlier)
    for output in selected(options.parts):
        for paper in (papers if output.per_paper else [None]):
            name = output.file_name(paper)
            if output.merges:
                sources = [(o.title, opener(o.file_name(paper))) for o in map(part_pdf, output.merges)]
                try:
                    content = output.merger()(ctx, paper, sources)
                finally:
                    for _, source in sources:
                        source.close()
            else:
                content = output.renderer()(ctx, paper)
            sink(name, content)
            made.append(name)
            pages[name] = getattr(content, "pages", None)      # renderers of PDFs count their pages
            progress(name, content)
            del content             # a 200,000-row table is some 18 MB a paper: not kept
    content = manifest(kit, made, options, [n for n in earlier if n not in made], opener, ctx.changes, pages)
    sink(MANIFEST, content)
    progress(MANIFEST, content)


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
    """The data as the `lang` edition prints it: its glossary's sentences and names (issue 19)."""
    if lang == SOURCE_LANGUAGE:
        return kit
    return translated(kit, read_glossary(kit, lang))


def since_base(kit: KitData, options: BuildOptions, templates: Path) -> Since:
    """The Since of `--since OLD`: the old data loaded, diffed against `kit`."""
    from generator.content.compare import since
    assert options.since is not None
    words = load_words(options.lang)
    compared = since(options.since, kit, options.sets, words)
    old_kit = edition_data(compared.old_kit, options.lang)
    label = compared.old.label if compared.old.commit else f"data {old_kit.short_hash}"
    old_ctx = BuildContext(old_kit, compute(old_kit), options, templates, words=words)
    return Since(options.since, label, compared.groups, old_ctx, compared.old.commit, old_kit.hash)


