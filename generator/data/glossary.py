"""An edition's glossary: data/glossary/<lang>.toml, editable like the rest of the data.

[terms] gives the game's terms in the edition's words, the English kept beside them where a
player matches it to the English cards ("Heldenkarte (Hero)"); [text] gives the data's printed
sentences (rules.toml's, by their key there, and the interpretation readings); [nationalities.KEY]
each nationality's name and adjective.  Rule numbers and weapon models are never translated.
A key the English data lacks, or a value of the wrong kind, is a problem naming file and key;
a sentence left out prints in English, and `bailout check` names it.
"""

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from generator.data.model import KitData, Nationality, Rules
from generator.data.schema import Problems
from generator.data.toml_file import read_toml
from generator.errors import DataError

FOLDER = "glossary"

# rules.toml's printed sentences: their key there -> their place in Rules.
TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "triggers.exact_kill": ("exact_kill",), "triggers.voluntary": ("voluntary",),
    "bail_out.closed.label": ("closed", "label"), "bail_out.open.label": ("open", "label"),
    "crew.takeover": ("crew", "takeover"), "crew.leader_scope": ("crew", "leader_scope"),
    "weapon.type_words": ("weapon", "type_words"), "after.group": ("after", "group"),
    "after.wreck_terrain": ("after", "wreck_terrain"), "after.wreck_until": ("after", "wreck_until"),
    "after.infiltrators": ("after", "infiltrators"),
}


@dataclass(frozen=True)
class Glossary:
    """One edition's glossary, read and checked."""
    lang: str
    file: str                       # data/glossary/<lang>.toml, as problems name it
    terms: tuple[tuple[str, str], ...]
    text: dict[str, str | tuple[str, ...]]
    nationalities: dict[str, dict[str, str]]


def glossary_file(lang: str) -> str:
    return f"{FOLDER}/{lang}.toml"


def english_text(rules: Rules) -> dict[str, str | tuple[str, ...]]:
    """Every translatable sentence of the English data, by its [text] key."""
    out: dict[str, str | tuple[str, ...]] = {key: _get(rules, path) for key, path in TEXT_FIELDS.items()}
    for i in rules.interpretations:
        for reading, sentence in i.readings:
            out[f"interpretation.{i.name}.readings.{reading}"] = sentence
    return out


def _get(value: Any, path: tuple[str, ...]) -> Any:
    for name in path:
        value = getattr(value, name)
    return value


def read_glossary(kit: KitData, lang: str) -> Glossary:
    """data/glossary/<lang>.toml of the kit's data folder, checked against the English data."""
    problems = Problems(str(kit.directory))
    rel = glossary_file(lang)
    if not (kit.directory / rel).is_file():
        raise DataError(f"{kit.directory / rel}: no glossary for the {lang} edition (copy another and translate it)")
    table = read_toml(problems, kit.directory, rel) or {}
    glossary = _checked(problems, rel, lang, table, kit)
    if problems:
        raise DataError(problems.lines)
    return glossary


def _checked(problems: Problems, rel: str, lang: str, table: dict[str, Any], kit: KitData) -> Glossary:
    """The glossary's tables, each key and kind checked; problems added, never raised here."""
    for key in sorted(set(table) - {"terms", "text", "nationalities"}):
        problems.add(rel, key, "unknown table; expected terms, text, nationalities")
    terms = table.get("terms", {})
    for key, value in terms.items():
        if not isinstance(value, str) or not value.strip():
            problems.add(rel, f"terms.{key}", "must be the term's words in this edition (a string)")
    english = english_text(kit.rules)
    text: dict[str, str | tuple[str, ...]] = {}
    for key, value in _flat(table.get("text", {})):
        if key not in english:
            problems.add(rel, f"text.{key}", "not a printed sentence of rules.toml")
        elif isinstance(english[key], tuple):
            if not (isinstance(value, list) and len(value) == len(english[key])
                    and all(isinstance(v, str) for v in value)):
                problems.add(rel, f"text.{key}", f"must be a list of {len(english[key])} strings, as in rules.toml")
            else:
                text[key] = tuple(value)
        elif not isinstance(value, str):
            problems.add(rel, f"text.{key}", "must be a string")
        else:
            text[key] = value
    nationalities = _nationalities(problems, rel, table.get("nationalities", {}), kit)
    return Glossary(lang, rel, tuple((str(k), str(v)) for k, v in terms.items()), text, nationalities)


def _flat(table: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """A nested TOML table as (dotted key, value): quoted dotted keys and sub-tables alike."""
    if not isinstance(table, dict):
        return
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flat(value, name + ".")
        else:
            yield name, value


def _nationalities(problems: Problems, rel: str, table: Any, kit: KitData) -> dict[str, dict[str, str]]:
    known = {n.key for n in kit.nationalities}
    out: dict[str, dict[str, str]] = {}
    for key, entry in (table.items() if isinstance(table, dict) else []):
        if key not in known:
            problems.add(rel, f"nationalities.{key}", "no such nationality file in nationalities/")
            continue
        if not isinstance(entry, dict) or not {"name", "adjective"} <= set(entry) <= {"name", "adjective", "army"} or \
                not all(isinstance(v, str) and v.strip() for v in entry.values()):
            problems.add(rel, f"nationalities.{key}", "must hold name and adjective (and army where the "
                                                       "nationality file has one), each a string")
            continue
        out[key] = dict(entry)
    return out


def untranslated(kit: KitData, glossary: Glossary) -> list[str]:
    """One line per sentence or nationality of the data the glossary leaves in English."""
    where = kit.directory / glossary.file
    lines = [f"{where}: text.{key}: no translation" for key in english_text(kit.rules) if key not in glossary.text]
    lines += [f"{where}: nationalities.{n.key}: no translation" for n in kit.nationalities
              if not {"name", "adjective"} <= set(glossary.nationalities.get(n.key, {}))]
    # the army a weapons row follows prints under its name, so it is translated too
    lines += [f"{where}: nationalities.{n.key}.army: no translation" for n in kit.nationalities
              if n.army and "army" not in glossary.nationalities.get(n.key, {})]
    return lines


def translated(kit: KitData, glossary: Glossary) -> KitData:
    """The kit's data with the glossary's sentences and names in place of the English ones."""
    rules = kit.rules
    for key, path in TEXT_FIELDS.items():
        if key in glossary.text:
            rules = _set(rules, path, glossary.text[key])
    interpretations = tuple(replace(i, readings=tuple(
        (reading, str(glossary.text.get(f"interpretation.{i.name}.readings.{reading}", sentence)))
        for reading, sentence in i.readings)) for i in rules.interpretations)
    rules = replace(rules, interpretations=interpretations)
    nationalities = tuple(_named(n, glossary.nationalities.get(n.key, {})) for n in kit.nationalities)
    return replace(kit, rules=rules, nationalities=nationalities)


def _set(value: Any, path: tuple[str, ...], new: object) -> Any:
    """A copy of the dataclass `value` with the field at `path` set to `new`."""
    head, rest = path[0], path[1:]
    inner = _set(getattr(value, head), rest, new) if rest else new
    return dataclasses.replace(value, **{head: inner})


def _named(n: Nationality, entry: dict[str, str]) -> Nationality:
    return replace(n, name=entry.get("name", n.name), adjective=entry.get("adjective", n.adjective),
                   army=entry.get("army", n.army))
