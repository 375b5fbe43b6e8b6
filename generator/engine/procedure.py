"""The 871 procedure as pure functions over drawn cards.  Every number comes from `Rules`."""

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from msgspec import Struct

from generator.data.model import Nationality, Rules
from generator.engine.deck import Card

PISTOL = "pistol"


def bail_out(rules: Rules, card: Card, open_topped: bool, exact_kill: bool = True) -> bool:
    """871.1.a/b: may the crew bail out, reading the kill card?"""
    if not exact_kill and rules.setting("over_kill") == "no_bail_out":
        return False
    check = rules.open if open_topped else rules.closed
    return card[check.column] in check.succeed


def fate(rules: Rules, card: Card) -> str:
    """871.3: 'unhurt', 'wounded' or 'killed' for one man from his own card."""
    table = rules.fate.table
    return table.result(card[table.column])


def armed(rules: Rules, card: Card) -> bool:
    """871.4: does this card's armed column give a weapon besides the pistol?"""
    w = rules.weapon
    return card[w.armed_column] in w.armed_values


def weapon_type(rules: Rules, card: Card) -> str:
    """871.4: 'rifle' or 'smg', read from this card's type column."""
    return rules.weapon.types.result(card[rules.weapon.types.column])


def type_from_new_card(rules: Rules) -> bool:
    """Interpretation 9: is the type column read from a new card rather than the same one?"""
    return rules.setting("weapon_type_card") == "new_card"


def weapon(rules: Rules, card: Card, type_card: Card | None = None) -> str:
    """871.4: 'pistol' alone, or 'rifle' / 'smg' from the type column: of the same card, or of
    `type_card` (a new card) when interpretation 9 says so."""
    if not armed(rules, card):
        return PISTOL
    if type_from_new_card(rules):
        if type_card is None:
            raise ValueError("interpretation 9 reads the weapon type from a new card: pass type_card")
        return weapon_type(rules, type_card)
    return weapon_type(rules, card)


def survives(result: str) -> bool:
    return result != "killed"


def draws_weapon(rules: Rules, man_fate: str) -> bool:
    """Interpretation 4: which men draw for a weapon."""
    if not survives(man_fate):
        return False
    return rules.setting("weapons_for") == "survivors" or man_fate == "unhurt"


def crew_size(rules: Rules, commander_casualties: int = 0) -> int:
    """871 with 28.431: crew size less the commander casualties (interpretation 5)."""
    crew = rules.crew
    size = crew.size - crew.per_commander_casualty * commander_casualties
    floor = crew.minimum_size if rules.setting("crew_size") == "floor" else 0
    return max(size, floor)


def casualty_draws(rules: Rules, voluntary: bool) -> bool:
    """Interpretation 1: a voluntary bail-out may skip the 871.3 draws."""
    return not voluntary or rules.setting("voluntary_casualties") == "draw"


def hero_arms_too(rules: Rules) -> bool:
    """Interpretation 2: does the 871.3 Hero card also choose the man's weapon (871.4)?"""
    return rules.setting("hero_card") == "single"


class Man(Struct, frozen=True):
    fate: str
    weapon: str | None      # None for the killed
    hero: bool = False      # a Hero card was played for him


def resolve_man(rules: Rules, draw: Callable[[], Card], *, voluntary: bool = False, hero: bool = False,
                hero_weapon: str | None = None) -> Man:
    """One crew member's fate and weapon.  `draw()` returns the next card from the deck.

    `hero` plays a Hero card in 871.3 for him; `hero_weapon` ('rifle'/'smg') plays one in 871.4.
    """
    if hero:
        result = rules.hero.fate_result
    elif casualty_draws(rules, voluntary):
        result = fate(rules, draw())
    else:
        result = "unhurt"
    if not survives(result):
        return Man(result, None, hero)
    if hero_weapon is None and hero and hero_arms_too(rules):
        hero_weapon = rules.hero.weapon_choice[-1]   # the player's pick; any choice is armed
    if hero_weapon is not None:
        return Man(result, hero_weapon, True)
    if draws_weapon(rules, result):
        card = draw()
        kind = weapon(rules, card, draw() if armed(rules, card) and type_from_new_card(rules) else None)
        return Man(result, kind, hero)
    return Man(result, PISTOL, hero)


def crew_morale(rules: Rules, afv_morale: int, size: int) -> tuple[int, int]:
    """871.2: the crew's target average Morale and the total their cards must reach."""
    average = afv_morale + rules.crew.morale_offset
    return average, average * size


def pistol_only_ccv(rules: Rules) -> int:
    """871.5 with interpretation 3: a pistol-only crewman's CCV relative to an unarmed man's."""
    cc = rules.close_combat
    if rules.setting("pistol_ccv") == "net_unarmed":
        return cc.pistol_only_vs_unarmed + cc.ccv_modifier
    return cc.pistol_only_vs_unarmed


def weapon_model(rules: Rules, nationality: Nationality, year: int, kind: str) -> str | None:
    """The model a man carries: interpretation 6 when no SMG was in service that year."""
    if kind == PISTOL:
        return None
    if kind == "smg":
        model = nationality.smg_in(year)
        if model is not None:
            return model
        if rules.setting("no_smg") == "pistol":
            return None
    return nationality.rifle_in(year)


def leaders_ok(rules: Rules, roles: Iterable[str]) -> bool:
    """871.2: at most `max_leaders` crew members may be an SL or ASL."""
    crew = rules.crew
    return sum(1 for r in roles if r in crew.leader_roles) <= crew.max_leaders


def average_ok(rules: Rules, afv_morale: int, morales: Sequence[int]) -> bool:
    """871.2: the crew's average Morale equals the AFV's Morale plus the offset."""
    return Fraction(sum(morales), len(morales)) == afv_morale + rules.crew.morale_offset
