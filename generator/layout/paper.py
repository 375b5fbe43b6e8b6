"""Paper sizes, in PDF points (1/72 in)."""

from msgspec import Struct

from generator.units import inch, mm


class Paper(Struct, frozen=True):
    key: str                # 'a4' or 'letter': file names and options
    label: str              # what the footer prints
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", mm(210), mm(297)),
    "letter": Paper("letter", "US Letter", inch(8.5), inch(11)),
}
