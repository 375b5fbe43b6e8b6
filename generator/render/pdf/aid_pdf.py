"""The player-aid sheet as a PDF: the aid's Markdown (content/aid.py) -> flowables -> at most
one duplex sheet.

The Markdown walk escapes all text again for reportlab, so nothing in it is parsed as markup.  Page 1 puts the
title and the flowchart across the page, then two columns; page 2 likewise (the template's
`---` lines make the cuts).  Body text is the largest of 9, 8.5 and 8 pt that fits two pages
(on Letter, of 8.5 and 8: LARGEST); past that is a RenderError, never a third page.  Colours:
the theme's palette (render/theme.py).
"""

import io
from collections.abc import Callable
from typing import Any, NamedTuple
from xml.etree.ElementTree import Element

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    ActionFlowable,
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    PTOContainer,
    Spacer,
)
from reportlab.platypus.doctemplate import LayoutError

from generator.content.aid import template_file
from generator.content.context import BuildContext
from generator.content.counter_key import heading
from generator.content.marks import CHANGED
from generator.errors import RenderError
from generator.layout.paper import Paper
from generator.render import theme
from generator.render.pdf import chart_pdf as flowchart
from generator.render.pdf import key_pdf
from generator.render.pdf.canvas import (
    Pdf,
    colophon_text,
    colour,
    document_info,
    draw_footer,
    edition_faces,
    escape,
    fill,
    fits_one_line,
    footer_baseline,
    register_fonts,
    set_document_info,
    set_metadata,
)
from generator.render.pdf.glyphs import check_printable, check_template_text
from generator.render.pdf.markdown_pdf import (
    ContinuedHeading,
    Converter,
    FitTable,
    RuledHeading,
    Styles,
    make_styles,
)
from generator.render.pdf.pdf_join import tag_subsets

MAX_PAGES = 2
COLOPHON_SIZE = 7.0     # the colophon's line, as the footer's
BODY_SIZES = (9.0, 8.5, 8.0)    # largest that fits two pages; the floor: body >= 8 pt, tables >= 7 pt
# The largest body size a paper's aid is set in: Letter's page is 6% shorter than A4's, and its
# aid (the counter key closing page 2) starts half a point smaller, so every edition, the longest
# and the shortest, has one type size on a paper.
LARGEST = {"letter": 8.5}
MARGIN, COLUMN_GAP, FOOTER = 28.0, 16.0, 32.0    # FOOTER: the frames' bottom edge
MIN_COLUMN = 24.0                # shorter columns under a full-width part are left out


class AidDocument(NamedTuple):
    """The aid's Markdown parsed for the PDF, the same for every paper: each paper's PDF restyles
    and lays out this one tree."""
    converter: Converter
    root: Element


def parse(ctx: BuildContext, text: str) -> AidDocument:
    """The aid's Markdown `text` (content/aid.py) checked for the font's letters and parsed."""
    face_set = edition_faces(ctx.words.lang)
    register_fonts(face_set, italics=True)
    check_printable(ctx.kit, face_set=face_set)
    check_template_text(text, ctx.templates, face_set)      # the template's own words, the font's letters
    converter = _converter(ctx)
    return AidDocument(converter, converter.parse(text))


def render(ctx: BuildContext, paper: Paper, document: AidDocument) -> Pdf:
    """The aid on `paper`: the largest body size at which `document` fits MAX_PAGES pages."""
    converter, root = document
    # each size with the short lists kept whole, then, before a smaller size, without
    largest = LARGEST.get(paper.key, BODY_SIZES[0])
    for size, keep in ((size, keep) for size in BODY_SIZES if size <= largest for keep in (True, False)):
        styles = _styles(ctx, size)
        for arranged in _arrangements(converter.restyled(root, styles, keep), _counter_key(ctx, styles)):
            try:
                return _build(ctx, paper, arranged)
            except _TooLong:
                continue
    raise RenderError(f"{template_file(ctx)}: the player aid does not fit {MAX_PAGES} pages of {paper.label} "
                      f"even at {BODY_SIZES[-1]} pt; shorten the template's text or the long sentences in "
                      f"{ctx.kit.directory / 'rules.toml'} (or a long name in {ctx.kit.directory / 'nationalities'})")


