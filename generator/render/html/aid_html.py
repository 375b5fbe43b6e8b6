"""The player aid as one self-contained web page: the aid's Markdown (content/aid.py) ->
Python-Markdown -> HTML with the CSS inline and the flowchart as inline SVG.

Same text and figures as the PDF.  Data text reaches us Markdown-escaped (`&` and `<` as
entities), and everything added here goes through ElementTree, which escapes on output, so
nothing from data can become markup.  No script, nothing fetched (its type, the edition's IBM Plex, is
in the page: web_fonts.py): the page works saved to a phone or attached to a forum post.  The
flowchart's list stays in the page as the step-by-step text (and the SVG's text equivalent);
the SVG is the overview, left out on screens too narrow to read it.  The page's own words are
the catalogue's ("aid.html.*"); its style is aid.css beside this module (aid_changes.css with
--since), its colours the theme's.
"""

import re
import xml.etree.ElementTree as etree
from importlib import resources
from itertools import pairwise
from pathlib import Path
from string import Template

import markdown
from markdown.extensions.md_in_html import MarkdownInHtmlExtension
from markdown.extensions.tables import TableExtension
from markdown.treeprocessors import Treeprocessor

from generator import __version__
from generator.content.aid import template_file
from generator.content.aid_files import flowchart_settings
from generator.content.context import BuildContext, Since
from generator.content.marks import CHANGED
from generator.content.words import Words
from generator.errors import RenderError
from generator.layout import chart as geometry
from generator.render import theme
from generator.render.html import icons_html
from generator.render.html.safe_html import policy_meta, sanitize, text_only
from generator.render.html.web_fonts import font_faces
from generator.text import columns, fill_pieces

CHART_W = 960           # the SVG's own units; CSS scales it to the column
NARROWEST_BOX = 150     # no chart box narrower: its rule tab keeps its room
TITLE_PX, TAB_PX, LABEL_PX = 20, 14, 15
PAD, TAB_DROP = 10, 12
BOLD_EM = 0.62          # a generous bold sans character width, in em: titles wrap before they overflow
STYLE, CHANGES_STYLE = "aid.css", "aid_changes.css"     # package files; $names filled by _style()


# Between a Japanese word and the modifier after it ("AFVの士気\u22122"): a browser breaks a line
# between a kanji and anything, and the sign alone at a line's start reads as a dash; a word joiner
# (U+2060, invisible) holds them, as the PDF's kinsoku breaking does.
_JAPANESE_MODIFIER = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])(?=[\u2212+\u00b1]\d)")


def render(ctx: BuildContext, text: str) -> bytes:
    """The web aid: the aid's Markdown `text` (content/aid.py) as one page, paper-free."""
    # Instances, not names: a name is looked up among the installed entry points (importlib.metadata)
    md = markdown.Markdown(extensions=[TableExtension(), MarkdownInHtmlExtension()], output_format="html")
    text_only(md)       # raw HTML from the template or a catalogue shows as text, as in the PDF
    since, source = ctx.changes, template_file(ctx)
    english = ctx.kit.edition.english if ctx.kit.edition is not None else ()
    page = _Page(md, source, ctx.words, since if since is not None and since.groups else None, english)
    md.treeprocessors.register(page, "aid-page", -10)   # after inline markup and unescaping
    body = md.convert(text)
    if page.charts != 1:
        raise RenderError(f"{source}: the web aid needs exactly one flowchart div; found {page.charts}")
    r, words, stamp = ctx.kit.rules, ctx.words, ctx.stamp_words()
    title = words("aid.title", number=r.number, title=r.title)
    description = words("aid.subject", number=r.number, game=r.game, credit=r.credit)
    # The web edition's foot: the kit's footer line, the web edition named where a PDF names its
    # paper, and the colophon's line (the kit's version and the edition stamp).
    if ctx.options.label:
        footer = words("page.footer.named", number=r.number, title=r.title, label=ctx.options.label,
                       paper=words("aid.html.edition"))
    else:
        footer = words("page.footer", number=r.number, title=r.title, paper=words("aid.html.edition"))
    colophon = ctx.colophon()
    pictograms = icons_html.key(ctx)
    if english:
        _mark_english(pictograms, english)
    key = etree.tostring(pictograms, encoding="unicode", method="html")
    if theme.edition_faces(ctx.words.lang).word_wrap == "CJK":
        body, key = _JAPANESE_MODIFIER.sub("\u2060", body), _JAPANESE_MODIFIER.sub("\u2060", key)
    foot = f'<footer><p>{_escape(footer)}</p><p class="colophon">{_escape(colophon)}</p></footer>'
    # the kit's own type, holding every character the page shows (its title, text, key and foot)
    fonts = font_faces("".join((title, body, key, foot)), theme.edition_faces(ctx.words.lang))
    html = "\n".join([
        "<!DOCTYPE html>",
        f'<html lang="{_escape(words.tag)}">',
        "<head>",
        '<meta charset="utf-8">',
        policy_meta(),
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_escape(title)}</title>",
        f'<meta name="description" content="{_escape(description)}">',
        f'<meta name="generator" content="{_escape(words("aid.html.generator", version=__version__, stamp=stamp))}">',
        f"<style>\n{fonts}{_style(ctx.options.bw, page.since is not None, ctx.words.lang)}</style>",
        "</head>",
        "<body>",
        "<main>",
        body,
        key,
        "</main>",
        foot,
        "</body>",
        "</html>",
        "",
    ])
    return html.encode("utf-8")


