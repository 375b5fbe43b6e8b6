"""What the digital tables (a VASSAL module and extension, a Tabletop Simulator saved object)
hold, with no drawing library: the pieces by nationality, each with its two faces' images, the
pre-rolled rows as cards, and every name a player reads there.

Every word is the catalogue's (keys "digital.*", and the counters' and the tables' own), every
figure the data's; image names are the face images' (content/faces.py face_names), so the
renderers only draw and pack.
"""

from collections.abc import Iterable

from msgspec import Struct

from generator.content.context import BuildContext
from generator.content.faces import Counter, Groups, face_names, kind_label
from generator.content.rows import Table, fate_columns, read_cells
from generator.data.model import Nationality, WeaponSpan
from generator.engine.odds import fate_code, weapon_code
from generator.text import year_span

# A digital deck holds at most this many rows: each row is an image of its own, and a deck of
# tens of thousands would weigh hundreds of megabytes in a module and take minutes to draw.
DECK_ROWS = 1000
CARD_BACK = "rows/back.png"     # the deck's common back, beside each row's card (card_name)


class Piece(Struct, frozen=True):
    """One counter as a two-sided piece: its name, its faces' images and what it says."""
    name: str               # as the palette, the piece's menu and a tile's tooltip show it
    kind: str               # content.faces.KINDS
    front: str              # its face images as the build names them ('faces/german-crew-front.png')
    back: str
    reading: str            # what its front says, as one line of text
    count: int              # how many of it one nationality's printed sheets hold


class Force(Struct, frozen=True):
    """A nationality's pieces, in print order."""
    key: str
    name: str
    pieces: tuple[Piece, ...]


class Card(Struct, frozen=True):
    """A pre-rolled row as a card: its number, its title and each man's cells as the table prints them."""
    row: int
    title: str
    men: tuple[tuple[str, str, str | None], ...]    # (the man's label, his fate, his weapon; None: not read)
    killed: tuple[bool, ...]                        # each man's fate is the killed one
    armed: tuple[bool, ...]                         # each man's weapon is one besides the pistol


def forces(ctx: BuildContext, groups: Groups) -> tuple[Force, ...]:
    """Every nationality's distinct counters as pieces, from the counters the sheets print."""
    names = face_names(groups)
    made = []
    for nat, counters in groups:
        distinct = dict.fromkeys(counters)
        pieces = tuple(_piece(ctx, nat, counter, names[counter], counters.count(counter)) for counter in distinct)
        made.append(Force(nat.key, nat.name, pieces))
    return tuple(made)


def _piece(ctx: BuildContext, nat: Nationality, counter: Counter, stem: str, count: int) -> Piece:
    words = ctx.words
    kind = kind_label(words, counter.kind)
    span = _span(nat, counter)
    if span is None:
        name = words("digital.piece", kind=kind, nationality=nat.name)
    else:
        name = words("digital.piece.weapon", kind=kind, model=span.model, nationality=nat.name,
                     years=year_span(span.first, span.last))
    reading = " · ".join(counter.front.reading(words))
    return Piece(name, counter.kind, f"faces/{stem}-front.png", f"faces/{stem}-back.png", reading, count)


def _span(nat: Nationality, counter: Counter) -> WeaponSpan | None:
    """The weapon span a weapon counter shows (its model line is the span's model), None for the rest."""
    spans = {"rifle": nat.rifles, "smg": nat.smgs}.get(counter.kind, ())
    model = counter.front.lines[0].text if counter.front.lines else None
    return next((s for s in spans if s.model == model), None)


def card_name(row: int, rows: int) -> str:
    """A row's card image among `rows` cards, numbered to sort in row order ('rows/row-007.png')."""
    return f"rows/row-{row:0{len(str(rows))}d}.png"


def aid_page_name(page: int) -> str:
    """A page of the player aid as an image ('aid/page-1.png')."""
    return f"aid/page-{page}.png"


def aid_pages(images: Iterable[str]) -> list[str]:
    """The aid's page images among `images`, in page order."""
    return sorted((name for name in images if name.startswith("aid/page-")),
                  key=lambda name: int(name[len("aid/page-"):-len(".png")]))


def deck_rows(table: Table) -> int:
    """How many rows a digital deck holds: every row, up to DECK_ROWS."""
    return min(len(table.rows), DECK_ROWS)


def cards(ctx: BuildContext, table: Table) -> list[Card]:
    """The deck's cards, row 1 first: each man's fate and weapon in the table's own words, a
    killed man's weapon not read (the table's dash)."""
    words, odds = ctx.words, ctx.odds
    fate_words = {fate_code(f): words(f"prerolled.cell.{f}") for f in odds.fate}
    weapon_words = {weapon_code(w): words(f"prerolled.cell.{w}") for w in odds.weapon}
    killed, pistol = fate_code("killed"), weapon_code("pistol")
    fate_of = fate_columns(table)
    size = len(table.columns) // 2
    made = []
    for number in range(1, deck_rows(table) + 1):
        cells = read_cells(table.rows[number - 1], fate_of)
        fates, weapons = cells[:size], cells[size:]
        men = tuple((words("prerolled.head.man", n=i + 1), fate_words[str(fate)],
                     weapon_words[weapon] if weapon is not None else None)
                    for i, (fate, weapon) in enumerate(zip(fates, weapons, strict=True)))
        made.append(Card(number, words("digital.card.row", row=number), men,
                         tuple(f == killed for f in fates), tuple(w not in (None, pistol) for w in weapons)))
    return made
