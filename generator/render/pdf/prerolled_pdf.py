"""Pre-rolled bail-out tables: the rows of generator.prerolled printed page by page.

Drawn straight on the canvas, one page at a time (no platypus Table), so the cost grows
linearly with the rows.  The rows are generated once per build context and shared by both
papers and the CSV.  Text from data (labels, rule numbers, sentences) is drawn as plain
strings, never parsed as markup, and is wrapped and ellipsised to fit.
"""

import re

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.content import rows as prerolled
from generator.layout.table import table_geometry
from generator.engine.odds import man_code
from generator.data import FATES
from generator.errors import RenderError
from generator.engine.procedure import PISTOL, draws_weapon
from generator.text import truncate
from generator.render import theme
from generator.render.pdf.canvas import BOLD, FONT, draw_footer, ellipsise, finish, new_canvas, register_fonts

TITLE = "Pre-rolled bail-out tables"
MARGIN = 30
ROW = 11.5                  # row pitch; the row text is BODY pt (at least 8)
BODY = 8.5
HEAD = 8                    # column heads
SMALL = 6.5                 # the words under a check column's rule number
SMALL_LEAD = SMALL + 0.8
HEAD_LINES = 2              # a check column's label (the rule's term) takes at most this many lines
RULE_CHARS = 12             # a rule number cited in the legend's own sentences, at most
HEAD_MAX = 46               # ... each at most this wide: a runaway label is cut short, not widened
LEGEND = 7.5
LEGEND_LEAD = 9
LINES_PER_ITEM = 4          # a runaway sentence in data is ellipsised, never pushes rows off the page
TITLE_SIZE = 12
FOOTER = 16
PAD = 3                     # inner padding of a cell
# Colour tints (light, so text stays black-on-light in greyscale); dropped with --bw.
BAND = HexColor(theme.BAND)
KILLED_TINT = HexColor(theme.KILLED_TINT)
YES_TINT = HexColor(theme.YES_TINT)

FATE_WORD = {"unhurt": "Unhurt", "wounded": "Wounded", "killed": "Killed"}
WEAPON_WORD = {PISTOL: "pistol", "rifle": "rifle", "smg": "SMG"}

KILLED = man_code("killed", None)

def man_labels(odds):
    """{man code: friendly text}: 'Unhurt - SMG', 'Wounded - pistol', 'Killed'."""
    labels = {}
    for fate, weapon in odds.man:
        word = FATE_WORD.get(fate, fate.capitalize())
        labels[man_code(fate, weapon)] = word if weapon is None else f"{word} - {WEAPON_WORD[weapon]}"
    return labels


def cell_font(code):
    """Bold for the cells a player must not miss: a bail-out (Y) and a killed man."""
    return BOLD if code in (prerolled.YES, KILLED) else FONT


