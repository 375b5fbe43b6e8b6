"""The player aid as one self-contained web page: the aid's Markdown (generator/aid_content.py)
-> Python-Markdown -> HTML with the CSS inline and the flowchart as inline SVG.

Same text and figures as the PDF.  Data text reaches us Markdown-escaped (`&` and `<` as
entities), and everything added here goes through ElementTree, which escapes on output, so
nothing from data can become markup.  No script, no web font, nothing fetched: the page works
saved to a phone or attached to a forum post.  The flowchart's list stays in the page as the
step-by-step text (and the SVG's text equivalent); the SVG is the overview, left out on
screens too narrow to read it.
"""

import re
import xml.etree.ElementTree as etree

import markdown
from markdown.treeprocessors import Treeprocessor

from generator import __version__
from generator.content.marks import CHANGED
from generator.content.aid import markdown_text, template_file
from generator.content.aid_text import flowchart_settings
from generator.errors import RenderError
from generator.layout import chart as geometry

# Colours: the PDF's olive (render/aid.py) with text and fills at >= 4.5:1 contrast (WCAG AA).
COLOURS = {"accent": "#3b4722", "head": "#e3dfca", "box": "#f7f5ed", "rule": "#6b6b6b"}
BW_COLOURS = {"accent": "#000000", "head": "#ffffff", "box": "#ffffff", "rule": "#595959"}

CHART_W = 960           # the SVG's own units; CSS scales it to the column
TITLE_PX, TAB_PX, LABEL_PX = 20, 14, 15
PAD, TAB_DROP = 10, 12
BOLD_EM = 0.62          # a generous bold sans character width, in em: titles wrap before they overflow


def render(ctx, paper=None):
    text = markdown_text(ctx)       # the paper-free web edition
    md = markdown.Markdown(extensions=["tables", "md_in_html"], output_format="html")
    since, source = ctx.changes, template_file(ctx)
    page = _Page(md, source, since if since is not None and since.groups else None)
    md.treeprocessors.register(page, "aid-page", -10)   # after inline markup and unescaping
    body = md.convert(text)
    if page.charts != 1:
        raise RenderError(f"{source}: the web aid needs exactly one flowchart div; found {page.charts}")
    r = ctx.kit.rules
    title = f"{r.number} {r.title}: player aid"
    description = f"The whole {r.number} procedure, exact odds and tables for {r.game} (variant by {r.credit})"
    colours = BW_COLOURS if ctx.options.bw else COLOURS
    html = "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_escape(title)}</title>",
        f'<meta name="description" content="{_escape(description)}">',
        f'<meta name="generator" content="bailout-kit {__version__}, data {ctx.kit.short_hash}">',
        f"<style>\n{_css(colours)}{_CHANGES_CSS if page.since else ''}</style>",
        "</head>",
        "<body>",
        "<main>",
        body,
        "</main>",
        f'<footer><p>871 Bail-Out kit {__version__} \u00b7 data {ctx.kit.short_hash} \u00b7 '
        "web edition of the player aid; print the PDF for the table.</p></footer>",
        "</body>",
        "</html>",
        "",
    ])
    return html.encode("utf-8")


