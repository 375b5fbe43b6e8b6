"""One counter face drawn: its ground and reversed band, emblem, pictograms, words and numerals.

Where each piece goes is layout/face_layout.py's; this module sets the type (the edition's
condensed faces, theme.FaceSet: bold for titles, small words and numerals, medium for the rest), measures it for the
layout, and draws.  The pictograms are game-icons.net's outlines (layout/pictograms.py), filled
nonzero as SVG fills them.  Every black and grey is pure K.
"""

import functools
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, cast

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from generator.colour import luma
from generator.content.faces import Face, Groups, Line, kind_label
from generator.content.words import Words
from generator.data.glossary import data_source
from generator.data.model import KitData, Nationality
from generator.errors import RenderError
from generator.layout import face_layout as fl
from generator.layout import pictograms
from generator.layout import sheets as geo
from generator.render.pdf.canvas import (
    INK,
    PAPER,
    FaceSet,
    colour,
    edition_faces,
    grey,
    ink,
    ink_span,
    register_fonts,
)
from generator.render.theme import WHITE
from generator.text import truncate

HAIRLINE = 0.4
SHOWN_CHARS = 40        # how much of an over-long value an error message quotes
Paint = tuple[Any, Any, Any]      # reportlab colours: ground, ink, and a function of an emblem's '#rrggbb'


def font_of(style: str, face_set: FaceSet) -> str:
    """The face of a counter's words in `style`: bold for titles, small words and numerals."""
    return face_set.condensed_bold if style in ("title", "small") else face_set.condensed_medium


# Kept: fitting a sheet tries each face's few words at a few sizes, and every sheet and paper
# of a build measures the same words again; a font's name always means the same font file.
@functools.lru_cache(maxsize=4096)
def _width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


@functools.lru_cache(maxsize=4096)
def _ink(text: str, font: str, size: float) -> tuple[float, float]:
    return ink(text, font, size)


@functools.lru_cache(maxsize=4096)
def _span(text: str, font: str, size: float) -> tuple[float, float]:
    return ink_span(text, font, size)


@functools.lru_cache(maxsize=8)
def metrics(face_set: FaceSet) -> fl.Metrics:
    """The counters' type in an edition's faces, as the layout measures it."""
    def width(text: str, style: str, size: float) -> float:
        return _width(text, font_of(style, face_set), size)

    def ink_of(text: str, style: str, size: float) -> tuple[float, float]:
        return _ink(text, font_of(style, face_set), size)

    def span_of(text: str, style: str, size: float) -> tuple[float, float]:
        return _span(text, font_of(style, face_set), size)
    return fl.Metrics(width, ink_of, span_of)


Fits = tuple[fl.CounterType, dict[Face, fl.FaceFit]]


def fit_faces(groups: Groups, zone: fl.Zones, counter_mm: Fraction, kit: KitData, words: Words) -> Fits:
    """The sheet's type sizes and every distinct face laid out at them; RenderError naming the
    data (the file where the edition's value was written: `kit`'s, or its glossary) or the counter
    size if some face cannot fit even at the floor."""
    face_set = edition_faces(words.lang)
    register_fonts(face_set)
    m = metrics(face_set)
    fitted = fl.fit_faces(distinct_faces(groups), zone, m)
    if fitted is not None:
        return fitted
    problems: list[str] = []
    for nat, counters in groups:
        for counter in dict.fromkeys(counters):
            for face in dict.fromkeys((counter.front, counter.back)):
                if fl.fit_face(face, zone, fl.floor_type(zone), m) is None:
                    problems += _no_fit(face, zone, counter_mm, nat, kind_label(words, counter.kind), kit, m)
    raise RenderError(list(dict.fromkeys(problems)) or [f"--counter-size {float(counter_mm):.2f} mm: the counters "
                                                         f"cannot fit their words at {zone.floor:g} pt"])


def distinct_faces(groups: Groups) -> tuple[Face, ...]:
    """Every distinct face of `groups`, in print order.  Counters are told apart by identity
    first: a nationality's crews and markers repeat one Counter object, and a counter's hash
    walks every field of both its faces."""
    counters = {id(counter): counter for _, group in groups for counter in group}.values()
    return tuple(dict.fromkeys(face for counter in counters for face in (counter.front, counter.back)))


def _no_fit(face: Face, zone: fl.Zones, counter_mm: Fraction, nat: Nationality, kind: str,
            kit: KitData, m: fl.Metrics) -> list[str]:
    """One message per data value too long for the counter; if every value fits alone, the
    counter itself is too small for the face.  `kind`: what the catalogue calls the counter."""
    size = f"{float(counter_mm):.2f} mm"
    floor = f"{zone.floor:g} pt"
    blamed = [line for line in fl.culprits(face, zone, m) if line.source]
    if not blamed:
        shown = " / ".join(truncate(line.text, 30) for line in _lines(face))
        return [f"--counter-size {size}: the {truncate(nat.name, SHOWN_CHARS)} {kind.lower()} "
                f"counter ({shown}) cannot fit even at {floor}; choose a larger --counter-size"]
    problems = []
    for line in blamed:
        files: dict[str, list[str]] = {}
        for file, key in (data_source(kit, *source) for source in line.source):
            files.setdefault(file, []).append(key)
        for file, keys in files.items():
            problems.append(f"{kit.directory}/{file}: {', '.join(keys)}: {truncate(line.text, SHOWN_CHARS)!r} "
                            f"cannot fit on a {size} counter even at {floor}; "
                            "shorten it (or give it a short form) or choose a larger --counter-size")
    return problems