def legend_sentences(ctx, table):
    """How to use the table, worded from the rules data (the readings in force included)."""
    r = ctx.kit.rules
    closed, open_, hero = r.closed, r.open, r.hero
    notes = {i.name: i for i in r.interpretations}
    no_weapon = [FATE_WORD[f] for f in FATES if not draws_weapon(r, f)]
    shows_none = f" ({' or '.join(no_weapon)})" if no_weapon else ""
    unpins = " and unpins him" if hero.unpins else ""
    choice = " or ".join(WEAPON_WORD[k] for k in hero.weapon_choice)
    # The table prints no notes: it cites them as the player aid's, or prints their sentence.
    aid_note = lambda name: f"player aid note {notes[name].note}"      # noqa: E731
    if r.setting("hero_card") == "single":
        hero_text = (f"A Hero card makes one man {hero.fate_result} ({hero.fate_rule}) whatever his cell says; "
                     f"the same card also chooses his {choice}{unpins} ({hero.weapon_rule}; "
                     f"{aid_note('hero_card')}).")
    else:
        hero_text = (f"A Hero card played in {hero.fate_rule} makes one man {hero.fate_result} whatever his cell "
                     f"says. A Hero card played in {hero.weapon_rule}, for any man who gets out, chooses his "
                     f"{choice}{unpins}; the others read their weapon from their cells ({aid_note('hero_card')}).")
    over = notes["over_kill"]
    when = ("only after a kill by the exact number needed" if over.reading == "no_bail_out"
            else "after any kill result")
    checks = f"the {truncate(closed.rule, RULE_CHARS)} and {truncate(open_.rule, RULE_CHARS)} columns"
    voluntary = notes["voluntary_casualties"]
    if voluntary.reading == "none":
        read = f"So skip {checks} and read only each man's weapon."
    else:
        read = f"Skip {checks} and read each man as printed."
    mode = (f"Balanced: rows 1-{table.block}, {table.block + 1}-{2 * table.block} and so on each hold exactly "
            f"the rule's chances in every column, in shuffled order."
            if table.mode == "balanced" else "Independent: every cell drawn on its own with the rule's exact chances.")
    rest = len(table.rows) % table.block
    if table.mode == "balanced" and rest:
        whole = len(table.rows) - rest
        mode += (f" Rows {whole + 1}-{len(table.rows)} are only the start of a block, so their proportions "
                 f"are not exact." if whole else
                 f" This table is shorter than one block ({len(table.rows)} of {table.block} rows), so its "
                 f"proportions are not exact.")
    return [
        ("Use", f"An optional aid of this kit, for players who agree to use it: each row replaces the card "
                f"reads and draws of one bail-out, the check on the kill card's RPC ({closed.rule}, "
                f"{open_.rule}) and every man's draws ({r.fate.rule}, {r.weapon.rule}). Take the next unticked "
                f"row and tick its box."),
        ("Check", f"Read {checks} {when} ({aid_note('over_kill')}). "
                  f"{closed.rule}: {closed.label} (kill card column {closed.column}); {open_.rule}: {open_.label} "
                  f"(column {open_.column}). Y: the crew may bail out, read the men; N: it may not."),
        ("Men", f"Man 1 to Man {r.crew.size}: each crew member's fate ({r.fate.rule}) and the weapon he "
                f"carries besides his pistol ({r.weapon.rule}). A smaller crew "
                f"({r.crew.commander_casualty_rule}) uses the first men. Where a man's weapon is needed but his "
                f"cell shows none{shows_none}, read the same man in the following rows until a cell shows one."),
        ("Hero", hero_text),
        ("Voluntary", f"{voluntary.sentence.rstrip().rstrip('.')} ({aid_note('voluntary_casualties')}). {read}"),
        ("Rows", f"The table draws nothing from the deck. {mode}"),
    ]


def legend_lines(ctx, table, width, codes=False):
    """[(key, text), ...]: each sentence wrapped under a hanging indent, key on its first line."""
    sentences = legend_sentences(ctx, table)
    if codes:
        sentences.append(("Codes", "U unhurt, W wounded, K killed; then P pistol only, R rifle, S SMG."))
    indent = max(stringWidth(key, BOLD, LEGEND) for key, _ in sentences) + 6
    lines = []
    for key, sentence in sentences:
        wrapped = simpleSplit(sentence, FONT, LEGEND, width - indent) or [""]
        if len(wrapped) > LINES_PER_ITEM:     # a runaway text from data keeps the other items on the page
            wrapped = wrapped[:LINES_PER_ITEM - 1] + [wrapped[LINES_PER_ITEM - 1] + " ..."]
        lines += [(key if i == 0 else "", ellipsise(line, FONT, LEGEND, width - indent)) for i, line in enumerate(wrapped)]
    return indent, lines


def head_lines(label):
    """A check column's label (the rule's term, 'Non-open-topped AFV') in at most HEAD_LINES
    lines, broken at a space or after a hyphen where the widest line is narrowest."""
    pieces = [p for p in re.split(r"(?<=-)|(?<= )", " ".join(str(label).split())) if p]
    best = None
    for cut in range(1, len(pieces)):
        lines = ["".join(pieces[:cut]).strip(), "".join(pieces[cut:]).strip()]
        width = max(stringWidth(line, FONT, SMALL) for line in lines)
        if best is None or width < best[0]:
            best = (width, lines)
    lines = best[1] if best else ["".join(pieces).strip()]
    return [ellipsise(line, FONT, SMALL, HEAD_MAX) for line in lines[:HEAD_LINES]]