def _style(bw: bool, changes: bool, lang: str) -> str:
    """The page's CSS: aid.css (and aid_changes.css) with the theme's colours, the faces of the
    edition in `lang` and the chart's sizes."""
    colours, faces = theme.palette(bw), theme.edition_faces(lang)
    values = {"accent": colours.accent, "head": colours.head, "box": colours.box, "rule": colours.rule,
              "ink": theme.WEB_INK, "paper": theme.WHITE, "muted": theme.MUTED, "print_ink": theme.BLACK,
              "font": faces.web, "condensed": faces.web_condensed,
              "mark": theme.CHANGE_BAR, "title_px": TITLE_PX, "tab_px": TAB_PX, "label_px": LABEL_PX}
    files = [STYLE, CHANGES_STYLE] if changes else [STYLE]
    here = resources.files(__package__)
    return "".join(Template(here.joinpath(name).read_text(encoding="utf-8")).substitute(values) for name in files)


def _escape(text: object) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _plain(el: etree.Element) -> str:
    return " ".join("".join(el.itertext()).split())


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


class _Page(Treeprocessor):
    """Shapes Python-Markdown's tree into the page: heading ids, accessible tables, the chart."""

    def __init__(self, md: markdown.Markdown, source: Path, words: Words, since: Since | None = None,
                 english: tuple[str, ...] = ()) -> None:
        super().__init__(md)
        self.source = source    # the template file, for messages
        self.words = words
        self.charts = 0
        self.since = since      # when built --since OLD with changes
        self.english = english  # the English a translated edition prints as it is (its glossary's)

    def run(self, root: etree.Element) -> None:
        sanitize(root)      # before the page's own elements are added: what the template made
        if self.since is not None:
            _mark_changes(root, self.since, self.words)
        if self.english:
            _mark_english(root, self.english)
        ids: set[str] = set()
        for parent in list(root.iter()):
            for el in list(parent):
                if el.tag == "hr":          # the PDF's page and column cuts mean nothing here
                    parent.remove(el)
                elif el.tag == "div" and el.get("class") == "flowchart":
                    self.charts += 1
                    _flowchart(el, ids, self.source, self.words)
        for el in root.iter():
            if el.tag in ("h1", "h2", "h3") and el.get("id") is None:
                el.set("id", _slug(_plain(el), ids))
        _tables(root, self.words)


def _tables(root: etree.Element, words: Words) -> None:
    """Each table made accessible, captioned by the h1 or h2 last seen before it."""
    last_heading = None
    for parent in list(root.iter()):
        for i, el in enumerate(list(parent)):
            if el.tag in ("h1", "h2"):
                last_heading = el
            if el.tag == "table":
                parent[i] = _table(el, last_heading, words)


# -- the English a translated edition keeps ------------------------------------------------------

_NOT_PROSE = ("svg", "style", "title", "code")


