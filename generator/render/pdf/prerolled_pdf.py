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
from generator.data import FATES
from generator.data.model import Check, Interpretation
from generator.engine.odds import WEAPONS, Odds, fate_code, weapon_code
from generator.engine.procedure import PISTOL, draws_weapon
from generator.errors import RenderError
from generator.layout import face_layout as fl
from generator.layout.paper import Paper
from generator.layout.table import TableGeometry, table_geometry
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
from generator.text import without_full_stop

TYPE = theme.PAGE_TYPE
MARGIN = 30
ROW = 11.5                  # row pitch; the row text is BODY pt
BODY = TYPE.body            # the cells, in the condensed face
HEAD = TYPE.small           # column heads, condensed bold
HEAD_MIN = 7                # ... a man's head shrinks to this where ten columns are tight ("Hombre 5")
GROUP_LEAD = HEAD + 3       # the line over the men's heads naming the group (fates, weapons)
RULE_CHARS = 12             # a rule number cited in the heads and the legend, at most
LEGEND = TYPE.small
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
    """How to use the table, worded from the rules data (the readings in force included):
    [(key word, sentence), ...]."""
    words, r = ctx.words, ctx.kit.rules
    notes = {i.name: i for i in r.interpretations}
    # The table prints no notes: it cites them as the player aid's, or prints their sentence.
    cite = {name: words("prerolled.legend.note", note=i.note) for name, i in notes.items()}
    hide = words("prerolled.legend.hide.text", first=words("prerolled.head.man", n=1))
    # a printed seed lets anyone print the same rows
    seed = [(words("prerolled.legend.seed.key"), words("prerolled.legend.hide.seed"))] if ctx.options.seed_shown else []
    # where a nationality had no SMG, the cell's SMG is read as the note says
    no_smg = notes["no_smg"]
    smg = words("prerolled.legend.smg.text", sentence=without_full_stop(no_smg.sentence), note=cite["no_smg"])
    return [
        (words("prerolled.legend.use.key"), words("prerolled.legend.use.text", fate=r.fate.rule, weapon=r.weapon.rule)),
        *seed,
        (words("prerolled.legend.check.key"), _check_text(words, r.closed, r.open, notes["over_kill"],
                                                          cite["over_kill"])),
        (words("prerolled.legend.hide.key"), hide),
        (words("prerolled.legend.men.key"), _men_text(ctx)),
        (words("prerolled.legend.smg.key"), smg),
        (words("prerolled.legend.hero.key"), _hero_text(ctx, cite["hero_card"])),
        (words("prerolled.legend.voluntary.key"), _voluntary_text(words, notes["voluntary_casualties"],
                                                                  cite["voluntary_casualties"])),
        (words("prerolled.legend.rows.key"), words("prerolled.legend.rows.text", mode=_mode_text(words, table))),
    ]


def _check_text(words: Words, closed: Check, open_: Check, over: Interpretation, note: str) -> str:
    """The check is the kill card's (871.1.a/b): when it allows a bail-out (the over-kill reading
    in force), on which of its columns; the table is read only after it."""
    when = words("prerolled.legend.check.exact" if over.reading == "no_bail_out" else "prerolled.legend.check.any")
    return words("prerolled.legend.check.text", when=when, note=note, closed=closed.rule,
                 closed_label=closed.label, closed_column=closed.column, open=open_.rule, open_label=open_.label,
                 open_column=open_.column)


def _men_text(ctx: BuildContext) -> str:
    """The order the crew is laid out in, what each group of columns holds, whose weapon is read."""
    words, r = ctx.words, ctx.kit.rules
    no_weapon = [cell_word(words, f) for f in FATES if not draws_weapon(r, f)]
    none = words("prerolled.legend.men.none", fates=words.either(no_weapon)) if no_weapon else ""
    return words("prerolled.legend.men.text", first=words("prerolled.head.man", n=1),
                 last=words("prerolled.head.man", n=r.crew.size), fate=r.fate.rule, weapon=r.weapon.rule,
                 casualty=r.crew.commander_casualty_rule, none=none, crew=r.crew.morale_rule)


