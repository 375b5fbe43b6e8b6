"""The pre-rolled rows as playing cards, for the digital tables' decks: a page a card, the back last.

A card is a poker card (2.5 x 3.5 in): the row's number on a band in the aid's accent colour,
then each man's fate and weapon under the same heads as the printed table ("Fate (871.3)",
"Weapon (871.4)"), tinted as the table tints them (a killed man, a weapon besides the pistol),
a killed man's weapon a dash; the edition's stamp at the foot.  The back names the deck.  Every
word is the catalogue's (content/digital.py Card); the cells take one size on every card, the
largest at which every word of the edition fits its column.
"""

import functools
from collections.abc import Sequence
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.content.context import BuildContext
from generator.content.digital import Card
from generator.layout.paper import Paper
from generator.render import theme
from generator.render.pdf.canvas import (
    INK,
    PAPER,
    FaceSet,
    Pdf,
    colour,
    edition_faces,
    ellipsise,
    fill,
    finish,
    grey,
    new_canvas,
)
from generator.text import line_pieces
from generator.units import inch

CARD = Paper("card", "card", inch(2.5), inch(3.5))
CARD_DPI = 120                  # a card 300 x 420 px: 10 x 7 of them make a Tabletop Simulator sheet under 4096 px
DASH = "\u2013"                 # a killed man's weapon: he draws none, as the printed table's dash
BAND = 46                       # the band that carries the row's number, points
MARGIN = 10
TITLE, HEAD, LABEL, FOOT = 22, 7.5, 8, 6.5
CELL_MAX, CELL_MIN = 12, 6
LINE_MAX = 34                   # a man's line, at most (a crew of five fills the card at about this)
# The three columns of a man's line, as shares of the width inside the margins: his label, his
# fate, his weapon.
SHARES = (0.26, 0.40, 0.34)


@functools.lru_cache(maxsize=1024)
def fitted(text: str, font: str, size: float, width: float) -> str:
    """canvas.ellipsise, kept: a deck's cards print the same few words over and over."""
    return ellipsise(text, font, size, width)


def card_pdf(ctx: BuildContext, cards: Sequence[Card]) -> Pdf:
    """One page a card, in order, then the cards' common back."""
    words, rules = ctx.words, ctx.kit.rules
    c, buffer = new_canvas(ctx, CARD, words("digital.deck"), words("digital.name", number=rules.number))
    heads = (words("digital.card.fates", rule=rules.fate.rule), words("digital.card.weapons", rule=rules.weapon.rule))
    faces = edition_faces(words.lang)
    size = cell_size([word for card in cards for _, fate, weapon in card.men for word in (fate, weapon or DASH)], faces)
    stamp = words("digital.card.stamp", stamp=ctx.stamp_words())
    accent = theme.palette(ctx.options.bw).accent
    for card in cards:
        _face(c, card, heads, (size, faces), stamp, accent, bw=ctx.options.bw)
        c.showPage()
    _back(c, words("digital.card.back", number=rules.number), accent, faces)
    c.showPage()
    return finish(c, buffer)


def _columns() -> list[tuple[float, float]]:
    """(left, width) of each of a man's three columns."""
    inner = CARD.width - 2 * MARGIN
    x, out = float(MARGIN), []
    for share in SHARES:
        out.append((x, inner * share))
        x += inner * share
    return out


def cell_size(words: Sequence[str], faces: FaceSet) -> float:
    """The cells' one size: the largest, up to CELL_MAX, at which each of `words` fits a fate's
    or a weapon's column in the bold face of `faces` (CELL_MIN at the least; a longer word is
    ellipsised)."""
    width = min(w for _, w in _columns()[1:]) - 6
    widest = max((stringWidth(word, faces.condensed_bold, 1) for word in words), default=0)
    return max(CELL_MIN, min(CELL_MAX, width / widest if widest else CELL_MAX))


