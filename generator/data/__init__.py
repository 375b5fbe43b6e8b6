"""Load and validate data/ into frozen records (msgspec Structs); every problem is reported at once.

`load(data_dir)` returns a `KitData` or raises `DataError` listing each problem with its file
and key path.  Nothing here knows a rule number: they are all read from rules.toml.
"""

import hashlib
import os
from pathlib import Path

from generator.data.file_names import RULE, safe_stem
from generator.data.model import (
    FATES,
    LEADER_ROLES,
    READINGS,
    WEAPON_TYPES,
    After,
    Afv,
    Check,
    CloseCombat,
    ColumnTable,
    Crew,
    EmblemShape,
    Fate,
    Hero,
    Interpretation,
    KitData,
    Nationality,
    RosterCard,
    Rules,
    Weapon,
    WeaponSpan,
)
from generator.data.nationality_file import read_nationality
from generator.data.rules_file import read_deck, read_rules
from generator.data.schema import Problems
from generator.data.sources import PathProblem, probe
from generator.data.toml_file import read_toml
from generator.errors import DataError

# The package is the data API: the model's names are re-exported beside `load`.
__all__ = ["FATES", "LEADER_ROLES", "READINGS", "WEAPON_TYPES", "After", "Afv", "Check", "CloseCombat", "ColumnTable",
           "Crew", "EmblemShape", "Fate", "Hero", "Interpretation", "KitData", "Nationality", "RosterCard", "Rules",
           "Weapon", "WeaponSpan", "load"]


# The most nationality files a build takes: the two-page player aid lists each nationality's
# weapons, and holds 26 of them at most (each with one rifle span and no SMG; with histories
# like the shipped files, 13).  Past this, refuse before reading any.
MAX_NATIONALITIES = 26


def load(data_dir: str | os.PathLike[str]) -> KitData:
    """Read and validate `data_dir`; raise DataError with every problem found."""
    data_dir = Path(data_dir)
    problems = Problems(str(data_dir))
    try:
        if probe(data_dir) != "folder":
            raise DataError(f"{data_dir}: no such data folder (give the kit's data/ folder with --data DIR)")
    except PathProblem as why:
        raise DataError(f"{data_dir}: {why} (give the kit's data/ folder with --data DIR)") from None
    read: dict[str, bytes] = {}     # every file read, by its path in the folder: what the hash covers
    rules_table = read_toml(problems, data_dir, "rules.toml", read)
    rules = read_rules(problems, rules_table) if rules_table is not None else None
    deck_cards = None
    if rules and rules.deck_file:
        deck_cards = read_deck(problems, data_dir, rules.deck_file, rules.columns, read)
    nationalities = _read_nationalities(problems, data_dir, rules, read)
    digest = _hash(read)
    if problems:
        raise DataError(problems.lines)
    assert rules is not None     # else a problem was added above
    return KitData(data_dir, rules, tuple(nationalities), deck_cards, digest)


def _read_nationalities(problems: Problems, data_dir: Path, rules: Rules | None,
                        read: dict[str, bytes]) -> list[Nationality]:
    """Every nationality file, in name order (`read` gains their bytes); a problem for none found,
    and for a name two files share whatever its case."""
    listed = _nationality_files(data_dir)
    nat_files = _safely_named(problems, listed)
    if not listed:
        problems.add("nationalities/", "", "no nationality files (*.toml) found")
    nationalities: list[Nationality] = []
    for name in nat_files:
        rel = f"nationalities/{name}"
        table = read_toml(problems, data_dir, rel, read)
        if table is not None:
            nationalities.append(read_nationality(problems, rel, name[:-len(".toml")], table, rules))
    seen: dict[str, str] = {}   # casefolded name -> key
    for nat in nationalities:
        if nat.name and nat.name.casefold() in seen:
            problems.add(f"nationalities/{nat.key}.toml", "name",
                         f"{nat.name!r} is also the name in nationalities/{seen[nat.name.casefold()]}.toml")
        elif nat.name:
            seen[nat.name.casefold()] = nat.key
    return nationalities


def _nationality_files(data_dir: Path) -> list[str]:
    """The *.toml names in data_dir/nationalities, sorted; a DataError if there are too many."""
    nat_dir = data_dir / "nationalities"
    try:
        if probe(nat_dir) != "folder":
            return []
        with os.scandir(nat_dir) as entries:
            names = []
            for entry in entries:
                if entry.name.endswith(".toml"):
                    names.append(entry.name)
                    if len(names) > MAX_NATIONALITIES:
                        raise DataError(f"{nat_dir}: more than {MAX_NATIONALITIES} nationality files "
                                        f"(*.toml); the player aid holds at most {MAX_NATIONALITIES}")
    except PathProblem as why:
        raise DataError(f"{nat_dir}: {why}") from None
    except OSError as error:
        raise DataError(f"{nat_dir}: cannot be listed ({error.strerror})") from None
    return sorted(names)


def _safely_named(problems: Problems, names: list[str]) -> list[str]:
    """The nationality file names that make safe file names in a release (file_names.safe_stem)
    and differ from each other in more than case; a problem naming each other one."""
    kept: list[str] = []
    stems: dict[str, str] = {}      # casefolded stem -> file name
    for name in names:
        stem = safe_stem(name[:-len(".toml")])
        if stem is None:
            problems.add(f"nationalities/{name}", "", f"the file name makes no safe file name for the release's "
                         f"face images: a nationality file is named with {RULE}, then .toml")
        elif stem.casefold() in stems:
            problems.add(f"nationalities/{name}", "", f"differs only in case from nationalities/"
                         f"{stems[stem.casefold()]}; the two would be one file on many disks")
        else:
            stems[stem.casefold()] = name
            kept.append(name)
    return kept


def _hash(read: dict[str, bytes]) -> str:
    """sha256 over exactly the files the load read (path and bytes, in path order): the rules,
    the nationality files and the named deck, and nothing else the folder holds."""
    digest = hashlib.sha256()
    for rel in sorted(read):
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(read[rel] + b"\0")
    return digest.hexdigest()
