"""The pre-rolled table's pages as PDF operators, made from pieces prepared once a document.

A table has a dozen distinct cell texts and a few column places but up to millions of cells,
so each cell's text is encoded once (pdf_stream.PdfStream.show), each cell's place computed
once, and a row is the joining of pieces looked up by the codes it prints: the move from the
cell before (Td, in hundredths of a point, so the moves add up to the rounded places exactly)
and the text.  What every later page repeats (the column heads, the rules and tick boxes of a
full page) is made once too.  The page's drawing is what prerolled_pdf.py's docstring says.
"""

from collections.abc import Callable
from functools import cache

from msgspec import Struct
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.content import rows as prerolled
from generator.content.context import BuildContext
from generator.content.rows import Table
from generator.layout.paper import Paper
from generator.layout.table import TableGeometry
from generator.render import theme
from generator.render.pdf.canvas import (
    FOOTER_FORM,
    FOOTER_SIZE,
    ellipsise,
    footer_baseline,
    footer_text,
)
from generator.render.pdf.pdf_stream import ESCAPES, PdfStream
from generator.render.pdf.pdf_syntax import number
from generator.text import truncate

Text = Callable[[str, float, float, float, str], str]      # (font, size, x, y, text) -> operators


def colour_op(c: Color, stroke: bool = False) -> str:
    values = " ".join(f"{v:.6f}".rstrip("0").rstrip(".") or "0" for v in (c.red, c.green, c.blue))
    return f"{values} {'RG' if stroke else 'rg'}"


def _num(v: float) -> str:
    return f"{v:.2f}"


def _hundredths(v: float) -> int:
    """`v` rounded as _num prints it, in hundredths of a point."""
    return round(float(_num(v)) * 100)


class Pieces:
    """The cells of one document: for each column, the text each shown code prints, its font,
    where it starts, and the operators moving to it from each cell the column before may show."""

    def __init__(self, doc: PdfStream, look: "Look") -> None:
        self.doc, self.look = doc, look
        geo, table = look.geo, look.table
        self.cols = geo.columns[2:]
        self.fate_of = look.fate_of
        self.killed = look.killed
        # per column: the codes it holds, then a dash (a killed man's weapon) at index len(codes)
        self.codes = [table.rows.codes(i) for i in range(len(table.columns))]
        self.labels = [[look.labels.get(c, c) for c in codes] + [look.dash] for codes in self.codes]
        self.fonts = [[look.cell_font(c) for c in codes] + [look.cell_font(look.dash)] for codes in self.codes]
        self.x = [[_hundredths(col.centre - stringWidth(label, font, look.body) / 2)
                   for label, font in zip(labels, fonts, strict=True)]
                  for col, labels, fonts in zip(self.cols, self.labels, self.fonts, strict=True)]
        self.runs = [[doc.face(font).runs(label) for label, font in zip(labels, fonts, strict=True)]
                     for labels, fonts in zip(self.labels, self.fonts, strict=True)]
        digits = "0123456789"
        widths = {round(stringWidth(d, look.cell, look.body) * 100) for d in digits}
        self.digit_w = widths.pop() if len(widths) == 1 else None      # tabular figures: one width
        runs = doc.face(look.cell).runs(digits)
        # the digits keep their own codes (printable ASCII), so a row number is set as it reads
        self.number_font = runs[0][0] if len(runs) == 1 and runs[0][1] == digits else None
        self.start = [self._piece(r) for r in self.runs[0]]
        self.chain = [[[self._piece(r, self.x[c][shown] - self.x[c - 1][before]) for shown, r in enumerate(column)]
                       for before in range(len(self.runs[c - 1]))] if c else []
                      for c, column in enumerate(self.runs)]

    def show(self, runs: list[tuple[str, str]], current: str) -> tuple[str, str]:
        """(operators, the font resource after them) for `runs`, selecting a font only where it changes."""
        ops = []
        size = number(self.look.body)
        for name, codes in runs:
            if name != current:
                ops.append(f"/{name} {size} Tf")
                current = name
            ops.append(f"({codes.translate(ESCAPES)}) Tj")
        return " ".join(ops), current

    def _piece(self, runs: list[tuple[str, str]], move: int | None = None) -> tuple[str, str, str, str]:
        """(the font it starts in, its operators selecting that font, the same set in it already,
        the font it ends in) for a cell of `runs`, moved `move` hundredths of a point first."""
        first = runs[0][0]
        text, after = self.show(runs, first)
        td = f"{move / 100:.2f} 0 Td " if move is not None else ""
        return first, f"{td}/{first} {number(self.look.body)} Tf {text}", f"{td}{text}", after

    def shown(self, columns: list[bytes]) -> list[bytes]:
        """What each cell of `columns` (Rows.column) prints, column by column: its code's index,
        or for a killed man's weapon the dash's (len(codes))."""
        out = []
        for i, (cells, f) in enumerate(zip(columns, self.fate_of, strict=True)):
            if f is None or self.killed[f] < 0:
                out.append(cells)
                continue
            killed, dash = self.killed[f], len(self.codes[i])
            out.append(bytes(dash if fate == killed else code for code, fate in zip(cells, columns[f], strict=True)))
        return out

    def cells(self, ys: list[float], rows: list[tuple[int, tuple[int, ...]]]) -> str:
        """Every cell of `rows` ((row index, what each cell shows: shown())) at baselines `ys`.

        Each cell is a piece looked up by what it and the cell before show, the font selected
        only where it changes; one text object a page."""
        if self.number_font is None or self.digit_w is None:
            return self.plain(ys, rows)
        out = ["0 g BT"]
        add = out.append
        current = ""
        right, digit_w, number_font = round(self.look.row_right * 100), self.digit_w, self.number_font
        select = f"/{number_font} {number(self.look.body)} Tf "
        start, chain, x0 = self.start, self.chain, self.x[0]
        columns = range(1, len(chain))
        for y, (index, row) in zip(ys, rows, strict=True):
            digits = str(index + 1)
            x = right - len(digits) * digit_w
            add(f"1 0 0 1 {x / 100:.2f} {y:.2f} Tm {'' if current == number_font else select}({digits}) Tj")
            before = row[0]
            needs, selected, plain, current = start[before]
            add(f"{(x0[before] - x) / 100:.2f} 0 Td {selected if needs != number_font else plain}")
            for column in columns:
                shown = row[column]
                needs, selected, plain, after = chain[column][before][shown]
                add(plain if needs == current else selected)
                current, before = after, shown
        add("ET")
        return "\n".join(out)

    def plain(self, ys: list[float], rows: list[tuple[int, tuple[int, ...]]]) -> str:
        """The same cells, each placed afresh from its own measure and set with its own font:
        the slower way, kept as the reference the pieces print the same as."""
        out = ["0 g"]
        look = self.look
        for y, (index, row) in zip(ys, rows, strict=True):
            number_text = str(index + 1)
            x = look.row_right - stringWidth(number_text, look.cell, look.body)
            out.append(f"BT 1 0 0 1 {_num(x)} {_num(y)} Tm {self.doc.show(look.cell, look.body, number_text)} ET")
            for col, column, shown in zip(self.cols, range(len(row)), row, strict=True):
                label, font = self.labels[column][shown], self.fonts[column][shown]
                x = col.centre - stringWidth(label, font, look.body) / 2
                out.append(f"BT 1 0 0 1 {_num(x)} {_num(y)} Tm {self.doc.show(font, look.body, label)} ET")
        return "\n".join(out)


