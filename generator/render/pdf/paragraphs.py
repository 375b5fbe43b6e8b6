"""The kit's paragraphs: reportlab's, with Japanese lines broken by the kit's kinsoku rules.

reportlab's own CJK wrapping (wordWrap="CJK") breaks a line at the first character that
overflows it, and lets that character hang past the measure when it may not start a line: a
small kana or a mark crosses a box's border, an opening bracket ends a line, and a line with a
space and a hanging mark is squeezed by a negative word spacing that draws one glyph over
another.  KitParagraph chooses the breaks itself (text.filled_line_starts, the rules every other
output breaks Japanese by) and hands reportlab lines that fit, each ended by a line break.
"""

from collections.abc import Sequence
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from generator.text import filled_line_starts

BREAK_MARK = "kinsokuBreak"     # the attribute that tells a break of ours from the text's own <br/>


class KitParagraph(Paragraph):
    """A Paragraph; in a style with wordWrap="CJK", its lines break where the kit's kinsoku
    rules allow and none runs past its width."""
    frags: list[Any]        # the parsed text's fragments (Paragraph sets them)
    unbroken: list[Any] | None = None       # the fragments as parsed, before any break of ours

    def breakLinesCJK(self, maxWidths: Any) -> Any:
        # Each wrap breaks the text as parsed: a box measured at one width and set at another
        # keeps the spaces the first width's breaks dropped ("拳銃のみ 3/4").
        if self.unbroken is None:
            self.unbroken = list(self.frags)
        widths = list(maxWidths) if isinstance(maxWidths, (list, tuple)) else [maxWidths]
        self.frags = broken_frags(self.unbroken, widths)
        return super().breakLinesCJK(maxWidths)


def _characters(frags: Sequence[Any]) -> tuple[str, list[float], list[int]]:
    """The paragraph's text (a newline for each line break of its own), each character's advance,
    and the fragment each comes from."""
    chars: list[str] = []
    advances: list[float] = []
    owners: list[int] = []
    for n, frag in enumerate(frags):
        if hasattr(frag, "cbDefn"):      # an image or an anchor: no character of its own
            continue
        text = "\n" if getattr(frag, "lineBreak", False) else frag.text
        for char in text:
            chars.append(char)
            advances.append(0.0 if char == "\n" else stringWidth(char, frag.fontName, frag.fontSize))
            owners.append(n)
    return "".join(chars), advances, owners


def broken_frags(frags: Sequence[Any], widths: Sequence[float]) -> list[Any]:
    """`frags` with a line break (marked BREAK_MARK) where each line starts that
    filled_line_starts chooses for `widths`, the spaces before a break dropped."""
    text, advances, owners = _characters(frags)
    starts = filled_line_starts(text, advances, widths)
    if not starts:
        return list(frags)
    cuts: dict[int, list[int]] = {}     # by fragment: where in its text a line starts
    dropped: set[int] = set()           # the spaces that end a line
    for start in starts:
        end = start
        while end > 0 and text[end - 1].isspace() and text[end - 1] != "\n":
            end -= 1
            dropped.add(end)
        cuts.setdefault(owners[start], []).append(start)
    out: list[Any] = []
    first = {n: i for i, n in reversed(list(enumerate(owners)))}     # each fragment's first character
    for n, frag in enumerate(frags):
        if n not in first or getattr(frag, "lineBreak", False):
            out.append(frag)
            continue
        base, begin = first[n], first[n]
        for start in [*cuts.get(n, []), base + len(frag.text)]:
            kept = "".join(ch for i, ch in enumerate(text[begin:start], begin) if i not in dropped)
            if kept or start == base + len(frag.text):
                out.append(frag.clone(text=kept))
            if start < base + len(frag.text):
                out.append(frag.clone(text="", lineBreak=True, **{BREAK_MARK: True}))
            begin = start
    return out
