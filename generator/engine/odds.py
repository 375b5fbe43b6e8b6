"""Every probability any output prints, derived exactly from the deck and the rules.

Each one-card chance counts cards of the deck; a man's fate and his weapon come from separate
draws, so their joint chance is the product.  Crew distributions convolve the men.
"""

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

from msgspec import Struct

from generator.data import FATES
from generator.data.model import KitData, Rules
from generator.engine import procedure as R
from generator.engine.deck import Deck, for_kit
from generator.text import fraction_text

WEAPONS: tuple[str, ...] = (R.PISTOL, "rifle", "smg")
Outcome = tuple[str, str | None]    # one man's (fate, weapon); the weapon None for the killed
Distribution = dict[int, Fraction]  # {k: chance} of k men out of a crew
BySize = dict[int, dict[bool, Distribution]]    # {crew size: {Hero card played: distribution}}
_K = TypeVar("_K")


class Odds(Struct, frozen=True):
    bail_out_closed: Fraction
    bail_out_open: Fraction
    fate: dict[str, Fraction]       # {fate: chance} for one man (871.3)
    weapon: dict[str, Fraction]     # {weapon: chance} for one man who draws (871.4)
    man: dict[Outcome, Fraction]    # one man's joint outcome
    survivors: BySize               # hero False/True: the 871.3 Hero card
    armed: BySize                   # survivors with a rifle or SMG
    expected_survivors: dict[int, dict[bool, Fraction]]     # {size: {hero: mean}}
    deck_size: int
    # 871.4 in the rule's own terms: the chance a drawing man gets a rifle or SMG ("25%"), and
    # the share of rifles and SMGs among the men who get one ("33%", "66%"); zero where none do.
    armed_chance: Fraction
    armed_split: dict[str, Fraction]    # {'rifle': share, 'smg': share} among armed men


def compute(kit: KitData, deck: Deck | None = None) -> Odds:
    """Every chance of the kit, over `deck` (by default the deck the data asks for)."""
    rules = kit.rules
    deck = deck or for_kit(kit)
    closed = deck.probability(lambda c: R.bail_out(rules, c, open_topped=False))
    open_ = deck.probability(lambda c: R.bail_out(rules, c, open_topped=True))
    fate = _ordered(deck.distribution(lambda c: R.fate(rules, c)), FATES)
    weapon = weapon_distribution(rules, deck)
    man = joint_man(rules, fate, weapon)
    armed_chance = 1 - weapon[R.PISTOL]
    armed_split = {kind: weapon[kind] / armed_chance if armed_chance else Fraction(0) for kind in WEAPONS[1:]}
    hero_man = joint_man(rules, {rules.hero.fate_result: Fraction(1)}, weapon, hero=True)
    survivors: BySize = {}
    armed: BySize = {}
    expected: dict[int, dict[bool, Fraction]] = {}
    for size in range(1, rules.crew.size + 1):
        survivors[size], armed[size], expected[size] = {}, {}, {}
        for hero in (False, True):
            first = hero_man if hero else man
            survivors[size][hero] = crew_count(first, man, size, lambda fate, _: R.survives(fate))
            armed[size][hero] = crew_count(first, man, size, _armed)
            expected[size][hero] = sum((k * p for k, p in survivors[size][hero].items()), Fraction(0))
    return Odds(closed, open_, fate, weapon, man, survivors, armed, expected, len(deck), armed_chance, armed_split)


def weapon_distribution(rules: Rules, deck: Deck) -> dict[str, Fraction]:
    """{weapon: chance} for one man who draws (871.4).  Column 3 of the same card keeps its joint
    values with column 4; of a new card (interpretation 9) it is an independent draw."""
    if not R.type_from_new_card(rules):
        return _ordered(deck.distribution(lambda c: R.weapon(rules, c)), WEAPONS)
    armed = deck.probability(lambda c: R.armed(rules, c))
    types = deck.distribution(lambda c: R.weapon_type(rules, c))
    return _ordered({R.PISTOL: 1 - armed, **{kind: armed * p for kind, p in types.items()}}, WEAPONS)


