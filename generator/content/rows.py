"""Pre-rolled bail-out rows: one row resolves one bail-out without drawing a card.

A row holds each crew member's fate (871.3), then each one's weapon (871.4), in separate cells:
a player uncovers the fates, plays any 871.4 Hero card, then uncovers the weapons, as the cards
come in play.  No bail-out check: the kill card, already face up, decides that (871.1.a/b).
Every chance comes from odds.py as a Fraction; nothing here knows a rule number.

Two modes:
- balanced: rows come in blocks of `block` rows, the lcm of every chance's denominator, so
  each column of a block holds exactly block * p of each outcome, shuffled per column (like
  a deck: fixed composition, random order).  A trailing part-block is a prefix of one.
- independent: each cell drawn on its own with the exact chances (an integer in
  range(block) mapped through the counts, so no float rounding).

Pure: no reportlab.  Same (data, rows, seed, mode) -> same rows.
"""

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import overload

from msgspec import Struct

from generator.content.context import BuildContext
from generator.content.words import Words, catalogue_file
from generator.data.model import KitData
from generator.engine.odds import Odds, fate_code, weapon_code
from generator.errors import UsageError

MODES = ("independent", "balanced")
FATE, WEAPON = "fate", "weapon"     # the two kinds of column, fates first
TARGET_ROWS = 200           # the default table, about this many rows (the layout fills whole pages: make/products.py)
MAX_BLOCK = 100_000         # a balanced block longer than this would not fit a sane table


Row = tuple[str, ...]       # one row's codes, in column order


class Column(Struct, frozen=True):
    name: str               # the column's key: 'fate1', ..., 'weapon1', ...
    outcomes: tuple[tuple[str, Fraction], ...]  # (code, chance) in a fixed order, chances > 0, summing to 1
    man: int                # the crew member's number (1, 2, ...)
    kind: str               # FATE or WEAPON


class Table(Struct, frozen=True):
    columns: tuple[Column, ...]     # in CSV order
    block: int              # lcm of every chance's denominator
    mode: str
    seed: int
    rows: "Rows"            # one tuple of codes per row, in column order (row number = index + 1)


class Rows(Sequence[Row]):
    """The rows of a table, stored as one byte per cell (its index among the column's codes).

    Why: a million rows held as tuples of strings take many times the memory of one byte a
    cell.  Reading a row gives the same tuple of codes.
    """

    def __init__(self, columns: Sequence[Column], cells: Iterable[Sequence[str]]) -> None:
        self._codes = tuple(tuple(code for code, _ in col.outcomes) for col in columns)
        self._cells = tuple(bytes(map({code: i for i, code in enumerate(codes)}.__getitem__, column))
                            for codes, column in zip(self._codes, cells, strict=True))
        self._length = len(self._cells[0]) if self._cells else 0

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Row: ...

    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...

    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        return tuple(codes[cells[index]] for codes, cells in zip(self._codes, self._cells, strict=True))

    def codes(self, column: int) -> tuple[str, ...]:
        """The codes column `column` holds, in its outcomes' order: what column() indexes."""
        return self._codes[column]

    def column(self, column: int, start: int, stop: int) -> bytes:
        """The cells of column `column` in rows `start` to `stop` - 1, one byte each: its code's
        index among codes(column)."""
        return self._cells[column][start:stop]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rows) and (self._codes, self._cells) == (other._codes, other._cells)

    def __hash__(self) -> int:
        return hash((self._codes, self._cells))


def columns(kit: KitData, odds: Odds) -> tuple[Column, ...]:
    """The columns of a row, each with its exact outcome chances, from the odds: every man's fate,
    then every man's weapon (a weapon printed for every man; read only for one who draws)."""
    fates = tuple((fate_code(f), Fraction(p)) for f, p in odds.fate.items() if p)
    weapons = tuple((weapon_code(w), Fraction(p)) for w, p in odds.weapon.items() if p)
    men = range(1, kit.rules.crew.size + 1)
    return (*(Column(f"{FATE}{i}", fates, i, FATE) for i in men),
            *(Column(f"{WEAPON}{i}", weapons, i, WEAPON) for i in men))


def block_length(cols: Sequence[Column]) -> int:
    """The least common multiple of the denominators of every chance in a row."""
    return math.lcm(*(p.denominator for col in cols for _, p in col.outcomes))


def counts(column: Column, block: int) -> dict[str, int]:
    """{code: how many of `block` rows hold it} - exact, since block * p is whole."""
    return {code: int(p * block) for code, p in column.outcomes}


def default_rows(block: int) -> int:
    """A whole number of blocks, as near TARGET_ROWS as blocks allow (at least one)."""
    return max(1, round(Fraction(TARGET_ROWS, block))) * block


