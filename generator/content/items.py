"""What a rules edit changes in print terms: the kit's print items, and the diff of two sets.

`print_items(kit, odds)` flattens one loaded kit into an ordered {key: Item}: every figure the
kit prints (chances as Fractions), every sentence, label and reading from rules.toml, the
weapons by nationality and year, the nationalities and their counters, and the pre-rolled
block.  Keys are stable names ("bail_out.closed.chance", "survivors.5.hero.3"); each item
carries the rule number it prints under, read from the data, and a label in the catalogue's
words ("item.*" in locale/en.po).  `diff(old, new)` compares two item sets key by key, so an
edit lists exactly the items whose printed value moved: what it touched and what derives from
it, nothing else.  Pure: no reportlab, no I/O.
"""

import html
import re
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import cast

from generator.content import faces as C
from generator.content import rows as P
from generator.content.change import Change, Item
from generator.content.weapons import weapon_rows
from generator.content.words import Words, load_words
from generator.data import FATES
from generator.data.model import KitData
from generator.engine import procedure as R
from generator.engine.odds import WEAPONS, Odds, man_code
from generator.text import fraction_text, signed, year_span

KINDS = ("chance", "mean", "number", "modifier", "text")
HERO_KEY = {False: "no_hero", True: "hero"}     # a survivors item's key part; also its label's key
# A weapon's name in the labels, by catalogue key: a man with no rifle or SMG has his pistol only.
WEAPON_WORD = {R.PISTOL: "item.weapon.pistol", "rifle": "item.weapon.rifle", "smg": "item.weapon.smg"}

Groups = list[tuple[str, list[Change]]]


@lru_cache(maxsize=1)
def source_words() -> Words:
    """The source language's catalogue, read once: the words of a diff asked for without a build."""
    return load_words()


class _Items:
    """The items as they are added, in print order, with the catalogue that words their labels."""

    def __init__(self, words: Words) -> None:
        self.items: dict[str, Item] = {}
        self.words = words

    def add(self, key: str, rule: str, label: str, value: object, kind: str = "text") -> None:
        assert key not in self.items, f"two print items share the key {key!r}"
        if isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = self.words("item.yes" if value else "item.no")
        self.items[key] = Item(key, rule, label, value, kind)

    def weapon(self, kind: str) -> str:
        return self.words(WEAPON_WORD[kind])

    def either(self, names: Iterable[str]) -> str:
        """'SL or ASL': the names as the edition lists alternatives."""
        return self.words.either(names)


def print_items(kit: KitData, odds: Odds, sets: int = 2, words: Words | None = None) -> dict[str, Item]:
    """{key: Item} for everything the kit prints from this data, in the aid's order."""
    out = _Items(words if words is not None else source_words())
    for section in (_variant, _bail_out, _crew, _fate, _weapon, _survivors, _after, _notes, _rule_numbers):
        section(out, kit, odds)
    add_weapons(out, kit)
    add_prerolled(out, kit, odds)
    add_counters(out, kit, sets)
    return out.items


