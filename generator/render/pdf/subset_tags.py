"""Font subsets named by what they hold, so no two different subsets share a name in any PDF.

reportlab tags the subsets of a TrueType font in the order it makes them (AAAAAA+, AAAAAB+, ...),
so every PDF's first subset of DejaVu Sans is AAAAAA+DejaVuSans: two parts merged into one kit
(or ganged by a shop) hold different subsets under one name, and a RIP that caches fonts by name
can print the wrong glyphs (ISO 32000-1, 9.6.4: a subset's tag identifies the subset).  Here
each subset's tag is six capitals drawn from a hash of the font and the characters it holds, in
code order: the same subset gets the same tag in every part, a different one another, whatever
merges the parts afterwards (the tag is set as each part is drawn).
"""

import hashlib
import string
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFont, makeToUnicodeCMap

TAG_LETTERS = 6     # what ISO 32000 asks: six uppercase letters, then '+'


def subset_tag(font: bytes, subset: list[int]) -> str:
    """Six capitals that name the subset `subset` (its code points, in code order) of `font`."""
    digest = hashlib.sha256(font + b"\0" + ",".join(map(str, subset)).encode()).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(TAG_LETTERS):
        number, index = divmod(number, 26)
        letters.append(string.ascii_uppercase[index])
    return "".join(letters)


class TaggedTTFont(TTFont):
    """A reportlab TrueType font whose subsets are tagged by subset_tag, not by their order.

    addObjects is reportlab's own (reportlab/pdfbase/ttfonts.py, TTFont.addObjects), with the
    subset's name the one change: reportlab gives no hook for it."""

    def addObjects(self, doc: Any) -> None:
        try:
            state = self.state[doc]
        except KeyError:
            state = self.state[doc] = TTFont.State(self._asciiReadable)
        state.frozen = 1
        for n, subset in enumerate(state.subsets):
            internal = self.getSubsetInternalName(n, doc)[1:]
            name = f"{subset_tag(self.face.name, subset)}+{self.face.name.decode('pdfdoc')}" \
                   f"{self.face.subfontNameX.decode('pdfdoc')}"
            font = pdfdoc.PDFTrueTypeFont()
            font.__Comment__ = f"Font {self.fontName} subset {n}"
            font.Name = internal
            font.BaseFont = name
            font.FirstChar = 0
            font.LastChar = len(subset) - 1
            font.Widths = pdfdoc.PDFArray(list(map(self.face.getCharWidth, subset)))
            cmap = pdfdoc.PDFStream()
            cmap.content = makeToUnicodeCMap(name, subset)
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + name)
            font.FontDescriptor = self.face.addSubsetObjects(doc, name, subset)
            doc.Reference(font, internal)
            doc.idToObject["BasicFonts"].dict[internal] = font
        del self.state[doc]
