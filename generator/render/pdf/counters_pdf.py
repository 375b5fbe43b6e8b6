"""Crew counters: the first pages (counter_pages_pdf.py), then each sheet's fronts followed by its backs.

Geometry is all in layout/sheets.py and layout/face_layout.py; this module only draws it, each
face by face_pdf.py.  Each counter's fill is one rectangle exactly the counter's size (tests find
counters that way); its bleed, a reversed band, cut ticks and bars are separate shapes of other
sizes.  Every black and grey is pure K.  Every word comes from the catalogue (ctx.words):
"counters.*" around the sheets; the faces' own words come with the faces (content/faces.py).
The pages open with the duplex calibration pair (duplex), how to fold and glue (fold), or the
print shop's cover and manifest (shop): never a page a profile does not need.
"""

from collections.abc import Callable, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.content.context import BuildContext
from generator.content.faces import KINDS, NBSP, Face, Groups
from generator.content.words import Words
from generator.errors import RenderError
from generator.layout import cuts
from generator.layout import face_layout as fl
from generator.layout import sheets as geo
from generator.layout.paper import Paper
from generator.render.pdf import counter_pages_pdf as first_pages
from generator.render.pdf.canvas import (
    EDGE_MM,
    INK,
    draw_footer,
    edition_faces,
    ellipsise,
    finish,
    new_canvas,
)
from generator.render.pdf.face_pdf import HAIRLINE, Fits, PictogramForms, distinct_faces, draw_face, fit_faces
from generator.text import ELLIPSIS, truncate
from generator.units import mm, points_to_mm

HEADING_SIZES = (9.5, 9.0, 8.5, 8.0)    # a sheet's heading: the largest at which it fits two lines
CONTENTS_SIZES = (7.0, 6.5, 6.0)        # what the sheet holds, under it


class Forms:
    """The name of the form XObject that draws each distinct (nationality key, face) on one
    canvas.  Looked up by the face object's identity first (the groups keep every face alive
    while the canvas is drawn): one object prints in many cells, and a face's hash walks all
    its fields."""

    def __init__(self, c: Canvas, ctx: BuildContext, zone: fl.Zones, fits: Fits, groups: Groups) -> None:
        self.by_face: dict[tuple[str, Face], str] = {}
        self.by_id: dict[tuple[str, int], str] = {}
        # The pictograms the faces' forms place, each made once before the first face; not for
        # a print shop, whose preflight reads each face's own strokes and colours.
        self.pictograms: PictogramForms | None = None
        if ctx.options.profile.prepress is None:
            self.pictograms = PictogramForms()
            self.pictograms.define(c, zone, fits, distinct_faces(groups))


def render(ctx: BuildContext, paper: Paper, plan: geo.SheetPlan) -> bytes:
    """The counter sheets of `paper`, as `plan` (layout/sheets.py sheet_plan) places them."""
    opts, words = ctx.options, ctx.words
    first_pages.register(ctx.words)     # text is measured before the canvas exists
    grid, groups, sheets = plan
    zone = geo.face_zones(grid)
    fits = _fitted(ctx, groups, zone, grid)
    if opts.profile.fold_sheets:
        return _render_fold(ctx, paper, grid, zone, groups, fits, sheets)
    if geo.board_of(opts) is not None:
        return _render_boards(ctx, paper, grid, zone, groups, fits, sheets)
    # a die-cutting shop's print file holds the sheets alone (its cover is a file of its own)
    pages = geo.page_of_sheet(opts, len(sheets), "back") + 1
    c, buffer = new_canvas(ctx, paper, first_pages.title(ctx), _subject(ctx, "counters.subject", paper),
                           duplex=opts.profile.duplex_hint)
    forms = Forms(c, ctx, zone, fits, groups)
    held = [_groups(words, groups, slots) for slots in sheets]     # each sheet's: its cover line, both its sides
    where = first_pages.Where(paper, grid, zone, fits, groups, pages)
    if opts.profile.calibration:
        first_pages.calibration_pair(c, ctx, where)
    elif geo.die_cut(opts) is None:     # a shop that prints the sheets whole: its cover opens them
        first_pages.shop_cover(c, ctx, where, held)
    for n, slots in enumerate(sheets, start=1):
        contents = words("counters.heading.contents", groups=held[n - 1])
        for side in ("front", "back"):
            page = geo.page_of_sheet(opts, n, side) + 1
            key = f"counters-sheet{n}-{side}"
            c.bookmarkPage(key)
            c.addOutlineEntry(words(f"counters.outline.{side}", n=n), key, 0)
            if side == "front":
                for g in sorted({s.group for s in slots}):
                    nat = groups[g][0]
                    c.bookmarkPage(f"{key}-{nat.key}")
                    c.addOutlineEntry(truncate(nat.name, 60), f"{key}-{nat.key}", 1)
            heading = (f"counters.heading.{side}" + _heading_suffix(ctx, side), contents)
            _sheet(c, ctx, paper, grid, zone, groups, fits, slots, side, heading, (n, len(sheets), page, pages),
                   forms)
            c.showPage()
    return finish(c, buffer)