def _hero_text(ctx: BuildContext, note: str) -> str:
    """When a Hero card is played, and which cells it replaces: one card or two (the hero_card
    reading in force).  Each is played before the cell it replaces is uncovered, so it gives
    nothing away."""
    words, r = ctx.words, ctx.kit.rules
    hero = r.hero
    key = "prerolled.legend.hero.single" if r.setting("hero_card") == "single" else "prerolled.legend.hero.separate"
    # the fate in the edition's words, as its cells print it (lower case: it ends a phrase)
    return words(key, result=cell_word(words, hero.fate_result).lower(), fate_rule=hero.fate_rule,
                 weapon_rule=hero.weapon_rule,
                 choice=words.either(cell_word(words, k) for k in hero.weapon_choice),
                 unpins=words("prerolled.legend.hero.unpins") if hero.unpins else "", note=note)


def _voluntary_text(words: Words, voluntary: Interpretation, note: str) -> str:
    """The voluntary bail-out reading in force (its own sentence, from data) and how to read the row."""
    read = words("prerolled.legend.voluntary.none" if voluntary.reading == "none"
                 else "prerolled.legend.voluntary.other")
    return words("prerolled.legend.voluntary.text", sentence=without_full_stop(voluntary.sentence), note=note,
                 read=read)


def _mode_text(words: Words, table: Table) -> str:
    """How the rows were drawn, owning up to a part block at the end."""
    block, rows = table.block, len(table.rows)
    if table.mode != "balanced":
        return words("prerolled.legend.rows.independent")
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
    indent = max(stringWidth(key, face_set.bold, LEGEND) for key, _ in sentences) + 6
    lines = []
    for key, sentence in sentences:
        wrapped = _wrapped(sentence, width - indent, face_set.body)
        if len(wrapped) > LINES_PER_ITEM:     # a runaway text from data keeps the other items on the page
            wrapped = [*wrapped[:LINES_PER_ITEM - 1], wrapped[LINES_PER_ITEM - 1] + " ..."]
        lines += [(key if i == 0 else "", ellipsise(line, face_set.body, LEGEND, width - indent))
                  for i, line in enumerate(wrapped)]
    return indent, lines


def _wrapped(text: str, width: float, font: str) -> list[str]:
    """`text` wrapped to `width` at its plain spaces: a no-break space (French spacing before a
    colon) holds, so no line starts with the mark; reportlab's simpleSplit where one word alone
    is wider than the line (data text), which breaks anywhere."""
    lines = fl.wrap(text, width, lambda t, _s, size: stringWidth(t, font, size), "body", LEGEND)
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


def _geometry(ctx: BuildContext, paper: Paper, table: Table) -> tuple[TableGeometry, Legend, Labels]:
    """(geometry, legend lines, labels): friendly cell text, or the CSV codes if it cannot fit."""
    friendly = man_labels(ctx.odds, ctx.words)

    def laid_out(labels: Labels, codes: bool) -> tuple[TableGeometry, Legend, Labels]:
        legend = legend_lines(ctx, table, paper.width - 2 * MARGIN, codes)
        heads = GROUP_LEAD + HEAD + 6
        first = TITLE_SIZE + 6 + LEGEND_LEAD * (1 + len(legend[1])) + 6 + heads
        geo = table_geometry(paper, column_widths(table, labels, ctx.words, codes), row_height=ROW,
                             top=(first, RUNNING + 6 + heads), bottom=FOOTER, margin=MARGIN)
        return geo, legend, labels
    try:
        return laid_out(friendly, False)
    except RenderError:     # the words do not fit: the CSV's codes, explained in the legend
        return laid_out({code: code for code in friendly}, True)


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
                armed_tint=ARMED_TINT, cell_font=functools.partial(cell_font, face_set=face_set),
                seed=seed_text(ctx), mode=mode_word(ctx.words, table.mode))


def seed_text(ctx: BuildContext) -> str:
    """The seed as the table prints it: the number, or the word for a private one."""
    return str(ctx.options.seed) if ctx.options.seed_shown else ctx.words("prerolled.seed.private")
