"""Markdown -> reportlab flowables, by walking Python-Markdown's element tree.

One handler per element type (h1-h3, p, ul/ol, table, hr, div); inline markup (strong, em,
code, br) becomes Paragraph markup with every piece of text escaped, so nothing in the source
is ever parsed as reportlab markup.  Raw HTML is never interpreted: it prints as the text it is,
except a literal `<br>` (a line break inside a table cell).  `<div class="NAME" markdown="1">`
hands its element to `handlers[NAME]`, which returns one flowable (the flowchart uses this).
`---` is a frame break (the next column).  Headings become outline entries with keys
`{prefix}-{n}`, numbered in document order, so two builds give the same bookmarks.
With `bars`, a paragraph, list item or table row whose text holds `bars.marker` (the aid's
change mark) loses the mark and gets a change bar beside it, drawn by `bars.draw`.
"""

import html
import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol
from xml.etree.ElementTree import Element

import markdown
from markdown import util
from markdown.extensions.md_in_html import MarkdownInHtmlExtension
from markdown.extensions.tables import TableExtension
from msgspec import Struct
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    FrameBreak,
    KeepTogether,
    ListFlowable,
    ListItem,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from generator.render import theme
from generator.render.pdf.canvas import INK, LATIN, FaceSet, escape, grey, register_fonts
from generator.render.pdf.paragraphs import KitParagraph
from generator.text import has_wide, line_pieces

# Markdown's documented placeholder for stashed raw HTML (markdown.util reference); group 1 indexes
# md.htmlStash.rawHtmlBlocks.
_STASH = util.HTML_PLACEHOLDER_RE
_BREAKS = {"<br>", "<br/>", "<br />"}
KEEP_ROWS = 12      # tables this short are never split across columns
SHORT_LIST = 4      # items: a list this short never splits across columns
_ALIGN = re.compile(r"text-align:\s*(left|right|center)")


class Bars(Protocol):
    """Change bars: `marker` in a line's text asks for one; `draw` puts it beside the line."""
    marker: str

    def draw(self, canv: Any, y: float, height: float) -> None: ...


Handler = Callable[[Element, "Converter"], Flowable]    # a div class's flowable (the aid's flowchart)


GRID_COLOUR = grey(theme.GRID_LEVEL)     # the hairline under each table row


class Styles(Struct, frozen=True):
    """Paragraph styles for each element, and the colours tables use."""
    body: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    cell: ParagraphStyle
    head_cell: ParagraphStyle
    faces: FaceSet = LATIN      # the edition's faces (canvas.edition_faces)
    rule_colour: Any = INK      # heading rules, and the rules over a table and under its header
    head_fill: Any = None                # table header background; None for ink-saving
    grid_colour: Any = GRID_COLOUR


def make_styles(size: float, faces: FaceSet = LATIN, *, accent: Any = INK, head_fill: Any = None,
                table_size: float | None = None) -> Styles:
    """Styles for body text of `size` pt in `faces`, the theme's type scale around it: h1 its
    title, h2 its head, h3 the body in bold; tables in the condensed face at `table_size`
    (default: its small).  Lines break as the faces' script does (faces.word_wrap)."""
    register_fonts(faces, italics=True)        # the styles name the font and its bold/italic mapping
    scale = theme.PAGE_TYPE.at(size)
    table_size = round((table_size or scale.small) * faces.table_scale, 2)
    lead = round(size * 1.2, 2)
    wrap = {"wordWrap": faces.word_wrap} if faces.word_wrap else {}
    body = ParagraphStyle("body", fontName=faces.body, fontSize=size, leading=lead, spaceAfter=size * 0.4,
                          textColor=INK, splitLongWords=1, **wrap)
    h1 = ParagraphStyle("h1", body, fontName=faces.bold, fontSize=scale.title, leading=round(scale.title * 1.15, 2),
                        spaceAfter=1, textColor=accent)
    h2 = ParagraphStyle("h2", body, fontName=faces.bold, fontSize=scale.head, leading=round(scale.head * 1.15, 2),
                        spaceBefore=size * 0.5, spaceAfter=size * 0.35, textColor=accent, keepWithNext=1)
    h3 = ParagraphStyle("h3", h2, fontSize=size, leading=lead + 1, spaceBefore=size * 0.3)
    cell = ParagraphStyle("cell", body, fontName=faces.condensed, fontSize=table_size,
                          leading=round(table_size * 1.18, 2), spaceAfter=0)
    head = ParagraphStyle("head_cell", cell, fontName=faces.condensed_bold)
    return Styles(body, h1, h2, h3, cell, head, faces, accent, head_fill)


