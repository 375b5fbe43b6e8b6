"""871.2 crew arithmetic, and the search for crews among a nationality's personality cards.

A crew is `size` unused cards whose average Morale is the AFV's Morale plus the offset, with at
most `max_leaders` SL/ASL among them.  The search counts every such combination.
"""

from collections.abc import Collection, Iterable
from itertools import combinations

from msgspec import Struct

from generator.data.model import RosterCard, Rules
from generator.engine import procedure as R


class CrewSearch(Struct, frozen=True):
    size: int
    average: int            # the target average Morale
    total: int              # the Morale the cards must add up to
    crews: tuple[tuple[RosterCard, ...], ...]     # every qualifying crew, each in roster order


def find_crews(rules: Rules, roster: Iterable[RosterCard], afv_morale: int, commander_casualties: int = 0,
               in_use: Collection[str] = ()) -> CrewSearch:
    """Every crew of unused cards that meets 871.2 for an AFV of Morale `afv_morale`."""
    size = R.crew_size(rules, commander_casualties)
    average, total = R.crew_morale(rules, afv_morale, size)
    free = [card for card in roster if card.card_id not in set(in_use)]
    crews = tuple(crew for crew in combinations(free, size)
                  if R.average_ok(rules, afv_morale, [card.morale for card in crew])
                  and R.leaders_ok(rules, [card.role for card in crew]))
    return CrewSearch(size, average, total, crews)
