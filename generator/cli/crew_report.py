"""`bailout crew`: the 871.2 target for an AFV, and the crews a roster allows, as text lines."""

import math
from pathlib import Path

from generator.cli.odds_report import with_notes
from generator.data.model import MORALE_RANGE, KitData, Nationality, Rules
from generator.engine.crews import CrewSearch, find_crews
from generator.engine.procedure import crew_size
from generator.errors import DataError, UsageError
from generator.suggest import suggestion, suggestion_by_names

MAX_COMBINATIONS = 2_000_000    # crews a search tries at most; a real roster (a few dozen cards) is far below


def crew_lines(kit: KitData, nationality: str, *, afv: str | None = None, afv_morale: int | None = None,
               casualties: int = 0, in_use: str = "", most: int = 20) -> list[str]:
    """`bailout crew NATIONALITY (--afv NAME | --afv-morale M)`: the 871.2 target and the crews the
    nationality's unused cards (`in_use` is a comma list of cards in play) make, at most `most`."""
    rules = kit.rules
    nat = _nationality(kit, nationality)
    where = str(Path(kit.directory) / "nationalities" / f"{nat.key}.toml")     # the system's own separator
    morale, label = _afv(nat, where, afv, afv_morale)
    if not MORALE_RANGE[0] <= morale <= MORALE_RANGE[1]:
        raise UsageError(f"crew: --afv-morale must be {MORALE_RANGE[0]} to {MORALE_RANGE[1]}, got {morale}")
    if casualties < 0:
        raise UsageError("crew: --casualties cannot be negative")
    cards = [i.strip() for i in in_use.split(",") if i.strip()]
    unknown = sorted(set(cards) - {c.card_id for c in nat.roster})
    if unknown:
        raise UsageError(f"crew: --in-use names cards not in {where}: {', '.join(unknown)}"
                         f"{'' if nat.roster else ' (it lists none: key roster)'}")
    size = _crew_size(rules, casualties)
    free = len(nat.roster) - len(set(cards))
    if math.comb(max(free, 0), size) > MAX_COMBINATIONS:   # every combination is tried: keep it finite
        raise UsageError(f"crew: {where}: roster: {free:,} unused cards make {math.comb(free, size):,} crews of "
                         f"{size} to try (at most {MAX_COMBINATIONS:,}); list fewer cards, or set some aside "
                         f"with --in-use")
    search = find_crews(rules, nat.roster, morale, casualties, cards)
    lines = _target_lines(rules, nat.name, label, casualties, search)
    c = rules.crew
    if not nat.roster:
        lines.append(f"No personality cards are listed in {where} (key: roster); add [[roster]] tables "
                     f"(card, role, morale; the file ends with one commented out) to search for crews.")
        return with_notes(rules, lines)
    lines.append(f"{_count(len(search.crews), 'crew', 'crews')} from "
                 f"{_count(len(nat.roster) - len(cards), 'unused card', 'unused cards')}"
                 f"{'' if search.crews else f': {c.morale_rule} cannot be met from these cards'}.")
    for crew in search.crews[:most]:
        lines.append("  " + ", ".join(f"{card.card_id}{' ' + card.role if card.role else ''} "
                                      f"(M{card.morale})" for card in crew))
    if len(search.crews) > most:
        lines.append(f"  ... and {len(search.crews) - most} more (--most N lists more)")
    return with_notes(rules, lines)


def _nationality(kit: KitData, nationality: str) -> Nationality:
    """The nationality named on the command line, whatever its case; else a usage error listing them."""
    nat = next((n for n in kit.nationalities if n.key.lower() == nationality.lower()), None)   # no two differ in case
    if nat is None:
        keys = [n.key for n in kit.nationalities]
        hint = suggestion_by_names(nationality, nationality_names(kit))
        raise UsageError(f"crew: no nationality {nationality!r}; {hint + ' ' if hint else ''}the data has "
                         f"{', '.join(keys)}")
    return nat