def _lines(face: Face) -> list[Line]:
    return [face.label, *([face.note] if face.note is not None else [])]


# ---- drawing -----------------------------------------------------------------------------------

def paint(nat: Nationality, bw: bool) -> Paint:
    """(ground, ink, emblem colour function) of a nationality's counters; --bw: white, black and
    the emblem in K greys (the shapes tell nationalities apart)."""
    if bw:
        return colour(WHITE), INK, lambda hex_colour: grey(round(luma(hex_colour), 3))
    return colour(nat.colour), colour(nat.text_colour), colour


def reversed_ink(nat: Nationality, bw: bool) -> Any:
    """The colour of the words reversed out of a band of the ink: the paper where the ink is
    dark, so the letters are the band's one ink alone (no second plate to register against it);
    the ground's colour where the ink is light."""
    if bw or luma(nat.text_colour) < 0.5:
        return PAPER
    return colour(nat.colour)


def band_ink(nat: Nationality, bw: bool) -> Any:
    """The band's colour: a dark ink as the grey of its lightness, so a press lays the band in
    black alone (a dark colour through a press's profile is a rich black of every ink, over its
    ceiling); a light ink as it is."""
    if bw or luma(nat.text_colour) < 0.5:
        return grey(round(luma(nat.text_colour), 3))
    return colour(nat.text_colour)


def draw_face(c: Canvas, zone: fl.Zones, fits: Fits, face: Face, nat: Nationality, bw: bool, words: Words,
              forms: "PictogramForms | None" = None) -> None:
    """The face with its lower-left corner at the origin; its pictogram placed from `forms`
    where it holds it, else drawn."""
    kind, laid = fits[0], fits[1][face]
    ground, ink_colour, emblem_colour = paint(nat, bw)
    face_set = edition_faces(words.lang)
    c.saveState()
    _ground(c, zone, kind, face, ground, band_ink(nat, bw), bw)
    ex, ey, e, _ = zone.emblem
    for shape in fl.emblem(nat.emblem, (ex, ey, e, e)):
        draw_shape(c, shape, emblem_colour(shape.colour))
    draw_pictogram(c, face.symbol, laid.places.symbol, ink_colour, ground, forms)
    if laid.places.sign is not None:
        no_smoke(c, laid.places.sign, ink_colour, words("counter.no_smoke.letter"), kind.small, face_set)
    c.setFillColor(ink_colour)
    _text(c, laid.note, face_set)
    c.setFillColor(reversed_ink(nat, bw) if face.band else ink_colour)
    _text(c, laid.label, face_set)
    c.setFillColor(ink_colour)
    _foot(c, zone, kind, face, face_set)
    c.restoreState()


def _ground(c: Canvas, zone: fl.Zones, kind: fl.CounterType, face: Face, ground: Any, band: Any,
            bw: bool) -> None:
    """The counter's ground, bleeding past its cut lines (and its outline with --bw), and the
    band of a reversed face (`band`: its colour) across the face, bleeding past both sides,
    behind its label."""
    s, b = zone.size, zone.bleed
    c.setFillColor(ground)
    c.rect(*geo.bleed_rect(0, 0, s, b), fill=1, stroke=0)
    if bw:      # ink-saving: the outline is the cut line
        c.setStrokeColor(INK)
        c.setLineWidth(HAIRLINE)
    c.rect(0, 0, s, s, fill=1, stroke=1 if bw else 0)
    if face.band:
        bottom, top = zone.band(kind)
        c.setFillColor(band)
        c.rect(-b, bottom, s + 2 * b, top - bottom, fill=1, stroke=0)


def _foot(c: Canvas, zone: fl.Zones, kind: fl.CounterType, face: Face, face_set: FaceSet) -> None:
    """The foot's numerals, each with its unit, in the colour set."""
    for pieces, _ in fl.foot_numerals(face.numerals, zone, kind, metrics(face_set).width):
        for piece in pieces:
            c.setFont(font_of(piece.style, face_set), piece.size)
            c.drawString(piece.x, piece.y, piece.text.replace("\u00a0", " "))


def _text(c: Canvas, placed: Iterable[fl.Placed], face_set: FaceSet) -> None:
    for item in placed:
        c.setFont(font_of(item.style, face_set), item.size)
        c.drawCentredString(item.x, item.y, item.text)