SHORT_WORD = 4      # a Japanese cell this short is a word or two ("生存", "平均"): never broken


def _unbroken(text: str) -> list[str]:
    """The pieces of a cell's text that no line breaks: its words (a no-break space, "33,3 %",
    holds), or as kinsoku breaks Japanese, but a short Japanese cell whole."""
    if has_wide(text) and len(text) <= SHORT_WORD:
        return [text]
    return [piece.lstrip(" ") for piece in line_pieces(text)] or [""]


class KeptParagraph(KitParagraph):
    """A Paragraph that keeps its last wrap: its lines depend on the width alone (reportlab's wrap
    reads no height), and the aid's layout asks most at one width two or three times (the
    fitting check, the frame, a table's rows)."""
    _kept_width: float | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        # split() drops blPara when it refuses to split (orphans, widows): then break again
        if self._kept_width == availWidth and hasattr(self, "blPara"):
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        self._kept_width = availWidth
        return size


class Heading(KeptParagraph):
    """A heading that adds itself to the PDF outline where it is drawn."""

    def __init__(self, markup: str, style: ParagraphStyle, key: str, title: str, level: int) -> None:
        super().__init__(markup, style)
        self.outline = (key, title, level)

    def draw(self) -> None:
        key, title, level = self.outline
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(title, key, level=level, closed=False)
        super().draw()


class RuledHeading(Heading):
    """A section heading with a thin rule under it, in the accent colour."""

    def __init__(self, markup: str, style: ParagraphStyle, key: str, title: str, level: int, *,
                 colour: Any = INK) -> None:
        super().__init__(markup, style, key, title, level)
        self.colour = colour

    def draw(self) -> None:
        super().draw()
        _rule_under(self.canv, self.width, self.colour)


class ContinuedHeading(KeptParagraph):
    """A section's heading again over its continuation in the next column, as RuledHeading draws
    it but with no outline entry: the section is bookmarked once, where it starts."""

    def __init__(self, markup: str, style: ParagraphStyle, *, colour: Any = INK) -> None:
        super().__init__(markup, style)
        self.colour = colour

    def draw(self) -> None:
        super().draw()
        _rule_under(self.canv, self.width, self.colour)


def _rule_under(canv: Any, width: float, colour: Any) -> None:
    """A heading's thin rule, just under its baseline, in the accent colour."""
    canv.saveState()
    canv.setStrokeColor(colour)
    canv.setLineWidth(0.6)
    canv.line(0, -1.5, width, -1.5)
    canv.restoreState()


class MarkedParagraph(KeptParagraph):
    """A paragraph with a change bar beside it (`bars.draw`); its split parts keep the bar."""
    bars: Bars | None = None

    def draw(self) -> None:
        super().draw()
        if self.bars is not None:
            self.bars.draw(self.canv, 0, self.height)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        parts = super().split(availWidth, availHeight)
        for part in parts:
            part.bars = self.bars
        return parts


class BarredTable(Flowable):
    """A reportlab Table with change bars beside rows `marked` (indices into its rows)."""

    def __init__(self, table: Table, marked: set[int], header_rows: int, bars: Bars) -> None:
        super().__init__()
        self.table, self.marked, self.header_rows, self.bars = table, marked, header_rows, bars

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = self.table.wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return barred_parts(self.table.split(availWidth, availHeight), self.marked, self.header_rows, self.bars)

    def draw(self) -> None:
        self.table.drawOn(self.canv, 0, 0)
        row_bars(self.canv, self.table, self.marked, self.height, self.bars)


def row_bars(canv: Any, table: Table, marked: set[int], height: float, bars: Bars) -> None:
    """A change bar beside each marked row of a drawn `table` whose top is at `height`."""
    top = height
    for i, h in enumerate(table._rowHeights):
        if i in marked:
            bars.draw(canv, top - h, h)
        top -= h


