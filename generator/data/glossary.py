"""An edition's glossary: data/glossary/<lang>.toml, editable like the rest of the data.

[terms] is the one source of the game's terms in the edition's words: each English term (the
key, as the English edition prints it) gets the edition's term, the forms it prints in, the
English kept beside it where a player matches it to the English cards ("Heldenkarte (Hero)"),
and the other words for the same thing that must not print (content/terms.py holds every
catalogue to it).  `quoted` lists the rule's English words the edition quotes as they are.
[text] gives the data's printed sentences (rules.toml's, by their key there, and the
interpretation readings); [nationalities.KEY] each nationality's name and adjective; [models]
the edition's form of a weapon model, keyed by the model as the nationality files name it
("Mosin M1944 carbine" = "карабин Мосина обр. 1944 г."), where the edition's readers write it
otherwise (a translated descriptor, another script); a model it leaves out prints as the data
names it.  Rule numbers are never translated.  A key the English data lacks, or a value of
the wrong kind, is a problem naming file and key; a sentence left out prints in English, and
`bailout check` names it.
"""

import hashlib
import os
from collections.abc import Iterator
from typing import Any

from msgspec import Struct
from msgspec.structs import replace

from generator.data.model import EditionGlossary, KitData, Nationality, Rules, WeaponSpan
from generator.data.schema import Problems, a_name
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


class Term(Struct, frozen=True):
    """One game term in an edition: [terms."Hero card"] (or the short form "Hero card" = "...")."""
    english: str                # the key: the English term as the English edition prints it
    term: str                   # the edition's word for it, as a player says it
    forms: tuple[str, ...]      # every way it prints (each the start of a word, any case); the term first
    kept: str = ""              # the English printed beside it ("Hero"), where a player matches the cards
    avoid: tuple[str, ...] = ()     # other words for the same thing, never printed


class Glossary(Struct, frozen=True):
    """One edition's glossary, read and checked."""
    lang: str
    file: str                       # data/glossary/<lang>.toml, as problems name it
    terms: tuple[Term, ...]
    text: dict[str, str | tuple[str, ...]]
    nationalities: dict[str, dict[str, str]]
    quoted: tuple[str, ...] = ()    # the rule's English words quoted as they are
    models: dict[str, tuple[str, str]] = {}     # English model -> (the edition's form, its short form or "")
    digest: str = ""                # sha256 of the file's bytes


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
    if not os.path.lexists(kit.directory / rel):     # anything else there (a FIFO, a link) read_toml names
        raise DataError(f"{kit.directory / rel}: no glossary for the {lang} edition (copy another and translate it)")
    read: dict[str, bytes] = {}
    table = read_toml(problems, kit.directory, rel, read) or {}
    glossary = _checked(problems, rel, lang, table, kit)
    if problems:
        raise DataError(problems.lines)
    return replace(glossary, digest=hashlib.sha256(read.get(rel, b"")).hexdigest())


_TABLES = ("quoted", "terms", "text", "nationalities", "models")
_TERM_KEYS = {"term", "forms", "kept", "avoid"}


def _checked(problems: Problems, rel: str, lang: str, table: dict[str, Any], kit: KitData) -> Glossary:
    """The glossary's tables, each key and kind checked; problems added, never raised here."""
    for key in sorted(set(table) - set(_TABLES)):
        problems.add(rel, key, f"unknown table; expected {', '.join(_TABLES)}")
    quoted = table.get("quoted", [])
    if not (isinstance(quoted, list) and all(isinstance(q, str) and q.strip() for q in quoted)):
        problems.add(rel, "quoted", "must be a list of the rule's English words (strings)")
        quoted = []
    terms = _terms(problems, rel, table.get("terms", {}))
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
    models = _models(problems, rel, table.get("models", {}), kit)
    return Glossary(lang, rel, terms, text, nationalities, tuple(quoted), models)


