"""Crew counters: a duplex calibration pair, then each sheet's fronts followed by its backs.

Geometry is all in layout/counters.py; this module only draws it.  Each counter's fill is one
rectangle exactly the counter's size (tests find counters that way); its bleed, a reversed band,
cut ticks and bars are separate shapes of other sizes.  Every black and grey is pure K.  Every
word comes from the catalogue (ctx.words): "counters.*" around the sheets, "calibration.*" on
the calibration pair; the faces' own words come with the faces (content/faces.py).
"""

from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.colour import luma
from generator.content.context import BuildContext
from generator.content.faces import KINDS, Face, Groups, Line, all_counters, kind_label, tally
from generator.content.words import Words
from generator.data.model import Nationality
from generator.errors import RenderError
from generator.layout import sheets as geo
from generator.layout.paper import Paper
from generator.render.pdf.canvas import (
    BOLD,
    FONT,
    INK,
    colour,
    draw_footer,
    ellipsise,
    finish,
    grey,
    new_canvas,
    register_fonts,
)
from generator.render.theme import WHITE
from generator.text import ELLIPSIS, signed, truncate
from generator.units import mm

HAIRLINE = 0.4
SHOWN_CHARS = 40        # how much of an over-long value an error message quotes
EXAMPLE_READING = (1.5, -0.5)   # the calibration steps' example: the cross 1.5 mm right, 0.5 mm down

Fits = dict[tuple[Face, str], Any]  # (face, 'middle'|'corner'): (size, placed); (face, 'pictogram'): its height
Tally = tuple[tuple[Nationality, dict[str, int]], ...]
Paint = tuple[Any, Any, Callable[[str], Any]]      # reportlab colours: ground, ink, emblem colour of a '#rrggbb'


def title(ctx: BuildContext) -> str:
    r = ctx.kit.rules
    return ctx.words("counters.title", number=r.number, title=r.title)


def measure(text: str, style: str, size: float) -> float:
    return stringWidth(text, BOLD if style == "title" else FONT, size)


def render(ctx: BuildContext, paper: Paper | None) -> bytes:
    assert paper is not None        # a per-paper output ("{paper}" in its name)
    register_fonts()    # text is measured before the canvas exists
    kit, opts, words = ctx.kit, ctx.options, ctx.words
    grid, groups, sheets = geo.sheet_plan(paper, opts, lambda spare: all_counters(kit, opts.sets, words, spare))
    zone = geo.zones(grid.size, grid.safe_inset())
    fits = _fit_faces(groups, zone, opts.counter_mm, kit.directory, words)
    if opts.profile.fold_sheets:
        return _render_fold(ctx, paper, grid, zone, groups, fits, sheets)
    pages = geo.CALIBRATION_PAGES + 2 * len(sheets)
    c, buffer = new_canvas(ctx, paper, title(ctx), words("counters.subject", paper=paper.label,
                                                    size=f"{float(opts.counter_mm):.2f}"),
                           duplex=opts.profile.duplex_hint)
    _calibration_front(c, ctx, paper, grid, tally(groups), pages)
    c.showPage()
    _calibration_back(c, ctx, paper, grid, pages)
    c.showPage()
    forms: dict[tuple[str, Face], str] = {}     # (nationality, face) -> the name of the form XObject that draws it
    for n, slots in enumerate(sheets, start=1):
        for side in ("front", "back"):
            page = geo.sheet_page(n, side) + 1
            key = f"counters-sheet{n}-{side}"
            c.bookmarkPage(key)
            c.addOutlineEntry(words(f"counters.outline.{side}", n=n), key, 0)
            present = sorted({s.group for s in slots})
            if side == "front":
                for g in present:
                    nat = groups[g][0]
                    c.bookmarkPage(f"{key}-{nat.key}")
                    c.addOutlineEntry(truncate(nat.name, 60), f"{key}-{nat.key}", 1)
            _sheet(c, ctx, paper, grid, zone, groups, fits, slots, side, (n, len(sheets), page, pages), forms)
            c.showPage()
    return finish(c, buffer)


PICTOGRAM_SHARES = (0.22, 0.19, 0.16, 0.13, 0.1)     # of the side: tried largest first