def barred_parts(parts: list[Table], marked: set[int], header_rows: int, bars: Bars) -> list[Flowable]:
    """The pieces of a split table, each with the marked rows it holds (a repeated head is not)."""
    out: list[Flowable] = []
    done = 0
    for n, part in enumerate(parts):
        rows = len(part._cellvalues)
        head = header_rows if n else 0          # the later pieces repeat the head rows
        local = {head + r - done for r in marked if done <= r < done + rows - head}
        if n == 0:
            local = {r for r in marked if r < rows}
        out.append(BarredTable(part, local, header_rows, bars))
        done += rows - head
    return out


class FitTable(Flowable):
    """A Table whose column widths are fitted to the frame it lands in (wrapping cells).

    Rows in `marked` get a change bar beside them (drawn by `bars`).
    """

    def __init__(self, rows: list[list[tuple[str, ParagraphStyle]]], aligns: list[str | None], styles: Styles,
                 header_rows: int = 1, marked: Iterable[int] = (), bars: Bars | None = None, *,
                 cells: dict[tuple[object, ...], Paragraph] | None = None, key: tuple[object, ...] = ()) -> None:
        super().__init__()
        self.rows, self.aligns, self.styles, self.header_rows = rows, aligns, styles, header_rows
        self.marked, self.bars = set(marked), bars
        # Its cells' paragraphs, kept by `key` (the table and its type size) and place: a table
        # laid out again, at another width or on another paper, wraps the same paragraphs anew
        # rather than parse their markup again.
        self._cells, self._key = cells if cells is not None else {}, key
        self._table: Table | None = None
        self._built_for: float | None = None
        self._measured: tuple[float, float, float] | None = None    # (width asked, width, height) measured whole
        self.spaceBefore, self.spaceAfter = 1, styles.body.spaceAfter + 2

    def _build(self, width: float) -> Table:
        ncol = max(len(r) for r in self.rows)
        natural, minimum = [0.0] * ncol, [0.0] * ncol
        pad = 6.0
        spans = _head_spans(self.rows[:self.header_rows])
        for r, row in enumerate(self.rows):
            for i, (text, style) in enumerate(row):
                if (r, i) in spans:         # a head over two columns: it wraps in their width together
                    continue
                words = _unbroken(text)
                line = max(stringWidth(t, style.fontName, style.fontSize) for t in text.split("\n"))
                natural[i] = max(natural[i], line + pad)
                longest = max(stringWidth(w, style.fontName, style.fontSize) for w in words)
                minimum[i] = max(minimum[i], min(longest, width / ncol) + pad)
        widths = _share(width, natural, minimum)
        cells = [[self._cell(r, i, text, style, spans) for i, (text, style) in enumerate(row)]
                 + [""] * (ncol - len(row)) for r, row in enumerate(self.rows)]
        s = self.styles
        commands = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("TEXTCOLOR", (0, 0), (-1, -1), INK),
                    ("FONT", (0, 0), (-1, -1), s.faces.body, s.cell.fontSize),
                    ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                    ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.35, s.grid_colour),
                    ("LINEABOVE", (0, 0), (-1, 0), 0.8, s.rule_colour)]
        commands += [("SPAN", (i, r), (i + 1, r)) for r, i in spans]
        if self.header_rows:
            commands.append(("LINEBELOW", (0, self.header_rows - 1), (-1, self.header_rows - 1), 0.8,
                             s.rule_colour))
            if s.head_fill is not None:
                commands.append(("BACKGROUND", (0, 0), (-1, self.header_rows - 1), s.head_fill))
        return Table(cells, colWidths=widths, repeatRows=self.header_rows, style=TableStyle(commands),
                     hAlign="LEFT")

    def _cell(self, r: int, i: int, text: str, style: ParagraphStyle, spans: set[tuple[int, int]]) -> Paragraph:
        key = (*self._key, r, i)
        if key not in self._cells:
            align = "center" if (r, i) in spans else self.aligns[i] if i < len(self.aligns) else None
            self._cells[key] = KeptParagraph(_cell_markup(text), _aligned(style, align))
        return self._cells[key]

    def _table_for(self, width: float) -> Table:
        if self._table is None or self._built_for != width:     # layout asks again and again at one width: build once
            self._table, self._built_for = self._build(width), width
        return self._table

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        # Measured whole at this width before (its height within the room it had), it measures
        # the same in any room it fits: reportlab stops measuring rows only once past the room.
        # The aid's layout asks at one width twice or more (the fitting check, the frame).
        if self._measured is not None and self._measured[0] == availWidth and self._measured[2] <= availHeight:
            _, width, height = self._measured
        else:
            width, height = self._table_for(availWidth).wrap(availWidth, availHeight)
            self._measured = (availWidth, width, height) if height <= availHeight else None
        self.width, self.height = width, height
        return width, height

    def splits(self) -> bool:
        return len(self.rows) > KEEP_ROWS       # a short table moves whole to the next column

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        if not self.splits():
            return []
        self._measured = None      # the table measures itself again for the split
        parts: list[Flowable] = self._table_for(availWidth).split(availWidth, availHeight)
        if self.marked and parts and self.bars is not None:
            return barred_parts(parts, self.marked, self.header_rows, self.bars)
        return parts

    def draw(self) -> None:
        assert self._table is not None, "a flowable is wrapped before it is drawn"
        self._table.drawOn(self.canv, 0, 0)
        if self.marked and self.bars is not None:
            row_bars(self.canv, self._table, self.marked, self.height, self.bars)


