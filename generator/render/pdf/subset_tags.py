"""Font subsets named by what they hold, so no two different subsets share a name in any PDF.

reportlab tags the subsets of a TrueType font in the order it makes them (AAAAAA+, AAAAAB+, ...),
so every PDF's first subset of IBM Plex Sans is AAAAAA+IBMPlexSans: two parts joined into one
kit (or ganged by a shop) would hold different subsets under one name, and a RIP that caches
fonts by name can print the wrong glyphs (ISO 32000-1, 9.6.4: a subset's tag identifies the
subset); and within one part, each face's first subset is AAAAAA+ (a face and its bold share
the tag).  reportlab offers no way to name its subsets, so the kit names them from what each
holds: pdf_stream.py from a subset's characters; the parts reportlab writes (pdf_join.tag_subsets,
on the canvas's and the aid's bytes), the kit's join (pdf_join.py) and the print shop's
conversion (shop_pdf.py) from its embedded program.  The same subset gets the same tag, a
different one another.
"""

import hashlib
import re
import string

TAG_LETTERS = 6     # what ISO 32000 asks: six uppercase letters, then '+'
# A subset's name as a font and its descriptor carry it: the tag, '+', the font's own name.
SUBSET_NAME = re.compile(rb"/(BaseFont|FontName) /([A-Z]{6})\+([^\s/\[\]<>()]+)")


def tag_of(content: bytes) -> str:
    """Six capitals drawn from a digest of `content`."""
    number = int.from_bytes(hashlib.sha256(content).digest()[:8], "big")
    letters = []
    for _ in range(TAG_LETTERS):
        number, index = divmod(number, 26)
        letters.append(string.ascii_uppercase[index])
    return "".join(letters)


def subset_tag(font: bytes, subset: list[int]) -> str:
    """Six capitals that name the subset `subset` (its code points, in code order) of `font`."""
    return tag_of(font + b"\0" + ",".join(map(str, subset)).encode())


def program_tag(name: bytes, program: bytes) -> str:
    """Six capitals that name a subset of the font `name` by its embedded program's bytes."""
    return tag_of(name + b"\0" + program)