def _check_head_width(check):
    """The width a check column's head needs: its rule number (bold) over its label lines."""
    widths = [stringWidth(ellipsise(check.rule, BOLD, HEAD, HEAD_MAX), BOLD, HEAD)]
    widths += [stringWidth(line, FONT, SMALL) for line in head_lines(check.label)]
    return max(widths + [stringWidth("Y", BOLD, BODY)])


def column_widths(table, labels, table_checks):
    """((key, minimum width, grows), ...) for the layout: measured from what the cells print."""
    rows = len(table.rows)
    men = [c.name for c in table.columns[2:]]
    text_w = max(stringWidth(t, cell_font(code), BODY) for code, t in labels.items())
    man_w = max(text_w, stringWidth("Man 9", BOLD, HEAD)) + 2 * PAD
    check_w = max(_check_head_width(check) for check in (table_checks[0], table_checks[1])) + 2 * PAD
    row_w = max(stringWidth(str(rows), FONT, BODY), stringWidth("Row", BOLD, HEAD)) + 2 * PAD
    return (("row", row_w, False), ("tick", ROW + 2, False), ("closed", check_w, False),
            ("open", check_w, False), *((m, man_w, True) for m in men))


def _geometry(ctx, paper, table):
    """(geometry, legend lines, labels): friendly cell text, or the CSV codes if it cannot fit."""
    friendly = man_labels(ctx.odds)
    codes = {code: code for code in friendly}
    checks = (ctx.kit.rules.closed, ctx.kit.rules.open)
    for labels in (friendly, codes):
        legend = legend_lines(ctx, table, paper.width - 2 * MARGIN, labels is codes)
        top = TITLE_SIZE + 6 + LEGEND_LEAD * (1 + len(legend[1])) + 6 + HEAD + HEAD_LINES * SMALL_LEAD + 6
        try:
            geo = table_geometry(paper, column_widths(table, labels, checks), row_height=ROW, top=top,
                                 bottom=FOOTER, margin=MARGIN)
        except RenderError:
            if labels is codes:
                raise
            continue
        return geo, legend, labels


def page_count(ctx, paper):
    """How many pages the table for ctx.options makes on `paper` (laid out, not drawn)."""
    register_fonts()
    table = prerolled.table_for(ctx)
    return _geometry(ctx, paper, table)[0].pages(len(table.rows))


def render(ctx, paper):
    register_fonts()        # measuring text needs Vera before the canvas exists
    table = prerolled.table_for(ctx)
    geo, legend, labels = _geometry(ctx, paper, table)
    try:
        return _document(ctx, paper, table, geo, legend, labels, fast=True)
    except _NoFastPath:     # reportlab wrote text in a form we do not parse: the plain, slower way
        return _document(ctx, paper, table, geo, legend, labels, fast=False)


def _document(ctx, paper, table, geo, legend, labels, fast):
    rows = len(table.rows)
    pages = geo.pages(rows)
    o = ctx.options
    c, buffer = new_canvas(paper, f"{TITLE} ({paper.label})",
                           f"{ctx.kit.rules.number} bail-out rows: seed {o.seed}, {table.mode}, {rows} rows, "
                           f"data {ctx.kit.short_hash}", binary=True)
    cells = _FastCells(c, geo, labels) if fast else _PlainCells(c, geo, labels)
    groups = {g[3]: g for g in geo.bookmark_groups(rows)}
    for page in range(1, pages + 1):
        if page in groups:
            key, first, last, _ = groups[page]
            c.bookmarkPage(key)
            c.addOutlineEntry(f"Rows {first}-{last}", key, level=0)
        span = geo.page_rows(page, rows)
        _heading(c, ctx, paper, geo, table, legend, page, pages, span)
        _grid(c, ctx, geo, table, span)
        cells.draw(table, span)
        draw_footer(c, ctx, paper, page, pages, margin=MARGIN)
        c.showPage()
    return _finish_binary(c, buffer)


