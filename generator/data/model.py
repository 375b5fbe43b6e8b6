"""The data model: frozen records (msgspec Structs) for rule 871 and the nationalities.  No I/O here."""

from collections.abc import Iterable
from pathlib import Path

from msgspec import Struct

from generator.data.schema import in_range

FATES: tuple[str, ...] = ("unhurt", "wounded", "killed")
WEAPON_TYPES: tuple[str, ...] = ("rifle", "smg")
LEADER_ROLES: tuple[str, ...] = ("SL", "ASL")
# The readings the code knows how to apply, per interpretation setting.
READINGS: dict[str, tuple[str, ...]] = {
    "voluntary_casualties": ("none", "draw"),
    "hero_card": ("separate", "single"),
    "pistol_ccv": ("net_unarmed", "plus_one"),
    "weapons_for": ("survivors", "unhurt"),
    "crew_size": ("floor", "no_floor"),
    "no_smg": ("rifle", "pistol"),
    "deck": ("uniform", "transcribed"),
    "over_kill": ("no_bail_out", "check"),
    "weapon_type_card": ("same_card", "new_card"),
}
MAX_COLUMN = 6   # an Up Front RPC row has columns 1..6
YEAR = in_range(1900, 2100)
MORALE_RANGE = (0, 10)     # a sanity bound on Morale values, not a rule of 871
# The emblem vocabulary: the shapes a nationality file may draw its emblem with, and the keys
# each takes besides `shape` and its colour(s).  Sizes are whole percentages (exact, no floats).
EMBLEM_SHAPES: dict[str, tuple[str, ...]] = {
    "disc": ("colour", "size", "x", "y"),
    "ring": ("colour", "size", "width", "x", "y"),
    "square": ("colour", "size", "x", "y"),
    "star": ("colour", "size", "points", "inner", "x", "y"),
    "cross": ("colour", "size", "width", "x", "y"),
    "bars": ("colours", "size", "direction", "x", "y"),
}
BAR_DIRECTIONS: tuple[str, ...] = ("vertical", "horizontal")


class ColumnTable(Struct, frozen=True):
    """Which result each value of one RPC column gives."""
    column: int
    results: tuple[tuple[int, str], ...]    # ((value, result), ...) for every value 1..column

    def result(self, value: int) -> str:
        return dict(self.results)[value]

    def values_for(self, result: str) -> tuple[int, ...]:
        return tuple(v for v, r in self.results if r == result)


class Check(Struct, frozen=True):
    rule: str
    label: str
    column: int
    succeed: tuple[int, ...]    # the values of `column` that let the crew bail out


class Crew(Struct, frozen=True):
    rule: str
    size: int
    commander_casualty_rule: str
    per_commander_casualty: int
    minimum_size: int
    morale_rule: str
    morale_offset: int
    max_leaders: int
    leader_roles: tuple[str, ...]
    takeover: str
    leader_scope: str
    aid_afv_morale: tuple[int, ...]
    aid_crew_sizes: tuple[int, ...]


class Fate(Struct, frozen=True):
    rule: str
    wounded_rule: str
    wounded_except: str
    table: ColumnTable


class Hero(Struct, frozen=True):
    fate_rule: str
    fate_result: str
    weapon_rule: str
    weapon_choice: tuple[str, ...]     # 'rifle', 'smg'
    unpins: bool


class Weapon(Struct, frozen=True):
    rule: str
    pistol_fp: int
    pistol_relative_range: int
    pistol_rule: str
    smoke: bool
    armed_column: int
    armed_values: tuple[int, ...]
    types: ColumnTable      # read from the same card as the armed column
    type_words: str         # the rule's words for which rifle or SMG (it names no models)


class After(Struct, frozen=True):
    rule: str
    pinned: bool
    group: str
    wreck_tem: int
    wreck_terrain: str
    wreck_until: str
    infiltrators: str


class CloseCombat(Struct, frozen=True):
    rule: str
    ccv_modifier: int
    pistol_only_vs_unarmed: int
    smoke: bool


