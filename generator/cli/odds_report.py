"""`bailout odds` as a plain-text table: each chance as a fraction and a percentage."""

import re
from fractions import Fraction

from generator.data.model import KitData, Rules
from generator.engine.odds import Odds, man_code, percent
from generator.engine.simulate import Figure

WEAPON_WORD = {"pistol": "pistol only", "rifle": "rifle", "smg": "SMG"}


def odds_lines(kit: KitData, odds: Odds) -> list[str]:
    """`bailout odds`: every chance of the kit, by rule, as a fraction and a percentage."""
    r = kit.rules
    lines = [f"Rule {r.number} {r.title}: exact odds over a deck of {odds.deck_size} cards "
             f"({'transcribed' if kit.deck_cards else 'ideal'}), data {kit.short_hash}", ""]
    return with_notes(r, lines + _one_man_lines(r, odds) + _crew_lines(r, odds))


_CITED = re.compile(r"\bnote (\d+)\b")


def with_notes(rules: Rules, lines: list[str]) -> list[str]:
    """`lines`, then each interpretation note they cite ("note 8"), in the words of the player
    aid's notes: a terminal has no page 2 to turn to."""
    cited = {int(n) for line in lines for n in _CITED.findall(line)}
    notes = [i for i in rules.interpretations if i.note in cited]
    if not notes:
        return lines
    from generator.content.words import load_words
    words = load_words()        # the aid's own labels, in the terminal's English
    out = [*lines, "", "Notes (as on the player aid)"]
    for note in notes:
        label = ("aid.note.house_rule" if note.house_rule
                 else "aid.note.rule" if note.restates and note.reading == note.default else None)
        out.append(f"  note {note.note}: {words(label) + ' ' if label else ''}{note.sentence}")
    return out


def _row(label: str, p: Fraction) -> str:
    return f"  {label:44} {p!s:>11} {percent(p):>7}"


def _one_man_lines(r: Rules, odds: Odds) -> list[str]:
    """The bail-out check, and one man's fate and weapon, each alone and together."""
    notes = {i.name: i for i in r.interpretations}
    w = r.weapon
    when = "a kill by the exact number needed" if r.setting("over_kill") == "no_bail_out" else "any kill result"
    voluntary_draws = r.setting("voluntary_casualties") != "none"
    lines = [f"Bail-out check, reading the kill card ({when}, note {notes['over_kill'].note})"]
    lines += [_row(f"{check.label} ({check.rule}, column {check.column})", p)
              for check, p in ((r.closed, odds.bail_out_closed), (r.open, odds.bail_out_open))]
    lines.append(f"Each man's fate ({r.fate.rule}, column {r.fate.table.column}; a destroyed AFV"
                 f"{', and a voluntary bail-out' if voluntary_draws else ' only'}, note "
                 f"{notes['voluntary_casualties'].note})")
    lines += [_row(k, p) for k, p in odds.fate.items()]
    which = "a new card" if r.setting("weapon_type_card") == "new_card" else "the same card"
    lines.append(f"A man's weapon draw ({w.rule}, column {w.armed_column}; then column {w.types.column} of "
                 f"{which}, note {notes['weapon_type_card'].note})")
    lines += [_row(WEAPON_WORD[k], p) for k, p in odds.weapon.items()]
    lines.append(_row(f"armed: rifle or SMG (column {w.armed_column})", odds.armed_chance))
    lines += [_row(f"of armed men: {WEAPON_WORD[k]} (column {w.types.column})", p)
              for k, p in odds.armed_split.items()]
    lines.append("One man, fate and weapon together (a destroyed AFV whose crew passed the bail-out check, "
                 "no Hero card)")
    lines += [_row(f"{man_code(fate, weapon):3} {fate}{', ' + WEAPON_WORD[weapon] if weapon else ''}", p)
              for (fate, weapon), p in odds.man.items()]
    return lines


def _crew_lines(r: Rules, odds: Odds) -> list[str]:
    """Survivors and armed survivors of each crew size, with and without the Hero card, and the
    expected survivors."""
    notes = {i.name: i for i in r.interpretations}
    hero = r.hero
    voluntary_draws = r.setting("voluntary_casualties") != "none"
    # The Hero card these tables count is the 871.3 one; note 2 says whether it also arms the man.
    arms = "the same card chooses his weapon" if r.setting("hero_card") == "single" else "he still draws for a weapon"
    hero_label = f"Hero card in {hero.fate_rule} ({arms}, note {notes['hero_card'].note})"
    lines = [f"Crews below: a destroyed AFV whose crew passed the bail-out check; after a voluntary "
             f"bail-out {'the same' if voluntary_draws else 'no man draws for his fate: all get out'}"
             f" (note {notes['voluntary_casualties'].note})"]
    for title, table in (("Survivors", odds.survivors), ("Armed survivors (rifle or SMG)", odds.armed)):
        for size in sorted(table, reverse=True):
            for with_hero in (False, True):
                lines.append(f"{title}, crew of {size}{', ' + hero_label if with_hero else ''}")
                lines += [_row(f"{men}", p) for men, p in table[size][with_hero].items()]
    lines.append("Expected survivors")
    for size in sorted(odds.expected_survivors, reverse=True):
        for with_hero in (False, True):
            e = odds.expected_survivors[size][with_hero]
            label = f"crew of {size}{', Hero card in ' + hero.fate_rule if with_hero else ''}"
            lines.append(f"  {label:44} {e!s:>11} {float(e):7.3f}")
    return lines


def figure_label(rules: Rules, figure: Figure) -> str:
    """What a player reads for one simulated figure, in the rule's terms."""
    kind, _, rest = figure.name.partition(".")
    if kind == "bail_out_closed":
        return f"{rules.closed.label}: crew may bail out ({rules.closed.rule})"
    if kind == "bail_out_open":
        return f"{rules.open.label}: crew may bail out ({rules.open.rule})"
    if kind == "fate":
        return f"a man is {rest} ({rules.fate.rule})"
    if kind == "weapon":
        return f"a man who draws: {WEAPON_WORD[rest]} ({rules.weapon.rule})"
    size, _, hero = rest.partition(".")
    return f"average alive of {size}" + (f", Hero card in {rules.hero.fate_rule}" if hero == "hero" else "")