def _finish_binary(c, buffer):
    """finish(), with streams left binary (Flate only, no ASCII85 armour).

    Why: without reportlab's C accelerator, ASCII85 is a third of the time of a 100k-row table
    and adds a quarter to its size; a binary PDF prints the same.  The setting is read while
    the document is written, so it is switched for that call only.
    """
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        return finish(c, buffer)
    finally:
        rl_config.useA85 = saved


def _num(v):
    return f"{v:.2f}"


def _grid(c, ctx, geo, table, span):
    """Fills, rules and tick boxes of one page, written as batched path operators.

    Why batched: 100,000 rows make some 400,000 rectangles; one canvas call each would cost
    more than the whole rest of the build.  Paths are plain PDF (re, m, l, f, S).
    """
    n = len(span)
    ys = [geo.row_bottom(slot) for slot in range(n)]
    bottom = ys[-1]
    left, width = _num(geo.left), _num(geo.right - geo.left)
    if not ctx.options.bw:
        # Colour: a band on every other row, tints behind Y and Killed cells (light: greyscale-safe).
        cols = [(_num(col.x + 1), _num(col.width - 2)) for col in geo.columns[2:]]
        band, tint = [], {prerolled.YES: [], KILLED: []}
        for slot, index in enumerate(span):
            y = _num(ys[slot])
            if index % 2:
                band.append(f"{left} {y} {width} {ROW} re")
            y1 = _num(ys[slot] + 1)
            for (x, w), code in zip(cols, table.rows[index]):
                if code in tint:
                    tint[code].append(f"{x} {y1} {w} {ROW - 2} re")
        for colour, ops in ((BAND, band), (YES_TINT, tint[prerolled.YES]), (KILLED_TINT, tint[KILLED])):
            if ops:
                c.setFillColor(colour)
                c.addLiteral(" ".join(ops) + " f")
    c.setLineWidth(0.3)
    c.setStrokeGray(0.6)
    right = _num(geo.right)
    ops = [f"{_num(col.x)} {_num(geo.body_top)} m {_num(col.x)} {_num(bottom)} l" for col in geo.columns[1:]]
    if ctx.options.bw:     # ink-saving: hairlines between rows instead of bands
        ops += [f"{left} {_num(y)} m {right} {_num(y)} l" for y in ys[:-1]]
    c.addLiteral(" ".join(ops) + " S")
    # Heavy rules: the table's top and bottom, and the end of each balanced block.
    c.setStrokeGray(0)
    c.setLineWidth(1.2)
    heavy = [geo.body_top, bottom]
    if table.mode == "balanced":
        heavy += [ys[slot] for slot, index in enumerate(span) if (index + 1) % table.block == 0 and slot < n - 1]
    c.addLiteral(" ".join(f"{left} {_num(y)} m {right} {_num(y)} l" for y in heavy) + " S")
    # Tick boxes: vector squares (Vera has no ballot box).
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
    """Where each cell's text goes: row numbers right-aligned, Y/N centred, men left-aligned."""

    def __init__(self, c, geo, labels):
        self.c, self.geo, self.labels = c, geo, labels
        self.row_right = geo.column("row").right - PAD
        self.cols = geo.columns[2:]
        self.centred = {col.key for col in geo.columns[2:4]}
        self.widths = {}

    def width(self, text, font):
        w = self.widths.get((text, font))
        if w is None:
            w = self.widths[(text, font)] = stringWidth(text, font, BODY)
        return w

    def x(self, col, label, font):
        return col.centre - self.width(label, font) / 2 if col.key in self.centred else col.x + PAD

    def baseline(self, slot):
        return self.geo.row_bottom(slot) + (ROW - BODY) / 2 + 1.2