class Movable(KeepTogether):
    """A block the template places on page 2 that closes page 1's columns instead where it fits
    there (the template's `<div class="page-one-if-room">`): a shorter edition's page 1 ends
    full, not a fifth blank, and its page 2 has the room."""


def _arrangements(body: list[Flowable], key: list[Flowable]) -> list[list[Flowable]]:
    """The ways to lay out the aid's `body` and its counter `key`, the most even first (each a
    new list: a build rearranges the one it is given):
    - its Movable blocks at the end of page 1's columns, and on page 2, with that room, the key
      closing the first column and the notes the second, so the two end nearly level;
    - its Movable blocks at the end of page 1's columns, the key closing page 2;
    - as written, the key closing page 2."""
    story = [*body, *key]
    cuts = [i for i, f in enumerate(body) if isinstance(f, type(FrameBreak))]
    movable = [f for f in body if isinstance(f, Movable)]
    if not movable or len(cuts) < 2 or any(body.index(f) < cuts[1] for f in movable):
        return [story]
    rest = [f for f in body if not isinstance(f, Movable)]
    page_one_end = cuts[1]
    risen = rest[:page_one_end] + movable + rest[page_one_end:]
    arranged = [risen + key, story]
    notes = next((i for i, f in enumerate(risen) if isinstance(f, PTOContainer)), None)
    if notes is not None:
        # the key, then a column break (an action: the template's cuts are FrameBreaks)
        arranged.insert(0, risen[:notes] + key + [ActionFlowable(("frameEnd",))] + risen[notes:])
    return arranged


def _counter_key(ctx: BuildContext, styles: Styles) -> list[Flowable]:
    """The counter key, closing page 2's columns: what each face means, said once (key_pdf.py)."""
    title = heading(ctx)
    return key_pdf.flowables(ctx, RuledHeading(escape(title), styles.h2, "aid-key", title, 0,
                                               colour=styles.rule_colour), styles.cell)


def _colophon(canvas: Any, ctx: BuildContext, paper: Paper) -> None:
    """The colophon's line, the kit's version and the edition stamp, the one place the aid prints
    them: at the last page's foot, a line above the footer, below the columns."""
    fits_one_line(ctx, paper, colophon_text(ctx), COLOPHON_SIZE, "colophon")
    canvas.saveState()
    canvas.setFont(edition_faces(ctx.words.lang).body, COLOPHON_SIZE)
    canvas.setFillGray(theme.FOOTER_LEVEL)
    canvas.drawCentredString(paper.width / 2, footer_baseline(COLOPHON_SIZE) + COLOPHON_SIZE * 1.3,
                             colophon_text(ctx))
    canvas.restoreState()


class _TooLong(Exception):
    """The aid does not fit its pages at this size."""


# -- the pages ------------------------------------------------------------------------------

def _styles(ctx: BuildContext, size: float) -> Styles:
    colours = theme.palette(ctx.options.bw)
    return make_styles(size, edition_faces(ctx.words.lang), accent=colour(colours.accent), head_fill=fill(colours.head))


