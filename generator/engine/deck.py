"""The Random Position model: a deck of cards, each a row of RPC column values.

Column k reads 1..k.  The ideal deck holds every combination of the used columns once, so any
event's chance is an exact Fraction found by counting cards.  Two columns read from the SAME
card keep their joint values; a new draw is a new, independent pick from the deck.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import TypeVar

from msgspec import Struct

from generator.data.model import KitData

Card = Mapping[int, int]    # one card of the deck: {RPC column: value}
_R = TypeVar("_R")


class Deck(Struct, frozen=True):
    columns: tuple[int, ...]    # the RPC columns every card carries, ascending
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a deck needs at least one card")

    def __len__(self) -> int:
        return len(self.cards)

    def probability(self, event: Callable[[Card], bool]) -> Fraction:
        """Chance that one card drawn at random satisfies `event(card)`."""
        return Fraction(sum(1 for card in self.cards if event(card)), len(self.cards))

    def distribution(self, outcome: Callable[[Card], _R]) -> dict[_R, Fraction]:
        """{result: chance} of `outcome(card)` over one card, results in first-seen order."""
        counts: dict[_R, int] = {}
        for card in self.cards:
            result = outcome(card)
            counts[result] = counts.get(result, 0) + 1
        return {result: Fraction(n, len(self.cards)) for result, n in counts.items()}


def ideal(columns: Iterable[int]) -> Deck:
    """Every combination of uniform columns once: 2 x 3 x 4 = 24 cards for columns 2, 3, 4."""
    ordered = tuple(sorted(columns))
    rows = product(*(range(1, k + 1) for k in ordered))
    return Deck(ordered, tuple(dict(zip(ordered, row, strict=True)) for row in rows))


def transcribed(columns: Iterable[int], rows: Iterable[Sequence[int]]) -> Deck:
    """A real deck copied card by card: `rows` are value tuples in `columns` order."""
    order = tuple(columns)
    return Deck(order, tuple(dict(zip(order, row, strict=True)) for row in rows))


def for_kit(kit: KitData) -> Deck:
    """The deck the kit's data asks for: the transcribed deck if one is named, else the ideal."""
    if kit.deck_cards is not None:
        return transcribed(kit.rules.columns, kit.deck_cards)
    return ideal(kit.rules.columns)
