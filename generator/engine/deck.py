"""The Random Position model: a deck of cards, each a row of RPC column values.

Column k reads 1..k.  The ideal deck holds every combination of the used columns once, so any
event's chance is an exact Fraction found by counting cards.  Two columns read from the SAME
card keep their joint values; a new draw is a new, independent pick from the deck.
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import product


@dataclass(frozen=True)
class Deck:
    columns: tuple          # the RPC columns every card carries, ascending
    cards: tuple            # each card a dict {column: value}

    def __post_init__(self):
        if not self.cards:
            raise ValueError("a deck needs at least one card")

    def __len__(self):
        return len(self.cards)

    def probability(self, event):
        """Chance that one card drawn at random satisfies `event(card)`."""
        return Fraction(sum(1 for card in self.cards if event(card)), len(self.cards))

    def distribution(self, outcome):
        """{result: chance} of `outcome(card)` over one card, results in first-seen order."""
        counts = {}
        for card in self.cards:
            result = outcome(card)
            counts[result] = counts.get(result, 0) + 1
        return {result: Fraction(n, len(self.cards)) for result, n in counts.items()}


def ideal(columns):
    """Every combination of uniform columns once: 2 x 3 x 4 = 24 cards for columns 2, 3, 4."""
    columns = tuple(sorted(columns))
    rows = product(*(range(1, k + 1) for k in columns))
    return Deck(columns, tuple(dict(zip(columns, row)) for row in rows))


def transcribed(columns, rows):
    """A real deck copied card by card: `rows` are value tuples in `columns` order."""
    columns = tuple(columns)
    return Deck(columns, tuple(dict(zip(columns, row)) for row in rows))


def for_kit(kit):
    """The deck the kit's data asks for: the transcribed deck if one is named, else the ideal."""
    if kit.deck_cards is not None:
        return transcribed(kit.rules.columns, kit.deck_cards)
    return ideal(kit.rules.columns)
