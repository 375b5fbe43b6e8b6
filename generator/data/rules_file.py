"""rules.toml (and a transcribed deck it names) -> Rules, every problem collected."""

import unicodedata

from generator.data.schema import Reader, in_range, nonblank, one_of
from generator.data.model import (FATES, LEADER_ROLES, MAX_COLUMN, READINGS, WEAPON_TYPES, YEAR, After, Check, CloseCombat,
                    ColumnTable, Crew, Fate, Hero, Interpretation, Rules, Weapon)
from generator.data.toml_file import read_toml


def read_rules(problems, table):
    f = "rules.toml"
    top = Reader(problems, f, table)
    variant = top.section("variant")
    period = top.section("period")
    deck = top.section("deck")
    columns = deck and deck.get_list("columns", int, check_item=in_range(2, MAX_COLUMN))
    if columns and len(set(columns)) != len(columns):
        deck.report("columns", "lists a column twice")
        columns = None
    columns = tuple(sorted(columns)) if columns else None
    deck_file = deck and deck.get("file", str, default=None, check=_inside_data)

    def column(reader, name):
        """A column rule reads: must be a column of the deck."""
        value = reader.get(name, int, check=in_range(1, MAX_COLUMN))
        if value is not None and columns is not None and value not in columns:
            reader.report(name, f"reads RPC column {value}, which the deck lacks (deck.columns = {list(columns)})")
            return None
        return value

    def values(reader, name, col):
        check = in_range(1, col) if col else None
        got = reader.get_list(name, int, check_item=check)
        return tuple(got) if got else None

    def table_of(reader, col, results_key, otherwise_key, allowed):
        """A ColumnTable from `results_key` (result -> values) and an optional catch-all."""
        sub = reader.section(results_key)
        otherwise = reader.get(otherwise_key, str, default=None, check=one_of(allowed))
        if sub is None or col is None:
            return None
        mapping, ok = {}, True
        for result in sub.names():
            if result not in allowed:
                sub.report(result, f"unknown result; expected one of {', '.join(allowed)}")
                ok = False
                continue
            for value in values(sub, result, col) or ():
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
        return ColumnTable(col, tuple(sorted(mapping.items()))) if ok else None

    bail_out = top.section("bail_out")

    def check(name):
        c = bail_out and bail_out.section(name)
        if c is None:
            return None
        col = column(c, "column")
        result = Check(c.get("rule", str), c.get("label", str), col, values(c, "succeed", col))
        c.finish()
        return result

    closed, open_ = check("closed"), check("open")
    if bail_out:
        bail_out.finish()

    triggers = top.section("triggers")
    crew_r = top.section("crew")
    crew = None
    if crew_r:
        crew = Crew(
            crew_r.get("rule", str), crew_r.get("size", int, check=in_range(1, 20)),
            crew_r.get("commander_casualty_rule", str),
            crew_r.get("per_commander_casualty", int, check=in_range(0, 20)),
            crew_r.get("minimum_size", int, check=in_range(0, 20)),
            crew_r.get("morale_rule", str), crew_r.get("morale_offset", int, check=in_range(-10, 10)),
            crew_r.get("max_leaders", int, check=in_range(0, 20)),
            tuple(crew_r.get_list("leader_roles", str, check_item=one_of(LEADER_ROLES)) or ()),
            crew_r.get("takeover", str), crew_r.get("leader_scope", str),
            tuple(crew_r.get_list("aid_afv_morale", int, check_item=in_range(0, 20)) or ()),
            tuple(crew_r.get_list("aid_crew_sizes", int, check_item=in_range(1, 20)) or ()),
        )
        crew_r.finish()

    fate_r = top.section("fate")
    fate = None
    if fate_r:
        col = column(fate_r, "column")
        fate = Fate(fate_r.get("rule", str), fate_r.get("wounded_rule", str), fate_r.get("wounded_except", str),
                    table_of(fate_r, col, "outcomes", "otherwise", FATES))
        fate_r.finish()

    hero_r = top.section("hero")
    hero = None
    if hero_r:
        hero = Hero(hero_r.get("fate_rule", str), hero_r.get("fate_result", str, check=one_of(FATES)),
                    hero_r.get("weapon_rule", str),
                    tuple(hero_r.get_list("weapon_choice", str, check_item=one_of(WEAPON_TYPES)) or ()),
                    hero_r.get("unpins", bool))
        hero_r.finish()

    weapon_r = top.section("weapon")
    weapon = None
    if weapon_r:
        armed_col = column(weapon_r, "armed_column")
        type_col = column(weapon_r, "type_column")
        weapon = Weapon(
            weapon_r.get("rule", str), weapon_r.get("pistol_fp", int, check=in_range(0, 10)),
            weapon_r.get("pistol_relative_range", int, check=in_range(0, 5)),
            weapon_r.get("pistol_rule", str), weapon_r.get("smoke", bool),
            armed_col, values(weapon_r, "armed_values", armed_col),
            table_of(weapon_r, type_col, "types", "type_otherwise", WEAPON_TYPES),
            weapon_r.get("type_words", str, check=nonblank))
        weapon_r.finish()

    after_r = top.section("after")
    after = None
    if after_r:
        after = After(after_r.get("rule", str), after_r.get("pinned", bool), after_r.get("group", str),
                      after_r.get("wreck_tem", int, check=in_range(-5, 5)), after_r.get("wreck_terrain", str),
                      after_r.get("wreck_until", str), after_r.get("infiltrators", str))
        after_r.finish()

    cc_r = top.section("close_combat")
    close_combat = None
    if cc_r:
        close_combat = CloseCombat(cc_r.get("rule", str), cc_r.get("ccv_modifier", int, check=in_range(-10, 10)),
                                   cc_r.get("pistol_only_vs_unarmed", int, check=in_range(-10, 10)),
                                   cc_r.get("smoke", bool))
        cc_r.finish()

    interpretations = _interpretations(top, deck_file)

    rules = Rules(
        number=variant and variant.get("number", str), title=variant and variant.get("title", str),
        game=variant and variant.get("game", str), credit=variant and variant.get("credit", str),
        first_year=period and period.get("first_year", int, check=YEAR),
        last_year=period and period.get("last_year", int, check=YEAR),
        columns=columns, deck_file=deck_file,
        trigger_rule=triggers and triggers.get("rule", str),
        exact_kill=triggers and triggers.get("exact_kill", str),
        voluntary=tuple((triggers and triggers.get_list("voluntary", str)) or ()),
        closed=closed, open=open_, crew=crew, fate=fate, hero=hero, weapon=weapon, after=after,
        close_combat=close_combat, interpretations=interpretations)
    if period and rules.first_year and rules.last_year and rules.first_year > rules.last_year:
        period.report("last_year", "is before first_year")
    for reader in (variant, period, deck, triggers, top):
        if reader:
            reader.finish()
    return rules