def _middle_fit(face: Face, zone: geo.Zones) -> tuple[float, Any]:
    """(pictogram height, (size, placed)) for the middle of `face`: the largest weapon pictogram
    that leaves its words near full size, else the largest that leaves them room at all."""
    x, y, w, h = zone.middle
    if not face.pictogram:
        return 0.0, geo.fit_box(face.lines, zone.middle, measure, zone.text_pt)
    fallback = None
    for share in PICTOGRAM_SHARES:
        ph = min(zone.size * share, h / 2)
        fit = geo.fit_box(face.lines, (x, y, w, h - ph), measure, zone.text_pt)
        if fit and fit[0] >= 0.85 * zone.text_pt:
            return ph, fit
        fallback = fallback or (fit and (ph, fit))
    return fallback or (0.0, None)


def _fit_faces(groups: Groups, zone: geo.Zones, counter_mm: Fraction, directory: Path, words: Words) -> Fits:
    """{(face, 'corner'|'middle'): (size, placed)} for every distinct face; RenderError naming
    the data if any face's words cannot fit at 5 pt."""
    fits: Fits = {}
    for nat, counters in groups:
        for counter in counters:
            kind = counter.kind
            for face in (counter.front, counter.back):
                if (face, "middle") in fits:
                    continue
                ph, fit = _middle_fit(face, zone)
                if fit is None:
                    x, y, w, h = zone.middle
                    box = (x, y, w, h - zone.size * PICTOGRAM_SHARES[-1] if face.pictogram else h)
                    raise RenderError(_no_fit(face.lines, box, counter_mm, nat, kind_label(words, kind), directory))
                fits[face, "middle"] = fit
                fits[face, "pictogram"] = ph
                if isinstance(face.corner, Line):
                    fit = geo.fit_box((face.corner,), zone.corner, measure, zone.text_pt * 1.2)
                    if fit is None:
                        raise RenderError(_no_fit((face.corner,), zone.corner, counter_mm, nat, kind_label(words, kind),
                                                  directory))
                    fits[face, "corner"] = fit
    return fits


def _no_fit(lines: Sequence[Line], box: tuple[float, float, float, float], counter_mm: Fraction, nat: Nationality,
            kind: str, directory: Path) -> list[str]:
    """One message per data value too long for the counter; if every value fits alone, the
    counter itself is too small for the face.  `kind`: what the catalogue calls the counter."""
    size = f"{float(counter_mm):.2f} mm"
    blamed = [line for line in geo.culprits(lines, box, measure) if line.source]
    if not blamed:
        face = " / ".join(truncate(line.text, 30) for line in lines)
        return [f"--counter-size {size}: the {truncate(nat.name, SHOWN_CHARS)} {kind.lower()} "
                f"counter ({face}) cannot fit even at {geo.MIN_TEXT_PT} pt; choose a larger --counter-size"]
    problems = []
    for line in blamed:
        files: dict[str, list[str]] = {}
        for file, key in line.source:
            files.setdefault(file, []).append(key)
        for file, keys in files.items():
            problems.append(f"{directory}/{file}: {', '.join(keys)}: {truncate(line.text, SHOWN_CHARS)!r} "
                            f"cannot fit on a {size} counter even at {geo.MIN_TEXT_PT} pt; "
                            "shorten it or choose a larger --counter-size")
    return problems


# ---- counter sheets -------------------------------------------------------------------------

def _paint(nat: Nationality, bw: bool) -> Paint:
    """(ground, ink, emblem colour function) of a nationality's counters; --bw: white, black and
    the emblem in K greys (the shapes tell nationalities apart)."""
    if bw:
        return colour(WHITE), INK, lambda hex_colour: grey(round(luma(hex_colour), 3))
    return colour(nat.colour), colour(nat.text_colour), colour