def render_cover(ctx: BuildContext, paper: Paper, plan: geo.SheetPlan) -> bytes:
    """A die-cutting shop's cover of `paper`'s sheets, a file of its own: what each sheet holds and
    on which pages of the print file, then the manifest and one of each face as a key."""
    first_pages.register(ctx.words)
    grid, groups, sheets = plan
    zone = geo.face_zones(grid)
    fits = _fitted(ctx, groups, zone, grid)
    c, buffer = new_canvas(ctx, paper, first_pages.title(ctx), _subject(ctx, "counters.subject", paper))
    where = first_pages.Where(paper, grid, zone, fits, groups, first_pages.COVER_PAGES)
    first_pages.shop_cover(c, ctx, where, [_groups(ctx.words, groups, slots) for slots in sheets])
    return finish(c, buffer)


def _heading_suffix(ctx: BuildContext, side: str) -> str:
    """Which words a sheet's heading takes: the home printer's, or a shop's, whose fronts carry
    the die line (CutContour), leave it to the cut file, or are cut by hand on the ticks."""
    prepress = ctx.options.profile.prepress
    if prepress is None:
        return ""
    if side == "back" or prepress.cut_contour:
        return ".shop"
    return ".diecut" if ctx.options.profile.cut_files else ".hand"


def _fitted(ctx: BuildContext, groups: Groups, zone: fl.Zones, grid: geo.Grid) -> Fits:
    """_fit_faces; where a shop's safe zone is what leaves the faces no room, one line that says so."""
    try:
        return fit_faces(groups, zone, ctx.options.counter_mm, ctx.kit, ctx.words)
    except RenderError:
        prepress = ctx.options.profile.prepress
        die = prepress.die_cut if prepress is not None else None
        if prepress is None or die is None or grid.safe <= geo.own_inset(grid.size):
            raise
        inside = points_to_mm(grid.size - 2 * grid.safe_inset())
        raise RenderError([f"--print {ctx.options.print_profile}: {prepress.shop}'s safe zone of "
                           f"{float(die.safe_mm):.2f} mm leaves {inside:.2f} mm of a "
                           f"{float(ctx.options.counter_mm):.2f} mm counter for its words and art, too little "
                           f"for its faces even at {zone.floor:g} pt; choose a larger --counter-size "
                           f"({float(die.counter_mm):.2f} mm holds them)"]) from None


def _render_boards(ctx: BuildContext, paper: Paper, grid: geo.Grid, zone: fl.Zones, groups: Groups, fits: Fits,
                   sheets: Sequence[Sequence[geo.Slot]]) -> bytes:
    """A shop's punchboards, one page a side: each board's front, then its back mirrored, the
    counters alone (no calibration, ticks, bars or words: the board holds nothing else)."""
    words, opts = ctx.words, ctx.options
    board = Paper(paper.key, paper.label, grid.page_w, grid.page_h)
    c, buffer = new_canvas(ctx, board, first_pages.title(ctx), _subject(ctx, "counters.subject", paper),
                           duplex=opts.profile.duplex_hint)
    forms = Forms(c, ctx, zone, fits, groups)
    for n, slots in enumerate(sheets, start=1):
        for side in ("front", "back"):
            key = f"counters-sheet{n}-{side}"
            c.bookmarkPage(key)
            c.addOutlineEntry(words(f"counters.outline.{side}", n=n), key, 0)
            faces(c, ctx, zone, grid, groups, fits, slots, side, forms)
            c.showPage()
    return finish(c, buffer)


# ---- counter sheets -------------------------------------------------------------------------

def _registration_marks(c: Canvas, paper: Paper) -> None:
    """Silhouette's type 1 marks at the page's corners, pure K, where the cut files have them."""
    c.saveState()
    c.setFillColor(INK)
    for r in cuts.registration_marks(paper.width, paper.height):
        c.rect(r.x, r.y, r.w, r.h, fill=1, stroke=0)
    c.restoreState()


