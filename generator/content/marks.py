"""The aid built `--since` OLD: a "Changes since" box, and a mark on every changed line.

Which lines changed is found by comparing the base's aid Markdown (its data and its templates,
rendered with this kit version and this build's data hash: Since.old_aid) with this build's,
line by line: in the template every list item, table row and paragraph is one line, so a
changed figure, row or sentence, from the data or from the templates, is a changed line.  Each
such line of the new text gets CHANGED, a private-use character, just inside its Markdown syntax
("- ", "| ", "1. "); renderers draw it as a change bar in the margin and never print it
(render/pdf/markdown_pdf.py for the PDF; render/html/aid_html.py gives the line's element class
"changed", drawn as a bar at its left).

The box lists the changes by rule number from the comparison `bailout diff` prints
(content/compare.py), so it names what moved even where the aid does not print it (counters,
the pre-rolled block); its lines are in the catalogue's words ("change.*").
"""

import re
from difflib import SequenceMatcher
from typing import Any

from generator.content.change import Change
from generator.content.context import BuildContext, Since
from generator.content.words import Words

CHANGED = "\ue000"          # marks a changed line in the aid's Markdown; never printed
PER_RULE = 2                # changes shown per rule number in the box; the rest counted
MAX_LINES = 12              # lines in the box before each rule is cut to one change
_PREFIX = re.compile(r"^(\s*(?:[-*+]\s+|\d+\.\s+|#{1,6}\s+|\|\s*)?)")
_SKIP = re.compile(r"^\s*(?:$|---\s*$|</?div\b|\|[\s:|-]*\|?\s*$)")


def marked_text(ctx: BuildContext) -> str:
    """The new aid's Markdown with the changes box, every changed line marked CHANGED."""
    from generator.content.aid_text import render_text
    since = ctx.changes
    assert since is not None
    plain = render_text(ctx)
    if not since.groups:
        return plain        # nothing changed: the aid as built without --since, byte for byte
    final = render_text(ctx, extra={"since": box_vars(since, ctx.words)})
    plain_lines, final_lines = plain.split("\n"), final.split("\n")
    changed = changed_lines(since.old_aid.split("\n"), plain_lines)
    # The box adds lines; every other line of the final text is a line of the plain one.
    matcher = SequenceMatcher(None, plain_lines, final_lines, autojunk=False)
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                if i1 + k in changed:
                    final_lines[j1 + k] = mark(final_lines[j1 + k])
    return "\n".join(final_lines)


def changed_lines(old: list[str], new: list[str]) -> set[int]:
    """Indices of the lines of `new` that are new or changed against `old` (content lines only).

    Where lines were only removed, the line now in their place is marked if it is of the same
    kind (a table row for table rows, a list item for list items), so a deletion shows too.
    """
    marked: set[int] = set()
    for tag, i1, _i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            marked.update(j for j in range(j1, j2) if _content(new[j]))
        elif tag == "delete" and j1 < len(new) and _content(new[j1]) and _kind(new[j1]) == _kind(old[i1]):
            marked.add(j1)
    return marked


def _content(line: str) -> bool:
    return not _SKIP.match(line)


def _prefix(line: str) -> str:
    """The line's Markdown syntax ("- ", "| ", "1. "), or ""."""
    match = _PREFIX.match(line)
    return match.group(1) if match else ""


def _kind(line: str) -> str:
    return _prefix(line).strip()[:1]


def mark(line: str) -> str:
    """`line` with CHANGED just inside its Markdown syntax, so the mark rides on its text."""
    prefix = _prefix(line)
    return f"{prefix}{CHANGED}{line[len(prefix):]}"


# What changed off the aid, by item key prefix: the catalogue key of what it is.
OFF_AID = {"prerolled": "change.off_aid.prerolled", "counters": "change.off_aid.counters"}


def box_vars(since: Since, words: Words) -> dict[str, Any]:
    """The template's `since`: {label, count, off_aid, groups: [(rule, [line, ...])]}.

    Each rule shows up to PER_RULE changes the aid prints (the rest counted); what changed off
    the aid (pre-rolled tables, counters) is one line for all, `off_aid`.  Past MAX_LINES in
    all, each rule shows one change, so the list keeps to its corner of page 2.
    """
    groups = _box_groups(since, PER_RULE, words)
    if sum(len(lines) for _, lines in groups) > MAX_LINES:
        groups = _box_groups(since, 1, words)
    off: dict[str, int] = {}
    for _, changes in since.groups:
        for c in changes:
            where = OFF_AID.get(c.key.split(".")[0])
            if where:
                off[where] = off.get(where, 0) + 1
    off_aid = [words.count("change.off_aid", n, where=words(where)) for where, n in off.items()]
    return {"label": since.label, "groups": groups, "count": sum(len(c) for _, c in since.groups),
            "off_aid": "; ".join(off_aid)}


def _box_groups(since: Since, per_rule: int, words: Words) -> list[tuple[str, list[str]]]:
    groups = []
    for rule, changes in since.groups:
        on_aid = [c for c in changes if c.key.split(".")[0] not in OFF_AID]
        if not on_aid:
            continue
        lines = [box_line(c, words) for c in on_aid[:per_rule]]
        if len(on_aid) > per_rule:
            lines.append(words("change.box.more", count=len(on_aid) - per_rule))
        groups.append((rule, lines))
    return groups


def box_line(change: Change, words: Words) -> str:
    """One change for a player: the new value first, then the old; a reworded text just says so."""
    from generator.content.items import show  # here: a build without --since reads only CHANGED from this module
    label = change.label
    if change.status == "added":
        return words("change.box.added", label=label, value=show(change.kind, change.new, words))
    if change.status == "removed":
        return words("change.box.removed", label=label, value=show(change.kind, change.old, words))
    if change.kind == "text" and len(str(change.new)) + len(str(change.old)) > 60:
        return words("change.box.reworded", label=label)
    return words("change.box.changed", label=label, new=show(change.kind, change.new, words),
                 old=show(change.kind, change.old, words))
