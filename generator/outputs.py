"""The declared list of everything `bailout build` can write: one entry per kind of file.

Adding an output is one entry here and one renderer under generator/render/.  A renderer is
named as "module:function" and imported only when used, so `bailout --help` never loads
reportlab.  It is called as function(ctx, paper) and returns the file's bytes; `paper` is a
layout.paper.Paper for a file made once per paper ("{paper}" in its name), else None.  An
entry that `merges` other parts is called as function(ctx, paper, sources), with sources the
[(bookmark title, PDF bytes)] of those parts for the same paper, and is made only when every
part it merges is built.
"""

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Output:
    part: str               # what --only names this file by
    name: str               # file name; "{paper}" in it makes one file per paper
    renderer: str           # "module:function" under generator.render
    title: str = ""         # the part's bookmark in the merged kit
    merges: tuple = ()      # parts this output is made from

    @property
    def per_paper(self):
        return "{paper}" in self.name

    def file_name(self, paper=None):
        return self.name.format(paper=paper.key) if self.per_paper else self.name

    def file_names(self, papers):
        return [self.file_name(p) for p in papers] if self.per_paper else [self.name]

    def load(self):
        module, function = self.renderer.split(":")
        return getattr(importlib.import_module(f"generator.render.{module}"), function)


OUTPUTS = (
    Output("aid", "player-aid-{paper}.pdf", "aid:render", title="Player aid"),
    Output("aid", "player-aid.html", "aid_html:render"),
    Output("prerolled", "prerolled-{paper}.pdf", "prerolled:render", title="Pre-rolled bail-out tables"),
    Output("prerolled", "prerolled.csv", "prerolled:render_csv"),
    Output("counters", "counters-{paper}.pdf", "counters:render", title="Crew counters"),
    Output("kit", "kit-{paper}.pdf", "kit:render", merges=("aid", "prerolled", "counters")),
)

# The parts --only can name, in build order; a merged output is made, not asked for.
PARTS = tuple(dict.fromkeys(o.part for o in OUTPUTS if not o.merges))


def selected(parts):
    """The outputs a build of `parts` makes, in order: each asked-for part, then what merges them."""
    return [o for o in OUTPUTS if (o.part in parts if not o.merges else set(o.merges) <= set(parts))]


def part_pdf(part):
    """The per-paper PDF of a part: what a merged output takes from it."""
    return next(o for o in OUTPUTS if o.part == part and o.per_paper)


def all_file_names(papers):
    """Every file name a build can write for `papers` (MANIFEST.txt aside)."""
    return [name for o in OUTPUTS for name in o.file_names(papers)]