def _mark_english(root: etree.Element, english: tuple[str, ...]) -> None:
    """Each of `english` (the rule's quoted words, a term's English kept beside the edition's,
    longest first) in the page's text becomes <span lang="en">: a screen reader speaks it as
    English, a browser hyphenates it as English."""
    found = re.compile(r"(?<![\w-])(" + "|".join(re.escape(e) for e in english) + r")(?![\w-])")
    skip = {el for top in root.iter() if top.tag in _NOT_PROSE or top.get("lang") for el in top.iter()}
    for el in [el for el in root.iter() if el not in skip]:
        if el.text:
            el.text = _split_english(el, 0, el.text, found)
        for child in list(el):
            if child.tail and child not in skip:
                child.tail = _split_english(el, list(el).index(child) + 1, child.tail, found)


def _split_english(parent: etree.Element, index: int, text: str, found: re.Pattern[str]) -> str:
    """`text` (at child `index` of `parent`) up to its first English phrase; each phrase becomes a
    span inserted there, the text between them its tail."""
    pieces = found.split(text)
    if len(pieces) == 1:
        return text
    for n, (phrase, after) in enumerate(zip(pieces[1::2], pieces[2::2], strict=True)):
        span = etree.Element("span", {"lang": "en"})
        span.text, span.tail = phrase, after or None
        parent.insert(index + n, span)
    return pieces[0]


# -- built --since OLD: the lines that changed --------------------------------------------------

_BLOCKS = ("li", "p", "tr", "h1", "h2", "h3")
_LINK = "\x00"         # stands for the link in the note's sentence, to split it there


def _mark_changes(root: etree.Element, since: Since, words: Words) -> None:
    """Each element holding the aid's change mark loses it; its line (list item, paragraph, table
    row) gets class "changed", drawn as a bar at its left, and says "changed" to a screen reader.
    A note under the title says what the bars mean and links to the list of changes."""
    parents = {child: parent for parent in root.iter() for child in parent}
    marked: list[etree.Element] = []
    for el in list(root.iter()):
        for attr, holder in (("text", el), ("tail", parents.get(el))):
            value = getattr(el, attr)
            if value and CHANGED in value:
                setattr(el, attr, value.replace(CHANGED, ""))
                owner = holder
                while owner is not None and owner.tag not in _BLOCKS:
                    owner = parents.get(owner)
                if owner is not None and owner not in marked:
                    marked.append(owner)
    for el in marked:
        el.set("class", " ".join(filter(None, [el.get("class"), "changed"])))
        target = el[0] if el.tag == "tr" and len(el) else el
        hidden = etree.Element("span", {"class": "vh"})
        hidden.text = words("aid.html.changed") + " "
        hidden.tail, target.text = target.text, None
        target.insert(0, hidden)
    box = next((d for d in root.iter("div") if d.get("class") == "changes"), None)
    title = next(root.iter("h1"), None)
    if box is None or title is None:
        return
    box.set("id", "changes")
    note = etree.Element("p", {"class": "since-note"})
    # The sentence is one message, the link one of its fields: split around it.
    note.text, link_tail = words("aid.html.since_note", label=since.label, link=_LINK).split(_LINK)
    link = etree.SubElement(note, "a", {"href": "#changes"})
    link.text = words("aid.html.since_link")
    link.tail = link_tail
    siblings = list(parents[title])
    after = siblings.index(title) + 1
    if after < len(siblings) and siblings[after].tag == "p":
        after += 1          # under the subtitle
    parents[title].insert(after, note)


def _table(table: etree.Element, heading: etree.Element | None, words: Words) -> etree.Element:
    """Headers with scope, the first column as row headers, in a box that scrolls on its own; a
    head cell left empty joins the one before it (a fraction and its percentage under one head)."""
    for row in table.iter("tr"):
        cells = list(row)
        for before, cell in pairwise(cells):
            if cell.tag == "th" and before.tag == "th" and not _plain(cell) and _plain(before):
                before.set("colspan", str(int(before.get("colspan", "1")) + 1))
                before.set("style", "text-align: center")
                row.remove(cell)
    for th in table.iter("th"):
        th.set("scope", "colgroup" if th.get("colspan") else "col")
    _paired_columns(table)
    body = table.find("tbody")
    for row in (body if body is not None else []):
        if len(row) and row[0].tag == "td":
            row[0].tag = "th"
            row[0].set("scope", "row")
    wrap = etree.Element("div", {"class": "table-wrap", "role": "region", "tabindex": "0"})
    if heading is not None:
        wrap.set("aria-labelledby", heading.get("id", ""))
    else:
        wrap.set("aria-label", words("aid.html.table"))
    wrap.append(table)
    wrap.tail = table.tail
    table.tail = None
    return wrap


