"""The counters PDF's first pages, one set per print profile, and the bars every page carries.

- duplex: the calibration pair.  Page 1: how to print and read it, the cross, then the manifest
  (what prints, what a face means, one of each face drawn as a key) and the colophon; page 2:
  the scale the front's cross shows through on.
- fold: one page, how to fold and glue, then the manifest and the colophon.
- shop: a cover (what each cut sheet holds, on which pages), then the manifest.

Every word from the catalogue ("calibration.*", "fold.*", "cover.*", "colophon.*"); players' words
only: the kit's commands live in README.txt, which these pages point to.
"""

import functools
from collections.abc import Sequence
from decimal import Decimal

from msgspec import Struct
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.content.context import BuildContext
from generator.content.counter_key import counter_key, heading
from generator.content.faces import KINDS, Face, Groups, kind_label, tally
from generator.content.words import Words, english_names
from generator.data.model import Nationality
from generator.layout import face_layout as fl
from generator.layout import pictograms
from generator.layout import sheets as geo
from generator.layout.paper import Paper
from generator.render import theme
from generator.render.pdf.canvas import (
    INK,
    colophon_text,
    draw_footer,
    edition_faces,
    ellipsise,
    register_fonts,
)
from generator.render.pdf.face_pdf import HAIRLINE, Fits, draw_face, draw_shape, paint
from generator.text import tie_numbers
from generator.units import mm

COVER_PAGES = 2     # a print shop's cover: the cut sheets, then the manifest

PAGE = theme.PAGE_TYPE
LEAD = 1.3                      # body text's leading, as a multiple of its size
SCALE_TYPE = 7.0                # the calibration marks' labels (the bars', the scale's): read at arm's length
# The faces' key, enlarged: big enough to read each piece of a face, and never the counters' own
# size, which a print shop's preflight or a test would count as a counter.
KEY_SCALE = (1.15, 1.5)
KEY_GAP = mm(6)                 # between two faces of the key
Tally = tuple[tuple[Nationality, dict[str, int]], ...]


class Where(Struct, frozen=True):
    """What a first page is drawn for: the paper, the sheets' grid and faces, the page count."""
    paper: Paper
    grid: geo.Grid
    zone: fl.Zones
    fits: Fits
    groups: Groups
    pages: int


def register(words: Words) -> None:
    register_fonts(edition_faces(words.lang))


def title(ctx: BuildContext) -> str:
    r = ctx.kit.rules
    return ctx.words("counters.title", number=r.number, title=r.title)


def bars(c: Canvas, grid: geo.Grid, words: Words) -> None:
    """The 100 mm and 4 in bars at the foot of every page, each labelled beside it."""
    c.saveState()
    font = edition_faces(words.lang).condensed
    ascent, descent = getAscentDescent(font, SCALE_TYPE)
    for bar in geo.bars(grid):
        c.setFillColor(INK)
        c.rect(bar.x, bar.y, bar.length, bar.height, fill=1, stroke=0)
        c.setStrokeColor(INK)
        c.setLineWidth(HAIRLINE)
        for x in bar.ticks:     # graduations stand above the bar, so its ends are plain to see
            c.line(x, bar.y + bar.height, x, bar.top)
        c.setFont(font, SCALE_TYPE)
        c.drawRightString(bar.label_right, bar.label_mid - (ascent + descent) / 2,
                          words(f"counters.bar.{bar.unit}", length=bar.units))
    c.restoreState()


def _floor(grid: geo.Grid) -> float:
    """The lowest a first page's text may go: above the bars and their labels."""
    return max(bar.top for bar in geo.bars(grid)) + mm(5)


def _heading(c: Canvas, ctx: BuildContext, where: Where, outline: str, heading: str) -> tuple[float, float, float]:
    """A first page's bookmark (the catalogue's `outline`), the PDF's title and the page's
    `heading`; returns the text's left edge, width and the baseline under the heading."""
    c.bookmarkPage("counters-calibration")
    c.addOutlineEntry(ctx.words(outline), "counters-calibration", 0)
    left = mm(geo.MARGIN_SIDE_MM + 6)
    width = where.paper.width - 2 * left
    c.setFillColor(INK)
    top = where.paper.height - mm(22)
    bold = edition_faces(ctx.words.lang).bold
    c.setFont(bold, PAGE.title)
    c.drawString(left, top, ellipsise(title(ctx), bold, PAGE.title, width))
    c.setFont(bold, PAGE.head)
    c.drawString(left, top - PAGE.head * 1.6, ellipsise(ctx.words(heading), bold, PAGE.head, width))
    return left, width, top - PAGE.head * 1.6 - PAGE.body * 2


