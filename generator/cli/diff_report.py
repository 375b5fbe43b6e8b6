"""`bailout diff` as text lines or JSON data."""

from collections.abc import Sequence
from fractions import Fraction

from generator.content.change import Change
from generator.content.items import show
from generator.text import fraction_text

Groups = Sequence[tuple[str, Sequence[Change]]]    # compare.printed_changes(): [(rule, [Change, ...]), ...]


def change_line(change: Change) -> str:
    if change.status == "added":
        return f"{change.label}: new: {show(change.kind, change.new)}"
    if change.status == "removed":
        return f"{change.label}: removed (was {show(change.kind, change.old)})"
    return f"{change.label}: {show(change.kind, change.old)} -> {show(change.kind, change.new)}"


def text_lines(groups: Groups, old_label: str, new_label: str) -> list[str]:
    """The diff as text, one heading per rule number."""
    if not groups:
        return [f"No printed change from {old_label} to {new_label}."]
    count = sum(len(changes) for _, changes in groups)
    lines = [f"{count} printed change{'s' if count != 1 else ''} from {old_label} to {new_label}:"]
    for rule, changes in groups:
        lines += ["", rule]
        lines += [f"  {change_line(c)}" for c in changes]
    return lines


def as_json(groups: Groups) -> list[dict[str, object]]:
    """The same list as data: old and new as printed values, fractions as strings ("1/3")."""
    def value(kind: str, v: object) -> object:
        if not isinstance(v, (Fraction, int)) or kind not in ("chance", "mean"):
            return v
        return fraction_text(v)
    return [{"rule": c.rule, "key": c.key, "label": c.label, "kind": c.kind, "status": c.status,
             "old": value(c.kind, c.old), "new": value(c.kind, c.new),
             "old_text": None if c.old is None else show(c.kind, c.old),
             "new_text": None if c.new is None else show(c.kind, c.new)}
            for _, changes in groups for c in changes]
