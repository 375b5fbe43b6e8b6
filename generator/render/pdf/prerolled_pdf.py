"""Pre-rolled bail-out tables: the rows of generator.content.rows printed page by page.

Each page's operators are made from pieces prepared once (prerolled_pages.py) and written to
the PDF as the page ends (pdf_stream.py), so the cost grows linearly with the rows and memory
holds a page at a time, not the document (no platypus Table, no canvas).  This module says
what is printed: the words, the legend, the sizes and the geometry.  The rows are generated
once per build context and shared by both papers and the CSV.  Text from data (labels, rule
numbers, sentences) is drawn as plain strings, never parsed as markup, and is wrapped and
ellipsised to fit.  Every word comes from the catalogue (ctx.words, keys "prerolled.*").

The fates stand left of the weapons, under their own heads, so a player uncovers them
left to right as the cards would come: each man's fate (a Hero card played before its man's
cell), then the weapons (an 871.4 Hero card played before its man's weapon cell).
"""

import functools
from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.content import rows as prerolled
from generator.content.context import BuildContext
from generator.content.rows import Table
from generator.content.words import Words
from generator.engine.odds import WEAPONS, Odds, fate_code, weapon_code
from generator.engine.procedure import PISTOL
from generator.errors import RenderError
from generator.layout import face_layout as fl
from generator.layout.paper import PAPERS, Paper
from generator.layout.table import TableGeometry, filled_rows, table_geometry
from generator.render import theme
from generator.render.pdf.canvas import (
    FaceSet,
    Pdf,
    document_info,
    edition_faces,
    ellipsise,
    page_ended,
    register_fonts,
)
from generator.render.pdf.pdf_stream import Document, PdfStream
from generator.render.pdf.pdfx import Press, press
from generator.render.pdf.prerolled_pages import Look, PageMaker

TYPE = theme.PAGE_TYPE
MARGIN = 30
ROW = 11.5                  # row pitch; the row text is BODY pt
BODY = TYPE.body            # the cells, in the condensed face
HEAD = TYPE.small           # column heads, condensed bold
HEAD_MIN = 7                # ... a man's head shrinks to this where ten columns are tight ("Hombre 5")
GROUP_LEAD = HEAD + 3       # the line over the men's heads naming the group (fates, weapons)
RULE_CHARS = 12             # a rule number cited in the heads and the legend, at most
LEGEND = TYPE.small
# The legend in the tables' own condensed face: a line of it says a whole sentence, so the
# first page's instructions keep to five lines in every edition.
LEGEND_LEAD = 9
LINES_PER_ITEM = 5          # a runaway sentence in data is ellipsised, never pushes rows off the page
TITLE_SIZE = TYPE.title     # page 1's title; later pages repeat it as a running head
RUNNING = TYPE.head
FOOTER = 16
DASH = "\u2013"             # a killed man's weapon cell: he draws none
PAD = 3                     # inner padding of a cell
# Colour tints (light, so text stays black-on-light in greyscale); dropped with --bw.
BAND = HexColor(theme.BAND)
KILLED_TINT = HexColor(theme.KILLED_TINT)
ARMED_TINT = HexColor(theme.YES_TINT)

KILLED = prerolled.KILLED
ARMED = tuple(weapon_code(w) for w in WEAPONS if w != PISTOL)     # a weapon besides the pistol

Legend = tuple[float, list[tuple[str, str]]]    # (hanging indent, [(key or '', line), ...])
Labels = dict[str, str]                         # {man code: the words its cell prints}


def cell_word(words: Words, name: str) -> str:
    """A cell's word for a fate or a weapon ('Killed', 'SMG'), also quoted by the legend."""
    return words(f"prerolled.cell.{name}")


def mode_word(words: Words, mode: str) -> str:
    """The --mode as the edition names it ('balanced' in English: the option's own name)."""
    return words(f"prerolled.mode.{mode}")


def man_labels(odds: Odds, words: Words) -> Labels:
    """{cell code: friendly text}: 'Unhurt', 'Killed', 'pistol', 'SMG' (fate and weapon codes differ)."""
    labels = {fate_code(f): cell_word(words, f) for f in odds.fate}
    labels.update({weapon_code(w): cell_word(words, w) for w in odds.weapon})
    return labels


def cell_font(code: str, face_set: FaceSet) -> str:
    """Bold for the cells a player must not miss: a killed man, a weapon besides the pistol."""
    return face_set.condensed_bold if code == KILLED or code in ARMED else face_set.condensed