def paragraphs(c: Canvas, words: Words, x: float, y: float, width: float, texts: Sequence[str],
               size: float = PAGE.body, *, condensed: bool = False) -> float:
    """Left-aligned wrapped paragraphs from baseline `y` down, in the edition's body face (or its
    condensed one), a number kept with its unit or count as the aid keeps it ("1.5 mm");
    returns the next paragraph's baseline."""
    face_set = edition_faces(words.lang)
    font = face_set.condensed if condensed else face_set.body
    lead = size * LEAD
    c.setFont(font, size)
    for text in texts:
        for line in wrapped(tie_numbers(text), font, size, width, phrases=False):
            c.drawString(x, y, ellipsise(line, font, size, width))
            y -= lead
        y -= lead / 3
    return y


@functools.lru_cache(maxsize=512)
def wrapped(text: str, font: str, size: float, width: float, *, phrases: bool = True) -> tuple[str, ...]:
    """`text` wrapped to `width` points in the registered `font` at `size` (whole on one line
    where a word alone is wider).  Kept, as a name always means the same font file: a sheet's
    contents wrap alike on its front and back, and a rebuild (serve, the tests) wraps the same
    words at the same widths again.  Japanese prose breaks wherever kinsoku allows, so its lines
    fill the measure (`phrases` False); a sheet's heading at the end of a phrase."""
    lines = fl.wrap(text, width, lambda t, _s, pt: stringWidth(t, font, pt), "body", size, phrases=phrases)
    return tuple(lines) if lines is not None else (text,)


def _offset(ctx: BuildContext) -> tuple[float, float]:
    ox, oy = (float(v) for v in ctx.options.back_offset_mm)
    return ox, oy


def _reading(mm_value: float) -> Decimal:
    """A length in mm as prose prints it ('1.5', '0'), a number the catalogue writes in the
    edition's convention ('1,5 mm'); the figures of a back offset to set stay the option's own."""
    return Decimal(f"{mm_value:g}")


# ---- the duplex calibration pair --------------------------------------------------------------

def calibration_pair(c: Canvas, ctx: BuildContext, where: Where) -> None:
    """Pages 1 and 2: the front, with the manifest under the cross, and the back's scale."""
    words = ctx.words
    left, width, y = _heading(c, ctx, where, "calibration.outline.front", "calibration.heading")
    cal = geo.calibration(where.grid)
    paragraphs(c, words, left, y, width, [words("calibration.step.1", mm=geo.BAR_MM, inches=geo.BAR_IN)])
    _cross(c, cal.front, cal, words, labelled=False)
    x_text = cal.front[0] + cal.scale + mm(10)
    text_end = paragraphs(c, words, x_text, cal.front[1] + cal.scale + mm(2), where.paper.width - x_text - left, [
        words("calibration.step.2"), words("calibration.step.3"),
        words("calibration.step.4", bleed=_reading(float(where.grid.bleed_mm))),
        words("calibration.step.5")])
    below = min(text_end, cal.front[1] - cal.scale - mm(6))    # under the cross and the steps
    _manifest_and_key(c, ctx, where, left, below - mm(4), width)
    bars(c, where.grid, words)
    draw_footer(c, ctx, where.paper, 1, where.pages, part="page.footer.part.counters")
    c.showPage()
    _calibration_back(c, ctx, where)
    c.showPage()


