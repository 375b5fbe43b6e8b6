"""Pre-rolled bail-out tables: the rows of generator.content.rows printed page by page.

Drawn straight on the canvas, one page at a time (no platypus Table), so the cost grows
linearly with the rows.  The rows are generated once per build context and shared by both
papers and the CSV.  Text from data (labels, rule numbers, sentences) is drawn as plain
strings, never parsed as markup, and is wrapped and ellipsised to fit.  Every word comes from
the catalogue (ctx.words, keys "prerolled.*").

The fates stand left of the weapons, under their own heads, so a player uncovers them
left to right as the cards would come: each man's fate (a Hero card played before its man's
cell), then the weapons (an 871.4 Hero card played before its man's weapon cell).
"""

import re
from collections.abc import Sequence
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

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
from generator.layout.table import ColumnBox, TableGeometry, table_geometry
from generator.render import theme
from generator.render.pdf.canvas import (
    BOLD,
    CONDENSED,
    CONDENSED_BOLD,
    FONT,
    draw_footer,
    ellipsise,
    finish,
    new_canvas,
    register_fonts,
)
from generator.text import truncate

TYPE = theme.PAGE_TYPE
MARGIN = 30
ROW = 11.5                  # row pitch; the row text is BODY pt
BODY = TYPE.body            # the cells, in the condensed face
CELL, CELL_BOLD = CONDENSED, CONDENSED_BOLD
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

KILLED = fate_code("killed")
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


def cell_font(code: str) -> str:
    """Bold for the cells a player must not miss: a killed man, a weapon besides the pistol."""
    return CELL_BOLD if code == KILLED or code in ARMED else CELL


def dashed(table: Table) -> dict[int, int]:
    """{a weapon column's index: its man's fate column's index}: where a killed man's weapon
    cell prints a dash (the row keeps its drawn weapon; the CSV has it)."""
    fates = {col.man: i for i, col in enumerate(table.columns) if col.kind == prerolled.FATE}
    return {i: fates[col.man] for i, col in enumerate(table.columns) if col.kind == prerolled.WEAPON}