def _sheet(c: Canvas, ctx: BuildContext, paper: Paper, grid: geo.Grid, zone: fl.Zones, groups: Groups, fits: Fits,
           slots: Sequence[geo.Slot], side: str, heading: tuple[str, str], where: tuple[int, int, int, int],
           forms: Forms) -> None:
    """One side of sheet n; `heading`: its catalogue key and what the sheet holds; `where`:
    (n, sheets, this page, pages)."""
    faces(c, ctx, zone, grid, groups, fits, slots, side, forms)
    prepress = ctx.options.profile.prepress
    if prepress is not None and prepress.cut_contour and side == "front":
        _cut_contour(c, grid, slots)
    cutter = ctx.options.profile.home_cutter
    if cutter and side == "front":
        _registration_marks(c, paper)
    n, sheets, page, pages = where
    _ticks(c, grid, side)
    if prepress is None or prepress.die_cut is None:    # a die-cutting shop prints to its own scale
        first_pages.bars(c, grid, ctx.words)
    # beside a cutting machine's marks, the heading keeps between the top corners' marks
    clear = mm(cuts.MARK_INSET_MM + cuts.MARK_LENGTH_MM + 3) if cutter else mm(geo.MARGIN_SIDE_MM)
    _heading(c, ctx.words, paper, grid, ctx.words(heading[0], n=n, sheets=sheets), heading[1], clear)
    draw_footer(c, ctx, paper, page, pages, part="page.footer.part.counters")


def faces(c: Canvas, ctx: BuildContext, zone: fl.Zones, grid: geo.Grid, groups: Groups, fits: Fits,
          slots: Sequence[geo.Slot], side: str, forms: Forms) -> None:
    """The fronts or backs of `slots`, each distinct face drawn once as a form and then placed."""
    for slot in slots:
        nat, counters = groups[slot.group]
        counter = counters[slot.item]
        face = counter.front if side == "front" else counter.back
        name = forms.by_id.get((nat.key, id(face)))
        if name is None:
            name = forms.by_face.get((nat.key, face))
            if name is None:    # each distinct face is drawn once, then placed
                name = forms.by_face[nat.key, face] = f"face{len(forms.by_face)}"
                room = 2 * zone.bleed       # the box clips: keep its edge clear of the bleed's
                c.beginForm(name, -room, -room, zone.size + room, zone.size + room)
                draw_face(c, zone, fits, face, nat, ctx.options.bw, ctx.words, forms.pictograms)
                c.endForm()
            forms.by_id[nat.key, id(face)] = name
        x, y = geo.face_origin(grid, slot, side)
        c.saveState()
        c.translate(x, y)
        c.doForm(name)
        c.restoreState()



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


def _contents(words: Words, groups: Groups, slots: Sequence[geo.Slot]) -> str:
    """What a sheet holds, as its heading says it."""
    return words("counters.heading.contents", groups=_groups(words, groups, slots))


def _groups(words: Words, groups: Groups, slots: Sequence[geo.Slot]) -> str:
    """What a sheet holds, nationality by nationality, in the catalogue's words; each count tied
    with no-break spaces, and each nationality to its first count, so a line never starts or
    ends on a nationality's name or a count's half."""
    counts: dict[int, dict[str, int]] = {}
    for s in slots:
        counts.setdefault(s.group, dict.fromkeys(KINDS, 0))[groups[s.group][1][s.item].kind] += 1
    parts = []
    for g in sorted(counts):
        listed = words("counters.heading.count.separator").join(
            _tied(words(f"counters.heading.count.{k}", count=counts[g][k])) for k in KINDS if counts[g][k])
        # the catalogue's own spaces around the name and the counts are tied; those between counts are not
        frame = _tied(words("counters.heading.group", nationality=NAME_MARK, counts=COUNTS_MARK))
        parts.append(frame.replace(NAME_MARK, _tied(truncate(groups[g][0].name, 40))).replace(COUNTS_MARK, listed))
    return words("counters.heading.group.separator").join(parts)


NAME_MARK, COUNTS_MARK = "\x00", "\x01"     # where a group's name and counts go in its catalogue frame


def _tied(text: str) -> str:
    return text.replace(" ", NBSP)


def _heading(c: Canvas, words: Words, paper: Paper, grid: geo.Grid, heading: str, contents: str,
             side: float) -> None:
    """Which sheet and side this is, then what it holds, between the page's top margin and the
    ticks: each shrunk and wrapped to the width `side` points in from either edge."""
    c.saveState()
    c.setFillColor(INK)
    width = paper.width - 2 * side
    ticks_top = grid.y0 + grid.height + grid.reach
    top = paper.height - mm(EDGE_MM) - HEADING_SIZES[0] - 1     # an accent over a capital stays inside too
    face_set = edition_faces(words.lang)
    below = block(c, heading, face_set.condensed_bold, HEADING_SIZES, paper.width / 2, top, width, ticks_top + mm(6), 2)
    block(c, contents, face_set.body, CONTENTS_SIZES, paper.width / 2, below, width, ticks_top + mm(2), 3)
    c.restoreState()