def _sheet(c: Canvas, ctx: BuildContext, paper: Paper, grid: geo.Grid, zone: geo.Zones, groups: Groups, fits: Fits,
           slots: Sequence[geo.Slot], side: str, where: tuple[int, int, int, int],
           forms: dict[tuple[str, Face], str]) -> None:
    """One side of sheet n; `where`: (n, sheets, this page, pages)."""
    _faces(c, ctx, zone, grid, groups, fits, slots, side, forms)
    prepress = ctx.options.profile.prepress
    if prepress is not None and prepress.cut_contour and side == "front":
        _cut_contour(c, grid, slots)
    n, sheets, page, pages = where
    _ticks(c, grid, side)
    _bars(c, grid, ctx.words)
    _heading(c, ctx.words, paper, grid, groups, slots, f"counters.heading.{side}", (n, sheets, page))
    draw_footer(c, ctx, paper, page, pages)


def _faces(c: Canvas, ctx: BuildContext, zone: geo.Zones, grid: geo.Grid, groups: Groups, fits: Fits,
           slots: Sequence[geo.Slot], side: str, forms: dict[tuple[str, Face], str]) -> None:
    """The fronts or backs of `slots`, each distinct face drawn once as a form and then placed."""
    bw = ctx.options.bw
    for slot in slots:
        nat, counters = groups[slot.group]
        counter = counters[slot.item]
        face = counter.front if side == "front" else counter.back
        if (nat.key, face) not in forms:    # each distinct face is drawn once, then placed
            name = forms[nat.key, face] = f"face{len(forms)}"
            room = 2 * mm(geo.BLEED_MM)     # the box clips: keep its edge clear of the bleed's
            c.beginForm(name, -room, -room, zone.size + room, zone.size + room)
            _counter(c, 0, 0, zone, face, nat, fits, bw, ctx.words)
            c.endForm()
        x, y = geo.face_origin(grid, slot, side)
        c.saveState()
        c.translate(x, y)
        c.doForm(forms[nat.key, face])
        c.restoreState()


def _counter(c: Canvas, x: float, y: float, zone: geo.Zones, face: Face, nat: Nationality, fits: Fits, bw: bool,
             words: Words) -> None:
    ground, ink, emblem_colour = _paint(nat, bw)
    c.saveState()
    text = _ground(c, x, y, zone, face, ground, ink, bw)
    ex, ey, e, _ = zone.emblem
    for shape in geo.emblem(nat.emblem, (x + ex, y + ey, e, e)):
        _shape(c, shape, emblem_colour(shape.colour))
    c.setFillColor(text)
    _corner(c, x, y, zone, face, fits, text, words)
    if face.pictogram:
        mx, my, mw, mh = zone.middle
        ph = fits[face, "pictogram"]
        _polygons(c, geo.pictogram(face.pictogram, (x + mx, y + my + mh - ph, mw, ph)))
    _text(c, x, y, fits[face, "middle"][1])
    c.setFillColor(ink)
    _foot(c, x, y, zone, face, ink, words)
    c.restoreState()


def _ground(c: Canvas, x: float, y: float, zone: geo.Zones, face: Face, ground: Any, ink: Any, bw: bool) -> Any:
    """The counter's ground, bleeding past its cut lines (and its outline with --bw), and the
    reversed band of a face that has one; returns the colour its text is drawn in."""
    s, b = zone.size, mm(geo.BLEED_MM)
    c.setFillColor(ground)
    c.rect(*geo.bleed_rect(x, y, s), fill=1, stroke=0)
    if bw:      # ink-saving: the outline is the cut line
        c.setStrokeColor(INK)
        c.setLineWidth(HAIRLINE)
    c.rect(x, y, s, s, fill=1, stroke=1 if bw else 0)
    if not face.band:
        return ink
    # reversed: ink ground over all but the foot, bleeding past three cut lines
    c.setFillColor(ink)
    c.rect(x - b, y + zone.band_bottom, s + 2 * b, s - zone.band_bottom + b, fill=1, stroke=0)
    ex, ey, e, _ = zone.emblem
    pad = max(0.0, min(zone.inset / 3, zone.inset - mm(1)))    # the patch too keeps 1 mm off the cut
    c.setFillColor(ground)
    c.rect(x + ex - pad, y + ey - pad, e + 2 * pad, e + 2 * pad, fill=1, stroke=0)
    return ground