def _paired_columns(table: etree.Element) -> None:
    """A table whose heads join a fraction and its percentage marks the fraction cells (class
    "frac"): a phone's narrow screen leaves their figures out (aid.css), the percentages and the
    averages' decimals beside them saying the same, so the table fits without scrolling."""
    head = table.find("thead/tr")
    if head is None or not any(th.get("colspan") for th in head):
        return
    fractions, column = set(), 0
    for th in head:
        span = int(th.get("colspan", "1"))
        if span == 2:
            fractions.add(column)
        column += span
    for row in table.iterfind("tbody/tr"):
        for i, cell in enumerate(row):
            if i in fractions:
                cell.set("class", "frac")
    table.set("class", "paired")


# -- the flowchart ----------------------------------------------------------------------------

class _Box:
    def __init__(self, title: str, rule: str) -> None:
        self.title, self.rule = title, rule


def _flowchart(div: etree.Element, ids: set[str], source: Path, words: Words) -> None:
    """The chart's list becomes the step-by-step text (one h3 per box); an SVG overview goes first."""
    listing = next((child for child in div if child.tag in ("ol", "ul")), None)
    if listing is None:
        raise RenderError(f"{source}: the flowchart div holds no list of boxes")
    boxes = []
    for n, li in enumerate(listing.findall("li"), 1):
        boxes.append(_step(li, n, ids, source, words))
    if not boxes:
        raise RenderError(f"{source}: the flowchart has no boxes")
    per_row, bypasses, labels = flowchart_settings(div.attrib, source)
    for key in ("data-per-row", "data-bypass", "data-bypass-label"):
        div.attrib.pop(key, None)
    svg, spans = _svg(boxes, per_row, bypasses, labels, source, words)
    div.insert(0, svg)
    # On a wide screen the cards stand on the chart's grid: its columns, a box spanning two
    # columns a card spanning two (aid.css), so no row ends in a lone card.
    listing.set("class", f"steps cols-{per_row}")
    for li, span in zip(listing.findall("li"), spans, strict=True):
        if span > 1:
            li.set("class", " ".join([*li.get("class", "").split(), f"span-{span}"]))


def _step(li: etree.Element, n: int, ids: set[str], source: Path, words: Words) -> _Box:
    """Turn one list item (**title** *rule* text, sub-list) into an h3 and the text under it."""
    head = next((child for child in li if child.tag == "p"), li)
    title_el = next((child for child in head if child.tag == "strong"), None)
    rule_el = next((child for child in head if child.tag == "em"), None)
    if title_el is None:
        raise RenderError(f"{source}: a flowchart box has no **title**")
    title, rule = _plain(title_el), _plain(rule_el) if rule_el is not None else ""
    h3 = _step_heading(n, title, rule, ids, words)
    para, blocks = _step_text(head, [title_el, rule_el])
    rest = [child for child in li if child is not head] if head is not li else []
    for child in list(li):
        li.remove(child)
    li.text = None
    li.set("id", f"step-{n}")
    li.append(h3)
    if para.text or len(para):
        li.append(para)
    for child in blocks + rest:
        li.append(child)
    return _Box(title, rule)


def _step_heading(n: int, title: str, rule: str, ids: set[str], words: Words) -> etree.Element:
    """A box's h3: its number, its title and its rule as a badge a screen reader names."""
    h3 = etree.Element("h3", {"id": _slug(f"step {n} {title}", ids)})
    number = etree.SubElement(h3, "span", {"class": "step-no"})
    number.text = f"{n}"
    name = etree.SubElement(h3, "span")
    name.text = title
    if rule:
        badge = etree.SubElement(h3, "span", {"class": "rule"})
        hidden = etree.SubElement(badge, "span", {"class": "vh"})
        hidden.text = words("aid.html.rule") + " "
        hidden.tail = rule
    return h3