def legend_sentences(ctx: BuildContext, table: Table) -> list[tuple[str, str]]:
    """How to use the table, worded from the rules data (the readings in force included), at
    most a line each: [(key word, sentence), ...].  How to hide, cut and share the tables, and
    what a printed seed is for, are README's; what the rule says, the aid's."""
    words, r = ctx.words, ctx.kit.rules
    notes = {i.name: i for i in r.interpretations}
    voluntary = notes["voluntary_casualties"]
    said = [
        (words("prerolled.legend.use.key"), words("prerolled.legend.use.text", closed=r.closed.rule, open=r.open.rule)),
        (words("prerolled.legend.read.key"), words("prerolled.legend.read.text", fate=r.fate.rule,
                                                   weapon=r.weapon.rule)),
        (words("prerolled.legend.hero.key"), words("prerolled.legend.hero.text", note=notes["hero_card"].note)),
        (words("prerolled.legend.voluntary.key"),
         words("prerolled.legend.voluntary.none" if voluntary.reading == "none" else "prerolled.legend.voluntary.other",
               note=voluntary.note)),
        (words("prerolled.legend.hide.key"), words("prerolled.legend.hide.text")),
    ]
    if table.mode == "balanced":
        said.append((words("prerolled.legend.rows.key"), _mode_text(words, table)))
    return said


def _mode_text(words: Words, table: Table) -> str:
    """How a balanced table's rows were drawn, owning up to a part block at the end."""
    block, rows = table.block, len(table.rows)
    said = [words("prerolled.legend.rows.balanced", block=block, next=block + 1, double=2 * block)]
    rest = rows % block
    if rest:
        whole = rows - rest
        said.append(words("prerolled.legend.rows.part", first=whole + 1, last=rows) if whole else
                    words("prerolled.legend.rows.short", rows=rows, block=block))
    return words.sentences(said)


def legend_lines(ctx: BuildContext, table: Table, width: float, codes: bool = False) -> Legend:
    """(indent, [(key, text), ...]): each sentence wrapped under a hanging indent, key on its first line."""
    sentences = legend_sentences(ctx, table)
    if codes:
        sentences.append((ctx.words("prerolled.legend.codes.key"), ctx.words("prerolled.legend.codes.text")))
    face_set = edition_faces(ctx.words.lang)
    indent = max(stringWidth(key, face_set.condensed_bold, LEGEND) for key, _ in sentences) + 6
    lines = []
    for key, sentence in sentences:
        wrapped = _wrapped(sentence, width - indent, face_set.condensed)
        if len(wrapped) > LINES_PER_ITEM:     # a runaway text from data keeps the other items on the page
            wrapped = [*wrapped[:LINES_PER_ITEM - 1], wrapped[LINES_PER_ITEM - 1] + " ..."]
        lines += [(key if i == 0 else "", ellipsise(line, face_set.condensed, LEGEND, width - indent))
                  for i, line in enumerate(wrapped)]
    return indent, lines


def _wrapped(text: str, width: float, font: str) -> list[str]:
    """`text` wrapped to `width` at its plain spaces: a no-break space (French spacing before a
    colon) holds, so no line starts with the mark; reportlab's simpleSplit where one word alone
    is wider than the line (data text), which breaks anywhere."""
    lines = fl.wrap(text, width, lambda t, _s, size: stringWidth(t, font, size), "body", LEGEND, phrases=False)
    return lines if lines is not None else simpleSplit(text, font, LEGEND, width) or [""]


def column_widths(table: Table, labels: Labels, words: Words, codes: bool) -> tuple[tuple[str, float, bool], ...]:
    """((key, minimum width, grows), ...) for the layout: measured from what the cells print (with
    the CSV's codes, a man's head may shrink to his number)."""
    rows = len(table.rows)
    last = max(c.man for c in table.columns)        # the widest head: the last man's (digits are one width)
    face_set = edition_faces(words.lang)
    head_w = stringWidth(str(last) if codes else words("prerolled.head.man", n=last), face_set.condensed_bold, HEAD_MIN)

    def width(kind: str) -> float:
        codes = {code for col in table.columns if col.kind == kind for code, _ in col.outcomes}
        return max([head_w] + [stringWidth(labels[c], cell_font(c, face_set), BODY) for c in codes]) + 2 * PAD
    fate_w, weapon_w = width(prerolled.FATE), width(prerolled.WEAPON)
    row_w = max(stringWidth(str(rows), face_set.condensed, BODY),
                stringWidth(words("prerolled.head.row"), face_set.condensed_bold, HEAD)) + 2 * PAD
    return (("row", row_w, False), ("tick", ROW + 2, False),
            *((c.name, fate_w if c.kind == prerolled.FATE else weapon_w, True) for c in table.columns))


def _geometry(ctx: BuildContext, paper: Paper, table: Table, alike: bool = True) \
        -> tuple[TableGeometry, Legend, Labels]:
    """(geometry, legend lines, labels): friendly cell text, or the CSV codes if it cannot fit.
    `alike`: every paper paginates alike (capacity()), a paper with room for more rows spreading
    the same rows a page wider apart, so page 3 holds the same rows on A4 and on Letter."""
    friendly = man_labels(ctx.odds, ctx.words)
    most = capacity(ctx, table) if alike else None

    def laid_out(labels: Labels, codes: bool) -> tuple[TableGeometry, Legend, Labels]:
        legend = legend_lines(ctx, table, paper.width - 2 * MARGIN, codes)
        heads = GROUP_LEAD + HEAD + 6
        first = TITLE_SIZE + 6 + LEGEND_LEAD * len(legend[1]) + 6 + heads
        geo = table_geometry(paper, column_widths(table, labels, ctx.words, codes), row_height=ROW,
                             top=(first, RUNNING + 6 + heads), bottom=FOOTER, margin=MARGIN, most=most)
        return geo, legend, labels
    try:
        return laid_out(friendly, False)
    except RenderError:     # the words do not fit: the CSV's codes, explained in the legend
        return laid_out({code: code for code in friendly}, True)