def draw_pictogram(c: Canvas, role: str, box: fl.Box, fill: Any, ground: Any,
                   forms: "PictogramForms | None" = None) -> None:
    """The pictogram for `role` in `box`, filled in `fill`; a part that knocks out what lies under
    it is first stroked wide in `ground`.  Placed from `forms` where it holds the part there."""
    pic = pictograms.pictograms()[role]
    for i, part in enumerate(pic.parts):
        if part.knockout:
            c.saveState()
            c.setFillColor(ground)
            c.setStrokeColor(ground)
            _part(c, pic, i, box, True, forms)
            c.restoreState()
        c.setFillColor(fill)
        _part(c, pic, i, box, False, forms)


def _part(c: Canvas, pic: pictograms.Pictogram, i: int, box: fl.Box, knockout: bool,
          forms: "PictogramForms | None") -> None:
    """Part `i` of `pic` in `box`, in the colours set: its knockout (filled and stroked wide), or its ink."""
    name = forms.names.get((pic.role, box, i, knockout)) if forms is not None else None
    if name is not None:
        c.doForm(name)
        return
    part = pic.parts[i]
    path = _outline_path(pic, part, box)
    if knockout:
        c.setLineWidth(part.knockout * pictograms.placed(pic, box)[0])
        c.setLineJoin(1)
    c.drawPath(path, fill=1, stroke=1 if knockout else 0, fillMode=FILL_NON_ZERO)


class PictogramForms:
    """Form XObjects of one canvas, each a pictogram's part at one place on a face, in whatever
    colours are set where it is placed: a kind's pictogram fills the same box on every face of
    that kind, so its outline is written once and placed by each face's own form, not written
    into every one of them again."""

    def __init__(self) -> None:
        self.names: dict[tuple[str, fl.Box, int, bool], str] = {}

    def define(self, c: Canvas, zone: fl.Zones, fits: Fits, faces: Iterable[Face]) -> None:
        """The forms of every pictogram `faces` place; made outside any other form (a form holds
        no definition of another)."""
        room = 2 * zone.bleed
        for face in faces:
            for role, box in ((face.symbol, fits[1][face].places.symbol),):
                pic = pictograms.pictograms()[role]
                for i, part in enumerate(pic.parts):
                    for knockout in (True, False) if part.knockout else (False,):
                        key = (role, box, i, knockout)
                        if key not in self.names:
                            self.names[key] = name = f"pictogram{len(self.names)}"
                            c.beginForm(name, -room, -room, zone.size + room, zone.size + room)
                            _part(c, pic, i, box, knockout, None)
                            c.endForm()


@functools.lru_cache(maxsize=256)
def _outline_path(pic: pictograms.Pictogram, part: pictograms.Part, box: fl.Box) -> PDFPathObject:
    """The part's outline in `box` as a path, its points mapped and written once: every face of
    a kind puts a role's pictogram in the same box, on every sheet and paper.  Only drawn from,
    never added to, so one path serves every canvas."""
    path = PDFPathObject()
    for sub in pictograms.fitted(pic, part, box):
        path.moveTo(*sub.start)
        for op, points in sub.segments:
            if op == "L":
                path.lineTo(*points[0])
            else:
                path.curveTo(*points[0], *points[1], *points[2])
        if sub.closed:
            path.close()
    return path


def draw_shape(c: Canvas, shape: fl.Shape, fill: Any) -> None:
    """One emblem shape, filled."""
    c.setFillColor(fill)
    if shape.kind == "circle":
        c.circle(*shape.data, fill=1, stroke=0)
    elif shape.kind == "ring":
        cx, cy, r, r_in = shape.data
        path = c.beginPath()
        path.circle(cx, cy, r)
        path.circle(cx, cy, r_in)
        c.drawPath(path, fill=1, stroke=0, fillMode=0)     # even-odd: the hole stays open
    else:
        polygon(c, cast(tuple[fl.Point, ...], shape.data))     # a polygon's data is its points


def polygon(c: Canvas, points: Sequence[tuple[float, float]]) -> None:
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    c.drawPath(path, fill=1, stroke=0)


def no_smoke(c: Canvas, sign: tuple[float, float, float], ink_colour: Any, letter: str, small: float,
             face_set: FaceSet) -> None:
    """No Smoke capability (871.4): Smoke's letter in a struck-through circle.  The circle and
    its stroke are filled shapes, not stroked lines: a shop's black lines overprint what lies
    beneath (ink_stream.py), and a line beside the emblem would lay its black on the emblem's
    inks where a press's dot touches both."""
    cx, cy, d = sign
    r, half = d / 2, max(0.5, d * 0.1) / 2
    c.setFillColor(ink_colour)
    ring = c.beginPath()
    ring.circle(cx, cy, r + half)
    ring.circle(cx, cy, r - half)
    c.drawPath(ring, fill=1, stroke=0, fillMode=0)      # even-odd: the ring alone
    size = max(small, d * 0.7)
    c.setFont(font_of("small", face_set), size)
    c.drawCentredString(cx, cy - size * fl.CAP / 2, letter)
    k, n = r * 0.7071, half * 0.7071        # the stroke's ends on the circle, its half-width across it
    polygon(c, ((cx - k + n, cy + k + n), (cx + k + n, cy - k + n), (cx + k - n, cy - k - n), (cx - k - n, cy + k - n)))
