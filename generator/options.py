"""What a build is asked for, as plain values any layer may read (the CLI parses them in
generator/cli/argtypes.py), and the SOURCE_DATE_EPOCH check every dated output needs."""

import os
from collections.abc import Mapping
from fractions import Fraction

from msgspec import Struct

from generator.errors import UsageError
from generator.profiles import registry
from generator.profiles.print_profile import PrintProfile
from generator.units import MM_PER_INCH

PAPER_KEYS: tuple[str, ...] = ("a4", "letter")     # layout.paper.PAPERS holds their sizes
NAMED_SIZES = {"5/8in": Fraction(5, 8), "3/4in": Fraction(3, 4), "1in": Fraction(1)}
DEFAULT_COUNTER_MM = NAMED_SIZES["3/4in"] * MM_PER_INCH
# From 5/8in, the smallest size every edition's counter words fit (5 pt at the least), to 40 mm.
MIN_COUNTER_MM, MAX_COUNTER_MM = NAMED_SIZES["5/8in"] * MM_PER_INCH, 40
DEFAULT_SEED = 871
MAX_SEED = 2 ** 63 - 1
RANDOM_SEED = -1            # --seed random, before the CLI draws a fresh seed from the OS
# The print profiles' names as the registry held them at import (generator/profiles/); what must
# see every entry, one a test registers too, asks registry.names().
PRINT_PROFILES: tuple[str, ...] = registry.names()


class BuildOptions(Struct, frozen=True):
    """What a build was asked for, independent of argparse (tests build these directly)."""
    papers: tuple[str, ...] = PAPER_KEYS
    parts: tuple[str, ...] | None = None    # --only: parts of the output registry (make/outputs.py); None: all
    bw: bool = False
    rows: int | None = None
    seed: int = DEFAULT_SEED
    mode: str = "independent"   # rows that tell nothing of the next; "balanced" on request
    counter_mm: Fraction = DEFAULT_COUNTER_MM
    back_offset_mm: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    sets: int = 2
    fill: bool = True       # spare cells of the last counter sheet take more crews and markers
    since: str | None = None    # build --since OLD: a data folder or git:REV
    print_profile: str = registry.DEFAULT   # a print profile's name (--print); `profile` is the profile
    marks: bool = True      # a print shop's profile: crop marks in a slug outside the bleed (--no-marks: none)
    label: str | None = None    # --label TEXT: the edition's name, printed beside the stamp
    lang: str = "en"        # the edition: its catalogue is generator/content/locale/<lang>.po
    # A seed anyone can read lets him print the same rows and read ahead; a drawn one
    # (--seed random, 63 secret bits) is kept out of every page (the stamp still changes with it).
    seed_shown: bool = True
    # --image-url: where a Tabletop Simulator object loads its images and PDF from (ending in '/');
    # None: the folder it unpacks to in this computer's Saved Objects (render/tts.py)
    image_url: str | None = None

    @property
    def profile(self) -> PrintProfile:
        """The print profile the options name: what layout and renderers ask instead of its name."""
        return registry.profile(self.print_profile)


def default_counter_mm(profiles: tuple[str, ...]) -> Fraction:
    """The counter size of a build or release of `profiles` without --counter-size: the largest
    any of their shops' dies cuts (its safe zone leaves the faces room), else 3/4 in."""
    dies = [p.prepress.die_cut.counter_mm for p in map(registry.profile, profiles)
            if p.prepress is not None and p.prepress.die_cut is not None]
    return max(dies, default=DEFAULT_COUNTER_MM)


# The last second a PDF date (D:YYYYMMDDHHmmSS, four-digit year) can hold: 9999-12-31 23:59:59 UTC.
MAX_EPOCH = 253_402_300_799


def check_source_date_epoch(environ: Mapping[str, str] = os.environ) -> None:
    """reportlab reads SOURCE_DATE_EPOCH for the embedded dates; a bad one would crash it there.

    Whole seconds in ASCII digits only ('²' passes str.isdigit, int() refuses it), checked by
    length before int() (5,000 digits exceed Python's int-from-text limit) and within what a
    PDF date can say (time.gmtime overflows far sooner than 20 digits).
    """
    raw = environ.get("SOURCE_DATE_EPOCH", "")
    epoch = raw.strip()
    if not epoch:
        return
    digits = epoch.lstrip("0")
    if not (epoch.isascii() and epoch.isdigit()) or len(digits) > len(str(MAX_EPOCH)) or int(digits or 0) > MAX_EPOCH:
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        raise UsageError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, 0 to {MAX_EPOCH} "
                         f"(9999-12-31), got {shown!r}")


