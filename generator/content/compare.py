"""The one comparison behind `bailout diff`, `build --since`, `release --since` and serve's change
list: what two kits print differently.

`printed_changes` compares two PrintInputs (a kit's data, its templates, its counter sets): every
print item of the data (items.diff) and every sentence of the aid that its templates word
otherwise (items.template_changes: both templates rendered over the NEW data, so what differs is
their own wording), grouped by rule number.  `compare` (diff) and `since` (a build's base) load
their sides and hand them to it, so the list `diff` prints is the list an aid built `--since`
marks and counts.
"""

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from msgspec import Struct

from generator.content.items import Groups, diff, print_items, rule_order, source_words, template_changes
from generator.content.stamp import templates_hash
from generator.content.words import Words
from generator.data.model import KitData
from generator.data.revisions import Side, load_side, opened
from generator.engine.odds import compute
from generator.errors import DataError, RenderError


class PrintInputs(Struct, frozen=True):
    """One side of a comparison: the data as its edition prints it, the templates (None: the
    data alone is compared), and the sets of crew markers its counters hold."""
    kit: KitData
    templates: Path | None
    sets: int = 2


class Compared(Struct, frozen=True):
    groups: Groups          # printed_changes(): [(rule, [Change, ...]), ...]
    old: Side
    new: Side
    old_kit: KitData
    old_aid: str = ""       # since(): the base's aid Markdown (its data, its templates), for the marks
    old_templates: str = ""     # since(): the hash of the base's templates, for the stamp


def printed_changes(old: PrintInputs, new: PrintInputs, words: Words | None = None) -> Groups:
    """Every printed change from `old` to `new`, rules in reading order, in `words` (default: the
    source language's).  A template that does not render is a RenderError naming its file."""
    w = words if words is not None else source_words()
    groups = diff(print_items(old.kit, compute(old.kit), old.sets, w),
                  print_items(new.kit, compute(new.kit), new.sets, w))
    if old.templates is None or new.templates is None or templates_hash(old.templates) == templates_hash(new.templates):
        return groups
    sentences = template_changes(aid_text(new.kit, old.templates, w), aid_text(new.kit, new.templates, w), w)
    return sorted(groups + sentences, key=lambda g: rule_order(g[0]))


def aid_text(kit: KitData, templates: Path, words: Words, data_hash: str = "") -> str:
    """The aid's Markdown of these templates over `kit` in `words`, the stamp given as `data_hash`."""
    from generator.content.aid_text import render_text
    from generator.content.context import make_context
    from generator.options import BuildOptions
    ctx = make_context(kit, compute(kit), BuildOptions(), templates, words=words)
    return render_text(ctx, {"data_hash": data_hash})


def compare(old_spec: str, new_spec: str, sets: int = 2, words: Words | None = None,
            new_side: Side | None = None) -> Compared:
    """The diff of two sides (`new_side`: NEW as --data and --templates gave it); bad data on both
    sides is reported together, each line naming its side.  The changes' labels are in `words`."""
    with opened(old_spec) as old, opened(new_spec) if new_side is None else _given(new_side) as new:
        old_kit, new_kit = _both(old, _loaded(old, "OLD"), _loaded(new, "NEW"))
        with _shown(old, "OLD"), _shown(new, "NEW"):
            groups = printed_changes(PrintInputs(old_kit, old.templates, sets),
                                     PrintInputs(new_kit, new.templates, sets), words)
        return Compared(groups, old, new, old_kit)


@contextlib.contextmanager
def _given(side: Side) -> Iterator[Side]:
    yield side


def since(old_spec: str, new_kit: KitData, templates: Path, sets: int = 2, words: Words | None = None,
          edition: Callable[[KitData], KitData] | None = None) -> Compared:
    """The Compared of `build --since OLD`: NEW is the built data with the build's `templates`.
    `edition` makes OLD the same edition as NEW (its glossary, read while a git:REV's copy still
    exists) before the comparison.  With changes, it holds the base's aid as the same edition
    would print it, for the change marks (read here: a git:REV's templates are gone after)."""
    new = Side(str(new_kit.directory), new_kit.directory, str(new_kit.directory), None, templates)
    w = words if words is not None else source_words()
    with opened(old_spec) as old:
        old_kit = _loaded(old, "OLD")
        if edition is not None and not isinstance(old_kit, DataError):
            try:
                old_kit = edition(old_kit)
            except DataError as error:
                old_kit = error
        old_kit, new_kit = _both(old, old_kit, new_kit)
        assert old.templates is not None        # a folder or a git:REV always has its templates
        with _shown(old, f"--since {old_spec}: the base's aid"):
            groups = printed_changes(PrintInputs(old_kit, old.templates, sets),
                                     PrintInputs(new_kit, templates, sets), w)
            old_aid = aid_text(old_kit, old.templates, w, new_kit.short_hash) if groups else ""
        return Compared(groups, old, new, old_kit, old_aid, templates_hash(old.templates))


def _loaded(side: Side, name: str) -> KitData | DataError:
    try:
        return load_side(side, name)
    except DataError as error:
        return error


def _both(old: Side, old_kit: KitData | DataError, new_kit: KitData | DataError) -> tuple[KitData, KitData]:
    """Both sides' data, or one DataError with the problems of both."""
    if isinstance(old_kit, DataError) or isinstance(new_kit, DataError):
        errors = [k for k in (old_kit, new_kit) if isinstance(k, DataError)]
        raise DataError([line for e in errors for line in e.problems])
    return old_kit, new_kit


@contextlib.contextmanager
def _shown(side: Side, name: str) -> Iterator[None]:
    """A RenderError that names the side's templates or data: each such line after `name`, the
    folders as given (git:REV:templates, not the temporary folder a revision is read into)."""
    try:
        yield
    except RenderError as error:
        folders = [(str(f), f"{side.spec}:{f.name}" if side.commit else str(f))
                   for f in (side.templates, side.folder) if f is not None]
        lines = []
        for problem in error.problems:
            line = problem
            for where, shown in folders:
                if where in problem:
                    line = f"{name}: {problem.replace(where, shown, 1)}"
                    break
            lines.append(line)
        raise RenderError(lines) from None
