"""The print profiles by name: one entry per module beside this one.  Adding a profile is a
module and an entry in ENTRIES; everything that lists profiles (--print and its help, a
release's folders, MANIFEST.txt) reads them from here."""

from generator.errors import UsageError
from generator.profiles.cutter import CUTTER
from generator.profiles.drivethru import DRIVETHRU
from generator.profiles.duplex import DUPLEX
from generator.profiles.fold import FOLD
from generator.profiles.meinspiel import MEINSPIEL
from generator.profiles.print_profile import PrintProfile
from generator.profiles.shop import SHOP
from generator.profiles.tgc_punchout import TGC_PUNCHOUT

ENTRIES: tuple[PrintProfile, ...] = (DUPLEX, FOLD, CUTTER, SHOP, DRIVETHRU, MEINSPIEL, TGC_PUNCHOUT)
PROFILES: dict[str, PrintProfile] = {p.name: p for p in ENTRIES}
DEFAULT = DUPLEX.name       # what a build prints without --print


def names() -> tuple[str, ...]:
    """Every profile's name, in registry order (the default's first)."""
    return tuple(PROFILES)


def profile(name: str) -> PrintProfile:
    """The profile called `name`; UsageError naming the profiles there are."""
    try:
        return PROFILES[name]
    except KeyError:
        raise UsageError(f"no print profile {name!r}; --print takes {', '.join(names())}") from None


def find(name: str) -> PrintProfile | None:
    """The profile called `name`, or None (a release's folder that is not a profile's, like faces/)."""
    return PROFILES.get(name)