def _calibration_back(c: Canvas, ctx: BuildContext, where: Where) -> None:
    words = ctx.words
    c.bookmarkPage("counters-calibration-back")
    c.addOutlineEntry(words("calibration.outline.back"), "counters-calibration-back", 1)
    cal = geo.calibration(where.grid)
    _cross(c, cal.back, cal, words, labelled=True)
    c.setFillColor(INK)
    left = mm(geo.MARGIN_SIDE_MM + 6)
    top = where.paper.height - mm(22)
    bold = edition_faces(words.lang).bold
    c.setFont(bold, PAGE.head)
    c.drawString(left, top, ellipsise(words("calibration.back.heading"), bold, PAGE.head, where.paper.width - 2 * left))
    ox, oy = _offset(ctx)
    # the backs' shift is said only where there is one: "shifted by 0 mm" tells a player nothing
    shift = [words("calibration.back.shift", x=_reading(ox), y=_reading(oy))] if (ox, oy) != (0, 0) else []
    paragraphs(c, words, left, top - PAGE.head * 1.8, where.paper.width - 2 * left, [
        words("calibration.back.read", bleed=_reading(float(where.grid.bleed_mm))), *shift])
    bars(c, where.grid, words)
    draw_footer(c, ctx, where.paper, 2, where.pages, part="page.footer.part.counters")


def _cross(c: Canvas, point: tuple[float, float], cal: geo.Calibration, words: Words, *, labelled: bool) -> None:
    """A cross through `point` with a mm scale along both arms; `labelled`: every 5 mm, in `words`."""
    x, y = point
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(0.3)
    reach = cal.scale + mm(4)
    c.line(x - reach, y, x + reach, y)
    c.line(x, y - reach, x, y + reach)
    c.setFont(edition_faces(words.lang).condensed, SCALE_TYPE)
    c.setFillColor(INK)
    for i in range(-geo.CAL_SCALE_MM, geo.CAL_SCALE_MM + 1):
        if i == 0:
            continue
        d = i * cal.step
        t = mm(2) if i % 5 == 0 else mm(1)
        c.line(x + d, y - t / 2, x + d, y + t / 2)
        c.line(x - t / 2, y + d, x + t / 2, y + d)
        if labelled and i % 5 == 0:
            label = f"{i:+d}".replace("-", "\u2212")
            # x labels above the axis, y labels left of it: the two sets never meet
            c.drawCentredString(x + d, y + mm(1.5), label)
            c.drawRightString(x - mm(1.5), y + d - SCALE_TYPE / 3, label)
    if labelled:
        c.drawString(x + reach + mm(1), y - SCALE_TYPE / 3, words("calibration.cross.right"))
        c.drawCentredString(x, y + reach + mm(1), words("calibration.cross.up"))
    c.circle(x, y, mm(1), stroke=1, fill=0)
    c.restoreState()


# ---- fold and glue ------------------------------------------------------------------------------

def fold_instructions(c: Canvas, ctx: BuildContext, where: Where) -> None:
    """Page 1 of fold sheets: print single-sided, fold, glue, cut; then the manifest and the bars."""
    words = ctx.words
    left, width, y = _heading(c, ctx, where, "fold.outline", "fold.heading")
    end = paragraphs(c, words, left, y, width, [
        words("fold.step.1", mm=geo.BAR_MM, inches=geo.BAR_IN), words("fold.step.2"), words("fold.step.3"),
        words("fold.step.4"), words("fold.step.5")])
    _manifest_and_key(c, ctx, where, left, end - mm(4), width)
    bars(c, where.grid, words)
    draw_footer(c, ctx, where.paper, 1, where.pages, part="page.footer.part.counters")


# ---- the print shop's cover ---------------------------------------------------------------------

