"""Run the procedure many times by drawing cards, and compare with the exact odds.

Each figure reports observed, exact and the standard error of the observed value under the
exact odds, so `z = (observed - exact) / se` says how surprising the difference is.
"""

import random
from fractions import Fraction
from math import sqrt

from msgspec import Struct

from generator.data.model import KitData
from generator.engine import procedure as R
from generator.engine.deck import Card, for_kit
from generator.engine.odds import compute

# The most bail-outs `bailout simulate` draws: a million take about a minute on one core, and give
# each figure to three places (its standard error under 0.0005).
MAX_TRIALS = 1_000_000


class Figure(Struct, frozen=True):
    name: str               # a stable key ('bail_out_closed', 'fate.unhurt'), as in `bailout odds --json`
    exact: Fraction
    observed: float
    se: float
    trials: int

    @property
    def z(self) -> float:
        return (self.observed - float(self.exact)) / self.se if self.se else 0.0


def simulate(kit: KitData, n: int, seed: int) -> list[Figure]:
    """N bail-outs of a full crew, closed and open tops read from the same kill card."""
    rules, deck = kit.rules, for_kit(kit)
    odds = compute(kit, deck)
    rng = random.Random(seed)
    cards = deck.cards

    def draw() -> Card:
        return cards[rng.randrange(len(cards))]

    size = R.crew_size(rules)
    closed = opened = 0
    fates = dict.fromkeys(odds.fate, 0)
    weapons = dict.fromkeys(odds.weapon, 0)
    survivors = [0, 0]          # summed survivors without / with a Hero card
    for _ in range(n):
        kill = draw()
        closed += R.bail_out(rules, kill, open_topped=False)
        opened += R.bail_out(rules, kill, open_topped=True)
        for hero in (False, True):
            for i in range(size):
                man = R.resolve_man(rules, draw, hero=hero and i == 0)
                survivors[hero] += R.survives(man.fate)
                if not man.hero:
                    fates[man.fate] += 1
                    if R.draws_weapon(rules, man.fate):
                        assert man.weapon is not None   # he drew, so he survived: he holds one
                        weapons[man.weapon] += 1
    men = sum(fates.values())
    drew = sum(weapons.values())
    figures = [_share("bail_out_closed", odds.bail_out_closed, closed, n),
               _share("bail_out_open", odds.bail_out_open, opened, n)]
    figures += [_share(f"fate.{k}", odds.fate[k], v, men) for k, v in fates.items()]
    figures += [_share(f"weapon.{k}", odds.weapon[k], v, drew) for k, v in weapons.items()]
    for hero in (False, True):
        dist = odds.survivors[size][hero]
        mean = odds.expected_survivors[size][hero]
        var = sum(p * (k - mean) ** 2 for k, p in dist.items())
        key = "hero" if hero else "no_hero"
        figures.append(Figure(f"expected_survivors.{size}.{key}", mean, survivors[hero] / n, sqrt(var / n), n))
    return figures


def _share(name: str, p: Fraction, hits: int, trials: int) -> Figure:
    se = sqrt(p * (1 - p) / trials) if trials else 0.0
    return Figure(name, p, hits / trials if trials else 0.0, se, trials)
