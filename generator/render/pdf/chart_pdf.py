"""The procedure flowchart as vector graphics: boxes, rule-number tabs and arrows.

The template gives the chart as `<div class="flowchart" markdown="1">` around a list; each item
is one box: its first **strong** is the box title, its first *em* the rule number shown on the
box's tab, the rest the box's text.  `data-per-row` sets boxes per row.  `data-bypass="1-3, 3-5"`
draws bypass arrows (box 1 over box 2 into box 3; box 3 down to the elbow into box 5), and
`data-bypass-label="first label | second label"` labels them in the same order.  Arrowheads are
drawn as triangles (the font is not relied on for arrows).  Geometry comes from layout/chart.py.
"""

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph

from generator.content.aid_files import flowchart_settings
from generator.errors import RenderError
from generator.layout import chart as geometry
from generator.render.pdf.canvas import INK, PAPER
from generator.render.pdf.markdown_pdf import Converter, Styles
from generator.render.pdf.paragraphs import KitParagraph
from generator.render.theme import MARK_LEVEL

PAD = 4.0           # inside a box
HEAD_GAP = 2.0      # between the title and the text
TAB_SIZE = 7.5      # rule-number tab font size: the theme's small, in the condensed bold
GAP_X = 16.0        # between boxes in a row (arrows run here)
NARROWEST = 72.0    # no box narrower: its title and rule tab keep their room
TAB_DROP = TAB_SIZE / 2 + 1     # the tab's lower half reaches this far into the box
BLOCKS = ("p", "ul", "ol", "table")


class Box:
    def __init__(self, title: str, rule: str, body: list[Flowable], bars: "BoxBars | None" = None) -> None:
        self.title, self.rule, self.body = title, rule, body     # markup, plain text, [flowables]
        self.bars = bars        # BoxBars for the box's changed lines, or None


class BoxBars:
    """Change bars for a box's changed lines, in the box's own margin: just inside its left edge,
    outside its text.  (A bar in the page margin would sit beside another box of the row.)"""
    WIDTH, INSET = 2.0, 0.9

    def __init__(self, page_bars: Any) -> None:
        self.marker: str = page_bars.marker
        self.left = 0.0         # the box's left edge on the page, set as the box is drawn

    def draw(self, canv: Any, y: float, height: float) -> None:
        ax, _ = canv.absolutePosition(0, 0)
        canv.saveState()
        canv.setFillGray(MARK_LEVEL)
        canv.rect(self.left + self.INSET - ax, y, self.WIDTH, height, stroke=0, fill=1)
        canv.restoreState()