def shop_cover(c: Canvas, ctx: BuildContext, where: Where, contents: Sequence[str]) -> None:
    """The COVER_PAGES for a print shop: what each cut sheet holds and on which pages, then the
    manifest; the first pages of its counters, or (a shop that die-cuts) a file of their own."""
    face_set = edition_faces(ctx.words.lang)
    words = ctx.words
    left, width, y = _heading(c, ctx, where, "cover.outline", "cover.heading")
    sheets = len(contents)
    first = geo.page_of_sheet(ctx.options, 1, "front") + 1
    intro = _cover_intro(ctx)
    prepress = ctx.options.profile.prepress
    y = paragraphs(c, words, left, y, width, [
        words(intro, sheets=sheets, first=first, size=_reading(round(float(ctx.options.counter_mm), 1)),
              bleed=_reading(round(float(where.grid.bleed_mm), 1)),
              trim_bleed=_reading(round(float(prepress.bleed_mm), 1) if prepress is not None else 0))])
    y -= PAGE.body
    for n, groups in enumerate(contents, start=1):
        if y < _floor(where.grid) + PAGE.body * 4:
            paragraphs(c, words, left, y, width, [words("cover.more", count=sheets - n + 1)])
            break
        c.setFont(face_set.bold, PAGE.body)
        label = words("cover.sheet", n=n, front=geo.page_of_sheet(ctx.options, n, "front") + 1,
                      back=geo.page_of_sheet(ctx.options, n, "back") + 1)
        c.drawString(left, y, label)
        indent = stringWidth(label, face_set.bold, PAGE.body) + PAGE.body
        y = paragraphs(c, words, left + indent, y, width - indent, [groups])
    colophon(c, ctx, left, _floor(where.grid) + PAGE.small * 0.2, width)
    bars(c, where.grid, words)
    draw_footer(c, ctx, where.paper, 1, where.pages, part="page.footer.part.counters")
    c.showPage()
    c.bookmarkPage("counters-manifest")
    c.addOutlineEntry(words("calibration.manifest.heading"), "counters-manifest", 1)
    _manifest_and_key(c, ctx, where, left, where.paper.height - mm(22), width, colophon_too=False)
    bars(c, where.grid, words)
    draw_footer(c, ctx, where.paper, 2, where.pages, part="page.footer.part.counters")
    c.showPage()


def _cover_intro(ctx: BuildContext) -> str:
    """The catalogue key of what the cover says of the sheets: where their cut lines are (on the
    fronts as CutContour and in the cut file, in the cut file alone, or cut by hand on the ticks)."""
    prepress = ctx.options.profile.prepress
    if prepress is not None and prepress.cut_contour:
        return "cover.intro"
    return "cover.intro.diecut" if ctx.options.profile.cut_files else "cover.intro.hand"


# ---- the manifest, the faces' key and the colophon --------------------------------------------

def _manifest_and_key(c: Canvas, ctx: BuildContext, where: Where, left: float, top: float, width: float,
                      colophon_too: bool = True) -> None:
    """The manifest from `top` down, then the counter key (one of each face enlarged, and what
    each means in words) where room is left, and the colophon over the bars."""
    floor = _floor(where.grid) + (colophon_room(ctx, width) if colophon_too else 0)
    faces = _key_faces(ctx.words, where.groups)
    # as large as lets every face stand in one row, within KEY_SCALE; never the counters' own size
    scale = min(KEY_SCALE[1], max(KEY_SCALE[0], (width + KEY_GAP) / len(faces) / where.zone.size
                                  - KEY_GAP / where.zone.size))
    said = [entry.text for entry in counter_key(ctx)]
    rows = tally(where.groups)
    # The room the page leaves goes to the key's words (set at body size), the table's rows
    # (opened up to a leading of 1.6) and a gap above the key, so no band of blank paper is left.
    def key_height(size: float) -> float:
        return _key_height(ctx, where, scale, said, size, width)

    said_size = PAGE.small
    free = top - floor - _manifest_height(ctx, width, len(rows), 1.25) - key_height(said_size)
    if free - (key_height(PAGE.body) - key_height(said_size)) > 0:
        free -= key_height(PAGE.body) - key_height(said_size)
        said_size = PAGE.body
    lead = 1.25 + max(0.0, min(0.35, free / 2 / ((len(rows) + 2) * PAGE.body)))
    gap = max(0.0, min(mm(8), (free - (lead - 1.25) * (len(rows) + 2) * PAGE.body) / 2))
    height = key_height(said_size)
    y = _manifest(c, ctx, left, top, width, rows, floor + height + gap, lead) - gap
    if y - height >= floor:
        below = _faces_key(c, ctx, where, (left, y - mm(2), width), faces, scale)
        paragraphs(c, ctx.words, left, below, width, said, size=said_size)
    if colophon_too:
        colophon(c, ctx, left, _floor(where.grid) + PAGE.small * 0.2, width)


def _paragraphs_height(texts: Sequence[str], font: str, size: float, width: float) -> float:
    """How far `paragraphs` moves down for `texts` at `size`."""
    lead = size * LEAD
    return sum(len(wrapped(text, font, size, width, phrases=False)) for text in texts) * lead + len(texts) * lead / 3