def joint_man(rules: Rules, fate: Mapping[str, Fraction], weapon: Mapping[str, Fraction], hero: bool = False) \
        -> dict[Outcome, Fraction]:
    """{(fate, weapon): chance} for one man, given his fate distribution and the weapon draw."""
    joint: dict[Outcome, Fraction] = {}
    for result, p in fate.items():
        if not R.survives(result):
            joint[(result, None)] = joint.get((result, None), 0) + p
        elif hero and R.hero_arms_too(rules):
            key = (result, rules.hero.weapon_choice[-1])
            joint[key] = joint.get(key, 0) + p
        elif R.draws_weapon(rules, result):
            for kind, q in weapon.items():
                joint[(result, kind)] = joint.get((result, kind), 0) + p * q
        else:
            joint[(result, R.PISTOL)] = joint.get((result, R.PISTOL), 0) + p
    return {k: Fraction(v) for k, v in joint.items() if v}


def crew_count(first: Mapping[Outcome, Fraction], other: Mapping[Outcome, Fraction], size: int,
               counts: Callable[[str, str | None], bool]) -> Distribution:
    """Distribution of how many of `size` men satisfy `counts(fate, weapon)`.

    The first man follows `first` (he may have had a Hero card); the rest follow `other`.
    """
    dist = {0: Fraction(1)}
    for i in range(size):
        man = first if i == 0 else other
        yes = sum((p for key, p in man.items() if counts(*key)), Fraction(0))
        step: Distribution = {}
        for k, p in dist.items():
            step[k] = step.get(k, 0) + p * (1 - yes)
            step[k + 1] = step.get(k + 1, 0) + p * yes
        dist = step
    return {k: Fraction(p) for k, p in sorted(dist.items())}


def _armed(fate: str, weapon: str | None) -> bool:
    return R.survives(fate) and weapon not in (None, R.PISTOL)


def _ordered(dist: Mapping[_K, Fraction], names: Iterable[_K]) -> dict[_K, Fraction]:
    """Every name in a fixed order, zero where the deck never gives it."""
    return {name: dist.get(name, Fraction(0)) for name in names}


def percent(p: Fraction | int, places: int = 1, figures: int = 2) -> str:
    """A chance as a percentage, rounded half up on the exact value: `places` decimals ('66.7%'), more
    where that would leave fewer than `figures` significant figures, so a rare chance never prints
    as 0.0% (1/7776 is '0.013%'; with one figure, 1/243 is '0.4%' and 1/7776 '0.01%')."""
    value = Fraction(p) * 100
    while True:
        scaled = abs(value) * 10 ** places
        whole = int(scaled + Fraction(1, 2))
        if whole >= 10 ** (figures - 1) or not value:
            break
        places += 1
    digits = str(whole).rjust(places + 1, "0")
    text = f"{digits[:-places]}.{digits[-places:]}" if places else digits
    return f"{'-' if value < 0 and whole else ''}{text}%"


def as_json(odds: Odds) -> dict[str, object]:
    """The odds as JSON-ready data: every chance an exact fraction in a string ("1/3")."""
    f = fraction_text

    def by_size(table: Mapping[int, Mapping[bool, Any]], fmt: Callable[[Any], object]) -> dict[str, object]:
        return {str(size): {("hero" if hero else "no_hero"): fmt(v) for hero, v in row.items()}
                for size, row in table.items()}

    def dist(d: Mapping[int, Fraction]) -> dict[str, str]:
        return {str(k): f(p) for k, p in d.items()}

    return {
        "deck_cards": odds.deck_size,
        "bail_out_closed": f(odds.bail_out_closed),
        "bail_out_open": f(odds.bail_out_open),
        "fate": {k: f(v) for k, v in odds.fate.items()},
        "weapon": {k: f(v) for k, v in odds.weapon.items()},
        "armed_chance": f(odds.armed_chance),
        "armed_split": {k: f(v) for k, v in odds.armed_split.items()},
        "man": {man_code(*k): f(v) for k, v in odds.man.items()},
        "survivors": by_size(odds.survivors, dist),
        "armed_survivors": by_size(odds.armed, dist),
        "expected_survivors": by_size(odds.expected_survivors, f),
    }


def fate_code(fate: str) -> str:
    """The short code of a fate (871.3): U, W or K, as prerolled.csv prints it."""
    return fate[0].upper()


def weapon_code(weapon: str) -> str:
    """The short code of a weapon (871.4): P (pistol only), R or S, as prerolled.csv prints it."""
    return {"pistol": "P", "rifle": "R", "smg": "S"}[weapon]


def man_code(fate: str, weapon: str | None) -> str:
    """The short code of one man's outcome: K, or U/W then P/R/S ('UP', 'WS')."""
    return fate_code(fate) if weapon is None else fate_code(fate) + weapon_code(weapon)