def _corner(c: Canvas, x: float, y: float, zone: geo.Zones, face: Face, fits: Fits, text: Any,
            words: Words) -> None:
    """The corner: its text, or its pictogram with its note and, for No Smoke, the sign beside it."""
    if isinstance(face.corner, Line):
        _text(c, x, y, fits[face, "corner"][1])
        return
    if face.no_smoke:       # the sign beside the corner's pictogram: the foot has no room
        (px, py, pw, ph), note, icon = geo.corner_with_icon(zone, face.corner_note is not None)
        _no_smoke(c, x, y, icon, text, words("counter.no_smoke.letter"))
    else:
        (px, py, pw, ph), note = geo.corner_boxes(zone, face.corner_note is not None)
    _polygons(c, geo.pictogram(face.corner, (x + px, y + py, pw, ph)))
    if note and face.corner_note:
        c.setFont(BOLD, zone.small_pt)
        c.drawCentredString(x + note[0], y + note[1], face.corner_note.text)


def _foot(c: Canvas, x: float, y: float, zone: geo.Zones, face: Face, ink: Any, words: Words) -> None:
    """The foot: its pictogram, its numerals, and the No Smoke sign between them when the corner
    holds text."""
    if face.foot_pictogram:
        fx, fy, fw, fh = geo.foot_pictogram_box(zone, face.foot_pictogram)
        _polygons(c, geo.pictogram(face.foot_pictogram, (x + fx, y + fy, fw, fh)))
    spans = []
    for pieces, span in geo.foot_numerals(face.numerals, zone, measure):
        for piece in pieces:
            c.setFont(BOLD, piece.size)
            c.drawString(x + piece.x, y + piece.y, piece.text.replace("\u00a0", " "))
        spans.append(span)
    if face.no_smoke and isinstance(face.corner, Line):     # no pictogram in the corner: between the numerals
        icon = geo.icon_between(zone, min(e for _, e in spans), max(b for b, _ in spans))
        _no_smoke(c, x, y, icon, ink, words("counter.no_smoke.letter"))


def _text(c: Canvas, x: float, y: float, placed: Sequence[geo.Placed]) -> None:
    for item in placed:
        c.setFont(BOLD if item.style == "title" else FONT, item.size)
        c.drawCentredString(x + item.x, y + item.y, item.text)


def _polygons(c: Canvas, polygons: Sequence[Sequence[tuple[float, float]]]) -> None:
    for points in polygons:
        path = c.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        c.drawPath(path, fill=1, stroke=0)


def _shape(c: Canvas, shape: geo.Shape, fill: Any) -> None:
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
        _polygons(c, [cast(tuple[geo.Point, ...], shape.data)])     # a polygon's data is its points


def _no_smoke(c: Canvas, x: float, y: float, icon: tuple[float, float, float], ink: Any, letter: str) -> None:
    """No Smoke capability (871.4): Smoke's letter in a struck-through circle, between the numerals."""
    cx, cy, d = icon
    r = d / 2
    c.setStrokeColor(ink)
    c.setLineWidth(max(0.5, d * 0.1))
    c.circle(x + cx, y + cy, r, fill=0, stroke=1)
    size = d * 0.8
    c.setFont(BOLD, size)
    c.drawCentredString(x + cx, y + cy - size * geo.CAP / 2, letter)
    k = r * 0.7071
    c.line(x + cx - k, y + cy + k, x + cx + k, y + cy - k)


def _ticks(c: Canvas, grid: geo.Grid, side: str) -> None:
    """Ticks at every cut line; on a back, where the front's cut lines land after the flip."""
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(HAIRLINE)
    for (x1, y1), (x2, y2) in geo.cut_ticks(grid):
        if side == "back":
            c.line(grid.mirror_x(x1), y1 + grid.offset[1], grid.mirror_x(x2), y2 + grid.offset[1])
        else:
            c.line(x1, y1, x2, y2)
    c.restoreState()


def _bars(c: Canvas, grid: geo.Grid, words: Words) -> None:
    c.saveState()
    for bar in geo.bars(grid):
        c.setFillColor(INK)
        c.rect(bar.x, bar.y, bar.length, bar.height, fill=1, stroke=0)
        c.setStrokeColor(INK)
        c.setLineWidth(HAIRLINE)
        for x in bar.ticks:     # graduations stand above the bar, so its ends are plain to see
            c.line(x, bar.y + bar.height, x, bar.y + bar.height + mm(1))
        c.setFont(FONT, 6)
        c.drawCentredString(bar.x + bar.length / 2, bar.label_y + mm(1),
                            words(f"counters.bar.{bar.unit}", length=bar.units))
    c.restoreState()