def generate(kit: KitData, odds: Odds, rows: int | None = None, seed: int = 0, mode: str = "independent") -> Table:
    """The Table for these options.  `rows` None means default_rows(block) in balanced mode (whole
    blocks), TARGET_ROWS in independent mode (it has no blocks)."""
    if mode not in MODES:
        raise UsageError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
    cols = columns(kit, odds)
    block = block_length(cols)
    if mode == "balanced" and block > MAX_BLOCK:
        raise UsageError(f"--mode balanced: the chances in {kit.directory}/rules.toml need blocks of "
                         f"{block} rows (over {MAX_BLOCK}); use --mode independent")
    if rows is None:
        rows = default_rows(block) if mode == "balanced" else TARGET_ROWS
    if rows < 1:
        raise UsageError(f"--rows must be at least 1, got {rows}")
    rng = random.Random(seed)
    fill = _balanced if mode == "balanced" else _independent
    # Column by column, so each column's shuffle (or draws) is its own stream of the generator;
    # each packed into bytes before the next is drawn, so one column's strings are held at a time.
    cells = (fill(rng, col, block, rows) for col in cols)
    return Table(cols, block, mode, seed, Rows(cols, cells))


def _balanced(rng: random.Random, col: Column, block: int, rows: int) -> list[str]:
    pack = [code for code, n in counts(col, block).items() for _ in range(n)]
    out: list[str] = []
    while len(out) < rows:
        deal = pack[:]
        rng.shuffle(deal)
        out.extend(deal)
    del out[rows:]
    return out


def _independent(rng: random.Random, col: Column, block: int, rows: int) -> list[str]:
    tally = counts(col, block)
    if block <= 1 << 16:
        # lookup[i] is the outcome for integer i in range(block): each code fills block * p slots.
        lookup = [code for code, n in tally.items() for _ in range(n)]
        pick = rng.randrange
        return [lookup[pick(block)] for _ in range(rows)]
    # A huge block: walk the cumulative counts instead of building a huge lookup list.
    bounds: list[tuple[int, str]] = []
    total = 0
    for code, n in tally.items():
        total += n
        bounds.append((total, code))
    return [next(code for bound, code in bounds if x < bound)
            for x in (rng.randrange(block) for _ in range(rows))]


KILLED = fate_code("killed")       # a killed man draws no weapon: his weapon cell is not read

# What a spreadsheet reads as the start of a formula (or, tab and carriage return, as a cell it
# shifts): a CSV field starting with one is written with an apostrophe before it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_KEYS = ("prerolled.csv.row", "prerolled.csv.fate", "prerolled.csv.weapon")   # the header's words


def fate_columns(table: Table) -> list[int | None]:
    """Per column: its man's fate column for a weapon column, None for a fate column."""
    fates = {col.man: i for i, col in enumerate(table.columns) if col.kind == FATE}
    return [fates[col.man] if col.kind == WEAPON else None for col in table.columns]


def read_cells(row: Row, fate_of: Sequence[int | None]) -> tuple[str | None, ...]:
    """The cells of `row` a player reads: each code as drawn, but None for a killed man's weapon
    (871.4 arms a man who gets out: the PDF prints a dash there, the CSV nothing)."""
    return tuple(None if f is not None and row[f] == KILLED else code for code, f in zip(row, fate_of, strict=True))


def header(table: Table, words: Words) -> list[str]:
    """The CSV's header row: the row number's column, then each column's (keys "prerolled.csv.*")."""
    return [words("prerolled.csv.row"), *(words(f"prerolled.csv.{c.kind}", n=c.man) for c in table.columns)]


def csv_records(table: Table, words: Words, lines: int = 1_000) -> Iterator[list[list[str]]]:
    """The CSV's records in pieces of some `lines` records (a long table is never one list):
    the header, then a record a row, its number and the cells a player reads ('' for a killed
    man's weapon, as the PDF's dash)."""
    yield [header(table, words)]
    rows, fate_of = table.rows, fate_columns(table)
    for start in range(0, len(rows), lines):
        yield [[str(i), *(cell or "" for cell in read_cells(rows[i - 1], fate_of))]
               for i in range(start + 1, min(start + lines, len(rows)) + 1)]


def formula_start(text: str) -> str | None:
    """The character that makes a spreadsheet read `text` as a formula, if it starts with one."""
    return text[0] if text.startswith(FORMULA_STARTS) else None


def csv_word_problems(words: Words) -> list[str]:
    """The CSV header's words of an edition a spreadsheet would read as a formula, one line each
    (the CSV writes them inert, with an apostrophe before them; `bailout check` names them)."""
    problems = []
    for key in CSV_KEYS:
        text = words(key, n=1) if key != CSV_KEYS[0] else words(key)
        start = formula_start(text)
        if start is not None:
            problems.append(f"{catalogue_file(words.lang)}: {key}: {text!r} starts with {start!r}, which a "
                            f"spreadsheet reads as a formula; give a word that starts with a letter")
        elif any(ch in text for ch in "\n\r\t"):
            problems.append(f"{catalogue_file(words.lang)}: {key}: {text!r} holds a line break or a tab, which "
                            f"a spreadsheet shows as a header cell of two lines; give it on one line")
    return problems


def table_for(ctx: BuildContext, default: int | None = None) -> Table:
    """The rows a build with ctx's options prints (a build makes them once: make/products.py);
    `default`: how many when --rows is not given (the layout's whole pages), else generate()'s."""
    o = ctx.options
    return generate(ctx.kit, ctx.odds, rows=o.rows if o.rows is not None else default, seed=o.seed, mode=o.mode)
