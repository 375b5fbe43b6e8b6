"""The typed input of every renderer: the data, its exact odds, the options and the templates.

Reportlab-free: the content layer reads it, and every renderer below generator/render is
handed one.
"""

from pathlib import Path
from typing import Any

from msgspec import Struct, field

from generator.content.change import Change
from generator.content.stamp import Stamp, edition_stamp
from generator.content.words import Words, load_words
from generator.data.model import KitData
from generator.engine.odds import Odds
from generator.options import BuildOptions


class Since(Struct, frozen=True):
    """What `build --since` knows: the base's label, the changes, and the base's aid."""
    spec: str               # OLD as given: a folder or git:REV
    label: str              # "git:HEAD (abc1234)" or "data 1a2b3c4d5e"
    groups: list[tuple[str, list[Change]]]    # compare.printed_changes(): [(rule, [Change, ...]), ...]
    old_aid: str            # the base's aid Markdown (its data, its templates) in this edition's words
    commit: str | None      # git:REV's commit id
    data_hash: str          # the old data's full hash
    templates_hash: str     # the hash of the base's templates (content/stamp.py's folder_hash)


class BuildContext(Struct, frozen=True):
    """What every renderer needs: the data, its exact odds, the options asked for, the templates."""
    kit: KitData
    odds: Odds
    options: BuildOptions
    templates: Path         # the folder holding aid.md.j2
    changes: Since | None = None    # built --since OLD
    words: Words = field(default_factory=load_words)   # the printed words of this edition
    # What one build works out once and every paper shares (the aid's text, the pre-rolled rows).
    memo: dict[Any, Any] = field(default_factory=dict)

    @property
    def stamp(self) -> Stamp:
        """The edition stamp (content/stamp.py), worked out once per build."""
        if "stamp" not in self.memo:
            since = self.changes
            marked = (since.data_hash, since.templates_hash) if since is not None and since.groups else None
            self.memo["stamp"] = edition_stamp(self.kit, self.options, self.templates, marked)
        stamp: Stamp = self.memo["stamp"]
        return stamp

    def stamp_words(self) -> str:
        """The stamp as the footers print it, with the --label beside it when one is given."""
        if self.options.label:
            return self.words("page.footer.labelled", stamp=self.stamp.short, label=self.options.label)
        return self.stamp.short

