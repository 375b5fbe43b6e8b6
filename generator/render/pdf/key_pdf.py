"""The counter key on the player aid: one of each face, drawn as the counters print it, and
what each means in words (content/counter_key.py), said there once rather than on every face.

The faces are the first nationality's, laid out as a 3/4 in counter sheet lays them out and drawn
by face_pdf.py, side by side across the column, as large as the column lets them stand in one
row (never larger than true size); the sentences follow in the tables' type.
"""

from typing import Any

from reportlab.platypus import Flowable, KeepTogether, Paragraph

from generator.content.context import BuildContext
from generator.content.counter_key import counter_key
from generator.content.faces import Face, Groups, build_counters
from generator.layout import face_layout as fl
from generator.layout import sheets as geo
from generator.render.pdf.canvas import escape
from generator.render.pdf.face_pdf import Fits, draw_face, fit_faces
from generator.render.pdf.paragraphs import KitParagraph
from generator.units import mm

REFERENCE_MM = 19.05        # the faces as a 3/4 in counter prints them
GAP = mm(2)                 # between two faces


class KeyFaces(Flowable):
    """A row of counter faces, as large as the width lets them stand side by side, at most true size."""

    def __init__(self, faces: list[Face], groups: Groups, zone: fl.Zones, fits: Fits, bw: bool, ctx: BuildContext) \
            -> None:
        super().__init__()
        self.faces, self.nat, self.zone, self.fits, self.bw, self.ctx = faces, groups[0][0], zone, fits, bw, ctx
        self.scale = 1.0
        self.spaceAfter = mm(1.5)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        n = len(self.faces)
        self.scale = min(1.0, (availWidth - GAP * (n - 1)) / (n * self.zone.size))
        self.width, self.height = availWidth, self.zone.size * self.scale
        return self.width, self.height

    def draw(self) -> None:
        c: Any = self.canv
        side = self.zone.size * self.scale
        for i, face in enumerate(self.faces):
            c.saveState()
            c.translate(i * (side + GAP), 0)
            c.scale(self.scale, self.scale)
            draw_face(c, self.zone, self.fits, face, self.nat, self.bw, self.ctx.words)
            c.restoreState()


def key_faces(groups: Groups) -> list[Face]:
    """The faces the key shows, of the first nationality: the crew's two, a weapon's, the marker's two."""
    _, counters = groups[0]
    shown: list[Face] = []
    for kind in ("crew", "rifle", "marker"):
        counter = next((c for c in counters if c.kind == kind), None)
        if counter is not None:
            shown += [counter.front] if counter.front == counter.back else [counter.front, counter.back]
    return shown


def flowables(ctx: BuildContext, title: Paragraph, cell: Any) -> list[Flowable]:
    """The key as the aid prints it: its heading (`title`, made in the aid's heading style), the
    row of faces and its sentences in `cell`'s style, kept together in one column."""
    groups = build_counters(ctx)
    size = mm(REFERENCE_MM)
    zone = fl.zones(size, geo.own_inset(size))
    fits = fit_faces(groups, zone, ctx.options.counter_mm, ctx.kit, ctx.words)
    said = [KitParagraph(escape(entry.text), cell) for entry in counter_key(ctx)]
    for paragraph in said:
        paragraph.spaceAfter = cell.fontSize * 0.35
    return [KeepTogether([title, KeyFaces(key_faces(groups), groups, zone, fits, ctx.options.bw, ctx), *said])]