def _converter(ctx: BuildContext) -> Converter:
    """A Markdown walker for the aid; its styles are set per size tried (see _build)."""
    colours = theme.palette(ctx.options.bw)
    # a press prints the rule tabs' reversed small type out of one solid ink (theme.PRESS_REVERSED_GROUND)
    tab = colour(theme.PRESS_REVERSED_GROUND) if ctx.options.profile.cmyk else None

    def chart(el: Element, converter: Converter) -> Flowable:
        return flowchart.from_element(el, converter, accent=converter.styles.rule_colour,
                                      fill=fill(colours.box), head_fill=fill(colours.head),
                                      source=template_file(ctx), tab=tab)

    def changes(el: Element, converter: Converter) -> Flowable:
        # Table-cell type, a little air between rule numbers: the list is dense by nature.
        style = ParagraphStyle("changes", converter.styles.cell, spaceAfter=converter.styles.cell.fontSize * 0.35)
        return ChangesBox(converter.blocks(el, style), converter.styles.rule_colour, fill(colours.box))

    def keep(el: Element, converter: Converter) -> Flowable:
        # A block that never splits across columns: the interpretation notes stay under their
        # heading, so no note reads as the rule text beside it.
        return KeepTogether(converter.blocks(el))

    def notes(el: Element, converter: Converter) -> Flowable:
        # Notes that run on into the next column go on under their heading again: a note with no
        # heading above it reads as the rule text beside it.
        title = "".join(next(el.iter("h2")).itertext()) if el.find("h2") is not None else ""
        again = ContinuedHeading(escape(ctx.words("aid.notes.continued", heading=title)), converter.styles.h2,
                                 colour=converter.styles.rule_colour)
        return PTOContainer([Whole(f) if isinstance(f, Paragraph) else f for f in converter.blocks(el)],
                            header=[again])

    def movable(el: Element, converter: Converter) -> Flowable:
        return Movable(converter.blocks(el))

    handlers: dict[str, Callable[[Element, Converter], Flowable]] = {"flowchart": chart, "keep": keep,
                                                                      "notes": notes, "page-one-if-room": movable}
    if ctx.changes is None:      # the aid as it always was: no marks to look for
        return Converter(None, handlers, prefix="aid")
    return Converter(None, {**handlers, "changes": changes}, prefix="aid", bars=ChangeBars())


class Whole(Flowable):
    """A paragraph that never splits: a note moves whole to the next column."""

    def __init__(self, content: Flowable) -> None:
        super().__init__()
        self.content = content

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = self.content.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return float(self.content.getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.content.getSpaceAfter())

    def getKeepWithNext(self) -> bool:
        return bool(self.content.getKeepWithNext())

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return []

    def draw(self) -> None:
        self.content.drawOn(self.canv, 0, 0)


class ChangeBars:
    """Change bars in the page margin, outside the text column: the left margin beside the left
    column (and the full-width parts), the right margin beside the right column."""
    marker = CHANGED
    WIDTH, GAP = 2.5, 5.0       # the bar, and its distance from the text column

    def draw(self, canv: Any, y: float, height: float) -> None:
        """A bar from `y` to `y + height` in the flowable's coordinates, beside its column."""
        ax, _ = canv.absolutePosition(0, 0)
        page_width = canv._pagesize[0]
        x = MARGIN - self.GAP - self.WIDTH if ax < page_width / 2 else page_width - MARGIN + self.GAP
        canv.saveState()
        canv.setFillGray(theme.MARK_LEVEL)        # pure K: one plate
        canv.rect(x - ax, y, self.WIDTH, height, stroke=0, fill=1)
        canv.restoreState()


def _changes_notice(canvas: Any, paper: Paper, text: str, font: str) -> None:
    """A line in the top margin of each page: what the bars mean, with a bar drawn as its key.
    In the margin, so the sheet's text keeps its place (page 1 has no line to spare)."""
    y = paper.height - 21
    canvas.saveState()
    canvas.setFillGray(theme.MARK_LEVEL)
    canvas.rect(MARGIN - ChangeBars.GAP - ChangeBars.WIDTH, y - 2, ChangeBars.WIDTH, 9, stroke=0, fill=1)
    canvas.setFont(font, 7.5)
    canvas.drawString(MARGIN, y, text)
    canvas.restoreState()


