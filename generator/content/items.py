"""What a rules edit changes in print terms: the kit's print items, and the diff of two sets.

`print_items(kit, odds)` flattens one loaded kit into an ordered {key: Item}: every figure the
kit prints (chances as Fractions), every sentence, label and reading from rules.toml, the
weapons by nationality and year, the nationalities and their counters, and the pre-rolled
block.  Keys are stable names ("bail_out.closed.chance", "survivors.5.hero.3"); each item
carries the rule number it prints under, read from the data.  `diff(old, new)` compares two
item sets key by key, so an edit lists exactly the items whose printed value moved: what it
touched and what derives from it, nothing else.  Pure: no reportlab, no I/O.
"""

import re

from generator.content import faces as C
from generator.content.change import Change, Item
from generator.content import rows as P
from generator.engine import procedure as R
from generator.data import FATES
from generator.content.weapons import weapon_rows
from generator.content.words import load_words
from generator.engine.odds import WEAPONS, man_code, percent
from generator.text import fraction_text, signed, year_span

KINDS = ("chance", "mean", "number", "modifier", "text")
HERO_KEY = {False: "no_hero", True: "hero"}
WEAPON_WORD = {R.PISTOL: "pistol only", "rifle": "rifle", "smg": "SMG"}


class _Items:
    def __init__(self):
        self.items = {}

    def add(self, key, rule, label, value, kind="text"):
        if isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        self.items[key] = Item(key, rule, label, value, kind)


