"""The declared list of everything `bailout build` can write: one entry per kind of file.

An output is a product that becomes a file: its entry names the file, the part `--only` knows it
by, the products it is made from (make/products.py) and the function that makes its bytes from
them.  Adding an output is one entry here and one renderer (under generator/render/) that its
function calls; a build of the output's part makes it and whatever it needs, each once.

An output made per paper has "{paper}" in its name.  Three ways to make the file:
- `make(made)` returns its bytes (a PDF's bytes know their page count: render/pdf/canvas.Pdf);
- `stream(made, sink)` writes it into `sink` as it is made and returns a PDF's page count (a
  long table is never held whole, a print shop's included: its writer draws the shop's pages;
  nor its CSV);
- `merges`: the PDFs of those parts for the same paper, joined by `merge(made, sources)` from
  their files as the build wrote them (the kit).
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from generator.layout.paper import PAPERS, Paper
from generator.make.products import (
    AID_PAGES,
    AID_PDF,
    AID_TEXT,
    COUNTER_SHEETS,
    COUNTERS_PDF,
    FACE_IMAGES,
    ROW_CARDS,
    ROWS,
    SCREEN_FACES,
    Made,
    Product,
)
from generator.profiles import registry
from generator.profiles.print_profile import PrintProfile

if TYPE_CHECKING:
    from generator.content.digital import Force

Sink = Callable[[bytes], object]
Sources = Sequence[tuple[str, str, BinaryIO]]      # (a part, the catalogue key of its bookmark, its PDF file)


def _always(profile: PrintProfile) -> bool:
    return True


@dataclass(frozen=True, eq=False)
class Output:
    part: str               # what --only names this file by
    name: str               # file name; "{paper}" in it makes one file per paper
    make: Callable[[Made], bytes] | None = None         # the file's bytes, from the products it needs
    needs: tuple[Product[Any], ...] = ()
    title: str = ""         # the catalogue key of the part's bookmark in the merged kit
    # where the file can be written as it is made: what a build writes it with (a PDF's returns
    # its page count)
    stream: Callable[[Made, Sink], int | None] | None = None
    merges: tuple[str, ...] = ()                        # parts this output is made from
    merge: Callable[[Made, Sources], bytes] | None = None
    # what a release's README.txt and index.html call it: release.file.KIND (and release.print.KIND
    # for a PDF); its part's name unless given
    kind: str = field(default="", kw_only=True)
    # the print profiles that make it (a build under another makes the part without it)
    made_for: Callable[[PrintProfile], bool] = field(default=_always, kw_only=True)
    # the file's bytes as a product of the build, so they are made once whoever asks (set here)
    product: Product[bytes] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        # frozen: set once, here
        if not self.kind:
            object.__setattr__(self, "kind", self.part)
        assert (self.make is None) != (self.merge is None), f"{self.name}: either make or merge"
        if self.make is not None:
            object.__setattr__(self, "product", Product(self.name, self.make, self.needs, self.per_paper))

    @property
    def per_paper(self) -> bool:
        return "{paper}" in self.name

    def file_name(self, paper: Paper | None = None) -> str:
        return self.name.format(paper=paper.key) if self.per_paper and paper is not None else self.name

    def file_names(self, papers: Iterable[Paper]) -> list[str]:
        return [self.file_name(p) for p in papers] if self.per_paper else [self.name]


# -- each output's file, from its products ---------------------------------------------------------

def _aid_pdf(made: Made) -> bytes:
    return made(AID_PDF)


def _aid_html(made: Made) -> bytes:
    from generator.render.html.aid_html import render
    return render(made.ctx, made(AID_TEXT))


def _prerolled_pdf(made: Made) -> bytes:
    from generator.render.pdf.prerolled_pdf import render
    return render(made.ctx, made.on, made(ROWS))


def _prerolled_stream(made: Made, sink: Sink) -> int:
    from generator.render.pdf.prerolled_pdf import write
    return write(made.ctx, made.on, made(ROWS), sink)


def _prerolled_csv(made: Made) -> bytes:
    from generator.render.csv_rows import render
    return render(made.ctx, made(ROWS))


def _prerolled_csv_stream(made: Made, sink: Sink) -> None:
    from generator.render.csv_rows import write
    write(made.ctx, made(ROWS), sink)


def _counters_pdf(made: Made) -> bytes:
    return made(COUNTERS_PDF)


def _cover_pdf(made: Made) -> bytes:
    from generator.render.pdf.counters_pdf import render_cover
    return render_cover(made.ctx, made.on, made(COUNTER_SHEETS))


def _die_cut_sheets(profile: PrintProfile) -> bool:
    """Whether a profile's shop die-cuts sheets of the paper: its print file holds the sheets
    alone, and their cover is a file of its own (a punchboard of its own size has no cover)."""
    return profile.prepress is not None and profile.prepress.die_cut is not None \
        and profile.prepress.die_cut.board is None


def _cut_pdf(made: Made) -> bytes:
    from generator.render.cut_files import render_pdf
    return render_pdf(made.ctx, made.on, made(COUNTER_SHEETS))


def _cut_svg(made: Made) -> bytes:
    from generator.render.cut_files import render_svg
    return render_svg(made.ctx, made(COUNTER_SHEETS))


def _cut_dxf(made: Made) -> bytes:
    from generator.render.cut_files import render_dxf
    return render_dxf(made.ctx, made(COUNTER_SHEETS))


def _marks_svg(made: Made) -> bytes:
    from generator.render.cut_files import render_marks_svg
    return render_marks_svg(made.ctx, made(COUNTER_SHEETS))


def _home_cutter(profile: PrintProfile) -> bool:
    return profile.home_cutter


def _cut_files(profile: PrintProfile) -> bool:
    """Whether a profile's shop, or its home cutting machine, takes the die line as files of its own."""
    return profile.cut_files