def _heading(c: Canvas, words: Words, paper: Paper, grid: geo.Grid, groups: Groups, slots: Sequence[geo.Slot],
             heading: str, where: tuple[int, int, int]) -> None:
    """Which sheet and side this is (the catalogue's `heading`), then what it holds; `where`:
    (n, sheets, this page)."""
    n, sheets, page = where
    c.saveState()
    c.setFillColor(INK)
    top = paper.height - mm(10)
    c.setFont(BOLD, 9)
    c.drawCentredString(paper.width / 2, top, words(heading, n=n, sheets=sheets, page=page - 1))
    counts: dict[int, dict[str, int]] = {}
    for s in slots:
        counts.setdefault(s.group, dict.fromkeys(KINDS, 0))[groups[s.group][1][s.item].kind] += 1
    parts = []
    for g in sorted(counts):
        listed = ", ".join(words(f"counters.heading.count.{k}", count=counts[g][k]) for k in KINDS if counts[g][k])
        parts.append(words("counters.heading.group", nationality=truncate(groups[g][0].name, 40), counts=listed))
    width = paper.width - 2 * mm(geo.MARGIN_SIDE_MM)
    ticks_top = grid.y0 + grid.height + mm(geo.BLEED_MM + geo.TICK_GAP_MM + geo.TICK_MM)
    _block(c, words("counters.heading.contents", groups="; ".join(parts)), paper.width / 2, top - 10, width,
           ticks_top + mm(2))
    c.restoreState()


