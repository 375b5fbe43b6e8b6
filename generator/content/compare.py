"""`bailout diff` and `build --since`: two kit sources loaded and compared in print terms."""

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.content.items import Groups, diff, print_items, rule_order, template_changes
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


def compare(old_spec: str, new_spec: str, sets: int = 2, words: Words | None = None,
            new_side: Side | None = None) -> Compared:
    """The diff of two sides; bad data on both sides is reported together, each line naming its side.
    The changes' labels are in `words` (default: the source language's).  Both sides' templates
    are compared too: the aid sentences an edit of them changed (`new_side`: NEW as --data gave it)."""
    with opened(old_spec) as old, opened(new_spec) if new_side is None else _given(new_side) as new:
        compared = _diff_loaded(old, _loaded(old, "OLD"), new, _loaded(new, "NEW"), sets, words)
        if old.templates is None or new.templates is None:
            return compared
        kit = load_side(new, "NEW")
        sentences = template_changes(_aid_text(kit, old.templates), _aid_text(kit, new.templates), words)
        return Compared(sorted(compared.groups + sentences, key=lambda g: rule_order(g[0])), old, new, compared.old_kit)


@contextlib.contextmanager
def _given(side: Side) -> Iterator[Side]:
    yield side


def _aid_text(kit: KitData, templates: Path) -> str:
    """The aid's Markdown of these templates over `kit`: both sides' templates read the same data,
    so what differs is the templates' own wording."""
    from generator.content.aid_text import render_text
    from generator.content.context import BuildContext
    from generator.options import BuildOptions
    ctx = BuildContext(kit, compute(kit), BuildOptions(), templates)
    return render_text(ctx, {"data_hash": ""})


def since(old_spec: str, new_kit: KitData, sets: int = 2, words: Words | None = None,
          edition: Callable[[KitData], KitData] | None = None) -> Compared:
    """(Compared, for `build --since OLD`): the built data is NEW.  `edition` makes OLD the same
    edition as NEW (its glossary, read while a git:REV's copy still exists) before the diff."""
    new = Side(str(new_kit.directory), new_kit.directory, str(new_kit.directory), None)
    with opened(old_spec) as old:
        old_kit = _loaded(old, "OLD")
        if edition is not None and not isinstance(old_kit, DataError):
            try:
                old_kit = edition(old_kit)
            except DataError as error:
                old_kit = error
        return _diff_loaded(old, old_kit, new, new_kit, sets, words)


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
