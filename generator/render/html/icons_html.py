"""The kit's pictograms as inline SVG, drawn from the same path data the counters print
(layout/pictograms.py: game-icons.net's icons, CC BY 3.0), and the web aid's key to them.

Each part is its icon's own path data, placed by an SVG transform (translate, scale, rotate: the
order layout/pictograms.py applies them in reverse, as SVG reads a transform list); a part that
knocks out what lies under it is first drawn stroked wide in the page's colour.  The view box
is the pictogram's ink, so a pictogram fills the box CSS gives it.
"""

import xml.etree.ElementTree as etree
from collections.abc import Sequence

from generator.content.context import BuildContext
from generator.content.counter_key import KeyEntry, counter_key
from generator.content.words import english_names
from generator.layout import pictograms


def svg(role: str, label: str | None = None, css_class: str = "icon") -> etree.Element:
    """The pictogram for `role` as an <svg> element: labelled for a screen reader, or (no
    `label`, its words beside it) hidden from one."""
    pic = pictograms.pictograms()[role]
    x, y, w, h = pic.bounds()
    pad = max(w, h) * 0.02
    said = {"role": "img", "aria-label": label} if label else {"aria-hidden": "true", "focusable": "false"}
    el = etree.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "class": css_class,
                               "viewBox": f"{x - pad:.1f} {y - pad:.1f} {w + 2 * pad:.1f} {h + 2 * pad:.1f}", **said})
    for part in pic.parts:
        transform = (f"translate({part.offset[0]:g} {part.offset[1]:g}) scale({part.scale:g}) "
                     f"rotate({part.rotate:g} {pictograms.VIEW / 2:g} {pictograms.VIEW / 2:g})")
        if part.knockout:
            etree.SubElement(el, "path", {"class": "knockout", "d": part.path, "transform": transform,
                                          "stroke-width": f"{part.knockout / part.scale:g}"})
        etree.SubElement(el, "path", {"d": part.path, "transform": transform})
    return el


def key(ctx: BuildContext) -> etree.Element:
    """The web aid's counter key: what each face means (content/counter_key.py), said once, each
    line beside the pictograms it speaks of."""
    words = ctx.words
    section = etree.Element("section", {"class": "icons", "aria-labelledby": "counters-key"})
    heading = etree.SubElement(section, "h2", {"id": "counters-key"})
    heading.text = words("aid.html.icons")
    listing = etree.SubElement(section, "ul", {"class": "icon-key"})
    for symbols, texts in _by_counter(counter_key(ctx)):
        item = etree.SubElement(listing, "li")
        shown = etree.SubElement(item, "span", {"class": "icons-shown"})
        for role in symbols:
            shown.append(svg(role))
        said = etree.SubElement(item, "span", {"class": "icon-said"})
        for text in texts:
            etree.SubElement(said, "span").text = text
    authors = english_names(pictograms.authors())        # inside the English quotation of the credit
    credit = etree.SubElement(section, "p", {"class": "credit"})
    credit.text = words("aid.html.icon.credit", authors=authors)
    return section


def _by_counter(entries: Sequence[KeyEntry]) -> list[tuple[tuple[str, ...], list[str]]]:
    """The key's lines a row for each counter (the crew's three lines together), each row beside
    the pictograms its lines show: [(pictogram roles, [line, ...]), ...]."""
    rows: list[tuple[tuple[str, ...], list[str]]] = []
    kinds: tuple[str, ...] | None = None
    for entry in entries:
        if entry.kinds != kinds:
            rows.append(((), []))
            kinds = entry.kinds
        symbols, texts = rows[-1]
        rows[-1] = (symbols + tuple(r for r in entry.symbols if r not in symbols), [*texts, entry.text])
    return rows
