"""Load and validate data/ into frozen dataclasses; every problem is reported at once.

`load(data_dir)` returns a `KitData` or raises `DataError` listing each problem with its file
and key path.  Nothing here knows a rule number: they are all read from rules.toml.
"""

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import DataError
from .schema import Problems, Reader, in_range, one_of

FATES = ("unhurt", "wounded", "killed")
WEAPON_TYPES = ("rifle", "smg")
LEADER_ROLES = ("SL", "ASL")
# The readings the code knows how to apply, per interpretation setting.
READINGS = {
    "voluntary_casualties": ("none", "draw"),
    "hero_card": ("separate", "single"),
    "pistol_ccv": ("net_unarmed", "plus_one"),
    "weapons_for": ("survivors", "unhurt"),
    "crew_size": ("floor", "no_floor"),
    "no_smg": ("rifle", "pistol"),
    "deck": ("uniform", "transcribed"),
    "over_kill": ("no_bail_out", "check"),
}
MAX_COLUMN = 6   # an Up Front RPC row has columns 1..6
YEAR = in_range(1900, 2100)


@dataclass(frozen=True)
class ColumnTable:
    """Which result each value of one RPC column gives."""
    column: int
    results: tuple          # ((value, result), ...) for every value 1..column

    def result(self, value):
        return dict(self.results)[value]

    def values_for(self, result):
        return tuple(v for v, r in self.results if r == result)


@dataclass(frozen=True)
class Check:
    rule: str
    label: str
    column: int
    succeed: tuple


@dataclass(frozen=True)
class Crew:
    rule: str
    size: int
    commander_casualty_rule: str
    per_commander_casualty: int
    minimum_size: int
    morale_rule: str
    morale_offset: int
    max_leaders: int
    leader_roles: tuple
    takeover: str
    leader_scope: str
    aid_afv_morale: tuple
    aid_crew_sizes: tuple


@dataclass(frozen=True)
class Fate:
    rule: str
    wounded_rule: str
    wounded_except: str
    table: ColumnTable


@dataclass(frozen=True)
class Hero:
    fate_rule: str
    fate_result: str
    weapon_rule: str
    weapon_choice: tuple
    unpins: bool


@dataclass(frozen=True)
class Weapon:
    rule: str
    pistol_fp: int
    pistol_relative_range: int
    pistol_rule: str
    smoke: bool
    armed_column: int
    armed_values: tuple
    types: ColumnTable      # read from the same card as the armed column


@dataclass(frozen=True)
class After:
    rule: str
    pinned: bool
    group: str
    wreck_tem: int
    wreck_terrain: str
    wreck_until: str
    infiltrators: str


@dataclass(frozen=True)
class CloseCombat:
    rule: str
    ccv_modifier: int
    pistol_only_vs_unarmed: int
    smoke: bool


@dataclass(frozen=True)
class Interpretation:
    name: str
    note: int
    reading: str
    default: str
    readings: tuple         # ((reading, sentence), ...)

    @property
    def sentence(self):
        return dict(self.readings)[self.reading]


@dataclass(frozen=True)
class Rules:
    number: str
    title: str
    game: str
    credit: str
    first_year: int
    last_year: int
    columns: tuple
    deck_file: str | None
    trigger_rule: str
    exact_kill: str
    voluntary: tuple
    closed: Check
    open: Check
    crew: Crew
    fate: Fate
    hero: Hero
    weapon: Weapon
    after: After
    close_combat: CloseCombat
    interpretations: tuple  # Interpretation, in note order

    def setting(self, name):
        """The reading in force for interpretation setting `name`."""
        return next(i.reading for i in self.interpretations if i.name == name)

    def years(self):
        return range(self.first_year, self.last_year + 1)


@dataclass(frozen=True)
class WeaponSpan:
    first: int
    last: int
    model: str
    source: str


@dataclass(frozen=True)
class RosterCard:
    card_id: str
    role: str               # "SL", "ASL" or "" for none
    morale: int


@dataclass(frozen=True)
class Afv:
    name: str
    morale: int
    open_topped: bool


@dataclass(frozen=True)
class Nationality:
    key: str
    name: str
    adjective: str
    colour: str
    text_colour: str
    rifles: tuple
    smgs: tuple
    roster: tuple
    afvs: tuple

    def rifle_in(self, year):
        return _span_model(self.rifles, year)

    def smg_in(self, year):
        return _span_model(self.smgs, year)


def _span_model(spans, year):
    return next((s.model for s in spans if s.first <= year <= s.last), None)


@dataclass(frozen=True)
class KitData:
    directory: Path
    rules: Rules
    nationalities: tuple    # sorted by key
    deck_cards: tuple | None  # transcribed deck rows (tuples in `rules.columns` order), or None
    hash: str               # sha256 of every data file, hex

    @property
    def short_hash(self):
        return self.hash[:10]