class ChangesBox(Flowable):
    """The "Changes since" box: its content inside a heavy rule, on a light fill."""
    PAD = 5.0

    def __init__(self, content: list[Flowable], rule_colour: Any, fill: Any) -> None:
        super().__init__()
        self.content, self.rule_colour, self.fill = content, rule_colour, fill
        self.spaceAfter = 8

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        inner = availWidth - 2 * self.PAD
        self._sizes = [f.wrapOn(self.canv, inner, availHeight)[1] for f in self.content]
        body = sum(self._sizes) + sum(f.getSpaceAfter() for f in self.content[:-1])
        self.width, self.height = availWidth, body + 2 * self.PAD
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        """Two boxes, the second continuing in the next column, cut between paragraphs."""
        room = availHeight - 2 * self.PAD
        used, cut = 0.0, 0
        for f in self.content:
            _, h = f.wrapOn(self.canv, availWidth - 2 * self.PAD, availHeight)
            if used + h > room:
                break
            used += h + f.getSpaceAfter()
            cut += 1
        if cut < 2:         # not even the title and one rule: move the whole box on
            return []
        return [ChangesBox(self.content[:cut], self.rule_colour, self.fill),
                ChangesBox(self.content[cut:], self.rule_colour, self.fill)]

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        if self.fill is not None:
            c.setFillColor(self.fill)
            c.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        c.setStrokeColor(self.rule_colour)
        c.setLineWidth(1.6)
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        c.restoreState()
        y = self.height - self.PAD
        for f, h in zip(self.content, self._sizes, strict=True):
            y -= h
            f.drawOn(c, self.PAD, y)
            y -= f.getSpaceAfter()


def _build(ctx: BuildContext, paper: Paper, story: list[Flowable], precheck: bool = True) -> Pdf:
    """The PDF's bytes for the aid's flowables `story` (at one body size), or _TooLong.

    The template's `---` rules cut the story into: page 1 across the page | page 1 in two
    columns | page 2 across the page | page 2 in two columns.  A size that cannot fit is refused
    as early as can be: before drawing when a full-width part is taller than its page or the
    columns' text cannot fit its columns even packed without gaps (`_may_fit`), and while
    drawing when page 2 begins with page 1's text still to place, or a page past the last begins.
    """
    cuts = [i for i, f in enumerate(story) if isinstance(f, type(FrameBreak))]
    if len(cuts) != 3:
        raise RenderError(f"{template_file(ctx)}: needs exactly three '---' lines (page 1 head | columns | "
                          f"page 2 head | columns); found {len(cuts)}")
    page_one_done = _Mark()      # reached when page 1's text has all found room on page 1
    story[cuts[1]:cuts[1] + 1] = [page_one_done, PageBreak()]
    cuts[2] += 1
    templates = _frames(story, cuts, paper, precheck)
    total = MAX_PAGES if any(not isinstance(f, Spacer) for f in story[cuts[1] + 2:]) else 1
    title, subject, info = _title(ctx), _subject(ctx), document_info(ctx)
    since = ctx.changes
    notice = ctx.words("aid.since.notice", label=since.label) if since is not None and since.groups else None

    def on_page(canvas: Any, doc: BaseDocTemplate) -> None:
        page = canvas.getPageNumber()
        if page > total or (page == 2 and not page_one_done.drawn):
            raise _TooLong()
        if page == 1:
            set_metadata(canvas, title, subject)
            set_document_info(canvas, info)
        draw_footer(canvas, ctx, paper, page, total, margin=24, part="page.footer.part.aid")
        if page == total:
            _colophon(canvas, ctx, paper)
        if notice is not None:
            _changes_notice(canvas, paper, notice, edition_faces(ctx.words.lang).bold)

    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=(paper.width, paper.height), invariant=1, pageCompression=1,
                          title=title, subject=subject, author=info.author, creator=info.creator,
                          initialFontName=edition_faces(ctx.words.lang).body, leftMargin=MARGIN,
                          rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=FOOTER)
    doc.addPageTemplates([
        PageTemplate("page1", templates[0], onPage=on_page, autoNextPageTemplate="page2"),
        # A page past the last (only while trying a size) reuses page 2's frames, then stops.
        PageTemplate("page2", templates[1], onPage=on_page, autoNextPageTemplate="page2"),
    ])
    try:
        doc.build(story)
    except LayoutError as error:
        raise RenderError(f"{template_file(ctx)}: cannot lay out the player aid on {paper.label}: {error}") from None
    return Pdf(tag_subsets(buffer.getvalue()), doc.page)