def _face(c: Any, card: Card, heads: tuple[str, str], type_: tuple[float, FaceSet], stamp: str, accent: str, *,
          bw: bool) -> None:
    """A card's face: the band with its row, the heads, each man's line, the stamp; `type_`: the
    cells' size, and the edition's faces."""
    faces = type_[1]
    w, h = CARD.width, CARD.height
    c.setLineWidth(0.75)
    c.setStrokeColor(grey(0.55))
    c.rect(0.5, 0.5, w - 1, h - 1, stroke=1, fill=0)
    c.setFillColor(colour(accent))
    c.rect(0, h - BAND, w, BAND, stroke=0, fill=1)
    c.setFillColor(PAPER)
    c.setFont(faces.condensed_bold, TITLE)
    title = fitted(card.title, faces.condensed_bold, TITLE, w - 2 * MARGIN)
    c.drawString(MARGIN, h - BAND + (BAND - TITLE * 0.7) / 2, title)
    columns = _columns()
    top = h - BAND - 6 - HEAD
    c.setFillColor(INK)
    c.setFont(faces.condensed_medium, HEAD)
    for (x, width), head in zip(columns[1:], heads, strict=True):
        c.drawString(x + 3, top, fitted(head, faces.condensed_medium, HEAD, width - 4))
    bottom = MARGIN + FOOT + 6
    line = min(LINE_MAX, (top - 4 - bottom) / max(1, len(card.men)))
    for i, (label, fate, weapon) in enumerate(card.men):
        y = top - 4 - (i + 1) * line
        tints = ((theme.KILLED_TINT if card.killed[i] else None), (theme.YES_TINT if card.armed[i] else None))
        _line(c, columns, y, line, (label, fate, weapon or DASH), (card.killed[i], card.armed[i]), tints, type_,
              bw=bw)
    c.setFont(faces.condensed, FOOT)
    c.setFillColor(grey(theme.FOOTER_LEVEL))
    c.drawString(MARGIN, MARGIN, fitted(stamp, faces.condensed, FOOT, w - 2 * MARGIN))


def _line(c: Any, columns: list[tuple[float, float]], y: float, height: float, texts: tuple[str, str, str],
          bold: tuple[bool, bool], tints: tuple[str | None, str | None], type_: tuple[float, FaceSet], *,
          bw: bool) -> None:
    """A man's line at `y` (its foot): his label, then his fate and weapon cells, each tinted
    where the printed table tints it (no tint in black and white: the bold says it); `type_`: the
    cells' size and the edition's faces."""
    size, faces = type_
    (lx, lw), *cells = columns
    c.setFillColor(grey(0.35))
    c.setFont(faces.condensed, LABEL)
    c.drawString(lx, y + (height - LABEL * 0.7) / 2, fitted(texts[0], faces.condensed, LABEL, lw - 2))
    for (x, width), text, strong, tint in zip(cells, texts[1:], bold, tints, strict=True):
        shade = fill(tint) if tint is not None and not bw else None
        if shade is not None:
            c.setFillColor(shade)
            c.rect(x + 1, y + 1.5, width - 2, height - 3, stroke=0, fill=1)
        font = faces.condensed_bold if strong else faces.condensed
        c.setFillColor(INK)
        c.setFont(font, size)
        c.drawString(x + 3, y + (height - size * 0.7) / 2, fitted(text, font, size, width - 6))


def _back(c: Any, caption: str, accent: str, faces: FaceSet) -> None:
    """The cards' common back: the accent colour, the deck's name across it."""
    w, h = CARD.width, CARD.height
    c.setFillColor(colour(accent))
    c.rect(0, 0, w, h, stroke=0, fill=1)
    c.setStrokeColor(PAPER)
    c.setLineWidth(2)
    c.rect(MARGIN, MARGIN, w - 2 * MARGIN, h - 2 * MARGIN, stroke=1, fill=0)
    c.setFillColor(PAPER)
    lines = _wrapped(caption, faces.condensed_bold, 18, w - 4 * MARGIN)
    y = h / 2 + (len(lines) - 1) * 11
    for text in lines:
        c.setFont(faces.condensed_bold, 18)
        c.drawCentredString(w / 2, y, text)
        y -= 22


def _wrapped(text: str, font: str, size: float, width: float) -> list[str]:
    """`text` broken into lines of at most `width` points (a word longer than that, ellipsised):
    at its spaces, and Japanese at the end of a phrase (text.line_pieces)."""
    lines: list[str] = []
    for piece in line_pieces(text, phrases=True):
        joined = lines[-1] + piece if lines else piece
        if lines and stringWidth(joined, font, size) <= width:
            lines[-1] = joined
        else:
            lines.append(fitted(piece.lstrip(" "), font, size, width))
    return lines[:4]