def shown(table: Table, row: Sequence[str], weapon_of: dict[int, int]) -> list[str]:
    """The codes a row's cells print: each as drawn, but a dash for a killed man's weapon."""
    return [DASH if i in weapon_of and row[weapon_of[i]] == KILLED else code for i, code in enumerate(row)]


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
    smg = words("prerolled.legend.smg.text", sentence=no_smg.sentence.rstrip().rstrip("."), note=cite["no_smg"])
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
    return words("prerolled.legend.voluntary.text", sentence=voluntary.sentence.rstrip().rstrip("."), note=note,
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
    return " ".join(said)


def legend_lines(ctx: BuildContext, table: Table, width: float, codes: bool = False) -> Legend:
    """(indent, [(key, text), ...]): each sentence wrapped under a hanging indent, key on its first line."""
    sentences = legend_sentences(ctx, table)
    if codes:
        sentences.append((ctx.words("prerolled.legend.codes.key"), ctx.words("prerolled.legend.codes.text")))
    indent = max(stringWidth(key, BOLD, LEGEND) for key, _ in sentences) + 6
    lines = []
    for key, sentence in sentences:
        wrapped = _wrapped(sentence, width - indent)
        if len(wrapped) > LINES_PER_ITEM:     # a runaway text from data keeps the other items on the page
            wrapped = [*wrapped[:LINES_PER_ITEM - 1], wrapped[LINES_PER_ITEM - 1] + " ..."]
        lines += [(key if i == 0 else "", ellipsise(line, FONT, LEGEND, width - indent))
                  for i, line in enumerate(wrapped)]
    return indent, lines


def _wrapped(text: str, width: float) -> list[str]:
    """`text` wrapped to `width` at its plain spaces: a no-break space (French spacing before a
    colon) holds, so no line starts with the mark; reportlab's simpleSplit where one word alone
    is wider than the line (data text), which breaks anywhere."""
    lines = fl.wrap(text, width, lambda t, _s, size: stringWidth(t, FONT, size), "body", LEGEND)
    return lines if lines is not None else simpleSplit(text, FONT, LEGEND, width) or [""]


def column_widths(table: Table, labels: Labels, words: Words, codes: bool) -> tuple[tuple[str, float, bool], ...]:
    """((key, minimum width, grows), ...) for the layout: measured from what the cells print (with
    the CSV's codes, a man's head may shrink to his number)."""
    rows = len(table.rows)
    last = max(c.man for c in table.columns)        # the widest head: the last man's (digits are one width)
    head_w = stringWidth(str(last) if codes else words("prerolled.head.man", n=last), CELL_BOLD, HEAD_MIN)

    def width(kind: str) -> float:
        codes = {code for col in table.columns if col.kind == kind for code, _ in col.outcomes}
        return max([head_w] + [stringWidth(labels[c], cell_font(c), BODY) for c in codes]) + 2 * PAD
    fate_w, weapon_w = width(prerolled.FATE), width(prerolled.WEAPON)
    row_w = max(stringWidth(str(rows), CELL, BODY), stringWidth(words("prerolled.head.row"), CELL_BOLD, HEAD)) + 2 * PAD
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


def page_count(ctx: BuildContext, paper: Paper) -> int:
    """How many pages the table for ctx.options makes on `paper` (laid out, not drawn)."""
    register_fonts()
    table = prerolled.table_for(ctx)
    return _geometry(ctx, paper, table)[0].pages(len(table.rows))


def render(ctx: BuildContext, paper: Paper | None, *, fast_text: bool = True) -> bytes:
    """The tables on `paper`.  The cells' text is written fast (each distinct text encoded once)
    unless `fast_text` is False or reportlab writes text in a form the fast way does not parse:
    then through reportlab's text object, cell by cell, the plain and slower way."""
    assert paper is not None        # a per-paper output ("{paper}" in its name)
    register_fonts()        # measuring text needs the font before the canvas exists
    table = prerolled.table_for(ctx)
    geo, legend, labels = _geometry(ctx, paper, table)
    if fast_text:
        try:
            return _document(ctx, paper, table, geo, legend, labels, fast=True)
        except _NoFastPath:
            pass
    return _document(ctx, paper, table, geo, legend, labels, fast=False)


def _document(ctx: BuildContext, paper: Paper, table: Table, geo: TableGeometry, legend: Legend, labels: Labels,
              fast: bool) -> bytes:
    rows = len(table.rows)
    pages = geo.pages(rows)
    words = ctx.words
    c, buffer = new_canvas(ctx, paper, words("prerolled.meta.title", paper=paper.label),
                           words("prerolled.meta.subject", rule=ctx.kit.rules.number, seed=seed_text(ctx),
                                 mode=mode_word(words, table.mode),
                                 rows=rows, data=ctx.kit.short_hash), binary=True)
    cells = _FastCells(c, geo, labels, table) if fast else _PlainCells(c, geo, labels, table)
    groups = {g[3]: g for g in geo.bookmark_groups(rows)}
    for page in range(1, pages + 1):
        if page in groups:
            key, first, last, _ = groups[page]
            c.bookmarkPage(key)
            c.addOutlineEntry(words("prerolled.outline.rows", first=first, last=last), key, level=0)
        span = geo.page_rows(page, rows)
        _heading(c, ctx, paper, geo, table, legend, page, span)
        _grid(c, ctx, geo, table, page, span, cells.weapon_of)
        cells.draw(table, page, span)
        draw_footer(c, ctx, paper, page, pages, margin=MARGIN)
        c.showPage()
    return _finish_binary(c, buffer)


def _finish_binary(c: Canvas, buffer: Any) -> bytes:
    """finish(), with streams left binary (Flate only, no ASCII85 armour).

    Why: without reportlab's C accelerator, ASCII85 is much of a long table's time, and it makes
    every stream a quarter larger; a binary PDF prints the same.  The setting is read while
    the document is written, so it is switched for that call only.
    """
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        return finish(c, buffer)
    finally:
        rl_config.useA85 = saved


def _num(v: float) -> str:
    return f"{v:.2f}"


def _hundredths(v: float) -> int:
    """`v` rounded as _num prints it, in hundredths of a point."""
    return round(float(_num(v)) * 100)


def _grid(c: Canvas, ctx: BuildContext, geo: TableGeometry, table: Table, page: int, span: range,
          weapon_of: dict[int, int]) -> None:
    """Fills, rules and tick boxes of one page, written as batched path operators.

    Why batched: 100,000 rows make some 400,000 rectangles; one canvas call each would cost
    more than the whole rest of the build.  Paths are plain PDF (re, m, l, f, S).
    """
    n = len(span)
    top = geo.body_top(page)
    ys = [geo.row_bottom(page, slot) for slot in range(n)]
    bottom = ys[-1]
    left, width = _num(geo.left), _num(geo.right - geo.left)
    if not ctx.options.bw:
        # Colour: a band on every other row, tints behind Killed and armed cells (light: greyscale-safe).
        cols = [(_num(col.x + 1), _num(col.width - 2)) for col in geo.columns[2:]]
        band: list[str] = []
        tint: dict[str, list[str]] = {code: [] for code in (KILLED, *ARMED)}
        for slot, index in enumerate(span):
            y = _num(ys[slot])
            if index % 2:
                band.append(f"{left} {y} {width} {ROW} re")
            y1 = _num(ys[slot] + 1)
            for (x, w), code in zip(cols, shown(table, table.rows[index], weapon_of), strict=True):
                if code in tint:
                    tint[code].append(f"{x} {y1} {w} {ROW - 2} re")
        armed = [op for code in ARMED for op in tint[code]]
        for colour, ops in ((BAND, band), (ARMED_TINT, armed), (KILLED_TINT, tint[KILLED])):
            if ops:
                c.setFillColor(colour)
                c.addLiteral(" ".join(ops) + " f")
    c.setLineWidth(0.3)
    c.setStrokeGray(0.6)
    right = _num(geo.right)
    ops = [f"{_num(col.x)} {_num(top)} m {_num(col.x)} {_num(bottom)} l" for col in geo.columns[1:]]
    if ctx.options.bw:     # ink-saving: hairlines between rows instead of bands
        ops += [f"{left} {_num(y)} m {right} {_num(y)} l" for y in ys[:-1]]
    c.addLiteral(" ".join(ops) + " S")
    # Heavy rules: the table's top and bottom, the end of each balanced block, and the edge
    # between the fates and the weapons (where a covering card stops while Hero cards are played).
    c.setStrokeGray(0)
    c.setLineWidth(1.2)
    heavy = [top, bottom]
    if table.mode == "balanced":
        heavy += [ys[slot] for slot, index in enumerate(span) if (index + 1) % table.block == 0 and slot < n - 1]
    edge = _num(_weapons_x(geo, table))
    c.addLiteral(" ".join(f"{left} {_num(y)} m {right} {_num(y)} l" for y in heavy)
                 + f" {edge} {_num(top + GROUP_LEAD + HEAD)} m {edge} {_num(bottom)} l S")
    # Tick boxes: vector squares (vector, not a font glyph).
    tick = geo.column("tick")
    side = ROW - 4
    x = _num(tick.centre - side / 2)
    c.setLineWidth(0.6)
    c.setStrokeGray(0.15)
    c.setFillGray(1)        # white inside, so a pencil tick shows on a banded row too
    c.addLiteral(" ".join(f"{x} {_num(y + 2)} {side} {side} re" for y in ys) + " B")


class _NoFastPath(Exception):
    pass


class _Cells:
    """Where each cell's text goes: row numbers right-aligned, fates and weapons centred."""

    def __init__(self, c: Canvas, geo: TableGeometry, labels: Labels, table: Table) -> None:
        self.c, self.geo, self.labels = c, geo, labels
        self.row_right = geo.column("row").right - PAD
        self.cols: tuple[ColumnBox, ...] = geo.columns[2:]
        self.widths: dict[tuple[str, str], float] = {}
        self.weapon_of = dashed(table)

    def width(self, text: str, font: str) -> float:
        w = self.widths.get((text, font))
        if w is None:
            w = self.widths[(text, font)] = stringWidth(text, font, BODY)
        return w

    def x(self, col: ColumnBox, label: str, font: str) -> float:
        return col.centre - self.width(label, font) / 2

    def baseline(self, page: int, slot: int) -> float:
        return self.geo.row_bottom(page, slot) + (ROW - BODY) / 2 + 1.2


class _PlainCells(_Cells):
    """Reportlab's text object, one call per cell: simple, and the slower way."""

    def draw(self, table: Table, page: int, span: range) -> None:
        text = self.c.beginText()
        text.setFillGray(0)
        font = None
        for slot, index in enumerate(span):
            y = self.baseline(page, slot)
            number = str(index + 1)
            if font != CELL:
                font = CELL
                text.setFont(CELL, BODY)
            text.setTextOrigin(self.row_right - stringWidth(number, CELL, BODY), y)
            text.textOut(number)
            for col, code in zip(self.cols, shown(table, table.rows[index], self.weapon_of), strict=True):
                label, want = self.labels.get(code, code), cell_font(code)
                if want != font:
                    font = want
                    text.setFont(font, BODY)
                text.setTextOrigin(self.x(col, label, font), y)
                text.textOut(label)
        self.c.drawText(text)


class _FastCells(_Cells):
    """The same operators as _PlainCells, each distinct string encoded once by reportlab.

    Why: a table has a dozen distinct cell texts but up to millions of cells.  Each text is
    shown once through a public text object (which also registers its glyphs in the embedded
    subset); its `getCode()` gives the font and show operators, reused for every later cell.
    """

    _CODE = re.compile(r"BT 1 0 0 1 0 0 Tm (/\S+ \S+ Tf \S+ TL) (\((?:[^()\\]|\\.)*\) Tj) ET")

    def __init__(self, c: Canvas, geo: TableGeometry, labels: Labels, table: Table) -> None:
        super().__init__(c, geo, labels, table)
        self.shown: dict[tuple[str, str], tuple[str, str]] = {}
        self.digits = {d: self.encode(CELL, d) for d in "0123456789"}
        if len({op for op, _ in self.digits.values()}) != 1:
            raise _NoFastPath
        self.digit_op = self.digits["0"][0]
        self.digit_lit = {d: show[1:-4] for d, (_, show) in self.digits.items()}
        self.digit_w = {d: stringWidth(d, CELL, BODY) for d in "0123456789"}

    def encode(self, font: str, text: str) -> tuple[str, str]:
        key = (font, text)
        if key not in self.shown:
            t = self.c.beginText()
            t.setFont(font, BODY)
            t.textOut(text)
            match = self._CODE.fullmatch(t.getCode())
            if not match:
                raise _NoFastPath
            op, show = match.groups()
            self.shown[key] = (op, show)
        return self.shown[key]

    def draw(self, table: Table, page: int, span: range) -> None:
        out = ["BT"]
        add = out.append
        current = None
        lit, dw = self.digit_lit, self.digit_w
        for slot, index in enumerate(span):
            y = _num(self.baseline(page, slot))
            number = str(index + 1)
            if current != self.digit_op:
                current = self.digit_op
                add(current)
            x = _hundredths(self.row_right - sum(dw[d] for d in number))
            add(f"1 0 0 1 {_num(x / 100)} {y} Tm ({''.join(lit[d] for d in number)}) Tj")
            # Each cell moved from the one before (Td), not placed afresh (Tm): fewer bytes a cell,
            # which keeps a 200,000-row kit's pages in bounded memory.
            # In hundredths of a point, so the moves add up to the rounded places exactly.
            for col, code in zip(self.cols, shown(table, table.rows[index], self.weapon_of), strict=True):
                label, font = self.labels.get(code, code), cell_font(code)
                op, show = self.encode(font, label)
                if op != current:
                    current = op
                    add(op)
                here = _hundredths(self.x(col, label, font))
                add(f"{_num((here - x) / 100)} 0 Td {show}")
                x = here
        add("ET")
        self.c.setFillGray(0)
        self.c.addLiteral("\n".join(out))


def seed_text(ctx: BuildContext) -> str:
    """The seed as the table prints it: the number, or the word for a private one."""
    return str(ctx.options.seed) if ctx.options.seed_shown else ctx.words("prerolled.seed.private")


def _heading(c: Canvas, ctx: BuildContext, paper: Paper, geo: TableGeometry, table: Table, legend: Legend,
             page: int, span: range) -> None:
    """Page 1: the title, the stamp and the legend; a later page: the title as a running head
    with the stamp beside it.  The page number is the footer's alone."""
    words = ctx.words
    top = paper.height - MARGIN
    c.setFillGray(0)
    size = TITLE_SIZE if page == 1 else RUNNING
    heading = words("prerolled.heading.title", rule=ctx.kit.rules.number)
    c.setFont(BOLD, size)
    c.drawString(geo.left, top - size, ellipsise(heading, BOLD, size, geo.right - geo.left))
    # the block only where there are blocks (balanced mode)
    block = words("prerolled.heading.block", block=table.block) if table.mode == "balanced" else ""
    stamp = words("prerolled.heading.stamp", seed=seed_text(ctx), mode=mode_word(words, table.mode), block=block,
                  data=ctx.kit.short_hash, first=span.start + 1, last=span.stop, rows=len(table.rows))
    c.setFont(FONT, LEGEND)
    if page > 1:        # the stamp right of the running head, in what room it leaves
        room = geo.right - geo.left - stringWidth(heading, BOLD, size) - 12
        c.drawRightString(geo.right, top - size, ellipsise(stamp, FONT, LEGEND, max(room, 0)))
        _column_heads(c, ctx, geo, table, page)
        return
    y = top - TITLE_SIZE - 6 - LEGEND_LEAD
    c.drawString(geo.left, y, ellipsise(stamp, FONT, LEGEND, geo.right - geo.left))
    c.setFillGray(0.1)
    indent, lines = legend
    for key, line in lines:
        y -= LEGEND_LEAD
        if key:
            c.setFont(BOLD, LEGEND)
            c.drawString(geo.left, y, ellipsise(key, BOLD, LEGEND, indent - 4))
            c.setFont(FONT, LEGEND)
        c.drawString(geo.left + indent, y, line)
    _column_heads(c, ctx, geo, table, page)


def _weapons_x(geo: TableGeometry, table: Table) -> float:
    """The x where the weapon columns start (the fates end)."""
    first = next(col for col in table.columns if col.kind == prerolled.WEAPON)
    return geo.column(first.name).x


def _column_heads(c: Canvas, ctx: BuildContext, geo: TableGeometry, table: Table, page: int) -> None:
    """Each man by his number, under a line naming his group: the fates (871.3) left, the
    weapons (871.4) right, so the order to uncover them reads off the page."""
    words, r = ctx.words, ctx.kit.rules
    c.setFillGray(0)
    c.setFont(CELL_BOLD, HEAD)
    head_y = geo.body_top(page) + 3
    c.drawCentredString(geo.column("row").centre, head_y, ellipsise(words("prerolled.head.row"), CELL_BOLD, HEAD,
                                                                  geo.column("row").width - 2))
    for col in table.columns:
        box = geo.column(col.name)
        head = words("prerolled.head.man", n=col.man)
        if stringWidth(head, CELL_BOLD, HEAD_MIN) > box.width - 2:      # a crew printed in codes: his number
            head = str(col.man)
        size = max(HEAD_MIN, min(HEAD, HEAD * (box.width - 2) / max(stringWidth(head, CELL_BOLD, HEAD), 1)))
        c.setFont(CELL_BOLD, size)
        c.drawCentredString(box.centre, head_y, ellipsise(head, CELL_BOLD, size, box.width - 2))
    c.setFont(CELL_BOLD, HEAD)
    split = _weapons_x(geo, table)
    fates_x = geo.column(table.columns[0].name).x
    group_y = head_y + GROUP_LEAD
    for (x0, x1), key, rule in (((fates_x, split), "prerolled.head.fates", r.fate.rule),
                                ((split, geo.right), "prerolled.head.weapons", r.weapon.rule)):
        text = words(key, rule=truncate(rule, RULE_CHARS))
        c.drawCentredString((x0 + x1) / 2, group_y, ellipsise(text, CELL_BOLD, HEAD, x1 - x0 - 4))