def _terms(problems: Problems, rel: str, table: Any) -> tuple[Term, ...]:
    """[terms]: each entry the term's words (a string), or a table of term, forms, kept, avoid."""
    out: list[Term] = []
    for key, value in (table.items() if isinstance(table, dict) else []):
        where = f"terms.{key}"
        if isinstance(value, str) and value.strip():
            out.append(Term(key, value, (value,)))
            continue
        if not isinstance(value, dict) or not isinstance(value.get("term"), str) or not value["term"].strip() \
                or set(value) - _TERM_KEYS:
            problems.add(rel, where, "must be the term's words (a string) or a table of term, forms, kept and avoid")
            continue
        lists = {name: value.get(name, []) for name in ("forms", "avoid")}
        if not all(isinstance(v, list) and all(isinstance(w, str) and w.strip() for w in v) for v in lists.values()) \
                or not isinstance(value.get("kept", ""), str):
            problems.add(rel, where, "forms and avoid must be lists of words, kept the English words (a string)")
            continue
        forms = (value["term"], *(f for f in lists["forms"] if f != value["term"]))
        out.append(Term(key, value["term"], forms, value.get("kept", ""), tuple(lists["avoid"])))
    return tuple(out)


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
        for field, value in entry.items():
            if (problem := a_name(value)) is not None:
                problems.add(rel, f"nationalities.{key}.{field}", problem)
        out[key] = dict(entry)
    return out


def _models(problems: Problems, rel: str, table: Any, kit: KitData) -> dict[str, tuple[str, str]]:
    """[models]: each key a model the nationality files name; each value the edition's form (a
    string), or a table of model and short (the form for a counter too narrow for the whole)."""
    known = {span.model for n in kit.nationalities for span in (*n.rifles, *n.smgs)}
    out: dict[str, tuple[str, str]] = {}
    for key, value in (table.items() if isinstance(table, dict) else []):
        where = f"models.{key}"
        if key not in known:
            problems.add(rel, where, "not a model any nationality file names (nationalities/*.toml, model)")
            continue
        entry = {"model": value} if isinstance(value, str) else value
        if not isinstance(entry, dict) or not {"model"} <= set(entry) <= {"model", "short"} or \
                not all(isinstance(v, str) and v.strip() for v in entry.values()):
            problems.add(rel, where, "must be the edition's form of the model (a string), or a table of model "
                                     "and short")
            continue
        out[key] = (entry["model"], entry.get("short", ""))
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
    nationalities = tuple(_named(n, glossary.nationalities.get(n.key, {}), glossary.models)
                          for n in kit.nationalities)
    english = {*glossary.quoted, *(t.kept for t in glossary.terms if t.kept)}
    edition = EditionGlossary(glossary.lang, glossary.digest, tuple(sorted(english, key=lambda e: (-len(e), e))),
                              glossary.file, tuple(_given(kit.nationalities, glossary)))
    return replace(kit, rules=rules, nationalities=nationalities, edition=edition)


def _given(nationalities: tuple[Nationality, ...], glossary: Glossary) -> list[tuple[str, str, str]]:
    """(data file, key, the glossary's key) of each nationality file's value the glossary gives."""
    given = []
    for n in nationalities:
        file = f"nationalities/{n.key}.toml"
        given += [(file, key, f"nationalities.{n.key}.{key}") for key in glossary.nationalities.get(n.key, {})]
        for kind, spans in (("rifle", n.rifles), ("smg", n.smgs)):
            for i, span in enumerate(spans):
                if span.model in glossary.models:
                    given += [(file, f"{kind}[{i}].model", f"models.{span.model}"),
                              (file, f"{kind}[{i}].short", f"models.{span.model}.short")]
    return given


def data_source(kit: KitData, file: str, key: str) -> tuple[str, str]:
    """Where the value an edition prints from `file` and `key` of the data was written: the
    edition's glossary and its key where the glossary gives it, else `file` and `key`."""
    edition = kit.edition
    if edition is None:
        return file, key
    for data_file, data_key, glossary_key in edition.given:
        if (data_file, data_key) == (file, key):
            return edition.file, glossary_key
    return file, key


def _set(value: Any, path: tuple[str, ...], new: object) -> Any:
    """A copy of the record `value` with the field at `path` set to `new`."""
    head, rest = path[0], path[1:]
    inner = _set(getattr(value, head), rest, new) if rest else new
    return replace(value, **{head: inner})


def _named(n: Nationality, entry: dict[str, str], models: dict[str, tuple[str, str]]) -> Nationality:
    return replace(n, name=entry.get("name", n.name), adjective=entry.get("adjective", n.adjective),
                   army=entry.get("army", n.army), rifles=_edition_models(n.rifles, models),
                   smgs=_edition_models(n.smgs, models))


def _edition_models(spans: tuple[WeaponSpan, ...], models: dict[str, tuple[str, str]]) -> tuple[WeaponSpan, ...]:
    """The spans with each model the glossary gives in the edition's form (and its short form,
    or none: an English short form would print English where the edition has its own)."""
    return tuple(replace(span, model=models[span.model][0], short=models[span.model][1])
                 if span.model in models else span for span in spans)