def block(c: Canvas, text: str, font: str, sizes: Sequence[float], x_centre: float, baseline: float, width: float,
          floor: float, most: int) -> float:
    """Centred wrapped text from `baseline` down, kept above `floor` and to `most` lines (see
    block_lines).  Returns the baseline the next block starts on."""
    size, lines = block_lines(text, font, sizes, width,
                              lambda pt: min(most, max(1, int((baseline - floor) // (pt * 1.2)) + 1)))
    lead = size * 1.2
    c.setFont(font, size)
    for i, line in enumerate(lines):
        c.drawCentredString(x_centre, baseline - i * lead, ellipsise(line, font, size, width))
    return baseline - len(lines) * lead - size * 0.4


def block_lines(text: str, font: str, sizes: Sequence[float], width: float,
                room: Callable[[float], int]) -> tuple[float, list[str]]:
    """(size, lines) of `text` wrapped to `width`: the largest of `sizes` at which it takes at
    most `room(size)` lines, its lines balanced; else the last size, the last line that fits
    cut short with an ellipsis."""
    size = sizes[-1]
    for size in sizes:
        lines = list(first_pages.wrapped(text, font, size, width))
        if len(lines) <= room(size):
            break
    if len(lines) > room(size):
        lines = lines[:room(size)]
        lines[-1] = ellipsise(lines[-1] + " " + ELLIPSIS, font, size, width)
    elif len(lines) > 1:
        lines = list(first_pages.wrapped(text, font, size, _balanced(text, font, size, width, len(lines))))
    return size, lines


def _balanced(text: str, font: str, size: float, width: float, lines: int) -> float:
    """The narrowest width, to a point, at which `text` still wraps to `lines` lines: its lines
    then share the words about evenly, and no short fragment is left alone on the last."""
    def fits(points: float) -> bool:
        wrapped = fl.wrap(text, points, lambda t, _style, pt: stringWidth(t, font, pt), "body", size)
        return wrapped is not None and len(wrapped) <= lines

    narrow, wide = 0, int(width)
    if not fits(wide):
        return width
    while wide - narrow > 1:
        middle = (narrow + wide) // 2
        if fits(middle):
            wide = middle
        else:
            narrow = middle
    return float(wide)


# ---- fold-and-glue sheets ------------------------------------------------------------------

FOLD_DASH = (3, 2)      # the fold line's dashes, points: plainly not a cut


def _render_fold(ctx: BuildContext, paper: Paper, grid: geo.Grid, zone: fl.Zones, groups: Groups, fits: Fits,
                 sheets: Sequence[Sequence[geo.Slot]]) -> bytes:
    """Fold sheets: a page of how to fold and glue (and the manifest), then one page a sheet
    holding its fronts (left) and their backs (right), mirrored about the drawn fold line."""
    words = ctx.words
    pages = geo.FOLD_CALIBRATION_PAGES + len(sheets)
    c, buffer = new_canvas(ctx, paper, first_pages.title(ctx), _subject(ctx, "counters.subject.fold", paper),
                           duplex=ctx.options.profile.duplex_hint)
    forms = Forms(c, ctx, zone, fits, groups)
    first_pages.fold_instructions(c, ctx, first_pages.Where(paper, grid, zone, fits, groups, pages))
    c.showPage()
    for n, slots in enumerate(sheets, start=1):
        page = geo.fold_sheet_page(n) + 1
        key = f"counters-sheet{n}"
        c.bookmarkPage(key)
        c.addOutlineEntry(words("counters.outline.fold", n=n), key, 0)
        for side in ("front", "back"):
            faces(c, ctx, zone, grid, groups, fits, slots, side, forms)
        _fold_marks(c, grid, words)
        first_pages.bars(c, grid, words)
        _heading(c, words, paper, grid, words("counters.heading.fold", n=n, sheets=len(sheets)),
                 _contents(words, groups, slots), mm(geo.MARGIN_SIDE_MM))
        draw_footer(c, ctx, paper, page, pages, part="page.footer.part.counters")
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
    label = words("counters.fold.line")
    font = edition_faces(words.lang).condensed_bold
    size = 6.0
    while size > 5 and stringWidth(label, font, size) > (top - bottom) * 0.9:
        size -= 0.25
    label = ellipsise(label, font, size, (top - bottom) * 0.9)
    half = stringWidth(label, font, size) / 2 + mm(1.5)
    middle = (bottom + top) / 2
    c.setDash(*FOLD_DASH)
    c.line(x, bottom, x, middle - half)
    c.line(x, middle + half, x, top)
    c.setDash()
    c.setFillColor(INK)
    c.setFont(font, size)
    c.translate(x, middle)
    c.rotate(90)        # the label reads up the fold line
    c.drawCentredString(0, -size * fl.CAP / 2, label)
    c.restoreState()


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


def _subject(ctx: BuildContext, key: str, paper: Paper) -> str:
    """The counters PDF's Subject: `key`'s words with the paper and the counter size in mm,
    written with the edition's decimal sign (Babel: '19,05' in Polish)."""
    return ctx.words(key, paper=paper.label, size=ctx.words.decimal(ctx.options.counter_mm, 2))
