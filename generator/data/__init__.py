"""Load and validate data/ into frozen dataclasses; every problem is reported at once.

`load(data_dir)` returns a `KitData` or raises `DataError` listing each problem with its file
and key path.  Nothing here knows a rule number: they are all read from rules.toml.
"""

import hashlib
from pathlib import Path

from ..errors import DataError
from ..schema import Problems
from .model import (FATES, LEADER_ROLES, READINGS, WEAPON_TYPES, Afv, After, Check, CloseCombat, EmblemShape,
                    ColumnTable, Crew, Fate, Hero, Interpretation, KitData, Nationality, RosterCard, Rules,
                    Weapon, WeaponSpan)
from .nationality_file import read_nationality
from .rules_file import read_deck, read_rules
from .toml_file import read_toml

# The package is the data API: the model's names are re-exported beside `load`.
__all__ = ["load", "FATES", "LEADER_ROLES", "READINGS", "WEAPON_TYPES", "Afv", "After", "Check", "CloseCombat", "EmblemShape",
           "ColumnTable", "Crew", "Fate", "Hero", "Interpretation", "KitData", "Nationality", "RosterCard",
           "Rules", "Weapon", "WeaponSpan"]


def load(data_dir):
    """Read and validate `data_dir`; raise DataError with every problem found."""
    data_dir = Path(data_dir)
    problems = Problems(str(data_dir))
    if not data_dir.is_dir():
        raise DataError(f"{data_dir}: no such data folder (give the kit's data/ folder with --data DIR)")
    rules_table = read_toml(problems, data_dir, "rules.toml")
    rules = read_rules(problems, rules_table) if rules_table is not None else None
    deck_cards = None
    if rules and rules.deck_file:
        deck_cards = read_deck(problems, data_dir, rules.deck_file, rules.columns)
    nat_dir = data_dir / "nationalities"
    nat_files = sorted(nat_dir.glob("*.toml")) if nat_dir.is_dir() else []
    if not nat_files:
        problems.add("nationalities/", "", "no nationality files (*.toml) found")
    nationalities = []
    for path in nat_files:
        rel = f"nationalities/{path.name}"
        table = read_toml(problems, data_dir, rel)
        if table is not None:
            nationalities.append(read_nationality(problems, rel, path.stem, table, rules))
    seen = {}
    for nat in nationalities:
        if nat.name and nat.name.casefold() in seen:
            problems.add(f"nationalities/{nat.key}.toml", "name",
                         f"{nat.name!r} is also the name in nationalities/{seen[nat.name.casefold()]}.toml")
        elif nat.name:
            seen[nat.name.casefold()] = nat.key
    if problems:
        raise DataError(problems.lines)
    return KitData(data_dir, rules, tuple(nationalities), deck_cards, _hash(data_dir))


def _hash(data_dir):
    digest = hashlib.sha256()
    for path in sorted(p for p in data_dir.rglob("*.toml") if p.is_file()):
        digest.update(path.relative_to(data_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()
