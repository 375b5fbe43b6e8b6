"""File names made from data, in one place: a nationality file's name names the release's face
images (faces/german-crew-front.png), so it must make a name every system and unzip can create.

A safe stem is ASCII letters, digits and single hyphens (no separator of any system, no dot,
no space, no control or bidirectional character), at most MAX_STEM characters; two stems that
differ only in case would collide on a case-insensitive disk, so they are refused as one.
"""

import re

MAX_STEM = 64       # faces/STEM-bailed-out-afv-1939-45-front.png stays far below 255 bytes
_STEM = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
RULE = f"ASCII letters, digits and single hyphens, at most {MAX_STEM} characters"


def safe_stem(name: str) -> str | None:
    """`name` when it is safe as (part of) a file name in a release, else None."""
    if len(name) <= MAX_STEM and _STEM.fullmatch(name):
        return name
    return None


def entry_name(*parts: str) -> str:
    """An entry name from safe stems joined by hyphens; ValueError when a part is not safe (the
    data loader refuses such names, so this only stops a path built from unchecked text)."""
    for part in parts:
        if _STEM.fullmatch(part) is None:
            raise ValueError(f"{part!r} is not a safe file name part ({RULE})")
    return "-".join(parts)
