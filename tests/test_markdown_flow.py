"""Markdown -> flowables: the element-tree walk, escaping, tables, lists, bookmarks, the fonts
and the kept paragraphs they are set in."""

import io
import subprocess
import sys
import textwrap

import pypdf
from reportlab.platypus import KeepTogether, ListFlowable, Paragraph, SimpleDocTemplate

from conftest import ROOT
from generator.render.pdf.canvas import register_fonts
from generator.render.pdf.markdown_pdf import FitTable, Heading, make_styles, to_flowables

register_fonts()
STYLES = make_styles(9)


def paragraphs(flowables):
    return [f for f in flowables if isinstance(f, Paragraph)]


def test_text_is_escaped_never_parsed_as_markup():
    out = to_flowables("Fire <b>& <font size=99>x</font> &amp; done\n", STYLES)
    (p,) = paragraphs(out)
    assert p.getPlainText() == "Fire <b>& <font size=99>x</font> & done"
    assert all(frag.fontName == "IBMPlexSans" and frag.fontSize == 9 for frag in p.frags)


def test_emphasis_becomes_fonts():
    (p,) = paragraphs(to_flowables("plain **bold** and *italic*\n", STYLES))
    fonts = {frag.text.strip(): frag.fontName for frag in p.frags if frag.text.strip()}
    assert fonts == {"plain": "IBMPlexSans", "bold": "IBMPlexSans-Bold", "and": "IBMPlexSans",
                     "italic": "IBMPlexSans-Italic"}


def test_headings_get_numbered_outline_keys():
    out = to_flowables("# One\n\n## Two *x*\n\n### Three\n", STYLES, prefix="t")
    heads = [f for f in out if isinstance(f, Heading)]
    assert [h.outline for h in heads] == [("t-1", "One", 0), ("t-2", "Two x", 0), ("t-3", "Three", 1)]


def test_lists_and_tables():
    text = "- a\n- b\n\nthen\n\n1. x\n2. y\n\n| k | v |\n|:--|--:|\n| <&> | 1/3 |\n| 2 | `c` |\n"
    out = to_flowables(text, STYLES)
    # a short list is kept whole: inside a KeepTogether
    lists = [part for f in out if isinstance(f, KeepTogether) for part in f._content if isinstance(part, ListFlowable)]
    tables = [f for f in out if isinstance(f, FitTable)]
    assert len(lists) == 2 and len(tables) == 1
    table = tables[0]
    assert [[str(cell) for cell, _ in row] for row in table.rows] == [["k", "v"], ["<&>", "1/3"], ["2", "c"]]
    assert table.aligns == ["left", "right"] and table.header_rows == 1


def test_a_short_list_stays_with_its_heading_and_a_long_one_may_split():
    short = to_flowables("## Close combat\n\n- a\n- b\n- c\n", STYLES)
    assert len(short) == 1 and isinstance(short[0], KeepTogether)
    assert [type(part).__name__ for part in short[0]._content] == ["RuledHeading", "ListFlowable"]
    long = to_flowables("## Notes\n\n" + "".join(f"- item {i}\n" for i in range(9)), STYLES)
    assert [type(f).__name__ for f in long] == ["RuledHeading", "ListFlowable"]


def test_table_fits_any_width_and_line_breaks():
    out = to_flowables("| a | b |\n|--|--|\n| one<br>two | " + "word " * 60 + "|\n", STYLES)
    (table,) = [f for f in out if isinstance(f, FitTable)]
    for width in (120, 300, 500):
        w, h = table.wrap(width, 1000)
        assert w <= width + 0.01 and h > 0
    assert str(table.rows[1][0][0]) == "one\ntwo"


def test_div_handler_and_frame_break():
    seen = []

    def handler(el, converter):
        seen.append([li.tag for li in el.iter("li")])
        return Paragraph("chart", STYLES.body)

    out = to_flowables('<div class="chart" markdown="1">\n\n1. **A** x\n2. **B** y\n\n</div>\n\n---\n\nafter\n',
                       STYLES, handlers={"chart": handler})
    assert seen == [["li", "li"]]
    assert type(out[1]).__name__ == "_FrameBreak"
    assert out[-1].getPlainText() == "after"


def test_renders_to_pdf_with_bookmarks():
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, invariant=1)
    doc.build(to_flowables("## Alpha\n\ntext\n\n## Beta <&\n\n| a |\n|--|\n| b |\n", STYLES, prefix="k"))
    reader = pypdf.PdfReader(buffer)
    assert [o.title for o in reader.outline] == ["Alpha", "Beta <&"]
    assert "Beta <&" in reader.pages[0].extract_text()


