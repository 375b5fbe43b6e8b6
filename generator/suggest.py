""""Did you mean ...?" for a name that is not one of those accepted (data keys, options,
nationalities, commands, choices), and the US spellings of the kit's British data keys."""

import difflib
from collections.abc import Iterable, Mapping

# Data keys the kit spells the British way, by their US spelling: named as such, since a US
# player is sure of the spelling and would otherwise look for a typo.
US_SPELLINGS = {"color": "colour", "colors": "colours", "armor": "armour", "center": "centre",
                "gray": "grey", "favorite": "favourite", "caliber": "calibre", "meter": "metre"}


def suggestion(name: str, accepted: Iterable[str]) -> str:
    """'did you mean X?' ('did you mean colour? (US spelling)', 'did you mean X or Y?'), or ''
    when nothing accepted is close."""
    choices = [str(c) for c in accepted]
    british = US_SPELLINGS.get(name.lower())
    if british is not None and british in choices:
        return f"did you mean {british}? (US spelling)"
    close = difflib.get_close_matches(name, choices, n=2, cutoff=0.6)
    if not close and name.lower() != name:
        close = difflib.get_close_matches(name.lower(), choices, n=2, cutoff=0.6)
    return f"did you mean {' or '.join(close)}?" if close else ""


def refusal(name: str, accepted: Iterable[str]) -> str:
    """'did you mean X? ' followed by the accepted names, for a message that lists them all."""
    choices = [str(c) for c in accepted]
    hint = suggestion(name, choices)
    return f"{hint + ' ' if hint else ''}accepted: {', '.join(choices)}"


def suggestion_by_names(name: str, names: Mapping[str, Iterable[str]]) -> str:
    """'did you mean KEY?' for the key (or 'KEY or OTHER?' for two) that `name` is a name of, in
    any case, or else is close to one of; '' when none is.  `names`: each key and what else it
    is called ('de': Deutsch, German, allemand; 'soviet': Soviet, Sowjets, Russian)."""
    keys_by_name: dict[str, list[str]] = {}
    for key, others in names.items():
        for other in (key, *others):
            keys_by_name.setdefault(other.casefold(), []).append(key)
    asked = name.strip().casefold()
    found = keys_by_name.get(asked)
    if not found:       # the closest name's keys (and an equally close name's): never a worse guess beside it
        close = difflib.get_close_matches(asked, keys_by_name, n=3, cutoff=0.6)
        best = max((_likeness(asked, other) for other in close), default=0)
        found = [key for other in close if _likeness(asked, other) == best for key in keys_by_name[other]]
    keys = list(dict.fromkeys(found))[:2]
    return f"did you mean {' or '.join(keys)}?" if keys else ""


def _likeness(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()