def _head_spans(head: list[list[tuple[str, ParagraphStyle]]]) -> set[tuple[int, int]]:
    """{(row, column)} of each head cell that spans the empty head cell after it: a head left
    empty joins the one before it (a fraction and its percentage under one head)."""
    return {(r, i) for r, row in enumerate(head) for i in range(len(row) - 1)
            if str(row[i][0]).strip() and not str(row[i + 1][0]).strip()}


def _share(width: float, natural: list[float], minimum: list[float]) -> list[float]:
    """Column widths summing to `width`: natural widths when they fit, else squeezed above minimums."""
    total = sum(natural)
    if total <= width:
        # A table is the width of its frame (its column, or the page): its edges line up with the
        # heading's rule above it and the text beside it.
        return [n * width / total for n in natural]
    if sum(minimum) >= width:
        return [m * width / sum(minimum) for m in minimum]
    # Cap the widest columns at one width C (never below a column's minimum), so narrow
    # columns keep their natural width and only the long ones wrap.
    low, high = 0.0, max(natural)
    for _ in range(50):
        cap = (low + high) / 2
        if sum(min(n, max(cap, m)) for n, m in zip(natural, minimum, strict=True)) > width:
            high = cap
        else:
            low = cap
    widths = [min(n, max(low, m)) for n, m in zip(natural, minimum, strict=True)]
    spare = width - sum(widths)
    return [w + spare / len(widths) for w in widths]


def _aligned(style: ParagraphStyle, align: str | None) -> ParagraphStyle:
    if align is None or align == "left":
        return style
    return ParagraphStyle(f"{style.name}-{align}", style, alignment={"right": TA_RIGHT, "center": TA_CENTER}[align])


def _cell_markup(text: str) -> str:
    # Cell text is kept as markup from the walk; the plain text only sized the columns.
    return text.markup if isinstance(text, _Cell) else escape(text)


class _Cell(str):
    """Plain cell text (for measuring) that also carries its Paragraph markup."""

    markup: str

    def __new__(cls, plain: str, markup: str) -> "_Cell":
        obj = super().__new__(cls, plain)
        obj.markup = markup
        return obj