def _vassal_extension(made: Made) -> bytes:
    from generator.render.vassal import extension
    return extension(made.ctx, *_vassal_parts(made))


def _vassal_module(made: Made) -> bytes:
    from generator.render.vassal import module
    return module(made.ctx, *_vassal_parts(made))


def _vassal_parts(made: Made) -> tuple["tuple[Force, ...]", int, dict[str, bytes]]:
    """What a VASSAL file holds: the pieces by nationality, the deck's cards, their images."""
    from generator.content.digital import deck_rows, forces
    from generator.content.faces import build_counters
    # the aid's pages first: a template whose text the font cannot print is named before the
    # row cards, most of a VASSAL file's work, are drawn (check renders this early)
    pages = made(AID_PAGES)
    images = {**made(SCREEN_FACES), **made(ROW_CARDS), **pages}
    return forces(made.ctx, build_counters(made.ctx)), deck_rows(made(ROWS)), images


VASSAL_NEEDS = (SCREEN_FACES, ROW_CARDS, AID_PAGES, ROWS)


def _tts(made: Made) -> bytes:
    from generator.content.digital import deck_rows, forces
    from generator.content.faces import build_counters
    from generator.render.tts import saved_object
    aid = made(AID_PDF, PAPERS[made.ctx.options.papers[0]])     # the build's first paper
    return saved_object(made.ctx, forces(made.ctx, build_counters(made.ctx)), deck_rows(made(ROWS)),
                        {**made(FACE_IMAGES), **made(ROW_CARDS)}, aid)


def _kit_pdf(made: Made, sources: Sources) -> bytes:
    from generator.render.pdf.kit_pdf import render
    return render(made.ctx, made.on, sources)


OUTPUTS: list[Output] = [
    Output("aid", "player-aid-{paper}.pdf", _aid_pdf, (AID_PDF,), title="kit.part.aid"),
    Output("aid", "player-aid.html", _aid_html, (AID_TEXT,), kind="html"),
    Output("prerolled", "prerolled-{paper}.pdf", _prerolled_pdf, (ROWS,), title="kit.part.prerolled",
           stream=_prerolled_stream),
    Output("prerolled", "prerolled.csv", _prerolled_csv, (ROWS,), kind="csv", stream=_prerolled_csv_stream),
    Output("counters", "counters-{paper}.pdf", _counters_pdf, (COUNTERS_PDF,), title="kit.part.counters"),
    Output("counters", "counters-cover-{paper}.pdf", _cover_pdf, (COUNTER_SHEETS,), kind="cover",
           made_for=_die_cut_sheets),
    Output("counters", "cut-{paper}.pdf", _cut_pdf, (COUNTER_SHEETS,), kind="cut", made_for=_cut_files),
    Output("counters", "cut-{paper}.svg", _cut_svg, (COUNTER_SHEETS,), kind="cut_svg", made_for=_cut_files),
    Output("counters", "cut-{paper}.dxf", _cut_dxf, (COUNTER_SHEETS,), kind="cut_dxf", made_for=_cut_files),
    Output("counters", "marks-{paper}.svg", _marks_svg, (COUNTER_SHEETS,), kind="marks_svg", made_for=_home_cutter),
    Output("kit", "kit-{paper}.pdf", merges=("aid", "prerolled", "counters"), merge=_kit_pdf),
    Output("vassal", "bailout.vmdx", _vassal_extension, VASSAL_NEEDS, kind="vassal_extension"),
    Output("vassal", "bailout.vmod", _vassal_module, VASSAL_NEEDS, kind="vassal_module"),
    Output("tts", "bailout-tts.zip", _tts, (FACE_IMAGES, ROW_CARDS, AID_PDF, ROWS), kind="tts"),
]


def parts() -> tuple[str, ...]:
    """The parts --only can name, in build order: each output's that is made, not merged."""
    return tuple(dict.fromkeys(o.part for o in OUTPUTS if not o.merges))


def selected(asked: Iterable[str] | None, profile: PrintProfile | None = None) -> list[Output]:
    """The outputs a build of the parts `asked` (None: every part) under `profile` (None: the
    default) makes, in order: each asked-for part's, then what merges them."""
    chosen = set(parts() if asked is None else asked)
    profile = profile if profile is not None else registry.profile(registry.DEFAULT)
    return [o for o in OUTPUTS
            if (o.part in chosen if not o.merges else set(o.merges) <= chosen) and o.made_for(profile)]


def named(name: str) -> Output:
    """The output whose file name (with "{paper}" for a paper's key) is `name`."""
    return next(o for o in OUTPUTS if o.name == name)


def part_pdf(part: str) -> Output:
    """The per-paper PDF of a part: what a merged output takes from it."""
    return next(o for o in OUTPUTS if o.part == part and o.per_paper and o.name.endswith(".pdf"))


def all_file_names(papers: Iterable[Paper], profile: PrintProfile | None = None) -> list[str]:
    """Every file name a build can write for `papers` (MANIFEST.txt aside); with `profile`,
    only those a build under it makes."""
    papers = list(papers)
    return [name for o in OUTPUTS if profile is None or o.made_for(profile) for name in o.file_names(papers)]