class _PlainCells(_Cells):
    """Reportlab's text object, one call per cell: simple, about 30 us a cell."""

    def draw(self, table, span):
        text = self.c.beginText()
        text.setFillGray(0)
        font = None
        for slot, index in enumerate(span):
            y = self.baseline(slot)
            number = str(index + 1)
            if font != FONT:
                font = FONT
                text.setFont(FONT, BODY)
            text.setTextOrigin(self.row_right - stringWidth(number, FONT, BODY), y)
            text.textOut(number)
            for col, code in zip(self.cols, table.rows[index]):
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

    def __init__(self, c, geo, labels):
        super().__init__(c, geo, labels)
        self.shown = {}
        self.digits = {d: self.encode(FONT, d) for d in "0123456789"}
        if len({op for op, _ in self.digits.values()}) != 1:
            raise _NoFastPath
        self.digit_op = self.digits["0"][0]
        self.digit_lit = {d: show[1:-4] for d, (_, show) in self.digits.items()}
        self.digit_w = {d: stringWidth(d, FONT, BODY) for d in "0123456789"}

    def encode(self, font, text):
        key = (font, text)
        if key not in self.shown:
            t = self.c.beginText()
            t.setFont(font, BODY)
            t.textOut(text)
            match = self._CODE.fullmatch(t.getCode())
            if not match:
                raise _NoFastPath
            self.shown[key] = match.groups()
        return self.shown[key]

    def draw(self, table, span):
        out = ["BT"]
        add = out.append
        current = None
        lit, dw = self.digit_lit, self.digit_w
        for slot, index in enumerate(span):
            y = _num(self.baseline(slot))
            number = str(index + 1)
            if current != self.digit_op:
                current = self.digit_op
                add(current)
            x = self.row_right - sum(dw[d] for d in number)
            add(f"1 0 0 1 {_num(x)} {y} Tm ({''.join(lit[d] for d in number)}) Tj")
            for col, code in zip(self.cols, table.rows[index]):
                label, font = self.labels.get(code, code), cell_font(code)
                op, show = self.encode(font, label)
                if op != current:
                    current = op
                    add(op)
                add(f"1 0 0 1 {_num(self.x(col, label, font))} {y} Tm {show}")
        add("ET")
        self.c.setFillGray(0)
        self.c.addLiteral("\n".join(out))


def _heading(c, ctx, paper, geo, table, legend, page, pages, span):
    o = ctx.options
    top = paper.height - MARGIN
    c.setFillGray(0)
    c.setFont(BOLD, TITLE_SIZE)
    c.drawString(geo.left, top - TITLE_SIZE, f"{ctx.kit.rules.number} {TITLE}")
    c.drawRightString(geo.right, top - TITLE_SIZE, f"page {page} of {pages}")
    y = top - TITLE_SIZE - 6 - LEGEND_LEAD
    c.setFont(FONT, LEGEND)
    stamp = (f"Seed {o.seed} \u00b7 mode {table.mode} \u00b7 block {table.block} rows \u00b7 "
             f"data {ctx.kit.short_hash} \u00b7 rows {span.start + 1}-{span.stop} of {len(table.rows)}")
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
    # Column heads: a bail-out check by its rule number, the rule's term for its AFVs under it
    # (the CSV keys these columns 'closed' and 'open'; the page uses the rule's words).
    r = ctx.kit.rules
    names = {"row": ("Row", []), "tick": ("", []), "closed": (r.closed.rule, head_lines(r.closed.label)),
             "open": (r.open.rule, head_lines(r.open.label))}
    head_y = geo.body_top + 3 + HEAD_LINES * SMALL_LEAD
    c.setFillGray(0)
    for col in geo.columns:
        name, under = names.get(col.key, (f"Man {col.key[3:]}", []))
        c.setFont(BOLD, HEAD)
        c.drawCentredString(col.centre, head_y, ellipsise(name, BOLD, HEAD, col.width - 2))
        c.setFont(FONT, SMALL)
        for i, line in enumerate(under):
            y = geo.body_top + 3 + (len(under) - 1 - i) * SMALL_LEAD
            c.drawCentredString(col.centre, y, ellipsise(line, FONT, SMALL, col.width - 2))