class Look(Struct, frozen=True):
    """What the page drawing reads of prerolled_pdf.py's choices: the build, the geometry, the
    cells' words, and the sizes, faces and colours of the table's look."""
    ctx: BuildContext
    paper: Paper
    table: Table
    geo: TableGeometry
    labels: dict[str, str]
    body: float             # the cells' size
    row: float              # the row pitch
    head: float             # column heads, and the smallest a man's head may shrink to
    head_min: float
    group_lead: float
    legend: float
    legend_lead: float
    title_size: float
    running: float
    margin: float
    pad: float
    rule_chars: int
    text_font: str          # the title's, the rows' line's and the footer's faces: regular and bold
    text_bold: str
    cell: str               # the cells' and the legend's faces: regular and bold
    cell_bold: str
    dash: str               # a killed man's weapon cell
    killed_code: str
    armed_codes: tuple[str, ...]
    band: Color
    killed_tint: Color
    armed_tint: Color
    cell_font: Callable[[str], str]

    @property
    def fate_of(self) -> list[int | None]:
        """Per column: its man's fate column for a weapon column, None for a fate column."""
        return prerolled.fate_columns(self.table)

    @property
    def killed(self) -> list[int]:
        """Per column: the index of the killed code among its codes (-1: none)."""
        codes = [self.table.rows.codes(i) for i in range(len(self.table.columns))]
        return [c.index(self.killed_code) if self.killed_code in c else -1 for c in codes]

    @property
    def row_right(self) -> float:
        return self.geo.column("row").right - self.pad

    @property
    def weapons_x(self) -> float:
        """The x where the weapon columns start (the fates end)."""
        return self.geo.column(next(c for c in self.table.columns if c.kind == prerolled.WEAPON).name).x


def text_op(doc: PdfStream) -> Text:
    def text(font: str, size: float, x: float, y: float, string: str) -> str:
        return f"BT 1 0 0 1 {number(x)} {number(y)} Tm {doc.show(font, size, string)} ET"
    return text