def _variant(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    add = out.add
    add("variant.title", r.number, w("item.variant.title"), f"{r.number} {r.title}")
    add("variant.game", r.number, w("item.variant.game"), r.game)
    add("variant.credit", r.number, w("item.variant.credit"), r.credit)
    add("period", r.number, w("item.period"), year_span(r.first_year, r.last_year))
    add("deck", r.number, w("item.deck"),
        w("item.deck.transcribed", file=r.deck_file) if r.deck_file else w("item.deck.ideal"))
    add("deck.columns", r.number, w("item.deck.columns"), r.columns)
    add("deck.size", r.number, w("item.deck.size"), odds.deck_size, "number")


def _bail_out(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    add = out.add
    add("triggers.exact_kill", r.trigger_rule, w("item.triggers.exact_kill"), r.exact_kill)
    add("triggers.voluntary", r.trigger_rule, w("item.triggers.voluntary"), "; ".join(r.voluntary))
    for name, check, p in (("closed", r.closed, odds.bail_out_closed), ("open", r.open, odds.bail_out_open)):
        label = check.label
        add(f"bail_out.{name}.rule", check.rule, w(f"item.bail_out.{name}.rule"), check.rule)
        add(f"bail_out.{name}.label", check.rule, w("item.bail_out.label"), label)
        add(f"bail_out.{name}.column", check.rule, w("item.bail_out.column", label=label), check.column, "number")
        add(f"bail_out.{name}.succeed", check.rule, w("item.bail_out.succeed", label=label), check.succeed)
        add(f"bail_out.{name}.chance", check.rule, w("item.bail_out.chance", label=label), p, "chance")


def _crew(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    c = r.crew
    add = out.add
    add("crew.size", c.rule, w("item.crew.size"), c.size, "number")
    add("crew.commander_casualty_rule", c.rule, w("item.crew.commander_casualty_rule"), c.commander_casualty_rule)
    add("crew.per_commander_casualty", c.rule, w("item.crew.per_commander_casualty"), c.per_commander_casualty,
        "number")
    add("crew.minimum_size", c.rule, w("item.crew.minimum_size"), c.minimum_size, "number")
    add("crew.morale_rule", c.morale_rule, w("item.crew.morale_rule"), c.morale_rule)
    add("crew.morale_offset", c.morale_rule, w("item.crew.morale_offset"), c.morale_offset, "modifier")
    add("crew.max_leaders", c.morale_rule, w("item.crew.max_leaders"), c.max_leaders, "number")
    add("crew.leader_roles", c.morale_rule, w("item.crew.leader_roles"), out.either(c.leader_roles))
    add("crew.leader_scope", c.morale_rule, w("item.crew.leader_scope"), c.leader_scope)
    add("crew.takeover", c.morale_rule, w("item.crew.takeover"), c.takeover)
    for morale in c.aid_afv_morale:
        average, _ = R.crew_morale(r, morale, 1)
        add(f"morale.{morale}.average", c.morale_rule, w("item.morale.average", morale=morale), average, "number")
        for size in c.aid_crew_sizes:
            add(f"morale.{morale}.total.{size}", c.morale_rule, w("item.morale.total", morale=morale, size=size),
                R.crew_morale(r, morale, size)[1], "number")


def _fate(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    f, h = r.fate, r.hero
    add = out.add
    add("fate.rule", f.rule, w("item.fate.rule"), f.rule)
    add("fate.column", f.rule, w("item.fate.column"), f.table.column, "number")
    add("fate.wounded_rule", f.rule, w("item.fate.wounded_rule"), f.wounded_rule)
    add("fate.wounded_except", f.rule, w("item.fate.wounded_except"), f.wounded_except)
    for fate in FATES:
        add(f"fate.{fate}.values", f.rule, w("item.fate.values", fate=fate), f.table.values_for(fate))
        add(f"fate.{fate}.chance", f.rule, w("item.fate.chance", fate=fate), odds.fate[fate], "chance")
    add("hero.fate_result", h.fate_rule, w("item.hero.fate_result"), h.fate_result)
    add("hero.weapon_choice", h.weapon_rule, w("item.hero.weapon_choice"),
        out.either(out.weapon(k) for k in h.weapon_choice))
    add("hero.unpins", h.weapon_rule, w("item.hero.unpins"), h.unpins)


def _weapon(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    p = r.weapon
    add = out.add
    add("weapon.rule", p.rule, w("item.weapon.rule"), p.rule)
    add("weapon.pistol", p.rule, w("item.weapon.pistol.label"),
        w("item.weapon.pistol.value", fp=p.pistol_fp, range=p.pistol_relative_range, rule=p.pistol_rule))
    add("weapon.smoke", p.rule, w("item.weapon.smoke"), p.smoke)
    add("weapon.armed_column", p.rule, w("item.weapon.armed_column"), p.armed_column, "number")
    add("weapon.armed_values", p.rule, w("item.weapon.armed_values"), p.armed_values)
    add("weapon.type_column", p.rule, w("item.weapon.type_column"), p.types.column, "number")
    add("weapon.type_words", p.rule, w("item.weapon.type_words"), p.type_words)
    for kind in WEAPONS[1:]:
        add(f"weapon.{kind}.values", p.rule, w("item.weapon.values", weapon=out.weapon(kind)),
            p.types.values_for(kind))
    for kind in WEAPONS:
        add(f"weapon.{kind}.chance", p.rule, w("item.weapon.chance", weapon=out.weapon(kind)), odds.weapon[kind],
            "chance")
    both = f"{r.fate.rule}, {p.rule}"
    for (fate, weapon), chance in odds.man.items():
        code = man_code(fate, weapon)
        label = (w("item.man.armed", code=code, fate=fate, weapon=out.weapon(weapon)) if weapon
                 else w("item.man.unarmed", code=code, fate=fate))
        add(f"man.{code}", both, label, chance, "chance")


def _survivors(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    for size, by_hero in odds.survivors.items():
        for hero, dist in by_hero.items():
            crew = w(f"item.crew_of.{HERO_KEY[hero]}", size=size)
            for k, p in dist.items():
                out.add(f"survivors.{size}.{HERO_KEY[hero]}.{k}", r.fate.rule, w("item.survivors", crew=crew, count=k),
                        p, "chance")
            out.add(f"expected.{size}.{HERO_KEY[hero]}", r.fate.rule, w("item.expected", crew=crew),
                    odds.expected_survivors[size][hero], "mean")


def _after(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    a, cc = r.after, r.close_combat
    add = out.add
    add("after.pinned", a.rule, w("item.after.pinned"), a.pinned)
    add("after.group", a.rule, w("item.after.group"), a.group)
    # The keys keep the data's names; the labels say what a player reads (a voluntary bail-out
    # leaves no wreck: the AFV "remains in play").
    add("after.wreck", a.rule, w("item.after.wreck"),
        w("item.after.wreck.value", tem=signed(a.wreck_tem), terrain=a.wreck_terrain))
    add("after.wreck_until", a.rule, w("item.after.wreck_until"), a.wreck_until)
    add("after.infiltrators", a.rule, w("item.after.infiltrators"), a.infiltrators)
    add("close_combat.ccv_modifier", cc.rule, w("item.close_combat.ccv_modifier"), cc.ccv_modifier, "modifier")
    add("close_combat.pistol_only_vs_unarmed", cc.rule, w("item.close_combat.pistol_only_vs_unarmed"),
        cc.pistol_only_vs_unarmed, "modifier")
    add("close_combat.pistol_only_net", cc.rule, w("item.close_combat.pistol_only_net"),
        R.pistol_only_ccv(r), "modifier")
    add("close_combat.smoke", cc.rule, w("item.close_combat.smoke"), cc.smoke)


def _notes(out: _Items, kit: KitData, odds: Odds) -> None:
    w = out.words
    for note in kit.rules.interpretations:
        group = w("item.note.rule", note=note.note)
        out.add(f"note.{note.name}.number", group, w("item.note.number", name=note.name), note.note, "number")
        out.add(f"note.{note.name}.reading", group, w("item.note.reading"), note.reading)
        out.add(f"note.{note.name}.sentence", group, w("item.note.sentence"), note.sentence)
        if note.house_rule:     # the aid labels a reading in force that goes against the text
            out.add(f"note.{note.name}.house_rule", group, w("item.note.house_rule"), note.house_rule)


def key_part(name: str) -> str:
    """A file's name as one part of a dotted key: dots (and the escape) escaped, so no two items
    share a key whatever the nationality files are called ("a.colour" is not a's colour)."""
    return name.replace("\\", "\\\\").replace(".", "\\.")


def _rule_numbers(out: _Items, kit: KitData, odds: Odds) -> None:
    """The rule numbers the aid prints that no other item carries as its value, so an edited one
    is a printed change too."""
    r, w = kit.rules, out.words
    for key, rule in (("triggers.rule", r.trigger_rule), ("crew.rule", r.crew.rule),
                      ("hero.fate_rule", r.hero.fate_rule), ("hero.weapon_rule", r.hero.weapon_rule),
                      ("after.rule", r.after.rule), ("close_combat.rule", r.close_combat.rule)):
        out.add(key, rule, w(f"item.{key}"), rule)


def add_weapons(out: _Items, kit: KitData) -> None:
    r, w = kit.rules, out.words
    for nat in kit.nationalities:
        out.add(f"nationality.{key_part(nat.key)}", r.number, w("item.nationality"), nat.name)
        out.add(f"nationality.{key_part(nat.key)}.colour", r.number, w("item.nationality.colour", nationality=nat.name),
                w("item.nationality.colour.value", colour=nat.colour, text_colour=nat.text_colour)
                if nat.text_colour else nat.colour)
        if nat.army:        # printed under the name on the aid: whose weapons the rows follow
            out.add(f"nationality.{nat.key}.army", r.weapon.rule, w("item.nationality.army", nationality=nat.name),
                    nat.army)

        rows = weapon_rows(nat, r)      # the aid's rows: (years, model), SMG gaps as (None, instead)
        smg = [(span, _smg_text(out, *model)) for span, model in rows["smg"]]
        runs: dict[str, list[tuple[str, str | None]]] = {"rifle": rows["rifle"], "smg": list(smg)}
        for kind, spans in runs.items():
            out.add(f"weapons.{key_part(nat.key)}.{kind}", r.weapon.rule,
                    w("item.weapons", nationality=nat.name, weapon=out.weapon(kind)),
                    "; ".join(f"{span}: {model or w('item.weapons.none')}" for span, model in spans))


def _smg_text(out: _Items, model: str | None, instead: str | None) -> str:
    """An SMG span's model; where there is none, what a man who draws one takes instead."""
    return model or out.words("item.weapons.none_so", instead=instead or out.weapon(R.PISTOL))


def add_prerolled(out: _Items, kit: KitData, odds: Odds) -> None:
    r, w = kit.rules, out.words
    cols = P.columns(kit, odds)
    block = P.block_length(cols)
    out.add("prerolled.block", r.number, w("item.prerolled.block"), block, "number")
    out.add("prerolled.men", r.crew.rule, w("item.prerolled.men"), r.crew.size, "number")
    rules = {P.FATE: r.fate.rule, P.WEAPON: r.weapon.rule}
    for kind in (P.FATE, P.WEAPON):     # every man's column of a kind is alike: one item each
        col = next(c for c in cols if c.kind == kind)
        counts = P.counts(col, block)
        out.add(f"prerolled.{kind}", rules[kind], w(f"item.prerolled.{kind}"),
                ", ".join(f"{n} {code}" for code, n in counts.items()))


def add_counters(out: _Items, kit: KitData, sets: int) -> None:
    r, w = kit.rules, out.words
    rule_of = {"crew": r.crew.rule, "rifle": r.weapon.rule, "smg": r.weapon.rule, "marker": r.after.rule}
    for nat, counters in C.all_counters(kit, sets, w):
        distinct: dict[C.Counter, int] = {}
        for counter in counters:        # same faces, one counter kind: counted once
            distinct[counter] = distinct.get(counter, 0) + 1
        index: dict[str, int] = {}
        for counter, n in distinct.items():
            i = index[counter.kind] = index.get(counter.kind, -1) + 1
            front, back = (" / ".join(face.reading(w)) for face in (counter.front, counter.back))
            shown = front if front == back else w("item.counter.faces", front=front, back=back)
            key = f"counters.{key_part(nat.key)}.{counter.kind}.{i}"
            rule = rule_of[counter.kind]
            out.add(key, rule, w(f"item.counter.{counter.kind}", nationality=nat.name), shown)
            out.add(f"{key}.count", rule, w(f"item.counter.{counter.kind}.count", nationality=nat.name), n, "number")


# -- the diff -----------------------------------------------------------------------------------

def diff(old: dict[str, Item], new: dict[str, Item]) -> Groups:
    """Every item whose printed value differs, was added or was removed, grouped by rule number.

    Returns [(rule, [Change, ...]), ...]: rules in numeric order ("871" < "871.1.a" < "871.2"),
    then interpretation notes; within a rule, the items in print order.
    """
    changes = []
    for key, item in new.items():
        before = old.get(key)
        if before is None or before.value != item.value:
            changes.append(Change(key, item.rule, item.label, item.kind, before and before.value, item.value))
    for key, item in old.items():
        if key not in new:
            changes.append(Change(key, item.rule, item.label, item.kind, item.value, None))
    groups: dict[str, list[Change]] = {}
    for change in changes:
        groups.setdefault(change.rule, []).append(change)
    return [(rule, groups[rule]) for rule in sorted(groups, key=rule_order)]


def rule_order(rule: str) -> tuple[int, tuple[tuple[int, int, str], ...]]:
    """Rule numbers in reading order, runs of digits 0-9 compared as numbers (by length, then
    digit by digit: any length, no int()); anything else, a '²' too, as text; notes after the rules."""
    parts = tuple((0, len(p.lstrip("0")), p.lstrip("0")) if p[0] in _DIGITS else (1, 0, p)
                  for p in re.findall(r"[0-9]+|[^0-9]+", rule))
    return (0 if rule[:1] in _DIGITS else 1, parts)


_DIGITS = "0123456789"


def show(kind: str, value: object, words: Words | None = None) -> str:
    """One printed value as text: a chance as fraction and percentage, a mean to two places."""
    w = words if words is not None else source_words()
    if value is None:
        return w("item.show.none")
    if kind == "chance":
        chance = cast(Fraction, value)
        return w("item.show.chance", fraction=fraction_text(chance), percent=w.percent(chance))
    if kind == "mean":
        mean = cast(Fraction, value)
        return w("item.show.mean", fraction=fraction_text(mean), value=w.decimal(mean, 2))
    if kind == "modifier":
        return signed(cast(int, value))
    return str(value)


# -- template sentences: an edited template is a printed change ----------------------------------

SENTENCE_END = re.compile(r"(?<=[.!?:])\s+(?=[A-Z*(])")
MARKUP = re.compile(r"\*|\\(?=[\\`*_{}\[\]()#+\-.!|~<>])|<[^>]*>")
BOX_HEAD = re.compile(r"\*\*(.+?)\*\*\s+\*(.+?)\*\s*(.*)")


def template_sentences(markdown: str) -> list[tuple[str, str]]:
    """[(aid section, sentence)] of the aid's Markdown, in print order: each line's text without
    its list marker, markup and table rules, cut at sentence ends."""
    section, out = "", []
    for line in markdown.splitlines():
        text = line.strip()
        if text.startswith("#"):
            section = html.unescape(MARKUP.sub("", text.lstrip("#").strip()))
            continue
        text = re.sub(r"^(?:[-*+]|\d+\.)\s+", "", text)
        box = BOX_HEAD.match(text)        # a flowchart box: "**Title** *rule* text"
        parts = [f"{box[1]} {box[2]}", box[3]] if box else [text]
        for part in (html.unescape(MARKUP.sub("", p)).strip() for p in parts):
            if part and not set(part) <= set("-|: "):
                out += [(section, s) for s in SENTENCE_END.split(part) if s.strip()]
    return out


def template_changes(old_markdown: str, new_markdown: str, words: Words | None = None) -> Groups:
    """The aid sentences a template edit changed (both sides rendered over the same data), under
    their aid section: replaced ones with old and new wording, added and removed ones alone.
    Keys are "template.N", N the sentence's place in the new aid (the old's for a removed one),
    unique by construction."""
    import difflib
    w = words if words is not None else source_words()
    old, new = template_sentences(old_markdown), template_sentences(new_markdown)
    matcher = difflib.SequenceMatcher(a=[s for _, s in old], b=[s for _, s in new], autojunk=False)
    groups: dict[str, list[Change]] = {}
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            before = old[i1 + k] if i1 + k < i2 else None
            after = new[j1 + k] if j1 + k < j2 else None
            section = (after or before or ("", ""))[0]
            place = f"template.{j1 + k if after else i1 + k}{'' if after else '.removed'}"
            group = w("item.template.section", section=section)
            groups.setdefault(group, []).append(Change(place, group, w("item.template.sentence"), "text",
                                                       before and before[1], after and after[1]))
    return list(groups.items())