def _frames(story: list[Flowable], cuts: list[int], paper: Paper, precheck: bool) -> list[list[Frame]]:
    """Each page's frames: its full-width head as tall as its part of `story`, then two columns
    below it (none when too little room is left); _TooLong where a head cannot fit its page or,
    with `precheck`, the columns' text surely cannot fit its columns.  A page with no head gets a
    zero spacer for its cut, so its columns start at the top."""
    width = paper.width - 2 * MARGIN
    height = paper.height - MARGIN - FOOTER
    top = paper.height - MARGIN
    col_w = (width - COLUMN_GAP) / 2
    templates: list[list[Frame]] = []
    for page, (start, end, stop) in enumerate(((0, cuts[0], cuts[1]), (cuts[1] + 2, cuts[2], len(story))), 1):
        head_h = _stack_height(story[start:end], width, height)
        if head_h > height:
            raise _TooLong()
        frames = [Frame(MARGIN, top - head_h, width, head_h, id=f"p{page}head", **NO_PAD)] if head_h else []
        if not head_h:
            story[end] = Spacer(0, 0)       # no full-width part: the columns start at the top
        col_top = top - head_h - (COLUMN_GAP / 2 if head_h else 0)
        columns = 2 if col_top - FOOTER > MIN_COLUMN else 0
        frames += [Frame(MARGIN + i * (col_w + COLUMN_GAP), FOOTER, col_w, col_top - FOOTER,
                         id=f"p{page}col{i}", **NO_PAD) for i in range(columns)]
        if precheck and not _may_fit(story[end + 1:stop], col_w, col_top - FOOTER, columns):
            raise _TooLong()
        templates.append(frames)
    return templates


class _Mark(ActionFlowable):
    """A mark in the story that remembers being reached on page 1: every flowable before it then
    found room there.  An action, not a spacer: it needs no room, so a column filled to its foot
    (its last table's space after included) still counts as done."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn = False

    def apply(self, doc: BaseDocTemplate) -> None:
        self.drawn = self.drawn or doc.page == 1


NO_PAD = {"leftPadding": 0, "rightPadding": 0, "topPadding": 0, "bottomPadding": 0}


def _may_fit(flowables: list[Flowable], width: float, height: float, columns: int) -> bool:
    """False when `flowables` surely overflow `columns` frames of width x height.

    A lower bound on the room they need: no gaps between them, and every flowable that can
    split (all but a short table, which moves whole) split exactly at the frame's foot.  The
    real layout needs at least this much, so False is never wrong; True only allows a try.
    """
    canvas = Canvas(io.BytesIO())
    column, room = 1, height
    for f in flowables:
        whole = isinstance(f, FitTable) and not f.splits()
        if isinstance(f, KeepTogether):     # its wrap() reports a huge height to force a split
            h = sum(part.wrapOn(canvas, width, height)[1] for part in f._content)
            whole = h <= height
        else:
            _, h = f.wrapOn(canvas, width, height)
        if h <= room:
            room -= h
        elif whole:
            column, room = column + 1, height - h
        else:
            column, room = column + 1 + int((h - room) // height), height - (h - room) % height
        if column > columns or room < 0:
            return not flowables if columns == 0 else False
    return True


def _stack_height(flowables: list[Flowable], width: float, height: float) -> float:
    """The height `flowables` take stacked in a frame `width` wide (0 for none)."""
    canvas = Canvas(io.BytesIO())        # a scratch canvas: some flowables measure on one
    total = 0.0
    for i, f in enumerate(flowables):
        _, h = f.wrapOn(canvas, width, height)
        total += h + (f.getSpaceBefore() if i else 0)
        if i + 1 < len(flowables):
            total += f.getSpaceAfter()
    return total + 2 if flowables else 0.0      # slack: the last of these must never be pushed over


def _title(ctx: BuildContext) -> str:
    r = ctx.kit.rules
    return ctx.words("aid.title", number=r.number, title=r.title)


def _subject(ctx: BuildContext) -> str:
    r = ctx.kit.rules
    return ctx.words("aid.subject", number=r.number, game=r.game, credit=r.credit)
