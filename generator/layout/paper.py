"""Paper sizes and unit conversion, in PDF points (1/72 in)."""

from dataclasses import dataclass

POINTS_PER_INCH = 72
MM_PER_INCH = 25.4


def mm(value):
    """Millimetres -> points."""
    return float(value) * POINTS_PER_INCH / MM_PER_INCH


def inch(value):
    return float(value) * POINTS_PER_INCH


@dataclass(frozen=True)
class Paper:
    key: str                # 'a4' or 'letter': file names and options
    label: str              # what the footer prints
    width: float
    height: float


PAPERS = {
    "a4": Paper("a4", "A4", mm(210), mm(297)),
    "letter": Paper("letter", "US Letter", inch(8.5), inch(11)),
}