def load(data_dir):
    """Read and validate `data_dir`; raise DataError with every problem found."""
    data_dir = Path(data_dir)
    problems = Problems(str(data_dir))
    if not data_dir.is_dir():
        raise DataError(f"{data_dir}: no such data folder")
    rules_table = _read_toml(problems, data_dir, "rules.toml")
    rules = _rules(problems, rules_table) if rules_table is not None else None
    deck_cards = None
    if rules and rules.deck_file:
        deck_cards = _deck(problems, data_dir, rules.deck_file, rules.columns)
    nat_dir = data_dir / "nationalities"
    nat_files = sorted(nat_dir.glob("*.toml")) if nat_dir.is_dir() else []
    if not nat_files:
        problems.add("nationalities/", "", "no nationality files (*.toml) found")
    nationalities = []
    for path in nat_files:
        rel = f"nationalities/{path.name}"
        table = _read_toml(problems, data_dir, rel)
        if table is not None:
            nationalities.append(_nationality(problems, rel, path.stem, table, rules))
    if problems:
        raise DataError(problems.lines)
    return KitData(data_dir, rules, tuple(nationalities), deck_cards, _hash(data_dir))


def _hash(data_dir):
    digest = hashlib.sha256()
    for path in sorted(p for p in data_dir.rglob("*.toml") if p.is_file()):
        digest.update(path.relative_to(data_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _read_toml(problems, data_dir, rel):
    path = data_dir / rel
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        problems.add(rel, "", "file not found")
    except tomllib.TOMLDecodeError as error:
        problems.add(rel, "", f"not valid TOML: {error}")
    except (OSError, UnicodeDecodeError) as error:
        problems.add(rel, "", f"cannot be read: {error}")
    return None


def _rules(problems, table):
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
    deck_file = deck and deck.get("file", str, default=None)

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
            table_of(weapon_r, type_col, "types", "type_otherwise", WEAPON_TYPES))
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
    result = []
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
                    readings[reading] = readings_r.get(reading, str, check=_nonblank)
        reading = s.get("reading", str, check=one_of(known))
        default = s.get("default", str, check=one_of(known))
        for key, value in (("reading", reading), ("default", default)):
            if value is not None and readings_r and value not in readings:
                s.report(key, f"reading {value!r} has no sentence under {s.key('readings')}")
        note = s.get("note", int, check=in_range(1, 99))
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


def _nonblank(value):
    return None if value.strip() else "must not be blank"


def _deck(problems, data_dir, rel, columns):
    table = _read_toml(problems, data_dir, rel)
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


def _colour(value):
    if len(value) == 7 and value[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in value[1:]):
        return None
    return f"{value!r} is not a colour like '#8a9aa6'"


def _nationality(problems, rel, key, table, rules):
    r = Reader(problems, rel, table)
    name = r.get("name", str, check=_nonblank)
    adjective = r.get("adjective", str, check=_nonblank)
    colour = r.get("colour", str, check=_colour)
    text_colour = r.get("text_colour", str, check=_colour)
    if colour and text_colour:
        from .colour import grey_contrast   # local: colour maths is a leaf module
        ratio = grey_contrast(colour, text_colour)
        if ratio < 4.5:
            r.report("text_colour", f"contrast with colour is {ratio:.1f}:1 in greyscale; needs at least 4.5:1")
    rifles = _spans(r, "rifle", rules, need_every_year=True)
    smgs = _spans(r, "smg", rules, need_every_year=False)
    roster = []
    for card in r.tables("roster", required=False):
        roster.append(RosterCard(card.get("card", str, check=_nonblank),
                                 card.get("role", str, default="", check=one_of(("",) + LEADER_ROLES)),
                                 card.get("morale", int, check=in_range(0, 10))))
        card.finish()
    if "roster" in r.table and not roster:
        r.report("roster", "is empty; leave the section out if the cards are unknown")
    ids = [c.card_id for c in roster]
    for dup in sorted({i for i in ids if i and ids.count(i) > 1}):
        r.report("roster", f"card {dup!r} is listed twice")
    afvs = []
    for afv in r.tables("afv", required=False):
        afvs.append(Afv(afv.get("name", str, check=_nonblank), afv.get("morale", int, check=in_range(0, 10)),
                        afv.get("open_topped", bool)))
        afv.finish()
    if "afv" in r.table and not afvs:
        r.report("afv", "is empty; leave the section out if the AFVs are unknown")
    r.finish()
    return Nationality(key, name, adjective, colour, text_colour, tuple(rifles), tuple(smgs),
                       tuple(roster), tuple(afvs))


def _spans(r, name, rules, need_every_year):
    spans = []
    for s in r.tables(name, required=need_every_year):
        years = s.get_list("years", int, check_item=YEAR)
        model = s.get("model", str, check=_nonblank)
        source = s.get("source", str, check=_nonblank)
        s.finish()
        if years is None:
            continue
        if len(years) != 2 or years[0] > years[1]:
            s.report("years", "expected [first, last] with first <= last")
            continue
        spans.append(WeaponSpan(years[0], years[1], model, source))
    spans.sort(key=lambda s: s.first)
    for a, b in zip(spans, spans[1:]):
        if b.first <= a.last:
            r.report(name, f"spans {a.first}-{a.last} and {b.first}-{b.last} overlap")
    if need_every_year and rules and rules.first_year and rules.last_year and spans:
        for year in range(rules.first_year, rules.last_year + 1):
            if not any(s.first <= year <= s.last for s in spans):
                r.report(name, f"no {name} for {year}")
    return spans
