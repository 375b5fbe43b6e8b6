"""The typed input of every renderer: the data, its exact odds, the options and the templates.

Reportlab-free: the content layer reads it, and every renderer below generator/render is
handed one.
"""

from pathlib import Path

from msgspec import Struct

from generator import __version__
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
    templates_hash: str     # the hash of the base's templates (content/stamp.py's templates_hash)


class BuildContext(Struct, frozen=True):
    """What every renderer needs: the data, its exact odds, the options asked for, the templates,
    the edition's words and its stamp.  make_context makes one; what a build derives from it
    (the aid's text, the rows, the counters) are the build's products (generator/make/products.py)."""
    kit: KitData
    odds: Odds
    options: BuildOptions
    templates: Path         # the folder holding aid.md.j2
    words: Words            # the printed words of this edition
    stamp: Stamp            # the edition stamp (content/stamp.py)
    changes: Since | None = None    # built --since OLD

    def stamp_words(self) -> str:
        """The stamp as the footers print it, with the --label beside it when one is given."""
        if self.options.label:
            return self.words("page.footer.labelled", stamp=self.stamp.short, label=self.options.label)
        return self.stamp.short

    def colophon(self) -> str:
        """The colophon's one line, printed once a file and never in a footer: the kit by its
        title ("871" held to it by a no-break space), its version and the edition stamp (with
        its --label), as MANIFEST.txt lists them."""
        title = f"{self.kit.rules.number}\u00a0{self.kit.rules.title}"
        return self.words("colophon.edition", kit=title, version=__version__, stamp=self.stamp_words())



def make_context(kit: KitData, odds: Odds, options: BuildOptions, templates: Path, *,
                 changes: Since | None = None, words: Words | None = None) -> BuildContext:
    """The context of a build of `kit` with `options`, its stamp worked out (the edition's words
    are its language's catalogue unless given)."""
    marked = (changes.data_hash, changes.templates_hash) if changes is not None and changes.groups else None
    printed = (words if words is not None else load_words(options.lang)).printed()
    return BuildContext(kit, odds, options, templates, printed,
                        edition_stamp(kit, options, templates, marked), changes)