def _step_text(head: etree.Element, taken: list[etree.Element | None]) -> tuple[etree.Element, list[etree.Element]]:
    """(the box's text as a paragraph, the blocks under it): what is left of the head once the
    title and the rule (`taken`) are out of it."""
    para = etree.Element("p")
    para.text = (head.text or "").strip() or None
    for el in taken:
        if el is None:
            continue
        tail = el.tail or ""
        el.tail = None
        index = list(head).index(el)
        if index == 0:
            para.text = ((para.text or "") + tail).lstrip() or None
        else:
            prev = head[index - 1]
            prev.tail = (prev.tail or "") + tail
        head.remove(el)
    blocks = [child for child in head if child.tag in ("ul", "ol", "table", "p")]
    for child in list(head):
        if child in blocks:
            continue
        head.remove(child)
        para.append(child)
    if para.text:
        para.text = para.text.lstrip()
    return para, blocks


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Greedy word wrap by an over-estimate of bold sans widths (the browser's font is unknown; a
    wide Japanese character counts as two); Japanese breaks by kinsoku."""
    per_line = max(1, int(width / (size * BOLD_EM)))
    # any space breaks here, but a no-break one (SVG text keeps no space)
    return fill_pieces(re.sub(r"[ \t\r\n]+", " ", text).strip(), per_line)


def _title_height(title: str, width: float) -> float:
    """A chart title's lines at `width`, or more than any title's where a word runs past it."""
    lines = _wrap(title, width, TITLE_PX)
    return len(lines) if all(columns(line) * TITLE_PX * BOLD_EM <= width for line in lines) else len(title) + 1


def _svg(boxes: list[_Box], per_row: int, bypasses: list[tuple[int, int]], labels: list[str], source: Path,
         words: Words) -> tuple[etree.Element, list[int]]:
    """The procedure as an SVG: boxes with titles and rule tabs, arrows, the bypass and its label;
    and the columns each box spans."""
    lead = TITLE_PX * 1.2
    gap_x = 34
    # a step's number stays with its title's first word ("2. Ausstiegsprobe", never "2." alone)
    titles = [words("aid.html.chart.step", n=n, title=box.title).replace(" ", "\u00a0", 1)
              for n, box in enumerate(boxes, 1)]

    def wrapped(i: int, span: int) -> list[str]:
        width = geometry.box_widths(CHART_W, 1, per_row, gap_x, [span])[0]
        return _wrap(titles[i], width - 2 * PAD, TITLE_PX)
    try:
        spans = geometry.spans(len(boxes), per_row, lambda i, span: len(wrapped(i, span)))
    except ValueError as error:
        raise RenderError(f"{source}: the flowchart cannot be drawn: {error}") from None
    try:
        # The chart's boxes share each row by their titles, so a title keeps to one line where
        # the row has room ("6. The new group", not "6. The new / group"); the cards keep the grid.
        widths = geometry.fitted_widths(CHART_W, len(boxes), per_row, gap_x,
                                        lambda i, width: _title_height(titles[i], width - 2 * PAD),
                                        NARROWEST_BOX)
        lines = [_wrap(titles[i], width - 2 * PAD, TITLE_PX) for i, width in enumerate(widths)]
        most = max(len(t) for t in lines)
        heights = [PAD + TAB_DROP + most * lead + PAD] * len(boxes)
        chart = geometry.arrange(CHART_W, heights, per_row, gap_x=gap_x, gap_y=40, bypasses=bypasses,
                                 bypass_rise=16, label_height=LABEL_PX + 6 if any(labels) else 0, widths=widths)
    except ValueError as error:
        raise RenderError(f"{source}: the flowchart cannot be drawn: {error}") from None
    height = chart.height + TAB_PX + 2   # the viewBox starts TAB_PX higher: tabs straddle the top edge
    flip = _Flip(chart.height)
    svg = etree.Element("svg", {"xmlns": "http://www.w3.org/2000/svg",
                                "viewBox": f"-2 {-TAB_PX} {CHART_W + 4} {_n(height)}",
                                "role": "img", "aria-labelledby": "chart-title chart-desc", "class": "chart",
                                "focusable": "false"})
    _svg_text(svg, boxes, bypasses, labels, words)
    group = etree.SubElement(svg, "g", {"class": "boxes"})
    for box, rect, title_lines in zip(boxes, chart.boxes, lines, strict=True):
        _svg_box(etree.SubElement(group, "g"), box, rect, title_lines, flip)
    arrows = etree.SubElement(svg, "g", {"class": "arrows"})
    for arrow in chart.arrows:
        _svg_arrow(arrows, arrow, labels[arrow.bypass] if arrow.bypass is not None else "", flip)
    return svg, list(spans)


def _n(v: float) -> float:
    return round(v, 1)


class _Flip:
    """The layout is y-up from the bottom; SVG is y-down."""

    def __init__(self, height: float) -> None:
        self.height = height

    def __call__(self, v: float) -> float:
        return round(self.height - v, 1)


def _svg_text(svg: etree.Element, boxes: list[_Box], bypasses: list[tuple[int, int]], labels: list[str],
              words: Words) -> None:
    """The chart's text equivalent: every step in its title, the bypasses in its description."""
    steps = words("aid.html.chart.separator").join(
        words("aid.html.chart.step_rule", n=i, title=b.title, rule=b.rule) if b.rule
        else words("aid.html.chart.step", n=i, title=b.title) for i, b in enumerate(boxes, 1))
    t = etree.SubElement(svg, "title", {"id": "chart-title"})
    t.text = words("aid.html.chart.title", steps=steps)
    sentences = [words("aid.html.chart.bypass_label", start=a + 1, end=b + 1, label=label) if label
                 else words("aid.html.chart.bypass", start=a + 1, end=b + 1)
                 for (a, b), label in zip(bypasses, labels, strict=True)]
    d = etree.SubElement(svg, "desc", {"id": "chart-desc"})
    d.text = words.sentences([*sentences, words("aid.html.chart.below")])


