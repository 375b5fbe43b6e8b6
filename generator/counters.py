"""Which counters the kit prints, per nationality, and what each face says.

Pure: text comes from the kit data (rule numbers, FP, relative range, CCV, TEM, terrain, weapon
models); nothing here measures or draws.  Each line keeps the data file and key it came from so
a renderer that cannot fit it can name them.
"""

from dataclasses import dataclass

from .text import signed, year_span

KINDS = ("crew", "rifle", "smg", "wreck")
KIND_LABELS = {"crew": "Crew", "rifle": "Rifle", "smg": "SMG", "wreck": "Wreck"}
RULES_FILE = "rules.toml"
NBSP = "\u00a0"          # joins a phrase so a narrow counter wraps between phrases, not inside


def phrase(text):
    return text.replace(" ", NBSP)


@dataclass(frozen=True)
class Line:
    """One paragraph of a counter face.  style: 'title' (bold), 'body', or 'blank' (a write-in box)."""
    text: str
    style: str = "body"
    source: tuple = ()      # ((file, key), ...) the text was built from


@dataclass(frozen=True)
class Counter:
    nationality: str        # Nationality.key
    kind: str               # one of KINDS
    front: tuple            # Line, ...
    back: tuple


def nationality_file(nat):
    return f"nationalities/{nat.key}.toml"


def years(span):
    return year_span(span.first, span.last)


def counters_for(kit, nat, sets):
    """Every counter of one nationality, in print order: crew, rifles, SMGs, wrecks."""
    rules = kit.rules
    nat_file = nationality_file(nat)
    name = Line(nat.name, "body", ((nat_file, "name"),))
    w, cc, fate, after = rules.weapon, rules.close_combat, rules.fate, rules.after
    pistol = Line(f"{phrase(f'Pistol {w.pistol_fp} FP')} {phrase(f'at RR {w.pistol_relative_range}')}", "body",
                  ((RULES_FILE, "weapon.pistol_fp"), (RULES_FILE, "weapon.pistol_relative_range")))
    ccv = phrase(f"CCV {signed(cc.ccv_modifier)}")
    if not (w.smoke or cc.smoke):
        ccv += ", " + phrase("no Smoke")     # 871.4: crew members never have Smoke
    ccv_line = Line(ccv, "body", ((RULES_FILE, "close_combat.ccv_modifier"),))
    title = Line("AFV crew", "title")
    wounded = Line("Wounded", "title")
    rule33 = phrase(f"Rule {fate.wounded_rule} applies")
    if fate.wounded_except:
        rule33 += " " + phrase(f"except {fate.wounded_except}")
    rule33_line = Line(rule33, "body", ((RULES_FILE, "fate.wounded_rule"), (RULES_FILE, "fate.wounded_except")))
    crew = Counter(nat.key, "crew", (title, name, pistol, ccv_line), (wounded, name, rule33_line, pistol))
    result = [crew] * (sets * rules.crew.size)

    for kind, spans in (("rifle", nat.rifles), ("smg", nat.smgs)):
        for i, span in enumerate(spans):
            key = f"{kind}[{i}].model"
            face = (Line(KIND_LABELS[kind], "title"), Line(span.model, "body", ((nat_file, key),)),
                    Line(years(span), "body"), name)
            # Both faces alike: the marker reads whichever way up it lands on the card.
            result.append(Counter(nat.key, kind, face, face))

    terrain = ((RULES_FILE, "after.wreck_terrain"), (RULES_FILE, "after.wreck_tem"))
    wreck_front = (Line("Wreck", "title"), name,
                   Line(f"{after.wreck_terrain} {phrase(f'{signed(after.wreck_tem)} TEM')}", "body", terrain),
                   Line(f"{phrase('until the')} {phrase('crew moves')}", "body"))
    back_title = phrase("Bailed out:") + " " + phrase("crew pinned") if after.pinned else phrase("Bailed out")
    wreck_back = (Line(back_title, "title"), Line("Group", "blank"))
    # One wreck marker per AFV whose crew the sets cover.
    result += [Counter(nat.key, "wreck", wreck_front, wreck_back)] * sets
    return tuple(result)


def all_counters(kit, sets):
    """((nationality, counters), ...) for every nationality, sorted as the data is."""
    return tuple((nat, counters_for(kit, nat, sets)) for nat in kit.nationalities)


def manifest(groups):
    """((nationality, {kind: count}), ...) from `all_counters` output; every kind present."""
    rows = []
    for nat, counters in groups:
        counts = {kind: 0 for kind in KINDS}
        for counter in counters:
            counts[counter.kind] += 1
        rows.append((nat, counts))
    return tuple(rows)