def test_the_tables_and_counters_parse_no_italic_face():
    # Only the aid sets italics: the faces it alone needs are parsed only when asked for.
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        from reportlab.pdfbase import pdfmetrics
        from generator.render.pdf.canvas import register_fonts, LATIN
        register_fonts()
        names = set(pdfmetrics.getRegisteredFontNames())
        print({LATIN.body, LATIN.bold} <= names, bool({LATIN.italic, LATIN.bold_italic} & names))
        register_fonts(italics=True)
        print({LATIN.italic, LATIN.bold_italic} <= set(pdfmetrics.getRegisteredFontNames()))
    """)], capture_output=True, text=True, cwd=ROOT, timeout=120)       # a fresh process: no font registered yet
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "True"]


def test_a_kept_paragraph_wraps_as_reportlabs_at_every_width_and_after_a_refused_split():
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from generator.render.pdf.canvas import LATIN, register_fonts
    from generator.render.pdf.markdown_pdf import KeptParagraph
    register_fonts()
    style = ParagraphStyle("t", fontName=LATIN.body, fontSize=9, leading=11)
    text = "Each crew member checks once, in the order the crew counter lists them, " * 6
    kept = KeptParagraph(text, style)
    for width in (120.0, 300.0, 120.0, 120.0, 61.5):
        assert kept.wrap(width, 1000) == Paragraph(text, style).wrap(width, 1000)
    kept.wrap(120.0, 1000)
    assert kept.split(120.0, 5) == []            # no room for two lines: reportlab drops its lines
    assert kept.wrap(120.0, 1000) == Paragraph(text, style).wrap(120.0, 1000) and kept.blPara.lines


def test_a_table_measures_and_draws_as_a_fresh_one_in_any_room_and_after_a_split():
    # FitTable keeps a measurement taken whole; what it answers must stay what its table,
    # measured afresh, answers: in less room than the table's height, at another width and back,
    # and after a split has measured the table in a short room.
    from reportlab.pdfgen.canvas import Canvas

    rows = [[("Roll", STYLES.head_cell), ("What the crew member does", STYLES.head_cell)]] + \
        [[(str(n), STYLES.cell), ("bails out and runs for cover " * (n % 3 + 1), STYLES.cell)] for n in range(40)]

    def fresh():
        return FitTable(rows, [None, None], STYLES)

    def drawn(table):
        canvas = Canvas(io.BytesIO(), invariant=1)
        table.drawOn(canvas, 0, 0)
        return canvas.getpdfdata()

    assert fresh().wrap(150, 2000) != fresh().wrap(200, 2000)   # the width changes what it measures
    table = fresh()
    for width, room in ((200, 2000), (200, 60), (200, 2000), (150, 2000), (200, 2000)):
        assert table.wrap(width, room) == fresh().wrap(width, room)
    assert len(table.split(200, 300)) == 2
    assert table.wrap(200, 2000) == fresh().wrap(200, 2000)
    whole = fresh()
    whole.wrap(200, 2000)
    assert drawn(table) == drawn(whole)


def test_the_flowchart_lays_out_as_a_fresh_one_at_every_width_it_is_asked():
    # The flowchart keeps its layout for the width it was laid out at; asked at another width and
    # back, it answers and draws as a flowchart laid out there once.
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.pdf.chart_pdf import Box, Flowchart

    def fresh():
        boxes = [Box(f"Step {n}", f"7.{n}", [Paragraph("The crew member checks, then bails out " * n, STYLES.body)])
                 for n in range(1, 6)]
        return Flowchart(boxes, STYLES, per_row=3, bypasses=[(1, 3)], bypass_labels=["voluntary"])

    def drawn(chart):
        canvas = Canvas(io.BytesIO(), invariant=1)
        chart.drawOn(canvas, 0, 0)
        return canvas.getpdfdata()

    scratch = Canvas(io.BytesIO())
    assert fresh().wrapOn(scratch, 300, 1000) != fresh().wrapOn(scratch, 500, 1000)
    chart = fresh()
    for width, room in ((500, 1000), (500, 400), (300, 1000), (500, 1000)):
        assert chart.wrapOn(scratch, width, room) == fresh().wrapOn(scratch, width, room)
    once = fresh()
    once.wrapOn(scratch, 500, 1000)
    assert drawn(chart) == drawn(once)