def _svg_box(g: etree.Element, box: _Box, rect: geometry.Rect, title_lines: list[str], y: _Flip) -> None:
    """One box: its outline, its title's lines, its rule number on a tab across its top edge."""
    lead = TITLE_PX * 1.2
    etree.SubElement(g, "rect", {"class": "box", "x": f"{_n(rect.x)}", "y": f"{y(rect.top)}", "width": f"{_n(rect.w)}",
                                 "height": f"{_n(rect.h)}", "rx": "6"})
    text_top = rect.top - PAD - TAB_DROP
    for k, line in enumerate(title_lines):
        tx = etree.SubElement(g, "text", {"class": "box-title", "x": f"{_n(rect.x + PAD)}",
                                          "y": f"{y(text_top - TITLE_PX * 0.85 - k * lead)}"})
        tx.text = line
    if box.rule:
        tab_w = len(box.rule) * TAB_PX * BOLD_EM + 12
        tab_x = rect.right - PAD - tab_w
        etree.SubElement(g, "rect", {"class": "tab", "x": f"{_n(tab_x)}", "y": f"{y(rect.top + TAB_PX * 0.7)}",
                                     "width": f"{_n(tab_w)}", "height": f"{_n(TAB_PX * 1.5)}", "rx": "3"})
        tr = etree.SubElement(g, "text", {"class": "tab-text", "x": f"{_n(tab_x + tab_w / 2)}",
                                          "y": f"{y(rect.top - TAB_PX * 0.35)}"})
        tr.text = box.rule


def _svg_arrow(arrows: etree.Element, arrow: geometry.Arrow, label: str, y: _Flip) -> None:
    """One arrow: its shaft, its head, and a bypass's label on a paper-coloured ground."""
    tip, left, right = arrow.head(length=10, half_width=5.5)
    base = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
    points = [*arrow.points[:-1], base]
    etree.SubElement(arrows, "polyline", {"class": "shaft",
                                          "points": " ".join(f"{_n(px)},{y(py)}" for px, py in points)})
    etree.SubElement(arrows, "polygon", {"class": "head",
                                         "points": " ".join(f"{_n(px)},{y(py)}" for px, py in (tip, left, right))})
    if arrow.label_at and label:
        lx, ly = arrow.label_at
        w = len(label) * LABEL_PX * 0.55 + 10
        if arrow.label_anchor == "right":       # label_at is the label's right end
            lx -= w / 2
        # The label's box as the layout reserves it: 1 below the anchor to LABEL_PX + 1 above.
        etree.SubElement(arrows, "rect", {"class": "label-bg", "x": f"{_n(lx - w / 2)}", "y": f"{y(ly + LABEL_PX + 1)}",
                                          "width": f"{_n(w)}", "height": f"{_n(LABEL_PX + 2)}"})
        lt = etree.SubElement(arrows, "text", {"class": "label", "x": f"{_n(lx)}", "y": f"{y(ly + LABEL_PX * 0.22)}"})
        lt.text = label