def _key_height(ctx: BuildContext, where: Where, scale: float, said: Sequence[str], size: float,
                width: float) -> float:
    """The counter key's height: its heading, the faces enlarged by `scale`, their words at `size`."""
    body = edition_faces(ctx.words.lang).body
    # as _faces_key lays it out: a gap, the heading, the faces, their captions, then the words
    return mm(7) + PAGE.head * 0.6 + where.zone.size * scale + PAGE.small * 3 \
        + _paragraphs_height(said, body, size, width)


def _manifest_height(ctx: BuildContext, width: float, rows: int, lead: float) -> float:
    """How far _manifest moves down for `rows` nationalities at body size, rows `lead` apart."""
    small = _paragraphs_height(_manifest_text(ctx), edition_faces(ctx.words.lang).body, PAGE.small, width)
    return PAGE.head * 1.4 + small + 4 + (rows + 2) * PAGE.body * lead


def _manifest_text(ctx: BuildContext) -> list[str]:
    """The manifest's paragraphs: what a set is, what fills the last sheet, the weapon markers."""
    words, r = ctx.words, ctx.kit.rules
    sets = ctx.options.sets
    what = [words.count("calibration.manifest.sets", r.crew.size,
                        sets=words.count("calibration.manifest.set_count", sets))]
    what += [words("calibration.manifest.fill")] if ctx.options.fill else []
    what += [words("calibration.manifest.weapons")]
    return [words.sentences(what), words("calibration.manifest.emblems")]