class Converter:
    """Walks one Markdown document's element tree and returns flowables."""

    def __init__(self, styles: Styles | None, handlers: dict[str, Handler] | None = None, prefix: str = "md",
                 bars: Bars | None = None) -> None:
        self.styles = styles
        self.handlers = handlers or {}
        self.prefix = prefix
        self.bars = bars        # with bars.marker in a line's text: bars.draw(canvas, y, height) beside it
        # Instances, not names: a name is looked up among installed entry points (slow to import).
        self._md = markdown.Markdown(extensions=[TableExtension(), MarkdownInHtmlExtension()])
        self._headings = 0
        self._cells: dict[tuple[object, ...], Paragraph] = {}     # every table's cells (FitTable)
        self.keep_lists = True      # short lists whole under their heading (restyled can say no)

    @property
    def styles(self) -> Styles:
        assert self._styles is not None, "a converter made without styles is restyled before it walks"
        return self._styles

    @styles.setter
    def styles(self, styles: Styles | None) -> None:
        self._styles = styles

    def convert(self, text: str) -> list[Flowable]:
        return self.blocks(self.parse(text))

    def parse(self, text: str) -> Element:
        """Markdown `text` -> its element tree (kept by this converter: raw HTML stays in its stash)."""
        lines = text.split("\n")
        for pre in self._md.preprocessors:
            lines = pre.run(lines)
        root = self._md.parser.parseDocument(lines).getroot()
        for tree in self._md.treeprocessors:
            new = tree.run(root)
            root = root if new is None else new
        return root

    def restyled(self, root: Element, styles: Styles, keep_lists: bool = True) -> list[Flowable]:
        """Flowables for an already parsed `root` in other styles: one parse serves every size
        tried; `keep_lists` False lets a short list split too (where keeping it costs a size)."""
        self.styles, self._headings, self.keep_lists = styles, 0, keep_lists
        return self.blocks(root)

    # -- block elements -------------------------------------------------------------------

    def blocks(self, element: Element, style: ParagraphStyle | None = None) -> list[Flowable]:
        out: list[Flowable] = []
        for child in element:
            made = self.block(child, style)
            if made and isinstance(made[0], FitTable) and out and isinstance(out[-1], Paragraph):
                out[-1].keepWithNext = 1        # a table's lead-in sentence stays with it
            if self.keep_lists and style is None and child.tag in ("ul", "ol") \
                    and len(child.findall("li")) <= SHORT_LIST:
                # A short list stays in one column, under its heading: a bullet or two alone at
                # a column's top read as no one's (a longer list splits where it must)
                head = [out.pop()] if out and isinstance(out[-1], Heading) else []
                made = [KeepTogether([*head, *made])]
            out += made
        return out

    def block(self, el: Element, style: ParagraphStyle | None = None) -> list[Flowable]:
        tag = el.tag
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            return [self.heading(el)]
        if tag == "p":
            markup = self.inline(el)
            return [self.paragraph(markup, style or self.styles.body)] if self.unmarked(markup).strip() else []
        if tag in ("ul", "ol"):
            return [self.listing(el, style)]
        if tag == "table":
            return [self.table(el)]
        if tag == "hr":
            return [FrameBreak()]
        if tag == "div":
            name = el.get("class", "")
            if name in self.handlers:
                return [self.handlers[name](el, self)]
            return self.blocks(el, style)
        # Anything else (blockquote, pre, ...) prints as its plain text.
        text = self.plain(el).strip()
        return [self.paragraph(escape(text), style or self.styles.body)] if self.unmarked(text).strip() else []

    def paragraph(self, markup: str, style: ParagraphStyle) -> Paragraph:
        """A Paragraph; a marked one (its text holds the change mark) draws a change bar beside it."""
        if self.bars is None or self.bars.marker not in markup:
            return KeptParagraph(markup, style)
        para = MarkedParagraph(self.unmarked(markup), style)
        para.bars = self.bars
        return para

    def unmarked(self, text: str) -> str:
        return text.replace(self.bars.marker, "") if self.bars is not None else text

    def heading(self, el: Element) -> Heading:
        level = int(el.tag[1])
        self._headings += 1
        key = f"{self.prefix}-{self._headings}"
        title = " ".join(self.unmarked(self.plain(el)).split())
        style = {1: self.styles.h1, 2: self.styles.h2}.get(level, self.styles.h3)
        outline_level = 0 if level <= 2 else 1
        markup = self.unmarked(self.inline(el))      # headings come from the template: no bar
        if level == 2:
            return RuledHeading(markup, style, key, title, outline_level, colour=self.styles.rule_colour)
        return Heading(markup, style, key, title, outline_level)

    def listing(self, el: Element, style: ParagraphStyle | None = None) -> ListFlowable:
        style = style or self.styles.body
        items = []
        for li in el.findall("li"):
            if any(child.tag in ("p", "ul", "ol", "table") for child in li):
                content = self.blocks(li, style)
            else:
                content = [self.paragraph(self.inline(li), style)]
            items.append(ListItem(content or [Spacer(0, 0)]))
        ordered = el.tag == "ol"
        return ListFlowable(items, bulletType="1" if ordered else "bullet", start=el.get("start", "1") if ordered
                            else "\u2022", bulletFontName=self.styles.faces.body, bulletColor=INK,
                            bulletFontSize=style.fontSize,
                            leftIndent=style.fontSize * 1.3, bulletDedent=style.fontSize * 1.1,
                            spaceAfter=style.spaceAfter, bulletFormat="%s." if ordered else None)

    def table(self, el: Element) -> FitTable:
        rows: list[list[tuple[str, ParagraphStyle]]] = []
        aligns: list[str | None] = []
        header_rows, marked = 0, set()
        for section in el:
            for tr in section.findall("tr"):
                cells: list[tuple[str, ParagraphStyle]] = []
                for i, cell in enumerate(tr):
                    style = self.styles.head_cell if cell.tag == "th" else self.styles.cell
                    plain, markup = self.plain(cell), self.inline(cell)
                    if self.bars is not None and self.bars.marker in markup:
                        marked.add(len(rows))
                        plain, markup = self.unmarked(plain), self.unmarked(markup)
                    cells.append((_Cell(plain, markup), style))
                    match = _ALIGN.search(cell.get("style", "")) or None
                    align = match.group(1) if match else cell.get("align")
                    if len(aligns) <= i:
                        aligns.append(align)
                    elif align and not aligns[i]:
                        aligns[i] = align
                rows.append(cells)
                header_rows += section.tag == "thead"
        return FitTable(rows, aligns, self.styles, header_rows, marked, self.bars, cells=self._cells,
                        key=(el, self.styles.body.fontSize, self.styles.cell.fontSize))

    # -- inline markup ----------------------------------------------------------------------

    def inline(self, el: Element, skip: Iterable[Element] = ()) -> str:
        """Paragraph markup for `el`'s content; children in `skip` are left out (their tails kept)."""
        parts = [self._text(el.text)]
        for child in el:
            if child not in skip:
                parts.append(self._inline_child(child))
            parts.append(self._text(child.tail))
        return "".join(parts).strip()

    def _inline_child(self, child: Element) -> str:
        tag = child.tag
        inner = self.inline(child)
        if tag in ("strong", "b"):
            return f"<b>{inner}</b>"
        if tag in ("em", "i"):
            return f"<i>{inner}</i>"
        if tag == "br":
            return "<br/>"
        return inner        # code, a, span, ...: their text, unstyled

    def _text(self, text: str | None) -> str:
        if not text:
            return ""
        out, last = [], 0
        for match in _STASH.finditer(text):
            out.append(escape(self._literal(text[last:match.start()])))
            raw = self._md.htmlStash.rawHtmlBlocks[int(match.group(1))]
            raw = raw if isinstance(raw, str) else ""
            out.append("<br/>" if raw.strip().lower() in _BREAKS else escape(html.unescape(raw)))
            last = match.end()
        out.append(escape(self._literal(text[last:])))
        return "".join(out)

    def _literal(self, text: str) -> str:
        return text.replace(util.AMP_SUBSTITUTE, "&").replace("\n", " ")

    def plain(self, el: Element) -> str:
        """The element's text with markup dropped (for bookmarks and measuring)."""
        parts = [self._plain_text(el.text)]
        for child in el:
            parts.append("\n" if child.tag == "br" else self.plain(child))
            parts.append(self._plain_text(child.tail))
        return "".join(parts)

    def _plain_text(self, text: str | None) -> str:
        if not text:
            return ""

        def raw(match: re.Match[str]) -> str:
            value = self._md.htmlStash.rawHtmlBlocks[int(match.group(1))]
            value = value if isinstance(value, str) else ""
            return "\n" if value.strip().lower() in _BREAKS else html.unescape(value)
        return _STASH.sub(raw, self._literal(text))


def to_flowables(text: str, styles: Styles, handlers: dict[str, Handler] | None = None, prefix: str = "md",
                 bars: Bars | None = None) -> list[Flowable]:
    """Flowables for Markdown `text` (see the module docstring for what maps to what)."""
    return Converter(styles, handlers, prefix, bars).convert(text)
