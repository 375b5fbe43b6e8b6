"""The player-aid sheet: templates/aid.md.j2 -> Markdown -> flowables -> at most one duplex sheet.

The template's text is Markdown with Jinja2 placeholders bound to the rules data and the exact
odds; every `{{ }}` output is Markdown-escaped on the way out (Jinja `finalize`), so data text
can never add structure, and the Markdown walk escapes it again for reportlab.  Page 1 puts the
title and the flowchart across the page, then two columns; page 2 likewise (the template's
`---` lines make the cuts).  Body text is the largest of 9, 8.5 and 8 pt that fits two pages;
past that is a RenderError, never a third page.
"""

import io
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, FrameBreak, PageBreak, PageTemplate, Spacer
from reportlab.platypus.doctemplate import LayoutError

from .. import __version__
from .. import rules as R
from ..data import FATES
from ..errors import RenderError
from ..odds import man_code, percent
from . import flowchart
from .common import AUTHOR, CREATOR, FONT, draw_footer, register_fonts, set_metadata
from .glyphs import check_printable
from .markdown_flow import Converter, make_styles
from ..paths import template_folder

TEMPLATES = template_folder()
TEMPLATE = "aid.md.j2"
TEMPLATE_FILE = TEMPLATES / TEMPLATE
MAX_PAGES = 2
BODY_SIZES = (9.0, 8.5, 8.0)    # largest that fits two pages; the floor: body >= 8 pt, tables >= 7 pt
MARGIN, COLUMN_GAP, FOOTER = 28.0, 16.0, 32.0    # FOOTER: the frames' bottom edge
MIN_COLUMN = 24.0                # shorter columns under a full-width part are left out
ACCENT = colors.HexColor("#3b4722")     # dark olive: near-black once printed grey
HEAD_FILL = colors.HexColor("#e3dfca")
BOX_FILL = colors.HexColor("#f7f5ed")
NAME_CHARS, MODEL_CHARS = 28, 40        # longer data text is ellipsised in table cells


def render(ctx, paper):
    register_fonts()
    text = markdown_text(ctx, paper)
    for size in BODY_SIZES:
        try:    # the footer's "of N" guesses a full sheet; a shorter aid is built once more
            pdf, pages = _build(ctx, paper, text, size, total=MAX_PAGES)
        except _TooLong:
            continue
        if pages == MAX_PAGES:
            return pdf
        if pages < MAX_PAGES:
            return _build(ctx, paper, text, size, total=pages)[0]
    raise RenderError(f"{TEMPLATE_FILE}: the player aid does not fit {MAX_PAGES} pages of {paper.label} "
                      f"even at {BODY_SIZES[-1]} pt; shorten the template's text or the long sentences in "
                      f"{ctx.kit.directory / 'rules.toml'} (or a long name in {ctx.kit.directory / 'nationalities'})")


class _TooLong(Exception):
    """A full-width part does not fit its page at this size."""


# -- the text -------------------------------------------------------------------------------

def markdown_text(ctx, paper, template_dir=None):
    """The aid's Markdown: the template rendered with the data and odds (a RenderError on failure)."""
    folder = Path(template_dir or TEMPLATES)
    env = SandboxedEnvironment(loader=jinja2.FileSystemLoader(str(folder)), undefined=jinja2.StrictUndefined,
                               autoescape=False, finalize=md_escape, trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True)
    env.filters.update(pct=percent, frac=fraction_text, signed=signed, fit=fit)
    path = folder / TEMPLATE
    values = template_vars(ctx, paper)
    try:
        return env.get_template(TEMPLATE).render(**values)
    except jinja2.TemplateSyntaxError as error:
        raise RenderError(f"{error.filename or path}:{error.lineno}: {error.message}") from None
    except jinja2.TemplateNotFound:
        raise RenderError(f"{path}: template not found") from None
    except Exception as error:      # an undefined name, a bad filter argument, a sandbox refusal ...
        line = _template_line(error.__traceback__, str(path))
        where = f"{path}:{line}" if line else str(path)
        raise RenderError(f"{where}: {type(error).__name__}: {error}") from None


def _template_line(tb, filename):
    """The template line a render error came from (Jinja maps its frames to the template file)."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def template_vars(ctx, paper):
    kit, odds = ctx.kit, ctx.odds
    r = kit.rules
    sizes = r.crew.aid_crew_sizes
    missing = [s for s in sizes if s not in odds.survivors]
    if missing:
        raise RenderError(f"{kit.directory / 'rules.toml'}: crew.aid_crew_sizes lists {missing}, larger than "
                          f"crew.size = {r.crew.size}")
    check_printable(kit)
    return {
        "rules": r, "odds": odds, "version": __version__, "data_hash": kit.short_hash, "paper": paper.label,
        "fates": FATES,
        "notes": {i.name: i for i in r.interpretations},
        "crew_sizes": sizes,
        "survivor_counts": list(range(max(sizes) + 1)) if sizes else [],
        "morale_rows": [(m, R.crew_morale(r, m, 1)[0], [R.crew_morale(r, m, s)[1] for s in sizes])
                        for m in r.crew.aid_afv_morale],
        "pistol_ccv": R.pistol_only_ccv(r),
        "man_rows": [(man_code(fate, weapon), fate, weapon, p) for (fate, weapon), p in odds.man.items()],
        "nationalities": [weapon_rows(n, r) for n in kit.nationalities],
        "any_gap": any(n.smg_in(y) is None for n in kit.nationalities for y in r.years()),
        "NAME_CHARS": NAME_CHARS, "MODEL_CHARS": MODEL_CHARS,
    }


def weapon_rows(nationality, rules):
    """{name, rifle: [(years, model)], smg: [(years, (model or None, what a man takes instead))]}.

    In a year with no SMG in service, interpretation 6 says what a man who draws one carries.
    """
    def smg(year):
        model = nationality.smg_in(year)
        return model, None if model else R.weapon_model(rules, nationality, year, "smg")
    return {"name": nationality.name,
            "rifle": _runs(nationality.rifle_in, rules.years()),
            "smg": _runs(smg, rules.years())}


def _runs(model_in, years):
    """Consecutive years carrying the same model, as ('1939-41', model); None where there is none."""
    runs = []
    for year in years:
        model = model_in(year)
        if runs and runs[-1][2] == model and runs[-1][1] == year - 1:
            runs[-1][1] = year
        else:
            runs.append([year, year, model])
    return [(year_span(a, b), m) for a, b, m in runs]


def year_span(first, last):
    if first == last:
        return str(first)
    tail = str(last)[2:] if str(first)[:2] == str(last)[:2] else str(last)
    return f"{first}\u2013{tail}"


def md_escape(value):
    """Every placeholder's output as literal Markdown text: no structure can come from data."""
    if value is None:
        return ""
    text = " ".join(str(value).split())     # no newline may end a table row or start a block
    out = []
    for ch in text:
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch in "\\`*_{}[]()#+-.!|>":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def fraction_text(p):
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def signed(n):
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "\u00b10")


