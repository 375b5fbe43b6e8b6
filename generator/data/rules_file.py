"""rules.toml (and a transcribed deck it names) -> Rules, every problem collected."""

import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from generator.data.model import (
    FATES,
    LEADER_ROLES,
    MAX_COLUMN,
    READINGS,
    WEAPON_TYPES,
    YEAR,
    After,
    Check,
    CloseCombat,
    ColumnTable,
    Crew,
    Fate,
    Hero,
    Interpretation,
    Rules,
    Weapon,
)
from generator.data.schema import REPORTED, Problems, Reader, Validator, in_range, nonblank, one_of
from generator.data.toml_file import read_toml

_T = TypeVar("_T")
# A list of words the aid prints in a sentence (the voluntary bail-outs' causes): a few, not the
# thousands an 8 MiB file can hold, which would run the aid's template out of time.
MAX_PRINTED_LIST = 12
Columns = tuple[int, ...] | None    # the deck's RPC columns; None when deck.columns is bad


def read_rules(problems: Problems, table: dict[str, Any]) -> Rules:
    """rules.toml's table -> Rules, one section after another (problems are found in this order)."""
    top = Reader(problems, "rules.toml", table)
    variant = top.section("variant")
    period = top.section("period")
    deck = top.section("deck")
    columns, deck_file = _deck(deck)
    bail_out = top.section("bail_out")
    closed, open_ = _check(bail_out, "closed", columns), _check(bail_out, "open", columns)
    if bail_out:
        bail_out.finish()
    triggers = top.section("triggers")
    crew = _section(top.section("crew"), _crew)
    fate = _section(top.section("fate"), lambda r: _fate(r, columns))
    hero = _section(top.section("hero"), _hero)
    weapon = _section(top.section("weapon"), lambda r: _weapon(r, columns))
    after = _section(top.section("after"), _after)
    close_combat = _section(top.section("close_combat"), _close_combat)
    interpretations = _interpretations(top, deck_file)
    rules = Rules(
        number=_key(variant, "number", str), title=_key(variant, "title", str),
        game=_key(variant, "game", str), credit=_key(variant, "credit", str),
        first_year=_key(period, "first_year", int, YEAR), last_year=_key(period, "last_year", int, YEAR),
        columns=REPORTED if columns is None else columns, deck_file=deck_file,
        trigger_rule=_key(triggers, "rule", str), exact_kill=_key(triggers, "exact_kill", str),
        voluntary=tuple((triggers and triggers.get_list("voluntary", str, most=MAX_PRINTED_LIST)) or ()),
        closed=closed, open=open_, crew=crew, fate=fate, hero=hero, weapon=weapon, after=after,
        close_combat=close_combat, interpretations=interpretations)
    if period and rules.first_year and rules.last_year and rules.first_year > rules.last_year:
        period.report("last_year", "is before first_year")
    for reader in (variant, period, deck, triggers, top):
        if reader:
            reader.finish()
    return rules


def _key(section: Reader | None, name: str, kind: type[_T], check: Validator[_T] | None = None) -> _T:
    """section.get(name, kind), or REPORTED where the section itself is missing (said already)."""
    return REPORTED if section is None else section.get(name, kind, check=check)


def _section(section: Reader | None, read: Callable[[Reader], _T]) -> _T:
    """read(section), every key of it then checked for unknown ones; REPORTED where the section
    itself is missing (said already)."""
    if section is None:
        return REPORTED
    value = read(section)
    section.finish()
    return value


def _deck(deck: Reader | None) -> tuple[Columns, str | None]:
    """[deck]: the RPC columns every card carries, ascending, and the transcribed deck's file."""
    if deck is None:
        return None, None
    columns = deck.get_list("columns", int, check_item=in_range(2, MAX_COLUMN), most=MAX_COLUMN)
    if columns and len(set(columns)) != len(columns):
        deck.report("columns", "lists a column twice")
        columns = REPORTED
    return (tuple(sorted(columns)) if columns else None), deck.get("file", str, default=None, check=_inside_data)


def _column(reader: Reader, name: str, columns: Columns) -> int:
    """A column rule reads: must be a column of the deck."""
    value = reader.get(name, int, check=in_range(1, MAX_COLUMN))
    if value is not None and columns is not None and value not in columns:
        reader.report(name, f"reads RPC column {value}, which the deck lacks (deck.columns = {list(columns)})")
        return REPORTED
    return value


def _values(reader: Reader, name: str, col: int) -> tuple[int, ...]:
    """Values that column `col` can give (1..col)."""
    check = in_range(1, col) if col else None
    got = reader.get_list(name, int, check_item=check, most=col or None)
    return tuple(got) if got else REPORTED


