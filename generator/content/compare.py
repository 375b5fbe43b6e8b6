"""`bailout diff` and `build --since`: two kit sources loaded and compared in print terms."""

from dataclasses import dataclass

from generator.content.items import Groups, diff, print_items
from generator.content.words import Words
from generator.data.model import KitData
from generator.data.revisions import Side, load_side, opened
from generator.engine.odds import compute
from generator.errors import DataError


@dataclass(frozen=True)
class Compared:
    groups: Groups          # items.diff(): [(rule, [Change, ...]), ...]
    old: Side
    new: Side
    old_kit: KitData


def compare(old_spec: str, new_spec: str, sets: int = 2, words: Words | None = None) -> Compared:
    """The diff of two sides; bad data on both sides is reported together, each line naming its side.
    The changes' labels are in `words` (default: the source language's)."""
    with opened(old_spec) as old, opened(new_spec) as new:
        return _diff_loaded(old, _loaded(old, "OLD"), new, _loaded(new, "NEW"), sets, words)


def since(old_spec: str, new_kit: KitData, sets: int = 2, words: Words | None = None) -> Compared:
    """(Compared, for `build --since OLD`): the built data is NEW."""
    new = Side(str(new_kit.directory), new_kit.directory, str(new_kit.directory), None)
    with opened(old_spec) as old:
        return _diff_loaded(old, _loaded(old, "OLD"), new, new_kit, sets, words)


def _loaded(side: Side, name: str) -> KitData | DataError:
    try:
        return load_side(side, name)
    except DataError as error:
        return error


def _diff_loaded(old: Side, old_kit: KitData | DataError, new: Side, new_kit: KitData | DataError, sets: int,
                 words: Words | None) -> Compared:
    if isinstance(old_kit, DataError) or isinstance(new_kit, DataError):
        errors = [k for k in (old_kit, new_kit) if isinstance(k, DataError)]
        raise DataError([line for e in errors for line in e.problems])
    groups = diff(print_items(old_kit, compute(old_kit), sets, words),
                  print_items(new_kit, compute(new_kit), sets, words))
    return Compared(groups, old, new, old_kit)