def aligned(text: Text, font: str, size: float, x: float, y: float, string: str, align: str = "left") -> str:
    """`string` set left of, centred on or right of x."""
    if align != "left":
        w = stringWidth(string, font, size)
        x -= w / 2 if align == "centre" else w
    return text(font, size, x, y, string)


class PageMaker:
    """Each page's operators: heading, grid, cells, footer."""

    def __init__(self, doc: PdfStream, look: Look, legend: tuple[float, list[tuple[str, str]]],
                 fast: bool = True) -> None:
        self.doc, self.look, self.legend, self.fast = doc, look, legend, fast
        self.text = text_op(doc)
        self.pieces = Pieces(doc, look)
        # what pages repeat, each written once as a form: the column heads, a page's rules and ticks
        self.tints = self._tint_boxes()
        self.heads = cache(lambda later: doc.form(self._column_heads(later)))
        self.frame = cache(lambda later, n: doc.form(self._frame(later, n)))

    def page(self, page: int, pages: int, span: range, columns: list[bytes]) -> str:
        """Page `page` of `pages`, holding rows `span`, whose cells are `columns` (Rows.column)."""
        look = self.look
        geo = look.geo
        ys = [geo.row_bottom(page, slot) for slot in range(len(span))]
        baselines = [y + (look.row - look.body) / 2 + 1.2 for y in ys]
        cells = self.pieces.cells if self.fast else self.pieces.plain
        shown = self.pieces.shown(columns)
        indexed = list(zip(span, zip(*shown, strict=True), strict=True))
        return "\n".join([self._heading(page, span), self.heads(page > 1), self._fills(span, ys, shown),
                          self.frame(page > 1, len(span)), self._heavy(span, ys), cells(baselines, indexed),
                          self._footer(page, pages), ""])

    def _heading(self, page: int, span: range) -> str:
        """The title (page 1's, or a later page's running head) with the rows the page holds beside
        it, right; under page 1's title, the legend.  The page number is the footer's alone."""
        look, text = self.look, self.text
        font, bold = look.text_font, look.text_bold
        words, geo = look.ctx.words, look.geo
        top = look.paper.height - look.margin
        size = look.title_size if page == 1 else look.running
        heading = words("prerolled.heading.title", rule=look.ctx.kit.rules.number)
        width = geo.right - geo.left
        rows = words("prerolled.heading.rows", first=span.start + 1, last=span.stop, rows=len(look.table.rows))
        room = width - stringWidth(heading, bold, size) - 12
        ops = ["0 g", text(bold, size, geo.left, top - size, ellipsise(heading, bold, size, width)),
               aligned(text, font, look.legend, geo.right, top - size, ellipsise(rows, font, look.legend, max(room, 0)),
                       "right")]
        if page > 1:
            return "\n".join(ops)
        y = top - look.title_size - 6
        ops.append("0.1 g")
        indent, lines = self.legend
        for key, line in lines:
            y -= look.legend_lead
            if key:
                ops.append(text(look.cell_bold, look.legend, geo.left, y,
                                ellipsise(key, look.cell_bold, look.legend, indent - 4)))
            ops.append(text(look.cell, look.legend, geo.left + indent, y, line))
        return "\n".join(ops)

    def _column_heads(self, later: bool) -> str:
        """Each man by his number, under a line naming his group: the fates (871.3) left, the
        weapons (871.4) right, so the order to uncover them reads off the page."""
        look, text = self.look, self.text
        words, r, geo = look.ctx.words, look.ctx.kit.rules, look.geo
        bold, head = look.cell_bold, look.head
        head_y = geo.body_top(2 if later else 1) + 3
        row = geo.column("row")
        ops = ["0 g", aligned(text, bold, head, row.centre, head_y,
                              ellipsise(words("prerolled.head.row"), bold, head, row.width - 2), "centre")]
        for col in look.table.columns:
            box = geo.column(col.name)
            name = words("prerolled.head.man", n=col.man)
            if stringWidth(name, bold, look.head_min) > box.width - 2:      # a crew printed in codes: his number
                name = str(col.man)
            size = max(look.head_min, min(head, head * (box.width - 2) / max(stringWidth(name, bold, head), 1)))
            ops.append(aligned(text, bold, size, box.centre, head_y, ellipsise(name, bold, size, box.width - 2),
                               "centre"))
        split = look.weapons_x
        fates_x = geo.column(look.table.columns[0].name).x
        group_y = head_y + look.group_lead
        for (x0, x1), key, rule in (((fates_x, split), "prerolled.head.fates", r.fate.rule),
                                    ((split, geo.right), "prerolled.head.weapons", r.weapon.rule)):
            label = words(key, rule=truncate(rule, look.rule_chars))
            ops.append(aligned(text, bold, head, (x0 + x1) / 2, group_y, ellipsise(label, bold, head, x1 - x0 - 4),
                               "centre"))
        return "\n".join(ops)

    def _fills(self, span: range, ys: list[float], columns: list[bytes]) -> str:
        """A band on every other row, tints behind Killed and armed cells (light: greyscale-safe);
        none with --bw.  `columns`: what each cell shows (Pieces.shown)."""
        look = self.look
        if look.ctx.options.bw:
            return ""
        band = f"{_num(look.geo.left)} {{}} {_num(look.geo.right - look.geo.left)} {number(look.row)} re"
        bands = [band.format(f"{y:.2f}") for y in ys[(span.start + 1) % 2::2]]     # the odd indexes
        tints: tuple[list[str], list[str]] = ([], [])     # armed, killed
        inner = [f"{y + 1:.2f}" for y in ys]
        for cells, boxes in zip(columns, self.tints, strict=True):
            for shown, box in enumerate(boxes):
                if box is None:
                    continue
                kind, template = box
                slot = cells.find(shown)
                while slot >= 0:
                    tints[kind].append(template.format(inner[slot]))
                    slot = cells.find(shown, slot + 1)
        ops = []
        for colour, found in ((look.band, bands), (look.armed_tint, tints[0]), (look.killed_tint, tints[1])):
            if found:
                ops.append(f"{colour_op(colour)} {' '.join(found)} f")
        return "\n".join(ops)

    def _tint_boxes(self) -> list[list[tuple[int, str] | None]]:
        """Per column and shown code: None, or (0 armed | 1 killed, the cell's box with {} for its y)."""
        look, pieces = self.look, self.pieces
        inner = number(look.row - 2)
        tinted = (look.killed_code, *look.armed_codes)
        box = "{} {{}} {} {} re"
        return [[None if shown >= len(codes) or codes[shown] not in tinted
                 else (int(codes[shown] == look.killed_code), box.format(_num(col.x + 1), _num(col.width - 2), inner))
                 for shown in range(len(codes) + 1)]
                for col, codes in zip(pieces.cols, pieces.codes, strict=True)]

    def _frame(self, later: bool, n: int) -> str:
        """The rules between columns (with --bw, hairlines between rows) and the tick boxes: the
        same on every page of `n` rows after the first."""
        look = self.look
        geo = look.geo
        page = 2 if later else 1
        top = geo.body_top(page)
        ys = [geo.row_bottom(page, slot) for slot in range(n)]
        bottom = ys[-1]
        left, right = _num(geo.left), _num(geo.right)
        ops = [f"{_num(col.x)} {_num(top)} m {_num(col.x)} {_num(bottom)} l" for col in geo.columns[1:]]
        if look.ctx.options.bw:     # ink-saving: hairlines between rows instead of bands
            ops += [f"{left} {_num(y)} m {right} {_num(y)} l" for y in ys[:-1]]
        tick = geo.column("tick")
        side = look.row - 4
        x = _num(tick.centre - side / 2)
        boxes = " ".join(f"{x} {_num(y + 2)} {number(side)} {number(side)} re" for y in ys)
        # white inside, so a pencil tick shows on a banded row too
        return f".3 w .6 G {' '.join(ops)} S\n.6 w .15 G 1 g {boxes} B"

    def _heavy(self, span: range, ys: list[float]) -> str:
        """Heavy rules: the table's top and bottom, the end of each balanced block, and the edge
        between the fates and the weapons (where a covering card stops while Hero cards are played)."""
        look = self.look
        geo, table = look.geo, look.table
        top = geo.body_top(1 if span.start == 0 else 2)
        heavy = [top, ys[-1]]
        if table.mode == "balanced":
            heavy += [ys[slot] for slot, index in enumerate(span) if (index + 1) % table.block == 0
                      and slot < len(ys) - 1]
        left, right = _num(geo.left), _num(geo.right)
        edge = _num(look.weapons_x)
        lines = " ".join(f"{left} {_num(y)} m {right} {_num(y)} l" for y in heavy)
        return f"0 G 1.2 w {lines} {edge} {_num(top + look.group_lead + look.head)} m {edge} {_num(ys[-1])} l S"

    def _footer(self, page: int, pages: int) -> str:
        """The footer line every page of the kit carries, as canvas.draw_footer sets it: a form
        named for its page, which the kit replaces with one counting the kit's pages."""
        look, size = self.look, FOOTER_SIZE
        line = footer_text(look.ctx, look.paper, page, pages, "page.footer.part.prerolled")
        y = max(look.margin * 0.6, footer_baseline(size))
        centred = aligned(self.text, look.text_font, size, look.paper.width / 2, y, line, "centre")
        return self.doc.form(f"q {number(theme.FOOTER_LEVEL)} g {centred} Q", f"{FOOTER_FORM}{page}")