def capacity(ctx: BuildContext, table: Table) -> tuple[int, int]:
    """(rows on page 1, rows on a later page) of `table` on every paper alike: the fewest any
    paper holds at the rows' own pitch."""
    geos = [_geometry(ctx, paper, table, alike=False)[0] for paper in PAPERS.values()]
    return min(g.first_rows for g in geos), min(g.rows_per_page for g in geos)


def default_rows(ctx: BuildContext) -> int:
    """The rows a table has when --rows is not given: whole pages (whole blocks in balanced mode,
    the last page as full as blocks allow), about TARGET_ROWS; the same on every paper."""
    register_fonts(edition_faces(ctx.words.lang))
    provisional = prerolled.generate(ctx.kit, ctx.odds, seed=ctx.options.seed, mode=ctx.options.mode)
    first, later = capacity(ctx, provisional)
    block = provisional.block if provisional.mode == "balanced" else 1
    return filled_rows(first, later, prerolled.TARGET_ROWS, block)


def page_count(ctx: BuildContext, paper: Paper, table: Table) -> int:
    """How many pages `table` makes on `paper` (laid out, not drawn)."""
    register_fonts(edition_faces(ctx.words.lang))
    return _geometry(ctx, paper, table)[0].pages(len(table.rows))


def render(ctx: BuildContext, paper: Paper, table: Table, *, fast_text: bool = True) -> Pdf:
    """The tables on `paper`, as bytes; see write()."""
    written = bytearray()
    pages = write(ctx, paper, table, written.extend, fast_text=fast_text)
    return Pdf(written, pages)


def write(ctx: BuildContext, paper: Paper, table: Table, sink: Callable[[bytes], object], *,
          fast_text: bool = True) -> int:
    """The rows of `table` on `paper` written into `sink` page by page (pdf_stream.py), so memory
    holds one page's operators at a time; the page count.  The cells come from pieces prepared
    once (prerolled_pages.Pieces) unless `fast_text` is False: then each cell is measured and
    placed on its own, the plain and slower way that the pieces must print the same as."""
    register_fonts(edition_faces(ctx.words.lang))       # measuring text needs the faces registered
    geo, legend, labels = _geometry(ctx, paper, table)
    rows = len(table.rows)
    pages = geo.pages(rows)
    words = ctx.words
    info = document_info(ctx)
    doc = PdfStream(sink, paper.width, paper.height, Document(
        words("prerolled.meta.title", paper=paper.label),
        words("prerolled.meta.subject", rule=ctx.kit.rules.number, seed=seed_text(ctx),
              mode=mode_word(words, table.mode), rows=rows, data=ctx.kit.short_hash),
        info.author, info.creator, info.keywords), press=_press(ctx, paper))
    maker = PageMaker(doc, _look(ctx, paper, table, geo, labels), legend, fast=fast_text)
    groups = {g[3]: g for g in geo.bookmark_groups(rows)}
    for page in range(1, pages + 1):
        span = geo.page_rows(page, rows)
        group = groups.get(page)
        title = words("prerolled.outline.rows", first=group[1], last=group[2]) if group else None
        columns = [table.rows.column(i, span.start, span.stop) for i in range(len(table.columns))]
        doc.page(maker.page(page, pages, span, columns), bookmark=title)
        page_ended()
    return doc.close()


def _press(ctx: BuildContext, paper: Paper) -> Press | None:
    """A print shop's page for the tables (its profile's prepress), made as each page is written:
    the tables of any length stream for a shop too."""
    prepress = ctx.options.profile.prepress
    if prepress is None:
        return None
    return press(prepress, ctx.options.marks, paper.width, paper.height)


def _look(ctx: BuildContext, paper: Paper, table: Table, geo: TableGeometry, labels: Labels) -> Look:
    face_set = edition_faces(ctx.words.lang)
    return Look(ctx, paper, table, geo, labels, body=BODY, row=ROW, head=HEAD, head_min=HEAD_MIN,
                group_lead=GROUP_LEAD, legend=LEGEND, legend_lead=LEGEND_LEAD, title_size=TITLE_SIZE,
                running=RUNNING, margin=MARGIN, pad=PAD, rule_chars=RULE_CHARS, text_font=face_set.body,
                text_bold=face_set.bold, cell=face_set.condensed, cell_bold=face_set.condensed_bold,
                dash=DASH, killed_code=KILLED, armed_codes=ARMED, band=BAND, killed_tint=KILLED_TINT,
                armed_tint=ARMED_TINT, cell_font=functools.partial(cell_font, face_set=face_set))


def seed_text(ctx: BuildContext) -> str:
    """The seed as the table prints it: the number, or the word for a private one."""
    return str(ctx.options.seed) if ctx.options.seed_shown else ctx.words("prerolled.seed.private")
