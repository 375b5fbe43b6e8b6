"""One printed item of a kit (a figure, a sentence, a label) and one change to it between two kits."""

from msgspec import Struct


class Item(Struct, frozen=True):
    key: str
    rule: str               # the rule number (or "note N") it prints under, from the data
    label: str
    value: object           # Fraction for chance/mean, int for number/modifier, str for text
    kind: str = "text"


class Change(Struct, frozen=True):
    key: str
    rule: str
    label: str
    kind: str
    old: object             # None where the item is new
    new: object             # None where the item is gone

    @property
    def status(self) -> str:
        return "added" if self.old is None else "removed" if self.new is None else "changed"
