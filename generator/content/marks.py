"""The aid built `--since` OLD: a "Changes since" box, and a mark on every changed line.

Which lines changed is found by rendering the aid's Markdown twice, from the old data and from
the new, with the same template, kit version and data hash, and comparing them line by line:
in the template every list item, table row and paragraph is one line, so a changed figure,
row or sentence is a changed line.  Each such line of the new text gets CHANGED, a private-use
character, just inside its Markdown syntax ("- ", "| ", "1. "); renderers draw it as a change
bar in the margin and never print it (render/markdown_flow.py for the PDF; render/aid_html.py
gives the line's element class "changed", drawn as a bar at its left).

The box lists the changes by rule number from changes.diff (generator/changes.py), so it names
what moved even where the aid does not print it (counters, the pre-rolled block).
"""

import re
from difflib import SequenceMatcher

from generator.content.context import BuildContext
from generator.errors import RenderError

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
    same = {"data_hash": ctx.kit.short_hash}    # the stamp is not a rules change
    try:
        old = render_text(since.old_ctx, extra=same, folder=ctx.templates)
    except RenderError as error:
        raise RenderError([f"--since {since.spec}: the old data's aid: {line}" for line in error.problems]) from None
    plain = render_text(ctx)
    if not since.groups:
        return plain        # nothing changed: the aid as built without --since, byte for byte
    final = render_text(ctx, extra={"since": box_vars(since)})
    plain_lines, final_lines = plain.split("\n"), final.split("\n")
    changed = changed_lines(old.split("\n"), plain_lines)
    # The box adds lines; every other line of the final text is a line of the plain one.
    matcher = SequenceMatcher(None, plain_lines, final_lines, autojunk=False)
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                if i1 + k in changed:
                    final_lines[j1 + k] = mark(final_lines[j1 + k])
    return "\n".join(final_lines)


def changed_lines(old, new):
    """Indices of the lines of `new` that are new or changed against `old` (content lines only).

    Where lines were only removed, the line now in their place is marked if it is of the same
    kind (a table row for table rows, a list item for list items), so a deletion shows too.
    """
    marked = set()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            marked.update(j for j in range(j1, j2) if _content(new[j]))
        elif tag == "delete" and j1 < len(new) and _content(new[j1]) and _kind(new[j1]) == _kind(old[i1]):
            marked.add(j1)
    return marked


def _content(line):
    return not _SKIP.match(line)


def _kind(line):
    return _PREFIX.match(line).group(1).strip()[:1]


def mark(line):
    """`line` with CHANGED just inside its Markdown syntax, so the mark rides on its text."""
    prefix = _PREFIX.match(line).group(1)
    return f"{prefix}{CHANGED}{line[len(prefix):]}"


OFF_AID = {"prerolled": "the pre-rolled tables", "counters": "the counters"}    # key prefix -> what it is


def box_vars(since):
    """The template's `since`: {label, count, off_aid, groups: [(rule, [line, ...])]}.

    Each rule shows up to PER_RULE changes the aid prints (the rest counted); what changed off
    the aid (pre-rolled tables, counters) is one line for all, `off_aid`.  Past MAX_LINES in
    all, each rule shows one change, so the list keeps to its corner of page 2.
    """
    groups = _box_groups(since, PER_RULE)
    if sum(len(lines) for _, lines in groups) > MAX_LINES:
        groups = _box_groups(since, 1)
    off = {}
    for _, changes in since.groups:
        for c in changes:
            where = OFF_AID.get(c.key.split(".")[0])
            if where:
                off[where] = off.get(where, 0) + 1
    return {"label": since.label, "groups": groups, "count": sum(len(c) for _, c in since.groups),
            "off_aid": "; ".join(f"{where} ({n} change{'s' if n != 1 else ''})" for where, n in off.items())}


def _box_groups(since, per_rule):
    groups = []
    for rule, changes in since.groups:
        on_aid = [c for c in changes if c.key.split(".")[0] not in OFF_AID]
        if not on_aid:
            continue
        lines = [box_line(c) for c in on_aid[:per_rule]]
        if len(on_aid) > per_rule:
            lines.append(f"and {len(on_aid) - per_rule} more")
        groups.append((rule, lines))
    return groups


def box_line(change):
    """One change for a player: the new value first, then the old; a reworded text just says so."""
    from generator.content.items import show    # here: a build without --since reads only CHANGED from this module
    if change.status == "added":
        return f"{change.label}: {show(change.kind, change.new)} (new)"
    if change.status == "removed":
        return f"{change.label}: removed (was {show(change.kind, change.old)})"
    if change.kind == "text" and len(str(change.new)) + len(str(change.old)) > 60:
        return f"{change.label}: reworded"
    return f"{change.label}: now {show(change.kind, change.new)}, was {show(change.kind, change.old)}"
