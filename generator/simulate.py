"""Run the procedure many times by drawing cards, and compare with the exact odds.

Each figure reports observed, exact and the standard error of the observed value under the
exact odds, so `z = (observed - exact) / se` says how surprising the difference is.
"""

import random
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

from . import rules as R
from .deck import for_kit
from .odds import compute
from .odds_table import WEAPON_WORD


@dataclass(frozen=True)
class Figure:
    name: str               # a stable key ('bail_out_closed', 'fate.unhurt'), as in `bailout odds --json`
    exact: Fraction
    observed: float
    se: float
    trials: int
    label: str = ""         # what a player reads, in the rule's terms

    @property
    def z(self):
        return (self.observed - float(self.exact)) / self.se if self.se else 0.0


def simulate(kit, n, seed):
    """N bail-outs of a full crew, closed and open tops read from the same kill card."""
    rules, deck = kit.rules, for_kit(kit)
    odds = compute(kit, deck)
    rng = random.Random(seed)
    cards = deck.cards
    draw = lambda: cards[rng.randrange(len(cards))]
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
                        weapons[man.weapon] += 1
    men = sum(fates.values())
    drew = sum(weapons.values())
    figures = [_share("bail_out_closed", odds.bail_out_closed, closed, n,
                      f"{rules.closed.label}: crew may bail out ({rules.closed.rule})"),
               _share("bail_out_open", odds.bail_out_open, opened, n,
                      f"{rules.open.label}: crew may bail out ({rules.open.rule})")]
    figures += [_share(f"fate.{k}", odds.fate[k], v, men, f"a man is {k} ({rules.fate.rule})") for k, v in fates.items()]
    figures += [_share(f"weapon.{k}", odds.weapon[k], v, drew, f"a man who draws: {WEAPON_WORD[k]} ({rules.weapon.rule})")
                for k, v in weapons.items()]
    for hero in (False, True):
        dist = odds.survivors[size][hero]
        mean = odds.expected_survivors[size][hero]
        var = sum(p * (k - mean) ** 2 for k, p in dist.items())
        key = "hero" if hero else "no_hero"
        label = f"average alive of {size}" + (f", Hero card in {rules.hero.fate_rule}" if hero else "")
        figures.append(Figure(f"expected_survivors.{size}.{key}", mean, survivors[hero] / n,
                              sqrt(var / n), n, label))
    return figures


def _share(name, p, hits, trials, label):
    se = sqrt(p * (1 - p) / trials) if trials else 0.0
    return Figure(name, p, hits / trials if trials else 0.0, se, trials, label)