def _escape(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _plain(el):
    return " ".join("".join(el.itertext()).split())


def _slug(text, taken):
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


class _Page(Treeprocessor):
    """Shapes Python-Markdown's tree into the page: heading ids, accessible tables, the chart."""

    def __init__(self, md, source, since=None):
        super().__init__(md)
        self.source = source    # the template file, for messages
        self.charts = 0
        self.since = since      # aid_changes.Since when built --since OLD with changes

    def run(self, root):
        if self.since is not None:
            _mark_changes(root, self.since)
        ids = set()
        last_heading = None
        for parent in list(root.iter()):
            for i, el in enumerate(list(parent)):
                if el.tag == "hr":          # the PDF's page and column cuts mean nothing here
                    parent.remove(el)
                elif el.tag == "div" and el.get("class") == "flowchart":
                    self.charts += 1
                    _flowchart(el, ids, self.source)
        for el in root.iter():
            if el.tag in ("h1", "h2", "h3") and el.get("id") is None:
                el.set("id", _slug(_plain(el), ids))
        for parent in list(root.iter()):
            for i, el in enumerate(list(parent)):
                if el.tag in ("h1", "h2"):
                    last_heading = el
                if el.tag == "table":
                    parent[i] = _table(el, last_heading)
        return None


# -- built --since OLD: the lines that changed --------------------------------------------------

_BLOCKS = ("li", "p", "tr", "h1", "h2", "h3")
_CHANGES_CSS = """\
.since-note { font-weight: 700; border-left: 4px solid #000000; padding-left: 0.5rem; }
.changed { position: relative; }
p.changed::after, li.changed::after { content: ""; position: absolute; top: 0.15em; bottom: 0.15em;
  left: -0.75rem; width: 4px; background: #000000; }
li.changed::after { left: -1.55rem; }
.steps > li.changed::after { left: -0.7rem; top: 0; bottom: 0; }
tr.changed > :first-child { box-shadow: inset 4px 0 0 #000000; padding-left: 0.8rem; }
.changes { margin: 2rem 0 1rem; padding: 0.25rem 1rem 0.5rem; background: var(--box);
  border: 3px solid var(--accent); border-radius: 6px; }
.changes h3 { margin-top: 0.5rem; }
"""


def _mark_changes(root, since):
    """Each element holding the aid's change mark loses it; its line (list item, paragraph, table
    row) gets class "changed", drawn as a bar at its left, and says "changed" to a screen reader.
    A note under the title says what the bars mean and links to the list of changes."""
    parents = {child: parent for parent in root.iter() for child in parent}
    marked = []
    for el in list(root.iter()):
        for attr, owner in (("text", el), ("tail", parents.get(el))):
            value = getattr(el, attr)
            if value and CHANGED in value:
                setattr(el, attr, value.replace(CHANGED, ""))
                while owner is not None and owner.tag not in _BLOCKS:
                    owner = parents.get(owner)
                if owner is not None and owner not in marked:
                    marked.append(owner)
    for el in marked:
        el.set("class", " ".join(filter(None, [el.get("class"), "changed"])))
        target = el[0] if el.tag == "tr" and len(el) else el
        hidden = etree.Element("span", {"class": "vh"})
        hidden.text = "Changed: "
        hidden.tail, target.text = target.text, None
        target.insert(0, hidden)
    box = next((d for d in root.iter("div") if d.get("class") == "changes"), None)
    title = next(root.iter("h1"), None)
    if box is None or title is None:
        return
    box.set("id", "changes")
    note = etree.Element("p", {"class": "since-note"})
    note.text = f"Changed since {since.label}: a bar at the left marks each changed line; "
    link = etree.SubElement(note, "a", {"href": "#changes"})
    link.text = "the list of changes"
    link.tail = " closes the page."
    siblings = list(parents[title])
    after = siblings.index(title) + 1
    if after < len(siblings) and siblings[after].tag == "p":
        after += 1          # under the subtitle
    parents[title].insert(after, note)


def _table(table, heading):
    """Headers with scope, the first column as row headers, in a box that scrolls on its own."""
    for th in table.iter("th"):
        th.set("scope", "col")
    body = table.find("tbody")
    for row in (body if body is not None else []):
        if len(row) and row[0].tag == "td":
            row[0].tag = "th"
            row[0].set("scope", "row")
    wrap = etree.Element("div", {"class": "table-wrap", "role": "region", "tabindex": "0"})
    if heading is not None:
        wrap.set("aria-labelledby", heading.get("id"))
    else:
        wrap.set("aria-label", "table")
    wrap.append(table)
    wrap.tail = table.tail
    table.tail = None
    return wrap


# -- the flowchart ----------------------------------------------------------------------------

class _Box:
    def __init__(self, title, rule):
        self.title, self.rule = title, rule


def _flowchart(div, ids, source):
    """The chart's list becomes the step-by-step text (one h3 per box); an SVG overview goes first."""
    listing = next((child for child in div if child.tag in ("ol", "ul")), None)
    if listing is None:
        raise RenderError(f"{source}: the flowchart div holds no list of boxes")
    boxes = []
    for n, li in enumerate(listing.findall("li"), 1):
        boxes.append(_step(li, n, ids, source))
    if not boxes:
        raise RenderError(f"{source}: the flowchart has no boxes")
    per_row, bypasses, labels = flowchart_settings(div.attrib, source)
    listing.set("class", "steps")
    for key in ("data-per-row", "data-bypass", "data-bypass-label"):
        div.attrib.pop(key, None)
    div.insert(0, _svg(boxes, per_row, bypasses, labels, source))


def _step(li, n, ids, source):
    """Turn one list item (**title** *rule* text, sub-list) into an h3 and the text under it."""
    head = next((child for child in li if child.tag == "p"), li)
    title_el = next((child for child in head if child.tag == "strong"), None)
    rule_el = next((child for child in head if child.tag == "em"), None)
    if title_el is None:
        raise RenderError(f"{source}: a flowchart box has no **title**")
    title, rule = _plain(title_el), _plain(rule_el) if rule_el is not None else ""
    h3 = etree.Element("h3", {"id": _slug(f"step {n} {title}", ids)})
    number = etree.SubElement(h3, "span", {"class": "step-no"})
    number.text = f"{n}"
    name = etree.SubElement(h3, "span")
    name.text = title
    if rule:
        badge = etree.SubElement(h3, "span", {"class": "rule"})
        hidden = etree.SubElement(badge, "span", {"class": "vh"})
        hidden.text = "rule "
        hidden.tail = rule
    # What is left of the head after the title and the rule: the box's text, as a paragraph.
    para = etree.Element("p")
    para.text = (head.text or "").strip() or None
    for el in [title_el, rule_el]:
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


def _wrap(text, width, size):
    """Greedy word wrap by an over-estimate of bold sans widths (the browser's font is unknown)."""
    per_line = max(1, int(width / (size * BOLD_EM)))
    lines, current = [], ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if len(trial) <= per_line or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    return lines + [current] if current else lines


def _svg(boxes, per_row, bypasses, labels, source):
    """The procedure as an SVG: boxes with titles and rule tabs, arrows, the bypass and its label."""
    lead = TITLE_PX * 1.2
    gap_x = 34
    try:
        widths = geometry.box_widths(CHART_W, len(boxes), per_row, gap_x)
    except ValueError as error:
        raise RenderError(f"{source}: the flowchart cannot be drawn: {error}") from None
    lines = [_wrap(f"{n}. {box.title}", w - 2 * PAD, TITLE_PX) for n, (box, w) in enumerate(zip(boxes, widths), 1)]
    most = max(len(t) for t in lines)
    heights = [PAD + TAB_DROP + most * lead + PAD] * len(boxes)
    try:
        chart = geometry.arrange(CHART_W, heights, per_row, gap_x=gap_x, gap_y=40, bypasses=bypasses,
                                 bypass_rise=16, label_height=LABEL_PX + 6 if any(labels) else 0)
    except ValueError as error:
        raise RenderError(f"{source}: the flowchart cannot be drawn: {error}") from None
    height = chart.height + TAB_PX + 2   # the viewBox starts TAB_PX higher: tabs straddle the top edge

    def y(v):                            # layout is y-up from the bottom; SVG is y-down
        return round(chart.height - v, 1)

    def n(v):
        return round(v, 1)

    steps = "; ".join(f"{i}. {b.title}" + (f" (rule {b.rule})" if b.rule else "") for i, b in enumerate(boxes, 1))
    svg = etree.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"-2 {-TAB_PX} {CHART_W + 4} {n(height)}",
                                "role": "img", "aria-labelledby": "chart-title chart-desc", "class": "chart",
                                "focusable": "false"})
    t = etree.SubElement(svg, "title", {"id": "chart-title"})
    t.text = f"The procedure as a flowchart: {steps}."
    d = etree.SubElement(svg, "desc", {"id": "chart-desc"})
    d.text = ("".join(f"Step {a + 1} leads to step {b + 1} directly, {label}. " if label else
                      f"Step {a + 1} leads to step {b + 1} directly. " for (a, b), label in zip(bypasses, labels))
              + "Each step is set out in full in the list below the chart.")
    defs = etree.SubElement(svg, "g", {"class": "boxes"})
    for i, (box, rect, title_lines) in enumerate(zip(boxes, chart.boxes, lines)):
        g = etree.SubElement(defs, "g")
        etree.SubElement(g, "rect", {"class": "box", "x": f"{n(rect.x)}", "y": f"{y(rect.top)}", "width": f"{n(rect.w)}",
                                     "height": f"{n(rect.h)}", "rx": "6"})
        text_top = rect.top - PAD - TAB_DROP
        for k, line in enumerate(title_lines):
            tx = etree.SubElement(g, "text", {"class": "box-title", "x": f"{n(rect.x + PAD)}",
                                              "y": f"{y(text_top - TITLE_PX * 0.85 - k * lead)}"})
            tx.text = line
        if box.rule:
            tab_w = len(box.rule) * TAB_PX * BOLD_EM + 12
            tab_x = rect.right - PAD - tab_w
            etree.SubElement(g, "rect", {"class": "tab", "x": f"{n(tab_x)}", "y": f"{y(rect.top + TAB_PX * 0.7)}",
                                         "width": f"{n(tab_w)}", "height": f"{n(TAB_PX * 1.5)}", "rx": "3"})
            tr = etree.SubElement(g, "text", {"class": "tab-text", "x": f"{n(tab_x + tab_w / 2)}",
                                              "y": f"{y(rect.top - TAB_PX * 0.35)}"})
            tr.text = box.rule
    arrows = etree.SubElement(svg, "g", {"class": "arrows"})
    for arrow in chart.arrows:
        tip, left, right = arrow.head(length=10, half_width=5.5)
        base = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
        points = list(arrow.points[:-1]) + [base]
        etree.SubElement(arrows, "polyline", {"class": "shaft", "points": " ".join(f"{n(px)},{y(py)}" for px, py in points)})
        etree.SubElement(arrows, "polygon", {"class": "head", "points": " ".join(f"{n(px)},{y(py)}" for px, py in (tip, left, right))})
        label = labels[arrow.bypass] if arrow.bypass is not None else ""
        if arrow.label_at and label:
            lx, ly = arrow.label_at
            w = len(label) * LABEL_PX * 0.55 + 10
            if arrow.label_anchor == "right":       # label_at is the label's right end
                lx -= w / 2
            # The label's box as the layout reserves it: 1 below the anchor to LABEL_PX + 1 above.
            etree.SubElement(arrows, "rect", {"class": "label-bg", "x": f"{n(lx - w / 2)}", "y": f"{y(ly + LABEL_PX + 1)}",
                                              "width": f"{n(w)}", "height": f"{n(LABEL_PX + 2)}"})
            lt = etree.SubElement(arrows, "text", {"class": "label", "x": f"{n(lx)}", "y": f"{y(ly + LABEL_PX * 0.22)}"})
            lt.text = label
    return svg