class Interpretation(Struct, frozen=True):
    name: str
    note: int
    reading: str
    default: str
    readings: tuple[tuple[str, str], ...]   # ((reading, sentence), ...)
    house_rules: tuple[str, ...] = ()       # readings that go against the rule's text
    restates: bool = False                  # the default reading is the rule's own text, not a reading of it

    @property
    def sentence(self) -> str:
        return dict(self.readings)[self.reading]

    @property
    def house_rule(self) -> bool:
        """The reading in force goes against the rule's text: the kit prints it as a house rule."""
        return self.reading in self.house_rules


class Rules(Struct, frozen=True):
    number: str
    title: str
    game: str
    credit: str
    first_year: int
    last_year: int
    columns: tuple[int, ...]    # the RPC columns the rules read, ascending
    deck_file: str | None
    trigger_rule: str
    exact_kill: str
    voluntary: tuple[str, ...]
    closed: Check
    open: Check
    crew: Crew
    fate: Fate
    hero: Hero
    weapon: Weapon
    after: After
    close_combat: CloseCombat
    interpretations: tuple[Interpretation, ...]     # in note order

    def setting(self, name: str) -> str:
        """The reading in force for interpretation setting `name`."""
        return next(i.reading for i in self.interpretations if i.name == name)

    def years(self) -> range:
        return range(self.first_year, self.last_year + 1)


class WeaponSpan(Struct, frozen=True):
    first: int
    last: int
    model: str
    source: str
    short: str = ""         # the model's short form, for a counter too narrow for `model` on one line


class RosterCard(Struct, frozen=True):
    card_id: str
    role: str               # "SL", "ASL" or "" for none
    morale: int


class Afv(Struct, frozen=True):
    name: str
    morale: int
    open_topped: bool


class EmblemShape(Struct, frozen=True):
    """One shape of a nationality's emblem, on a square whose centre is (0, 0) and whose edges are
    at -100 and +100 (x right, y up).  `size` is the radius (disc, ring, star) or half-side (square,
    cross, bars); `width` a ring's thickness or a cross's arm width, as a percentage of `size`."""
    shape: str
    colours: tuple[str, ...]    # one '#rrggbb' (bars: one per bar)
    size: int = 100
    width: int = 30
    points: int = 5
    inner: int = 40         # a star's inner radius, percent of its outer radius
    direction: str = "vertical"
    x: int = 0
    y: int = 0


class Nationality(Struct, frozen=True):
    key: str
    name: str
    adjective: str
    colour: str
    text_colour: str
    rifles: tuple[WeaponSpan, ...]
    smgs: tuple[WeaponSpan, ...]
    roster: tuple[RosterCard, ...]
    afvs: tuple[Afv, ...]
    emblem: tuple[EmblemShape, ...] = ()    # drawn in order
    army: str = ""          # whose weapons the spans follow ('French Army to 1940, then Free French')
    speaks: tuple[str, ...] = ()    # its soldiers' languages ('ru'): commands take their names for it too

    def rifle_in(self, year: int) -> str | None:
        return _span_model(self.rifles, year)

    def smg_in(self, year: int) -> str | None:
        return _span_model(self.smgs, year)


def _span_model(spans: Iterable[WeaponSpan], year: int) -> str | None:
    return next((s.model for s in spans if s.first <= year <= s.last), None)


class EditionGlossary(Struct, frozen=True):
    """What a translated edition's glossary (data/glossary/<lang>.toml) adds to the data it
    translates: the file's digest, which the edition stamp covers, and the English it prints as
    it is (rule quotes, a term's English kept beside the edition's own), which the web page marks
    as English."""
    lang: str
    digest: str                     # sha256 of the glossary file's bytes, hex
    english: tuple[str, ...]        # longest first, so a phrase is marked before a word inside it
    file: str = ""                  # the glossary's path in the data folder (glossary/<lang>.toml)
    # (data file, its key, the glossary's key) of each value of the nationality files the glossary
    # gives in the edition's form: a problem with that value names the glossary, where it was written.
    given: tuple[tuple[str, str, str], ...] = ()


class KitData(Struct, frozen=True):
    directory: Path
    rules: Rules
    nationalities: tuple[Nationality, ...]  # sorted by key
    deck_cards: tuple[tuple[int, ...], ...] | None  # transcribed deck rows (values in `rules.columns` order), or None
    hash: str               # sha256 of every data file, hex
    edition: EditionGlossary | None = None      # the glossary a translated edition's data went through

    @property
    def short_hash(self) -> str:
        return self.hash[:10]