class Flowchart(Flowable):
    def __init__(self, boxes: list[Box], styles: Styles, *, per_row: int = 4,
                 bypasses: Sequence[tuple[int, int]] = (), bypass_labels: Sequence[str] = (), accent: Any = INK,
                 fill: Any = None, head_fill: Any = None, tab: Any = None) -> None:
        super().__init__()
        self.boxes, self.styles = boxes, styles
        self.per_row, self.bypasses, self.bypass_labels = per_row, tuple(bypasses), tuple(bypass_labels)
        self.accent, self.fill, self.head_fill = accent, fill, head_fill
        self.tab = tab if tab is not None else accent       # the ground the rule tabs' words reverse out of
        size = styles.body.fontSize
        self.title_style = ParagraphStyle("box-title", styles.body, fontName=styles.faces.bold, fontSize=size + 0.5,
                                          leading=size + 2, spaceAfter=0)
        self.label_size = max(size - 0.5, 7.5)
        self.chart: geometry.Chart | None = None     # laid out by wrap()
        self._laid_out: tuple[float, float] | None = None     # (width, height) it was laid out at
        self.spaceAfter = size

    def _tab_width(self, box: Box) -> float:
        return stringWidth(box.rule, self.styles.faces.condensed_bold, TAB_SIZE) + 6 if box.rule else 0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        # Its layout depends on the width alone (its text's lines read no height), and the aid's
        # layout asks twice at one width (the fitting check, the frame): laid out once.
        if self._laid_out is not None and self._laid_out[0] == availWidth:
            self.width, self.height = self._laid_out
            return self._laid_out
        measured: dict[tuple[int, float], tuple[float, Paragraph, float]] = {}

        def height_at(i: int, width: float) -> float:
            if (i, width) not in measured:
                measured[i, width] = self._measure(self.boxes[i], width - 2 * PAD, availHeight)
            return measured[i, width][0]
        try:
            # each row's boxes share its width by their text, so none stands half empty
            widths = geometry.fitted_widths(availWidth, len(self.boxes), self.per_row, GAP_X, height_at,
                                            NARROWEST)
            chart = geometry.arrange(availWidth, [height_at(i, w) for i, w in enumerate(widths)], self.per_row,
                                     gap_x=GAP_X, bypasses=self.bypasses, label_height=self.label_size + 5,
                                     widths=widths)
        except ValueError as error:
            raise RenderError(f"the flowchart cannot be drawn: {error}") from None
        self._titles = [measured[i, w][1:] for i, w in enumerate(widths)]
        self.chart, self._laid_out = chart, (availWidth, chart.height)
        self.width, self.height = self._laid_out
        return self._laid_out

    def _measure(self, box: Box, inner: float, avail: float) -> tuple[float, Paragraph, float]:
        """(the box's height, its title, the title's height) with its text `inner` points wide."""
        title = KitParagraph(box.title, self.title_style)
        # The title runs the full width, below the rule tab that straddles the top edge.
        _, th = title.wrapOn(self.canv, inner, avail)
        h = PAD + TAB_DROP + th + HEAD_GAP + PAD
        for f in box.body:
            _, fh = f.wrapOn(self.canv, inner, avail)
            h += fh + f.getSpaceAfter()
        if box.body:
            h -= box.body[-1].getSpaceAfter()
        return h, title, th

    def draw(self) -> None:
        c, chart = self.canv, self.chart
        assert chart is not None, "a flowable is wrapped before it is drawn"
        c.saveState()
        for box, rect, (title, th) in zip(self.boxes, chart.boxes, self._titles, strict=True):
            self._draw_box(c, box, rect, title, th)
        c.setStrokeColor(self.accent)
        c.setFillColor(self.accent)
        c.setLineWidth(1.1)
        for arrow in chart.arrows:
            path = c.beginPath()
            (x, y), *rest = arrow.points
            path.moveTo(x, y)
            for px, py in rest[:-1]:
                path.lineTo(px, py)
            tip, left, right = arrow.head()
            # Stop the shaft at the arrowhead's base so the tip stays sharp.
            path.lineTo((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
            c.drawPath(path, stroke=1, fill=0)
            head = c.beginPath()
            head.moveTo(*tip)
            head.lineTo(*left)
            head.lineTo(*right)
            head.close()
            c.drawPath(head, stroke=0, fill=1)
            if arrow.label_at and arrow.bypass is not None and self.bypass_labels[arrow.bypass]:
                self._label(c, arrow, self.bypass_labels[arrow.bypass])
                c.setFillColor(self.accent)
        c.restoreState()

    def _label(self, c: Any, arrow: geometry.Arrow, label: str) -> None:
        assert arrow.label_at is not None
        size = self.label_size
        while size > 5 and stringWidth(label, self.styles.faces.italic, size) > arrow.label_room:
            size -= 0.25
        x, y = arrow.label_at
        w = stringWidth(label, self.styles.faces.italic, size) + 4
        left = x - w / 2 if arrow.label_anchor == "centre" else x - w
        c.setFillColor(PAPER)
        c.rect(left, y - 1, w, size + 1, stroke=0, fill=1)
        c.setFillColor(INK)
        c.setFont(self.styles.faces.italic, size)
        c.drawString(left + 2, y + 0.5, label)

    def _draw_box(self, c: Any, box: Box, rect: geometry.Rect, title: Paragraph, th: float) -> None:
        c.saveState()
        c.setLineWidth(0.9)
        c.setStrokeColor(self.accent)
        head_h = PAD + TAB_DROP + th + HEAD_GAP / 2
        if self.fill is not None:
            c.setFillColor(self.fill)
            c.roundRect(rect.x, rect.y, rect.w, rect.h, 3, stroke=0, fill=1)
        if self.head_fill is not None:
            # The title band: clip to the rounded box so its corners follow the outline.
            clip = c.beginPath()
            clip.roundRect(rect.x, rect.y, rect.w, rect.h, 3)
            c.clipPath(clip, stroke=0, fill=0)
            c.setFillColor(self.head_fill)
            c.rect(rect.x, rect.top - head_h, rect.w, head_h, stroke=0, fill=1)
        else:
            c.setLineWidth(0.4)
            c.line(rect.x, rect.top - head_h, rect.right, rect.top - head_h)
        c.restoreState()
        c.saveState()
        c.setLineWidth(0.9)
        c.setStrokeColor(self.accent)
        c.roundRect(rect.x, rect.y, rect.w, rect.h, 3, stroke=1, fill=0)
        if box.rule:
            tw = self._tab_width(box)
            tx, ty = rect.right - PAD - tw, rect.top - TAB_SIZE / 2
            c.setFillColor(self.tab)
            c.roundRect(tx, ty - 1.5, tw, TAB_SIZE + 3, 1.5, stroke=0, fill=1)
            c.setFillColor(PAPER)
            c.setFont(self.styles.faces.condensed_bold, TAB_SIZE)
            c.drawCentredString(tx + tw / 2, ty + 1.2, box.rule)
        c.restoreState()
        inner = rect.w - 2 * PAD
        if box.bars is not None:
            box.bars.left = c.absolutePosition(rect.x, 0)[0]
        y = rect.top - PAD - TAB_DROP - th
        title.drawOn(c, rect.x + PAD, y)
        y -= HEAD_GAP
        for f in box.body:
            _, fh = f.wrapOn(c, inner, rect.h)
            y -= fh
            f.drawOn(c, rect.x + PAD, y)
            y -= f.getSpaceAfter()


def from_element(el: Element, converter: Converter, *, accent: Any, fill: Any, head_fill: Any,
                 source: Path, tab: Any = None) -> Flowchart:
    """Build a Flowchart from the template's `<div class="flowchart">` element."""
    listing = next((child for child in el if child.tag in ("ol", "ul")), None)
    if listing is None:
        raise RenderError(f"{source}: the flowchart div holds no list of boxes")
    styles = converter.styles
    # A box's text in the condensed face, as the tables': a column a quarter of the page wide holds a
    # line of it, where the body face would break every other phrase.
    box_style = ParagraphStyle("box", styles.body, fontName=styles.faces.condensed,
                               leading=round(styles.body.fontSize * 1.15, 2), spaceAfter=styles.body.fontSize * 0.25)
    boxes = []
    page_bars = converter.bars
    for li in listing.findall("li"):
        converter.bars = BoxBars(page_bars) if page_bars is not None else None
        head = next((child for child in li if child.tag == "p"), li)
        title_el = next((child for child in head if child.tag == "strong"), None)
        rule_el = next((child for child in head if child.tag == "em"), None)
        if title_el is None:
            raise RenderError(f"{source}: a flowchart box has no **title**")
        nested = [child for child in head if child.tag in BLOCKS]
        text = converter.inline(head, skip={e for e in (title_el, rule_el, *nested) if e is not None})
        body = [converter.paragraph(text, box_style)] if converter.unmarked(text) else []
        rest = nested + ([child for child in li if child is not head and child.tag in BLOCKS] if head is not li else [])
        for child in rest:
            body += converter.block(child, box_style)
        rule = " ".join(converter.plain(rule_el).split()) if rule_el is not None else ""
        boxes.append(Box(converter.unmarked(converter.inline(title_el)), rule, body, converter.bars))
    converter.bars = page_bars
    if not boxes:
        raise RenderError(f"{source}: the flowchart has no boxes")
    per_row, bypasses, labels = flowchart_settings(el.attrib, source)
    return Flowchart(boxes, styles, per_row=per_row, bypasses=bypasses, bypass_labels=labels,
                     accent=accent, fill=fill, head_fill=head_fill, tab=tab)