def print_items(kit, odds, sets=2):
    """{key: Item} for everything the kit prints from this data, in the aid's order."""
    r = kit.rules
    out = _Items()
    add = out.add
    add("variant.title", r.number, "variant title", f"{r.number} {r.title}")
    add("variant.game", r.number, "game", r.game)
    add("variant.credit", r.number, "credit", r.credit)
    add("period", r.number, "years tabulated", year_span(r.first_year, r.last_year))
    add("deck", r.number, "deck", f"transcribed ({r.deck_file})" if r.deck_file else "ideal")
    add("deck.columns", r.number, "RPC columns read", r.columns)
    add("deck.size", r.number, "cards in the deck", odds.deck_size, "number")

    add("triggers.exact_kill", r.trigger_rule, "trigger", r.exact_kill)
    add("triggers.voluntary", r.trigger_rule, "voluntary bail-out after", "; ".join(r.voluntary))

    for name, check, p in (("closed", r.closed, odds.bail_out_closed), ("open", r.open, odds.bail_out_open)):
        add(f"bail_out.{name}.rule", check.rule, f"{name}-top check: rule number", check.rule)
        add(f"bail_out.{name}.label", check.rule, "the AFVs this check is for", check.label)
        add(f"bail_out.{name}.column", check.rule, f"{check.label}: kill card's RPC column", check.column, "number")
        add(f"bail_out.{name}.succeed", check.rule, f"{check.label}: column reads", check.succeed)
        add(f"bail_out.{name}.chance", check.rule, f"{check.label}: crew may bail out", p, "chance")

    c = r.crew
    add("crew.size", c.rule, "crew size", c.size, "number")
    add("crew.commander_casualty_rule", c.rule, "commander casualty rule", c.commander_casualty_rule)
    add("crew.per_commander_casualty", c.rule, "men lost per commander casualty", c.per_commander_casualty, "number")
    add("crew.minimum_size", c.rule, "smallest crew", c.minimum_size, "number")
    add("crew.morale_rule", c.morale_rule, "crew morale: rule number", c.morale_rule)
    add("crew.morale_offset", c.morale_rule, "crew average Morale: the AFV's Morale", c.morale_offset, "modifier")
    add("crew.max_leaders", c.morale_rule, "most SL or ASL in a crew", c.max_leaders, "number")
    add("crew.leader_roles", c.morale_rule, "leader roles", " or ".join(c.leader_roles))
    add("crew.leader_scope", c.morale_rule, "crew leader's scope", c.leader_scope)
    add("crew.takeover", c.morale_rule, "crew leader takes over", c.takeover)
    for morale in c.aid_afv_morale:
        average, _ = R.crew_morale(r, morale, 1)
        add(f"morale.{morale}.average", c.morale_rule, f"AFV Morale {morale}: crew average", average, "number")
        for size in c.aid_crew_sizes:
            add(f"morale.{morale}.total.{size}", c.morale_rule, f"AFV Morale {morale}: total, {size} men",
                R.crew_morale(r, morale, size)[1], "number")

    f = r.fate
    add("fate.rule", f.rule, "fate: rule number", f.rule)
    add("fate.column", f.rule, "fate: RPC column", f.table.column, "number")
    add("fate.wounded_rule", f.rule, "wounded: rule applied", f.wounded_rule)
    add("fate.wounded_except", f.rule, "wounded: except", f.wounded_except)
    for fate in FATES:
        add(f"fate.{fate}.values", f.rule, f"{fate}: column reads", f.table.values_for(fate))
        add(f"fate.{fate}.chance", f.rule, f"a man is {fate}", odds.fate[fate], "chance")
    h = r.hero
    add("hero.fate_result", h.fate_rule, "Hero card: the man is", h.fate_result)
    add("hero.weapon_choice", h.weapon_rule, "Hero card: weapon choice", " or ".join(WEAPON_WORD[k] for k in h.weapon_choice))
    add("hero.unpins", h.weapon_rule, "Hero card unpins the man", h.unpins)

    w = r.weapon
    add("weapon.rule", w.rule, "weapon: rule number", w.rule)
    add("weapon.pistol", w.rule, "pistol",
        f"{w.pistol_fp} FP at Relative Range {w.pistol_relative_range} ({w.pistol_rule})")
    add("weapon.smoke", w.rule, "crew has Smoke", w.smoke)
    add("weapon.armed_column", w.rule, "armed: RPC column", w.armed_column, "number")
    add("weapon.armed_values", w.rule, "armed: column reads", w.armed_values)
    add("weapon.type_column", w.rule, "weapon type: RPC column of the same card", w.types.column, "number")
    add("weapon.type_words", w.rule, "which rifle or SMG, in the rule's words", w.type_words)
    for kind in WEAPONS[1:]:
        add(f"weapon.{kind}.values", w.rule, f"{WEAPON_WORD[kind]}: type column reads", w.types.values_for(kind))
    for kind in WEAPONS:
        add(f"weapon.{kind}.chance", w.rule, f"a survivor's weapon: {WEAPON_WORD[kind]}", odds.weapon[kind], "chance")

    both = f"{f.rule}, {w.rule}"
    for (fate, weapon), p in odds.man.items():
        what = f"{fate}, {WEAPON_WORD[weapon]}" if weapon else fate
        add(f"man.{man_code(fate, weapon)}", both, f"one man {man_code(fate, weapon)} ({what})", p, "chance")

    for size, by_hero in odds.survivors.items():
        for hero, dist in by_hero.items():
            crew = f"crew of {size}{' + Hero' if hero else ''}"
            for k, p in dist.items():
                add(f"survivors.{size}.{HERO_KEY[hero]}.{k}", f.rule, f"{crew}: {k} alive", p, "chance")
            add(f"expected.{size}.{HERO_KEY[hero]}", f.rule, f"{crew}: average alive",
                odds.expected_survivors[size][hero], "mean")

    a = r.after
    add("after.pinned", a.rule, "crew pinned on bailing out", a.pinned)
    add("after.group", a.rule, "new group", a.group)
    # The keys keep the data's names; the labels say what a player reads (a voluntary bail-out
    # leaves no wreck: the AFV "remains in play").
    add("after.wreck", a.rule, "the AFV gives the crew members", f"{signed(a.wreck_tem)} TEM as a {a.wreck_terrain}")
    add("after.wreck_until", a.rule, "the AFV leaves play", a.wreck_until)
    add("after.infiltrators", a.rule, "infiltrators", a.infiltrators)

    cc = r.close_combat
    add("close_combat.ccv_modifier", cc.rule, "crew member's final CCV", cc.ccv_modifier, "modifier")
    add("close_combat.pistol_only_vs_unarmed", cc.rule, "pistol only: CCV of an unarmed man",
        cc.pistol_only_vs_unarmed, "modifier")
    add("close_combat.pistol_only_net", cc.rule, "pistol only, net against an unarmed man",
        R.pistol_only_ccv(r), "modifier")
    add("close_combat.smoke", cc.rule, "crew has Smoke in close combat", cc.smoke)

    for note in r.interpretations:
        group = f"note {note.note}"
        add(f"note.{note.name}.number", group, f"note number of '{note.name}'", note.note, "number")
        add(f"note.{note.name}.reading", group, "reading in force", note.reading)
        add(f"note.{note.name}.sentence", group, "the note", note.sentence)

    add_weapons(out, kit)
    add_prerolled(out, kit, odds)
    add_counters(out, kit, sets)
    return out.items


