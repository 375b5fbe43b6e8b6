"""The VASSAL files: an extension (.vmdx) for the module named "Up Front" and a module (.vmod)
of its own, holding the same things.

- a piece palette named for the kit, a tab a nationality, each counter a piece whose Layer
  steps between its two faces (Flip in its menu, Ctrl+F);
- a map window of its own with the pre-rolled rows as a deck: face down, in order (row 1 on
  top), no card can be picked from it, a card drawn is turned face up;
- the player aid's pages as a chart window.

A VASSAL archive is a zip: buildFile.xml (the components, VASSAL's own class names), a small
metadata file (moduledata or extensiondata) and the images under images/.  The XML is written by
ElementTree, so every name is escaped as XML; a character XML 1.0 cannot hold is left out of it.
Image names carry the kit's prefix: an extension's images share one name space with the module
it extends.
"""

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from PIL import Image

from generator import __version__
from generator.archive import zip_bytes
from generator.content.context import BuildContext
from generator.content.digital import CARD_BACK, Force, aid_pages, card_name
from generator.render.vassal_pieces import basic, definition, layer, mask

BASE_MODULE = "Up Front"        # the module the extension extends, as the VASSAL module library names it
BASE_VERSION = "3.4.5"          # the library's version of it the extension is made for
VASSAL_VERSION = "3.6.0"        # the VASSAL whose buildFile format the files are written in
EXTENSION_ID = "bo871"          # the extension's piece ids are "bo871:N"
PREFIX = "bailout-"             # every image's name starts with it
LAYER = "Side"                  # the Layer's name: its property is Side_Image (never shown to a player)
SCREEN_DPI = 150                # a counter's image, as VASSAL draws it at 100%: a 3/4 in counter 113 px
CHART_DPI = 120                 # the player aid's pages in the chart window: its body type about 14 px high
GAP = 24                        # around the deck on its board, pixels
COLUMNS = 4                     # pieces a row in a nationality's tab
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class Archive:
    """What both files hold, made once: the images by their VASSAL names and the components."""

    def __init__(self, ctx: BuildContext, forces: Sequence[Force], cards: int, images: Mapping[str, bytes]) -> None:
        self.ctx, self.forces, self.cards, self.images = ctx, forces, cards, images
        self.card_size = Image.open(io.BytesIO(images[card_name(1, cards)])).size
        self.slots = 0

    def files(self) -> dict[str, bytes]:
        """The images under images/, by their VASSAL names."""
        wanted = [face for force in self.forces for piece in force.pieces for face in (piece.front, piece.back)]
        wanted += [card_name(n, self.cards) for n in range(1, self.cards + 1)] + [CARD_BACK]
        wanted += aid_pages(self.images)
        files = {f"images/{vassal_name(name)}": self.images[name] for name in dict.fromkeys(wanted)}
        files[f"images/{BOARD}"] = self.board()
        return files

    def board(self) -> bytes:
        """The deck's board: room for the deck and a card drawn beside it."""
        w, h = self.card_size
        image = Image.new("RGB", (3 * GAP + 2 * w, 2 * GAP + h), (0xE3, 0xDF, 0xCA))
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=3)
        return out.getvalue()

    def gpid(self, ids: str) -> str:
        self.slots += 1
        return f"{ids}{self.slots}"

    def palette(self, ids: str) -> ET.Element:
        """The piece palette: a tab a nationality, a panel of its pieces."""
        words = self.ctx.words
        name = _text(words("digital.name", number=self.ctx.kit.rules.number))
        window = ET.Element("VASSAL.build.module.PieceWindow", allowMultiple="false", hidden="false", name=name,
                            scale="1.0", text=name)
        tabs = ET.SubElement(window, "VASSAL.build.widget.TabWidget", entryName=name)
        flip = words("digital.flip")
        for force in self.forces:
            panel = ET.SubElement(tabs, "VASSAL.build.widget.PanelWidget", entryName=_text(force.name),
                                  fixed="false", nColumns=str(COLUMNS), vert="false")
            for piece in force.pieces:
                gpid = self.gpid(ids)
                front, back = vassal_name(piece.front), vassal_name(piece.back)
                text = definition([layer((front, back), flip, LAYER)], basic(front, piece.name, gpid))
                size = Image.open(io.BytesIO(self.images[piece.front])).size
                slot = ET.SubElement(panel, "VASSAL.build.widget.PieceSlot", entryName=_text(piece.name),
                                     gpid=gpid, height=str(size[1]), width=str(size[0]))
                slot.text = _text(text)
        return window

    def deck_map(self, ids: str, *, launch: bool) -> ET.Element:
        """The map window of the pre-rolled rows: a board, the deck on it, row 1 on top."""
        words, number = self.ctx.words, self.ctx.kit.rules.number
        title = _text(words("digital.map", number=number))
        deck = _text(words("digital.deck"))
        window = ET.Element("VASSAL.build.module.Map", allowMultiple="false", backgroundcolor="255,255,255",
                            buttonName=title if launch else "", color="0,0,0", launch=str(launch).lower(),
                            mapName=title, markMoved="Never", thickness="3")
        picker = ET.SubElement(window, "VASSAL.build.module.map.BoardPicker")
        ET.SubElement(picker, "VASSAL.build.module.map.boardPicker.Board", image=BOARD, name=deck, reversible="false")
        ET.SubElement(window, "VASSAL.build.module.map.StackMetrics", bottom="40,0", color="255,255,255",
                      disabled="false", down="37,0", exSepX="6", exSepY="18", top="38,0", unexSepX="8",
                      unexSepY="16", up="39,0")
        for part in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                     "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer"):
            ET.SubElement(window, f"VASSAL.build.module.map.{part}")
        w, h = self.card_size
        pile = ET.SubElement(window, "VASSAL.build.module.map.DrawPile", allowMultiple="false", allowSelect="false",
                             draw="true", drawFaceUp="true", faceDown="Always", height=str(h), name=deck,
                             owningBoard=deck, reshufflable="false", reversible="false", shuffle="Never",
                             width=str(w), x=str(GAP + w // 2), y=str(GAP + h // 2))
        flip, back = words("digital.flip"), vassal_name(CARD_BACK)
        # A deck's top card is its last: the rows go in from the last, so row 1 is drawn first.
        for n in range(self.cards, 0, -1):
            title_n = _text(words("digital.card.row", row=n))
            gpid = self.gpid(ids)
            text = definition([mask(back, flip, deck)], basic(vassal_name(card_name(n, self.cards)), title_n, gpid))
            slot = ET.SubElement(pile, "VASSAL.build.widget.CardSlot", entryName=title_n, gpid=gpid, height=str(h),
                                 width=str(w))
            slot.text = _text(text)
        return window

    def chart(self) -> ET.Element:
        """The player aid's pages, a tab each."""
        words, number = self.ctx.words, self.ctx.kit.rules.number
        name = _text(words("digital.chart", number=number))
        window = ET.Element("VASSAL.build.module.ChartWindow", name=name, text=name)
        tabs = ET.SubElement(window, "VASSAL.build.widget.TabWidget", entryName=name)
        for page, image in enumerate(aid_pages(self.images), 1):
            ET.SubElement(tabs, "VASSAL.build.widget.Chart", chartName=_text(words("digital.chart.page", page=page)),
                          fileName=vassal_name(image))
        return window


BOARD = f"{PREFIX}board.png"


def vassal_name(name: str) -> str:
    """An image's name inside a VASSAL file: the kit's name flattened, with the kit's prefix."""
    return PREFIX + name.replace("/", "-")


def _text(value: str) -> str:
    """`value` without the characters XML 1.0 cannot hold (the XML writer escapes the rest)."""
    return _NOT_XML.sub("", value)


def _xml(root: ET.Element) -> bytes:
    ET.indent(root)
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True)


def _description(ctx: BuildContext) -> str:
    r = ctx.kit.rules
    return _text(ctx.words("digital.description", number=r.number, title=r.title))


def module(ctx: BuildContext, forces: Sequence[Force], cards: int, images: Mapping[str, bytes]) -> bytes:
    """The .vmod: the palette, the deck's map (shown at start) and the aid, on their own."""
    parts = Archive(ctx, forces, cards, images)
    name = _text(ctx.words("digital.name", number=ctx.kit.rules.number))
    root = ET.Element("VASSAL.build.GameModule", ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION,
                      description=_description(ctx), name=name, nextPieceSlotId="0", version=__version__)
    for part in ("BasicCommandEncoder", "Documentation", "Chatter"):
        ET.SubElement(root, f"VASSAL.build.module.{part}")
    ET.SubElement(root, "VASSAL.build.module.GlobalOptions", autoReport="Always",
                  centerOnMove="Use Preferences Setting", nonOwnerUnmaskable="Always", promptString="")
    ET.SubElement(root, "VASSAL.build.module.PrototypesContainer")
    root.extend([parts.deck_map("", launch=False), parts.palette(""), parts.chart()])
    root.set("nextPieceSlotId", str(parts.slots + 1))
    data = _metadata("data", version=__version__, VassalVersion=VASSAL_VERSION, dateSaved="0",
                     description=_description(ctx), name=name)
    return zip_bytes({**parts.files(), "buildFile.xml": _xml(root), "moduledata": data})


def extension(ctx: BuildContext, forces: Sequence[Force], cards: int, images: Mapping[str, bytes]) -> bytes:
    """The .vmdx for the module named "Up Front": the same palette, map and chart added to it."""
    parts = Archive(ctx, forces, cards, images)
    ids = f"{EXTENSION_ID}:"
    root = ET.Element("VASSAL.build.module.ModuleExtension", anyModule="false", description=_description(ctx),
                      extensionId=EXTENSION_ID, module=BASE_MODULE, moduleVersion=BASE_VERSION, nextPieceSlotId="0",
                      vassalVersion=VASSAL_VERSION, version=__version__)
    for component in (parts.palette(ids), parts.deck_map(ids, launch=True), parts.chart()):
        ET.SubElement(root, "VASSAL.build.module.ExtensionElement", target="").append(component)
    root.set("nextPieceSlotId", str(parts.slots + 1))
    data = _metadata("data", version=__version__, VassalVersion=VASSAL_VERSION, dateSaved="0",
                     description=_description(ctx), universal="false")
    return zip_bytes({**parts.files(), "buildFile.xml": _xml(root), "extensiondata": data})


def _metadata(tag: str, **values: str) -> bytes:
    """A VASSAL metadata file: one element a value, in the order given."""
    root = ET.Element(tag, version="1")
    for key, value in values.items():
        ET.SubElement(root, key).text = value
    return _xml(root)
