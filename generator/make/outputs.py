"""The declared list of everything `bailout build` can write: one entry per kind of file.

Adding an output is one entry here and one renderer under generator/render/.  Each entry names
its renderer through a small loader function that imports it only when it is used, so
`bailout --help` never loads reportlab, and mypy checks every renderer against the protocols
below.  A renderer is called as render(ctx, paper) and returns the file's bytes; `paper` is a
layout.paper.Paper for a file made once per paper ("{paper}" in its name), else None.  An entry
that `merges` other parts is called as merge(ctx, paper, sources), with sources the
[(the catalogue key of its bookmark, PDF file)] of those parts for the same paper, and is made only when every
part it merges is built.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

from generator.content.context import BuildContext
from generator.layout.paper import Paper
from generator.options import PARTS
from generator.profiles import registry
from generator.profiles.print_profile import PrintProfile


class Renderer(Protocol):
    def __call__(self, ctx: BuildContext, paper: Paper | None) -> bytes: ...


class Writer(Protocol):
    """A renderer that writes its file as it goes into `sink` (a long table is never held whole),
    returning the PDF's page count."""
    def __call__(self, ctx: BuildContext, paper: Paper | None, sink: Callable[[bytes], object]) -> int: ...


class Merger(Protocol):
    def __call__(self, ctx: BuildContext, paper: Paper | None,
                 sources: Sequence[tuple[str, BinaryIO]]) -> bytes: ...


def _aid_pdf() -> Renderer:
    from generator.render.pdf.aid_pdf import render
    return render


def _aid_html() -> Renderer:
    from generator.render.html.aid_html import render
    return render


def _prerolled_pdf() -> Renderer:
    from generator.render.pdf.prerolled_pdf import render
    return render


def _prerolled_writer() -> Writer:
    from generator.render.pdf.prerolled_pdf import write
    return write


def _prerolled_csv() -> Renderer:
    from generator.render.csv_rows import render
    return render


def _counters_pdf() -> Renderer:
    from generator.render.pdf.counters_pdf import render
    return render


def _cut_pdf() -> Renderer:
    from generator.render.cut_files import render_pdf
    return render_pdf


def _cut_svg() -> Renderer:
    from generator.render.cut_files import render_svg
    return render_svg


def _cut_files(profile: PrintProfile) -> bool:
    """Whether a profile's shop, or its home cutting machine, takes the die line as files of its own."""
    return profile.cut_files


def _always(profile: PrintProfile) -> bool:
    return True


def _kit_pdf() -> Merger:
    from generator.render.pdf.kit_pdf import render
    return render


@dataclass(frozen=True)
class Output:
    part: str               # what --only names this file by
    name: str               # file name; "{paper}" in it makes one file per paper
    load: Callable[[], Renderer] | None = None          # the renderer, imported when first asked for
    title: str = ""         # the catalogue key of the part's bookmark in the merged kit
    merges: tuple[str, ...] = ()                        # parts this output is made from
    load_merger: Callable[[], Merger] | None = None     # for an output that merges parts
    # What a build's plan balances its lanes by (make/pipeline.py), in milliseconds of one core on
    # the development machine (benchmarks/bench_parallel.py measures the plan's outcome): the
    # file's own work, plus that per pre-rolled row, and its setup, paid once by a process that
    # makes any file of this output (its renderer's imports, the text or rows its files share).
    cost: float = 50.0
    cost_per_row: float = 0.0
    setup: float = 0.0
    # what a release's README.txt and index.html call it: release.file.KIND (and release.print.KIND
    # for a PDF); its part's name unless given
    kind: str = field(default="", kw_only=True)
    # the print profiles that make it (a build under another makes the part without it)
    made_for: Callable[[PrintProfile], bool] = field(default=_always, kw_only=True)
    # where the file can be written as it is made (Writer), what a build writes it with
    load_writer: Callable[[], Writer] | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", self.part)     # frozen: set once, here

    @property
    def per_paper(self) -> bool:
        return "{paper}" in self.name

    def file_name(self, paper: Paper | None = None) -> str:
        return self.name.format(paper=paper.key) if self.per_paper and paper is not None else self.name

    def file_names(self, papers: Iterable[Paper]) -> list[str]:
        return [self.file_name(p) for p in papers] if self.per_paper else [self.name]

    def work(self, rows: int) -> float:
        """Its cost for a table of `rows` pre-rolled rows."""
        return self.cost + self.cost_per_row * rows

    def renderer(self) -> Renderer:
        assert self.load is not None, f"{self.name} merges parts: call merger()"
        return self.load()

    def writer(self) -> Writer | None:
        return self.load_writer() if self.load_writer is not None else None

    def merger(self) -> Merger:
        assert self.load_merger is not None, f"{self.name} merges no parts"
        return self.load_merger()


OUTPUTS: tuple[Output, ...] = (
    Output("aid", "player-aid-{paper}.pdf", _aid_pdf, title="kit.part.aid", cost=42, setup=72),
    Output("aid", "player-aid.html", _aid_html, kind="html", cost=12, setup=22),
    Output("prerolled", "prerolled-{paper}.pdf", _prerolled_pdf, title="kit.part.prerolled", cost=6.5,
           cost_per_row=0.008, setup=4, load_writer=_prerolled_writer),
    Output("prerolled", "prerolled.csv", _prerolled_csv, kind="csv", cost=1, cost_per_row=0.003),
    Output("counters", "counters-{paper}.pdf", _counters_pdf, title="kit.part.counters", cost=39, setup=9),
    Output("counters", "cut-{paper}.pdf", _cut_pdf, kind="cut", cost=7, made_for=_cut_files),
    Output("counters", "cut-{paper}.svg", _cut_svg, kind="cut_svg", cost=2, made_for=_cut_files),
    Output("kit", "kit-{paper}.pdf", merges=("aid", "prerolled", "counters"), load_merger=_kit_pdf, cost=4.5,
           cost_per_row=0.0004, setup=2),
)
assert tuple(dict.fromkeys(o.part for o in OUTPUTS if not o.merges)) == PARTS


def selected(parts: Iterable[str], profile: PrintProfile | None = None) -> list[Output]:
    """The outputs a build of `parts` under `profile` (None: the default) makes, in order: each
    asked-for part, then what merges them."""
    parts = set(parts)
    profile = profile if profile is not None else registry.profile(registry.DEFAULT)
    return [o for o in OUTPUTS
            if (o.part in parts if not o.merges else set(o.merges) <= parts) and o.made_for(profile)]


def part_pdf(part: str) -> Output:
    """The per-paper PDF of a part: what a merged output takes from it."""
    return next(o for o in OUTPUTS if o.part == part and o.per_paper)


def all_file_names(papers: Iterable[Paper], profile: PrintProfile | None = None) -> list[str]:
    """Every file name a build can write for `papers` (MANIFEST.txt aside); with `profile`,
    only those a build under it makes."""
    papers = list(papers)
    return [name for o in OUTPUTS if profile is None or o.made_for(profile) for name in o.file_names(papers)]