def _manifest(c: Canvas, ctx: BuildContext, left: float, top: float, width: float, rows: Tally,
              floor: float, lead: float = 1.25) -> float:
    """The manifest's heading, paragraphs and table from `top` down; returns where it ends."""
    face_set = edition_faces(ctx.words.lang)
    words = ctx.words
    c.setFillColor(INK)
    c.setFont(face_set.bold, PAGE.head)
    c.drawString(left, top, words("calibration.manifest.heading"))
    y = paragraphs(c, words, left, top - PAGE.head * 1.4, width, _manifest_text(ctx), size=PAGE.small)
    heads = ["nationality", *KINDS, "total"]
    headers: list[object] = [words(f"calibration.manifest.head.{k}") for k in heads]
    # the names' column as wide as its longest entry, the figures' columns sharing the rest
    names = [str(headers[0]), words("calibration.manifest.all"), *(nat.name for nat, _ in rows)]
    name_w = min(width / 3, max(stringWidth(name, face_set.condensed_bold, PAGE.body) for name in names)
                 + PAGE.body * 1.6 + mm(4))
    col_w = min(mm(28), (width - name_w) / (len(headers) - 1))
    totals = {k: sum(counts[k] for _, counts in rows) for k in KINDS}
    # Rows shrink (body down to 6 pt) to stay above `floor`; past that, the rest are summed up.
    size = PAGE.body
    while size > 6 and (len(rows) + 2) * size * lead > y - 4 - floor:
        size -= 0.5
    pitch = size * lead
    room = max(0, int((y - 4 - floor) // pitch) - 2)
    shown = rows if len(rows) <= room else rows[:max(0, room - 1)]
    y -= 4
    _row(c, left, y, name_w, col_w, headers, face_set.condensed_bold, size)
    for nat, counts in shown:
        y -= pitch
        side = size * 1.1       # the emblem, as a legend, before the name
        for shape in fl.emblem(nat.emblem, (left, y - size * 0.2, side, side)):
            draw_shape(c, shape, paint(nat, ctx.options.bw)[2](shape.colour))
        c.setFillColor(INK)
        _row(c, left + side * 1.4, y, name_w - side * 1.4, col_w,
             [nat.name, *(counts[k] for k in KINDS), sum(counts.values())], face_set.condensed, size)
    if len(shown) < len(rows):
        y -= pitch
        _row(c, left, y, name_w, col_w, [words("calibration.manifest.more", count=len(rows) - len(shown))],
             face_set.condensed, size)
    y -= pitch
    _row(c, left, y, name_w, col_w, [words("calibration.manifest.all"), *(totals[k] for k in KINDS),
                                     sum(totals.values())], face_set.condensed_bold, size)
    return y - pitch


def _row(c: Canvas, x: float, y: float, name_w: float, col_w: float, cells: Sequence[object], font: str,
         size: float) -> None:
    c.setFont(font, size)
    c.drawString(x, y, ellipsise(str(cells[0]), font, size, name_w - 4))
    for i, cell in enumerate(cells[1:], start=1):
        # A head longer than its column ("Marcadores") is set smaller, never into its neighbour.
        fit = max(min(size, size * (col_w - 2) / max(stringWidth(str(cell), font, size), 1)), size * 0.75)
        c.setFont(font, fit)
        c.drawRightString(x + name_w + i * col_w, y, ellipsise(str(cell), font, fit, col_w - 2))
    c.setFont(font, size)


def _key_faces(words: Words, groups: Groups) -> list[tuple[Face, str]]:
    """One of each face of the first nationality, each with its caption: a counter of each kind,
    its front and back, or its one face where both are alike."""
    _, counters = groups[0]
    shown = []
    for kind in KINDS:
        counter = next((c for c in counters if c.kind == kind), None)
        if counter is None:
            continue
        name = kind_label(words, kind)
        if counter.front == counter.back:
            shown.append((counter.front, words("calibration.key.both", kind=name)))
        else:
            shown += [(counter.front, words("calibration.key.front", kind=name)),
                      (counter.back, words("calibration.key.back", kind=name))]
    return shown


def _faces_key(c: Canvas, ctx: BuildContext, where: Where, place: tuple[float, float, float],
               faces: Sequence[tuple[Face, str]], scale: float) -> float:
    """The counter key's heading and the faces of _key_faces enlarged by `scale`, each named under
    it, from `place` (left, top, width) down in one row: how to read a counter, shown before it is
    told.  Returns the baseline the key's words start on."""
    face_set = edition_faces(ctx.words.lang)
    left, top, width = place
    words = ctx.words
    nat = where.groups[0][0]
    size = where.zone.size * scale
    pitch = size + KEY_GAP
    per_row = max(1, int((width + KEY_GAP) // pitch))
    c.setFillColor(INK)
    c.setFont(face_set.bold, PAGE.head)
    c.drawString(left, top, heading(ctx))
    y = top - PAGE.head * 0.6 - mm(3) - size
    for i, (face, caption) in enumerate(faces[:per_row]):
        x = left + i * pitch
        c.saveState()
        c.translate(x, y)
        c.scale(scale, scale)
        draw_face(c, where.zone, where.fits, face, nat, ctx.options.bw, words)
        c.restoreState()
        c.setFillColor(INK)
        c.setFont(face_set.condensed, PAGE.small)
        c.drawCentredString(x + size / 2, y - mm(2) - PAGE.small,
                            ellipsise(caption, face_set.condensed, PAGE.small, pitch - 2))
    return y - mm(2) - PAGE.small * 3


def _colophon_texts(ctx: BuildContext) -> list[str]:
    """The credit of the type and the pictograms, as their licences ask (the icons: "Icons made
    by AUTHOR" and game-icons.net), then the colophon's line (the kit's title, version and
    edition stamp, the one place the counters print them), each a paragraph of its own."""
    authors = english_names(pictograms.authors())        # inside the English quotation of the credit
    return [ctx.words("colophon.text", authors=authors), colophon_text(ctx)]


def _colophon_lift(ctx: BuildContext, width: float) -> float:
    """From the colophon's last baseline up to its first."""
    font, lead = edition_faces(ctx.words.lang).condensed, PAGE.small * LEAD
    texts = _colophon_texts(ctx)
    lines = sum(len(wrapped(text, font, PAGE.small, width, phrases=False)) for text in texts)
    return (lines - 1) * lead + (len(texts) - 1) * lead / 3


def colophon_room(ctx: BuildContext, width: float) -> float:
    """How high the colophon stands over the bars' floor, with a line's room above it."""
    return _colophon_lift(ctx, width) + PAGE.small * 1.5


def colophon(c: Canvas, ctx: BuildContext, left: float, bottom: float, width: float) -> None:
    """The colophon (_colophon_texts), its last line's baseline at `bottom`."""
    c.setFillColor(INK)
    paragraphs(c, ctx.words, left, bottom + _colophon_lift(ctx, width), width, _colophon_texts(ctx),
               size=PAGE.small, condensed=True)