def _css(c):
    return f"""\
:root {{ --accent: {c['accent']}; --head: {c['head']}; --box: {c['box']}; --rule: {c['rule']};
  --ink: #1a1a1a; --paper: #ffffff; }}
*, *::before, *::after {{ box-sizing: border-box; }}
html {{ -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }}
body {{ margin: 0; background: var(--paper); color: var(--ink); line-height: 1.5;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem; }}
main, footer {{ max-width: 62rem; margin: 0 auto; padding: 0 1rem; }}
main > p, main > ul, main > ol, .steps p, .steps ul {{ max-width: 40rem; }}
h1, h2, h3 {{ color: var(--accent); line-height: 1.2; }}
h1 {{ font-size: 1.75rem; margin: 1.25rem 0 0.25rem; }}
h1 + p {{ margin-top: 0; color: #444; }}
h2 {{ font-size: 1.3rem; margin: 2rem 0 0.6rem; padding-bottom: 0.2rem; border-bottom: 2px solid var(--accent); }}
h3 {{ font-size: 1.05rem; margin: 0 0 0.4rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4rem; }}
ul {{ padding-left: 1.25rem; }}
li {{ margin: 0.15rem 0; }}
.vh {{ position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  clip-path: inset(50%); white-space: nowrap; }}
.flowchart {{ margin: 0.5rem 0 1rem; }}
.chart {{ display: block; width: 100%; height: auto; margin: 0 0 1.25rem; }}
.chart .box {{ fill: var(--box); stroke: var(--accent); stroke-width: 2; }}
.chart .box-title {{ fill: var(--accent); font-weight: 700; font-size: {TITLE_PX}px; }}
.chart .tab {{ fill: var(--accent); }}
.chart .tab-text {{ fill: #ffffff; font-weight: 700; font-size: {TAB_PX}px; text-anchor: middle; }}
.chart .shaft {{ fill: none; stroke: var(--accent); stroke-width: 2.2; }}
.chart .head {{ fill: var(--accent); }}
.chart .label-bg {{ fill: var(--paper); }}
.chart .label {{ fill: var(--ink); font-style: italic; font-size: {LABEL_PX}px; text-anchor: middle; }}
.steps {{ list-style: none; padding: 0; margin: 0; display: grid; gap: 1.6rem;
  grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }}
.steps > li {{ position: relative; margin: 0; padding: 0.75rem 0.9rem; background: var(--box);
  border: 2px solid var(--accent); border-radius: 6px; }}
.steps > li p {{ margin: 0 0 0.4rem; }}
.steps > li ul {{ margin: 0; }}
.step-no {{ flex: none; min-width: 1.6rem; padding: 0 0.3rem; border-radius: 3px;
  background: var(--accent); color: #ffffff; text-align: center; }}
.rule {{ flex: none; margin-left: auto; font-size: 0.85rem; font-weight: 700; color: var(--accent);
  border: 1px solid var(--accent); border-radius: 3px; padding: 0 0.35rem; }}
.table-wrap {{ max-width: 100%; overflow-x: auto; margin: 0.5rem 0 1.25rem; }}
.table-wrap:focus-visible {{ outline: 2px solid var(--accent); outline-offset: 2px; }}
table {{ border-collapse: collapse; font-size: 0.95rem; font-variant-numeric: tabular-nums; }}
th, td {{ padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--rule); vertical-align: top; }}
thead th {{ background: var(--head); border-bottom: 2px solid var(--accent); border-top: 2px solid var(--accent);
  text-align: left; }}
tbody th {{ font-weight: 600; text-align: left; }}
footer {{ margin-top: 2.5rem; padding-bottom: 2rem; font-size: 0.875rem; color: #444; border-top: 1px solid var(--rule); }}
@media (max-width: 40em) {{
  .chart {{ display: none; }}
  .steps {{ grid-template-columns: 1fr; }}
  .steps > li + li::before {{ content: ""; position: absolute; left: 1.4rem; top: calc(-1.6rem - 2px);
    height: 1.6rem; border-left: 2px solid var(--accent); }}
  h1 {{ font-size: 1.45rem; }}
  table {{ font-size: 0.875rem; }}
  th, td {{ padding: 0.25rem 0.4rem; }}
}}
@media print {{
  :root {{ --paper: #ffffff; --ink: #000000; }}
  body {{ font-size: 10pt; line-height: 1.35; }}
  main, footer {{ max-width: none; padding: 0; }}
  h2, h2 + p, p:has(+ .table-wrap) {{ break-after: avoid; page-break-after: avoid; }}
  .chart {{ display: block; break-inside: avoid; }}
  .steps {{ grid-template-columns: repeat(2, 1fr); gap: 0.8rem; }}
  .steps > li, tr, .table-wrap {{ break-inside: avoid; page-break-inside: avoid; }}
  .table-wrap {{ overflow: visible; }}
  footer {{ border: none; margin-top: 0.5rem; padding-bottom: 0; }}
}}
"""
