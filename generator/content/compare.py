"""`bailout diff` and `build --since`: two kit sources loaded and compared in print terms."""

from dataclasses import dataclass

from generator.content.change import Change
from generator.content.items import diff, print_items
from generator.data.model import KitData
from generator.data.revisions import Side, load_side, opened
from generator.engine.odds import compute
from generator.errors import DataError


@dataclass(frozen=True)
class Compared:
    groups: list[tuple[str, list[Change]]]    # items.diff(): [(rule, [Change, ...]), ...]
    old: Side
    new: Side
    old_kit: KitData


def compare(old_spec, new_spec, sets=2):
    """The diff of two sides; bad data on both sides is reported together, each line naming its side."""
    with opened(old_spec) as old, opened(new_spec) as new:
        return Compared(*_diff_loaded(old, _loaded(old, "OLD"), new, _loaded(new, "NEW"), sets))


def since(old_spec, new_kit, sets=2):
    """(Compared, for `build --since OLD`): the built data is NEW."""
    new = Side(str(new_kit.directory), new_kit.directory, str(new_kit.directory), None)
    with opened(old_spec) as old:
        return Compared(*_diff_loaded(old, _loaded(old, "OLD"), new, new_kit, sets))


def _loaded(side, name):
    try:
        return load_side(side, name)
    except DataError as error:
        return error


def _diff_loaded(old, old_kit, new, new_kit, sets):
    errors = [k for k in (old_kit, new_kit) if isinstance(k, DataError)]
    if errors:
        raise DataError([line for e in errors for line in e.problems])
    groups = diff(print_items(old_kit, compute(old_kit), sets), print_items(new_kit, compute(new_kit), sets))
    return groups, old, new, old_kit