def nationality_names(kit: KitData) -> dict[str, list[str]]:
    """What a player may call each nationality, by its file's name: its name, adjective and army
    in the data and in every edition's glossary, and the names of the languages its soldiers
    spoke (`speaks`) in every language the kit has, as Babel gives them ('soviet': Soviet,
    Sowjets, Russian, russisch, русский, ...)."""
    from generator.content.words import available_languages, language_names
    from generator.data.glossary import read_glossary
    names = {n.key: [n.name, n.adjective, n.army, *(name for code in n.speaks for name in language_names(code))]
             for n in kit.nationalities}
    for lang in available_languages()[1:]:
        try:
            glossary = read_glossary(kit, lang)
        except DataError:       # a glossary with a problem of its own: `bailout check` names it
            continue
        for key, words in glossary.nationalities.items():
            names.get(key, []).extend(words.values())
    return {key: [name for name in these if name] for key, these in names.items()}


def _crew_size(rules: Rules, casualties: int) -> int:
    """The men left to bail out after `casualties` commander casualties; a usage error where they
    would be none, or where casualties past the crew's floor are given as if they counted."""
    c = rules.crew
    size = crew_size(rules, casualties)
    floor = next(k for k in range(casualties + 1) if crew_size(rules, k) == size)    # the fewest giving this size
    if size > 0 and casualties > floor:
        # Past the floor more casualties change nothing; saying "9 commander casualties" as if
        # they counted would mislead.
        raise UsageError(f"crew: --casualties {casualties}: the crew of {c.size} is already down to {size} after "
                         f"{floor} ({c.commander_casualty_rule}, never fewer than {c.minimum_size}); give 0 to {floor}")
    if size <= 0:       # the no_floor reading: no crew is left to bail out, nor an average to take
        raise UsageError(f"crew: with {_count(casualties, 'commander casualty', 'commander casualties')} no man of "
                         f"the crew of {c.size} is left ({c.commander_casualty_rule}, crew_size reading "
                         f"{rules.setting('crew_size')!r}), so none bails out; give fewer --casualties")
    return size


def _target_lines(rules: Rules, name: str, label: str, casualties: int, search: CrewSearch) -> list[str]:
    """The report's head: the crew's size and Morale target, and a line where no card can meet it."""
    c = rules.crew
    note = next(i.note for i in rules.interpretations if i.name == "crew_size")
    lines = [f"{name} crew for {label}, {c.morale_rule}: {_count(search.size, 'man', 'men')} "
             f"(crew of {c.size}, {_count(casualties, 'commander casualty', 'commander casualties')}, "
             f"{c.commander_casualty_rule}; note {note}); "
             f"average Morale {search.average}, so their Morale totals {search.total}; "
             f"at most {c.max_leaders} of them {' or '.join(c.leader_roles)}."]
    if search.average < MORALE_RANGE[0]:
        # The rule asks for an average no personality card can give; say so rather than print a target.
        lines.append(f"{c.morale_rule} cannot be met as written: no personality card has a Morale below "
                     f"{MORALE_RANGE[0]}, so no crew averages {search.average}. The rule does not say what to "
                     f"do then (the kit's suggestion: agree on a crew with your opponent).")
    return lines


def _afv(nat: Nationality, where: str, afv: str | None, afv_morale: int | None) -> tuple[int, str]:
    """(the AFV's Morale, how the report names it): the AFV named from the file, or a Morale given."""
    if afv is not None:
        if not nat.afvs:
            raise UsageError(f"crew: {where}: afv: no AFV is listed; add an [[afv]] table (name, morale, open_topped: "
                             f"the file ends with one commented out, docs/editing.md shows it), or give --afv-morale M")
        listed = next((a for a in nat.afvs if a.name.lower() == afv.lower()), None)
        if listed is None:
            hint = suggestion(afv, [a.name for a in nat.afvs])
            raise UsageError(f"crew: {where}: afv: no AFV named {afv!r}; {hint + ' ' if hint else ''}"
                             f"listed: {', '.join(a.name for a in nat.afvs)}")
        return listed.morale, f"{listed.name} (Morale {listed.morale})"
    if afv_morale is None:
        raise UsageError("crew: give the AFV, by --afv NAME or --afv-morale M")
    return afv_morale, f"an AFV of Morale {afv_morale}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