def _block(c: Canvas, text: str, x_centre: float, baseline: float, width: float, floor: float) -> None:
    """Centred wrapped text from `baseline` down, kept above `floor`: shrink from 7 pt to 5 pt,
    then cut the last line that fits with an ellipsis (many nationalities make a long list)."""
    for size in (7, 6.5, 6, 5.5, 5):
        lead = size * 1.2
        lines = geo.wrap(text, width, measure, "body", size) or [text]
        room = max(1, int((baseline - floor) // lead) + 1)
        if len(lines) <= room:
            break
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = ellipsise(lines[-1] + " " + ELLIPSIS, FONT, size, width)
    c.setFont(FONT, size)
    for i, line in enumerate(lines):
        c.drawCentredString(x_centre, baseline - i * lead, ellipsise(line, FONT, size, width))


# ---- calibration pair -----------------------------------------------------------------------

def _cross(c: Canvas, point: tuple[float, float], cal: geo.Calibration, words: Words | None) -> None:
    """A cross through `point` with a mm scale along both arms; with `words`, labelled every 5 mm."""
    x, y = point
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(0.3)
    reach = cal.scale + mm(4)
    c.line(x - reach, y, x + reach, y)
    c.line(x, y - reach, x, y + reach)
    c.setFont(FONT, 5.5)
    c.setFillColor(INK)
    for i in range(-geo.CAL_SCALE_MM, geo.CAL_SCALE_MM + 1):
        if i == 0:
            continue
        d = i * cal.step
        t = mm(2) if i % 5 == 0 else mm(1)
        c.line(x + d, y - t / 2, x + d, y + t / 2)
        c.line(x - t / 2, y + d, x + t / 2, y + d)
        if words and i % 5 == 0:
            label = f"{i:+d}".replace("-", "\u2212")
            # x labels above the axis, y labels left of it: the two sets never meet
            c.drawCentredString(x + d, y + mm(1.5), label)
            c.drawRightString(x - mm(1.5), y + d - 2, label)
    if words:
        c.drawString(x + reach + mm(1), y - 2, words("calibration.cross.right"))
        c.drawCentredString(x, y + reach + mm(1), words("calibration.cross.up"))
    c.circle(x, y, mm(1), stroke=1, fill=0)
    c.restoreState()


def _paragraphs(c: Canvas, x: float, y: float, width: float, texts: Sequence[str], size: float = 8.5,
                leading: float = 11) -> float:
    c.setFont(FONT, size)
    for text in texts:
        for line in geo.wrap(text, width, measure, "body", size) or [text]:
            c.drawString(x, y, line)
            y -= leading
        y -= leading / 3
    return y


def _offset(ctx: BuildContext) -> tuple[float, float]:
    ox, oy = (float(v) for v in ctx.options.back_offset_mm)
    return ox, oy


def _reading(mm_value: float) -> Decimal:
    """A length in mm as prose prints it ('1.5', '0'), a number the catalogue writes in the
    edition's convention ('1,5 mm'); the figures of a --back-offset stay the option's own."""
    return Decimal(f"{mm_value:g}")


def _calibration_front(c: Canvas, ctx: BuildContext, paper: Paper, grid: geo.Grid, rows: Tally, pages: int) -> None:
    words = ctx.words
    left, width = _first_page_heading(c, ctx, paper, "calibration.outline.front", "calibration.heading")
    cal = geo.calibration(grid)
    ox, oy = _offset(ctx)
    right, up = EXAMPLE_READING
    _paragraphs(c, left, paper.height - mm(36), width, [
        words("calibration.step.1", mm=geo.BAR_MM, inches=geo.BAR_IN)])
    _cross(c, cal.front, cal, None)
    x_text = cal.front[0] + cal.scale + mm(10)
    text_end = _paragraphs(c, x_text, cal.front[1] + cal.scale + mm(2), paper.width - x_text - left, [
        words("calibration.step.2"), words("calibration.step.3"),
        words("calibration.step.4", x=f"{ox:g}", y=f"{oy:g}", right=_reading(right), down=_reading(-up),
              example_x=f"{ox + right:g}", example_y=f"{oy + up:g}"),
        words("calibration.step.5")])
    bars_top = max(bar.label_y for bar in geo.bars(grid)) + mm(4)
    below = min(text_end, cal.front[1] - cal.scale - mm(4))    # under the cross and the steps
    _manifest(c, ctx, left, below - mm(8), width, rows, bars_top)
    _bars(c, grid, words)
    draw_footer(c, ctx, paper, 1, pages)


def _calibration_back(c: Canvas, ctx: BuildContext, paper: Paper, grid: geo.Grid, pages: int) -> None:
    words = ctx.words
    c.bookmarkPage("counters-calibration-back")
    c.addOutlineEntry(words("calibration.outline.back"), "counters-calibration-back", 1)
    cal = geo.calibration(grid)
    _cross(c, cal.back, cal, words)
    c.setFillColor(INK)
    left = mm(geo.MARGIN_SIDE_MM + 6)
    c.setFont(BOLD, 10)
    c.drawString(left, paper.height - mm(22), words("calibration.back.heading"))
    ox, oy = _offset(ctx)
    _paragraphs(c, left, paper.height - mm(29), paper.width - 2 * left, [
        words("calibration.back.read", x=f"{ox:g}", y=f"{oy:g}"),
        words("calibration.back.shift", x=_reading(ox), y=_reading(oy))])
    _bars(c, grid, words)
    draw_footer(c, ctx, paper, 2, pages)


def _manifest_text(ctx: BuildContext) -> list[str]:
    """The manifest's paragraphs: what a set is, what fills the last sheet, what the faces mean."""
    words, r = ctx.words, ctx.kit.rules
    sets = ctx.options.sets
    w, after = r.weapon, r.after
    what = [words.count("calibration.manifest.sets", r.crew.size,
                        sets=words.count("calibration.manifest.set_count", sets))]
    what += [words("calibration.manifest.fill")] if ctx.options.fill else []
    what += [words("calibration.manifest.weapons")]
    faces = [words("calibration.manifest.crew", fp=w.pistol_fp, unit=words("counter.crew.pistol.unit"),
                   reach=words("counter.crew.pistol.range", range=w.pistol_relative_range),
                   ccv=signed(r.close_combat.ccv_modifier), letter=words("counter.no_smoke.letter"),
                   ccv_unit=words("counter.crew.ccv.unit")),
             words("calibration.manifest.marker", voluntary="; ".join(r.voluntary), tem=signed(after.wreck_tem),
                   terrain=after.wreck_terrain)]
    return [" ".join(what), " ".join(faces), words("calibration.manifest.emblems")]


def _manifest(c: Canvas, ctx: BuildContext, left: float, top: float, width: float, rows: Tally, floor: float) -> None:
    words = ctx.words
    c.setFillColor(INK)
    c.setFont(BOLD, 10)
    c.drawString(left, top, words("calibration.manifest.heading"))
    y = _paragraphs(c, left, top - 13, width, _manifest_text(ctx), size=8, leading=10)
    heads = ["nationality", *KINDS, "total"]
    headers: list[object] = [words(f"calibration.manifest.head.{k}") for k in heads]
    col_w = mm(18)
    name_w = width - col_w * (len(headers) - 1)
    totals = {k: sum(counts[k] for _, counts in rows) for k in KINDS}
    # Rows shrink (8 pt down to 5 pt) to stay above the bars; past that, the rest are summed up.
    size: float = 8
    while size > 5 and (len(rows) + 2) * size * 1.25 > y - 4 - floor:
        size -= 0.5
    pitch = size * 1.25
    room = max(0, int((y - 4 - floor) // pitch) - 2)
    shown = rows if len(rows) <= room else rows[:max(0, room - 1)]
    y -= 4
    _row(c, left, y, name_w, col_w, headers, BOLD, size)
    for nat, counts in shown:
        y -= pitch
        side = size * 1.1       # the emblem, as a legend, before the name
        for shape in geo.emblem(nat.emblem, (left, y - size * 0.2, side, side)):
            _shape(c, shape, _paint(nat, ctx.options.bw)[2](shape.colour))
        c.setFillColor(INK)
        _row(c, left + side * 1.4, y, name_w - side * 1.4, col_w,
             [nat.name, *(counts[k] for k in KINDS), sum(counts.values())], FONT, size)
    if len(shown) < len(rows):
        y -= pitch
        _row(c, left, y, name_w, col_w, [words("calibration.manifest.more", count=len(rows) - len(shown))], FONT, size)
    y -= pitch
    _row(c, left, y, name_w, col_w, [words("calibration.manifest.all"), *(totals[k] for k in KINDS),
                                     sum(totals.values())], BOLD, size)


def _row(c: Canvas, x: float, y: float, name_w: float, col_w: float, cells: Sequence[object], font: str,
         size: float) -> None:
    c.setFont(font, size)
    c.drawString(x, y, ellipsise(str(cells[0]), font, size, name_w - 4))
    for i, cell in enumerate(cells[1:], start=1):
        # A head longer than its column ("Marcadores") is set smaller, never into its neighbour.
        fit = min(size, size * (col_w - 4) / max(stringWidth(str(cell), font, size), 1))
        c.setFont(font, fit)
        c.drawRightString(x + name_w + i * col_w, y, str(cell))
    c.setFont(font, size)


# ---- fold-and-glue sheets ------------------------------------------------------------------

FOLD_DASH = (3, 2)      # the fold line's dashes, points: plainly not a cut


def _render_fold(ctx: BuildContext, paper: Paper, grid: geo.Grid, zone: geo.Zones, groups: Groups, fits: Fits,
                 sheets: Sequence[Sequence[geo.Slot]]) -> bytes:
    """Fold sheets: a page of how to fold and glue (and the manifest), then one page a sheet
    holding its fronts (left) and their backs (right), mirrored about the drawn fold line."""
    words = ctx.words
    pages = geo.FOLD_CALIBRATION_PAGES + len(sheets)
    c, buffer = new_canvas(ctx, paper, title(ctx), words("counters.subject.fold", paper=paper.label,
                                                    size=f"{float(ctx.options.counter_mm):.2f}"),
                           duplex=ctx.options.profile.duplex_hint)
    _fold_instructions(c, ctx, paper, grid, tally(groups), pages)
    c.showPage()
    forms: dict[tuple[str, Face], str] = {}
    for n, slots in enumerate(sheets, start=1):
        page = geo.fold_sheet_page(n) + 1
        key = f"counters-sheet{n}"
        c.bookmarkPage(key)
        c.addOutlineEntry(words("counters.outline.fold", n=n), key, 0)
        for side in ("front", "back"):
            _faces(c, ctx, zone, grid, groups, fits, slots, side, forms)
        _fold_marks(c, grid, words)
        _bars(c, grid, words)
        _heading(c, words, paper, grid, groups, slots, "counters.heading.fold", (n, len(sheets), page))
        draw_footer(c, ctx, paper, page, pages)
        c.showPage()
    return finish(c, buffer)


def _fold_marks(c: Canvas, grid: geo.Grid, words: Words) -> None:
    """The cut ticks of both halves and the dashed fold line, broken where its label runs along it."""
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(HAIRLINE)
    for (x1, y1), (x2, y2) in geo.fold_ticks(grid):
        c.line(x1, y1, x2, y2)
    (x, bottom), (_, top) = geo.fold_line(grid)
    label, size = words("counters.fold.line"), 6
    half = stringWidth(label, BOLD, size) / 2 + mm(1.5)
    middle = (bottom + top) / 2
    c.setDash(*FOLD_DASH)
    c.line(x, bottom, x, middle - half)
    c.line(x, middle + half, x, top)
    c.setDash()
    c.setFillColor(INK)
    c.setFont(BOLD, size)
    c.translate(x, middle)
    c.rotate(90)        # the label reads up the fold line
    c.drawCentredString(0, -size * geo.CAP / 2, label)
    c.restoreState()


def _fold_instructions(c: Canvas, ctx: BuildContext, paper: Paper, grid: geo.Grid, rows: Tally, pages: int) -> None:
    """Page 1 of fold sheets: print single-sided, fold, glue, cut; then the manifest and the bars."""
    words = ctx.words
    left, width = _first_page_heading(c, ctx, paper, "fold.outline", "fold.heading")
    end = _paragraphs(c, left, paper.height - mm(36), width, [
        words("fold.step.1", mm=geo.BAR_MM, inches=geo.BAR_IN), words("fold.step.2"), words("fold.step.3"),
        words("fold.step.4"), words("fold.step.5")])
    bars_top = max(bar.label_y for bar in geo.bars(grid)) + mm(4)
    _manifest(c, ctx, left, end - mm(8), width, rows, bars_top)
    _bars(c, grid, words)
    draw_footer(c, ctx, paper, 1, pages)


# ---- the print shop's cut lines --------------------------------------------------------------

CUT_LINE = 0.25     # points: a plotter reads the path, not its width


def _cut_contour(c: Canvas, grid: geo.Grid, slots: Sequence[geo.Slot]) -> None:
    """Each counter's cut line on the fronts, in the CutContour separation, overprinted, so a
    cutting plotter or die-maker reads it and it knocks nothing out of the print."""
    from reportlab.lib.colors import CMYKColorSep

    from generator.render.pdf.shop_pdf import CUT_CONTOUR, cut_contour_inks
    c.saveState()
    c.setStrokeColor(CMYKColorSep(*cut_contour_inks(), spotName=CUT_CONTOUR))
    c.setStrokeOverprint(True)
    c.setLineWidth(CUT_LINE)
    for slot in slots:
        x, y = grid.front(slot.col, slot.row)
        c.rect(x, y, grid.size, grid.size, fill=0, stroke=1)
    c.restoreState()


def _first_page_heading(c: Canvas, ctx: BuildContext, paper: Paper, outline: str, heading: str) -> tuple[float, float]:
    """The counters PDF's first page (the calibration page, or how to fold and glue): its bookmark
    (the catalogue's `outline`), the PDF's title and the page's `heading`; returns the text's left
    edge and width."""
    c.bookmarkPage("counters-calibration")
    c.addOutlineEntry(ctx.words(outline), "counters-calibration", 0)
    left = mm(geo.MARGIN_SIDE_MM + 6)
    c.setFillColor(INK)
    c.setFont(BOLD, 13)
    c.drawString(left, paper.height - mm(22), title(ctx))
    c.setFont(BOLD, 10)
    c.drawString(left, paper.height - mm(29), ctx.words(heading))
    return left, paper.width - 2 * left