def _interpretations(top, deck_file):
    section = top.section("interpretation")
    if section is None:
        return ()
    result, notes = [], {}
    for name in section.names():
        if name not in READINGS:
            section.report(name, f"unknown setting; expected one of {', '.join(READINGS)}")
            continue
        s = section.section(name)
        if s is None:
            continue
        known = READINGS[name]
        readings_r = s.section("readings")
        readings = {}
        if readings_r:
            for reading in readings_r.names():
                if reading not in known:
                    readings_r.report(reading, f"unknown reading; expected one of {', '.join(known)}")
                else:
                    readings[reading] = readings_r.get(reading, str, check=nonblank)
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
        s.finish()
        if reading in readings and readings[reading]:
            result.append(Interpretation(name, note, reading, default, tuple(sorted(readings.items()))))
    for name in READINGS:
        if name not in section.table:
            section.report(name, "missing setting")
    by_name = {i.name: i for i in result}
    if "deck" in by_name:
        transcribed = by_name["deck"].reading == "transcribed"
        if transcribed and not deck_file:
            section.report("deck.reading", "is 'transcribed' but deck.file names no deck")
        if deck_file and not transcribed:
            section.report("deck.reading", f"is {by_name['deck'].reading!r} but deck.file names a transcribed deck")
    return tuple(sorted(result, key=lambda i: (i.note or 0, i.name)))


def _inside_data(path):
    """A deck named by a relative path that stays in the data folder (data is shared)."""
    parts = path.replace("\\", "/").split("/")
    if any(unicodedata.category(ch).startswith("C") for ch in path):   # a NUL is never part of a name
        return f"{path!r} holds a control character; a deck file is named like 'decks/my-deck.toml'"
    if path.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts or not path.strip():
        return f"{path!r} must be a path inside the data folder, like 'decks/my-deck.toml'"
    return None


def read_deck(problems, data_dir, rel, columns):
    table = read_toml(problems, data_dir, rel)
    if table is None:
        return None
    r = Reader(problems, rel, table)
    deck_columns = r.get_list("columns", int, check_item=in_range(1, MAX_COLUMN))
    rows = r.get_list("cards", list)
    r.finish()
    if not deck_columns or rows is None or columns is None:
        return None
    lacking = [c for c in columns if c not in deck_columns]
    if lacking:
        r.report("columns", f"lacks RPC column(s) {lacking} that the rules read")
        return None
    cards, ok = [], True
    for i, row in enumerate(rows):
        if len(row) != len(deck_columns):
            r.report(f"cards[{i}]", f"has {len(row)} values; expected {len(deck_columns)} (one per column)")
            ok = False
            continue
        card = dict(zip(deck_columns, row))
        for col, value in card.items():
            if not (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= col):
                r.report(f"cards[{i}]", f"column {col} reads {value!r}; expected 1..{col}")
                ok = False
        cards.append(tuple(card[c] for c in columns))
    return tuple(cards) if ok else None
