"""Print-kit generator for the Up Front variant 871 "AFVs & Bail Out"."""

__version__ = "0.1.0"