def add_weapons(out, kit):
    r = kit.rules
    for nat in kit.nationalities:
        out.add(f"nationality.{nat.key}", r.number, "nationality", nat.name)
        out.add(f"nationality.{nat.key}.colour", r.number, f"{nat.name}: colours",
                f"{nat.colour} on {nat.text_colour}" if nat.text_colour else nat.colour)

        rows = weapon_rows(nat, r)      # the aid's rows: (years, model), SMG gaps as (None, instead)
        for kind in ("rifle", "smg"):
            runs = [(span, model if kind == "rifle" else _smg_text(*model)) for span, model in rows[kind]]
            out.add(f"weapons.{nat.key}.{kind}", r.weapon.rule, f"{nat.name} {WEAPON_WORD[kind]}",
                    "; ".join(f"{span}: {model or 'none'}" for span, model in runs))


def _smg_text(model, instead):
    return model or f"none, so {instead or WEAPON_WORD[R.PISTOL]}"


def add_prerolled(out, kit, odds):
    r = kit.rules
    cols = P.columns(kit, odds)
    block = P.block_length(cols)
    out.add("prerolled.block", r.number, "pre-rolled: rows in a balanced block", block, "number")
    out.add("prerolled.men", r.crew.rule, "pre-rolled: men per row", r.crew.size, "number")
    rules_of = {"closed": r.closed.rule, "open": r.open.rule}
    seen = set()
    for col in cols:
        name = col.name if col.name in rules_of else "man"     # every man's column is alike
        if name in seen:
            continue
        seen.add(name)
        what = {"closed": f"{r.closed.label} column", "open": f"{r.open.label} column",
                "man": "each man's column"}[name]
        counts = P.counts(col, block)
        out.add(f"prerolled.{name}", rules_of.get(name, f"{r.fate.rule}, {r.weapon.rule}"),
                f"pre-rolled: {what}, per block", ", ".join(f"{n} {code}" for code, n in counts.items()))


def add_counters(out, kit, sets):
    r = kit.rules
    rule_of = {"crew": r.crew.rule, "rifle": r.weapon.rule, "smg": r.weapon.rule, "marker": r.after.rule}
    words = load_words()    # the words the counters print (a build's: the default catalogue)
    for nat, counters in C.all_counters(kit, sets, words):
        distinct = {}
        for counter in counters:        # same faces, one counter kind: counted once
            distinct[counter] = distinct.get(counter, 0) + 1
        index = {}
        for counter, n in distinct.items():
            i = index[counter.kind] = index.get(counter.kind, -1) + 1
            faces = [" / ".join(face.reading(words)) for face in (counter.front, counter.back)]
            shown = faces[0] if faces[0] == faces[1] else f"{faces[0]} | back: {faces[1]}"
            word = C.kind_label(words, counter.kind)
            label = f"{nat.name} {word if word.isupper() else word.lower()} counter"
            key = f"counters.{nat.key}.{counter.kind}.{i}"
            out.add(key, rule_of[counter.kind], label, shown)
            out.add(f"{key}.count", rule_of[counter.kind], f"{label}s printed", n, "number")


# -- the diff -----------------------------------------------------------------------------------

def diff(old, new):
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
    groups = {}
    for change in changes:
        groups.setdefault(change.rule, []).append(change)
    return [(rule, groups[rule]) for rule in sorted(groups, key=rule_order)]


def rule_order(rule):
    """Rule numbers in reading order, numbers compared as numbers; notes after the rules."""
    parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|[^\d]+", rule))
    return (0 if rule[:1].isdigit() else 1, parts)


def show(kind, value):
    """One printed value as text: a chance as fraction and percentage, a mean to two places."""
    if value is None:
        return "(none)"
    if kind == "chance":
        return f"{fraction_text(value)} ({percent(value)})"
    if kind == "mean":
        return f"{fraction_text(value)} (= {float(value):.2f})"
    if kind == "modifier":
        return signed(value)
    return str(value)