def fit(text, limit):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "\u2026"


# -- the pages ------------------------------------------------------------------------------

def _styles(ctx, size):
    bw = ctx.options.bw
    return make_styles(size, accent=colors.black if bw else ACCENT, head_fill=None if bw else HEAD_FILL,
                       table_size=size - 1)


def _flowables(ctx, text, size):
    styles = _styles(ctx, size)
    bw = ctx.options.bw

    def chart(el, converter):
        return flowchart.from_element(el, converter, accent=styles.rule_colour, fill=None if bw else BOX_FILL,
                                      head_fill=None if bw else HEAD_FILL, source=TEMPLATE_FILE)
    return Converter(styles, {"flowchart": chart}, prefix="aid").convert(text)


def _build(ctx, paper, text, size, total):
    """(pdf bytes, page count) for body text of `size` pt; `total` goes in the footer.

    The template's `---` rules cut the story into: page 1 across the page | page 1 in two
    columns | page 2 across the page | page 2 in two columns.
    """
    story = _flowables(ctx, text, size)
    cuts = [i for i, f in enumerate(story) if isinstance(f, type(FrameBreak))]
    if len(cuts) != 3:
        raise RenderError(f"{TEMPLATE_FILE}: needs exactly three '---' lines (page 1 head | columns | "
                          f"page 2 head | columns); found {len(cuts)}")
    story[cuts[1]] = PageBreak()
    width = paper.width - 2 * MARGIN
    height = paper.height - MARGIN - FOOTER
    top = paper.height - MARGIN
    col_w = (width - COLUMN_GAP) / 2
    templates = []
    for page, (start, end) in enumerate(((0, cuts[0]), (cuts[1] + 1, cuts[2])), 1):
        head_h = _stack_height(story[start:end], width, height)
        if head_h > height:
            raise _TooLong()
        frames = [Frame(MARGIN, top - head_h, width, head_h, id=f"p{page}head", **NO_PAD)] if head_h else []
        if not head_h:
            story[end] = Spacer(0, 0)       # no full-width part: the columns start at the top
        col_top = top - head_h - (COLUMN_GAP / 2 if head_h else 0)
        if col_top - FOOTER > MIN_COLUMN:
            frames += [Frame(MARGIN + i * (col_w + COLUMN_GAP), FOOTER, col_w, col_top - FOOTER,
                             id=f"p{page}col{i}", **NO_PAD) for i in (0, 1)]
        templates.append(frames)
    title = _title(ctx)

    def on_page(canvas, doc):
        if canvas.getPageNumber() == 1:
            set_metadata(canvas, title, _subject(ctx))
        draw_footer(canvas, ctx, paper, canvas.getPageNumber(), total, margin=24)

    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=(paper.width, paper.height), invariant=1, pageCompression=1,
                          title=title, subject=_subject(ctx), author=AUTHOR, creator=CREATOR,
                          initialFontName=FONT, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                          bottomMargin=FOOTER)
    doc.addPageTemplates([
        PageTemplate("page1", templates[0], onPage=on_page, autoNextPageTemplate="page2"),
        # Anything past page 2 (only while trying a size) reuses page 2's frames.
        PageTemplate("page2", templates[1], onPage=on_page, autoNextPageTemplate="page2"),
    ])
    try:
        doc.build(story)
    except LayoutError as error:
        raise RenderError(f"{TEMPLATE_FILE}: cannot lay out the player aid on {paper.label}: {error}") from None
    return buffer.getvalue(), doc.page


NO_PAD = {"leftPadding": 0, "rightPadding": 0, "topPadding": 0, "bottomPadding": 0}


def _stack_height(flowables, width, height):
    """The height `flowables` take stacked in a frame `width` wide (0 for none)."""
    canvas = Canvas(io.BytesIO())        # a scratch canvas: some flowables measure on one
    total = 0.0
    for i, f in enumerate(flowables):
        _, h = f.wrapOn(canvas, width, height)
        total += h + (f.getSpaceBefore() if i else 0)
        if i + 1 < len(flowables):
            total += f.getSpaceAfter()
    return total + 2 if flowables else 0.0      # slack: the last of these must never be pushed over


def _title(ctx):
    r = ctx.kit.rules
    return f"{r.number} {r.title}: player aid"


def _subject(ctx):
    r = ctx.kit.rules
    return f"The whole {r.number} procedure, exact odds and tables for {r.game} (variant by {r.credit})"