def _table_of(reader: Reader, col: int, results_key: str, otherwise_key: str, allowed: tuple[str, ...]) \
        -> ColumnTable:
    """A ColumnTable from `results_key` (result -> values) and an optional catch-all."""
    sub = reader.section(results_key)
    otherwise = reader.get(otherwise_key, str, default=None, check=one_of(allowed))
    if sub is None or col is None:
        return REPORTED
    mapping: dict[int, str] = {}
    ok = True
    for result in sub.names():
        if result not in allowed:
            sub.report(result, f"unknown result; expected one of {', '.join(allowed)}")
            ok = False
            continue
        for value in _values(sub, result, col) or ():
            if value in mapping:
                sub.report(result, f"value {value} already gives {mapping[value]!r}")
                ok = False
            mapping[value] = result
    for value in range(1, col + 1):
        if value not in mapping:
            if otherwise is None:
                reader.report(results_key, f"does not cover value {value} of column {col} (and no {otherwise_key})")
                ok = False
            else:
                mapping[value] = otherwise
    return ColumnTable(col, tuple(sorted(mapping.items()))) if ok else REPORTED


def _check(bail_out: Reader | None, name: str, columns: Columns) -> Check:
    """[bail_out.closed] or [bail_out.open]: the column read and the values that bail out."""
    def read(c: Reader) -> Check:
        col = _column(c, "column", columns)
        return Check(c.get("rule", str), c.get("label", str), col, _values(c, "succeed", col))
    return _section(bail_out and bail_out.section(name), read)


def _crew(r: Reader) -> Crew:
    return Crew(
        r.get("rule", str), r.get("size", int, check=in_range(1, 20)),
        r.get("commander_casualty_rule", str),
        r.get("per_commander_casualty", int, check=in_range(0, 20)),
        r.get("minimum_size", int, check=in_range(0, 20)),
        r.get("morale_rule", str), r.get("morale_offset", int, check=in_range(-10, 10)),
        r.get("max_leaders", int, check=in_range(0, 20)),
        tuple(r.get_list("leader_roles", str, check_item=one_of(LEADER_ROLES), most=len(LEADER_ROLES)) or ()),
        r.get("takeover", str), r.get("leader_scope", str),
        # the aid's tables give each Morale (0..20) and crew size (1..20) a column at most once
        tuple(r.get_list("aid_afv_morale", int, check_item=in_range(0, 20), most=21) or ()),
        tuple(r.get_list("aid_crew_sizes", int, check_item=in_range(1, 20), most=20) or ()),
    )


def _fate(r: Reader, columns: Columns) -> Fate:
    col = _column(r, "column", columns)
    return Fate(r.get("rule", str), r.get("wounded_rule", str), r.get("wounded_except", str),
                _table_of(r, col, "outcomes", "otherwise", FATES))


def _hero(r: Reader) -> Hero:
    return Hero(r.get("fate_rule", str), r.get("fate_result", str, check=one_of(FATES)),
                r.get("weapon_rule", str),
                tuple(r.get_list("weapon_choice", str, check_item=one_of(WEAPON_TYPES), most=len(WEAPON_TYPES)) or ()),
                r.get("unpins", bool))


def _weapon(r: Reader, columns: Columns) -> Weapon:
    armed_col = _column(r, "armed_column", columns)
    type_col = _column(r, "type_column", columns)
    return Weapon(
        r.get("rule", str), r.get("pistol_fp", int, check=in_range(0, 10)),
        r.get("pistol_relative_range", int, check=in_range(0, 5)),
        r.get("pistol_rule", str), r.get("smoke", bool),
        armed_col, _values(r, "armed_values", armed_col),
        _table_of(r, type_col, "types", "type_otherwise", WEAPON_TYPES),
        r.get("type_words", str, check=nonblank))


def _after(r: Reader) -> After:
    return After(r.get("rule", str), r.get("pinned", bool), r.get("group", str),
                 r.get("wreck_tem", int, check=in_range(-5, 5)), r.get("wreck_terrain", str),
                 r.get("wreck_until", str), r.get("infiltrators", str))


def _close_combat(r: Reader) -> CloseCombat:
    return CloseCombat(r.get("rule", str), r.get("ccv_modifier", int, check=in_range(-10, 10)),
                       r.get("pistol_only_vs_unarmed", int, check=in_range(-10, 10)),
                       r.get("smoke", bool))


def _interpretations(top: Reader, deck_file: str | None) -> tuple[Interpretation, ...]:
    section = top.section("interpretation")
    if section is None:
        return ()
    result: list[Interpretation] = []
    notes: dict[int, str] = {}
    for name in section.names():
        if name not in READINGS:
            section.report(name, f"unknown setting; expected one of {', '.join(READINGS)}")
            continue
        s = section.section(name)
        interpretation = _interpretation(s, name, notes) if s is not None else None
        if interpretation is not None:
            result.append(interpretation)
    for name in READINGS:
        if name not in section.table:
            section.report(name, "missing setting")
    _check_deck_reading(section, {i.name: i for i in result}, deck_file)
    return tuple(sorted(result, key=lambda i: (i.note or 0, i.name)))


