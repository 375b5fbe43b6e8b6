"""Units of length, once: millimetres, inches and PDF points (1/72 in)."""

from fractions import Fraction

POINTS_PER_INCH = 72
MM_PER_INCH = Fraction(254, 10)     # exact, so sizes given in inches stay exact in mm
CM_PER_INCH = MM_PER_INCH / 10


def mm(value: float | Fraction) -> float:
    """Millimetres -> points."""
    return float(value) * POINTS_PER_INCH / float(MM_PER_INCH)


def inch(value: float | Fraction) -> float:
    """Inches -> points."""
    return float(value) * POINTS_PER_INCH


def points_to_mm(value: float) -> float:
    """Points -> millimetres."""
    return value * float(MM_PER_INCH) / POINTS_PER_INCH