def _interpretation(s: Reader, name: str, notes: dict[int, str]) -> Interpretation | None:
    """One interpretation setting, or None where its reading has no sentence; `notes` (note number ->
    setting) gains its note, so two settings cannot share one."""
    known = READINGS[name]
    readings_r = s.section("readings")
    readings = _readings(readings_r, known) if readings_r else {}
    reading = s.get("reading", str, check=one_of(known))
    default = s.get("default", str, check=one_of(known))
    for key, value in (("reading", reading), ("default", default)):
        if value is not None and readings_r and value not in readings:
            s.report(key, f"reading {value!r} has no sentence under {s.key('readings')}")
    note = s.get("note", int, check=in_range(1, 99))
    if note is not None and note in notes:
        s.report("note", f"{note} is already the number of interpretation.{notes[note]}")
    elif note is not None:
        notes[note] = name
    house, restates = _house_rules(s, known, default)
    s.finish()
    if reading not in readings or not readings[reading]:
        return None
    return Interpretation(name, note, reading, default, tuple(sorted(readings.items())), house, restates)


def _readings(r: Reader, known: tuple[str, ...]) -> dict[str, str]:
    """A setting's [readings] table: each known reading's sentence; an unknown one is reported."""
    readings: dict[str, str] = {}
    for reading in r.names():
        if reading not in known:
            r.report(reading, f"unknown reading; expected one of {', '.join(known)}")
        else:
            readings[reading] = r.get(reading, str, check=nonblank)
    return readings


def _check_deck_reading(section: Reader, by_name: dict[str, Interpretation], deck_file: str | None) -> None:
    """The deck setting reads 'transcribed' exactly when deck.file names a transcribed deck."""
    if "deck" not in by_name:
        return
    transcribed = by_name["deck"].reading == "transcribed"
    if transcribed and not deck_file:
        section.report("deck.reading", "is 'transcribed' but deck.file names no deck")
    if deck_file and not transcribed:
        section.report("deck.reading", f"is {by_name['deck'].reading!r} but deck.file names a transcribed deck")


def _house_rules(s: Reader, known: tuple[str, ...], default: str | None) -> tuple[tuple[str, ...], bool]:
    """(house_rules, restates) of one interpretation setting.  `house_rules` lists the readings
    that go against the rule's text; `restates = true` says the default is the text itself, so
    every other reading must be listed as a house rule, and the kit never ships one by default."""
    listed = s.get_list("house_rules", str, default=[], nonempty=False, check_item=one_of(known), most=len(known))
    house = tuple(h for h in listed or () if h in known)
    restates = s.get("restates", bool, default=False)
    if default is not None and default in house:
        s.report("default", f"{default!r} is listed in house_rules; the kit's default follows the rule's text")
    if restates and default is not None:
        unlisted = [k for k in known if k != default and k not in house]
        if unlisted:
            s.report("house_rules", f"restates = true, so every other reading goes against the text: "
                                    f"list {', '.join(unlisted)}")
    return house, bool(restates)


def _inside_data(path: str) -> str | None:
    """A deck named by a relative path that stays in the data folder (data is shared)."""
    parts = path.replace("\\", "/").split("/")
    if any(unicodedata.category(ch).startswith("C") for ch in path):   # a NUL is never part of a name
        return f"{path!r} holds a control character; a deck file is named like 'decks/my-deck.toml'"
    if path.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts or not path.strip():
        return f"{path!r} must be a path inside the data folder, like 'decks/my-deck.toml'"
    return None


def read_deck(problems: Problems, data_dir: Path, rel: str, columns: tuple[int, ...] | None,
              seen: dict[str, bytes] | None = None) -> tuple[tuple[int, ...], ...] | None:
    """The transcribed deck's cards as value tuples in `columns` order, or None (problems added)."""
    table = read_toml(problems, data_dir, rel, seen)
    if table is None:
        return None
    r = Reader(problems, rel, table)
    deck_columns = r.get_list("columns", int, check_item=in_range(1, MAX_COLUMN), most=MAX_COLUMN)
    rows = r.get_list("cards", list)
    r.finish()
    if not deck_columns or rows is None or columns is None:
        return None
    lacking = [c for c in columns if c not in deck_columns]
    if lacking:
        r.report("columns", f"lacks RPC column(s) {lacking} that the rules read")
        return None
    cards: list[tuple[int, ...]] = []
    ok = True
    for i, row in enumerate(rows):
        if len(row) != len(deck_columns):
            r.report(f"cards[{i}]", f"has {len(row)} values; expected {len(deck_columns)} (one per column)")
            ok = False
            continue
        card = dict(zip(deck_columns, row, strict=True))
        for col, value in card.items():
            if not (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= col):
                r.report(f"cards[{i}]", f"column {col} reads {value!r}; expected 1..{col}")
                ok = False
        cards.append(tuple(card[c] for c in columns))
    return tuple(cards) if ok else None
