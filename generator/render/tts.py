"""A Tabletop Simulator saved object: a zip that unpacks to one folder for TTS's Saved Objects.

The folder holds the object (bailout.json) and its thumbnail (bailout.png, the name TTS looks
for beside it), the images and the player aid's PDF.  The object: a bag a nationality of its
counters as two-sided Custom_Tiles (front and back image), the pre-rolled rows as a face-down
DeckCustom (row 1 on top) cut from card sheets of at most 10 x 7 cards and 4096 px, with one
common back, and the player aid as a Custom_PDF.

TTS loads every image and the PDF by its address: BASE followed by the file's path in the folder.
BASE is --image-url when given (a web address where the folder's files are hosted, or a file://
folder); else the file:// address of the folder as it lands when unpacked into this computer's
Saved Objects (saved_objects()).  The JSON is written by the json module: every name from a
catalogue or the data is a JSON string, escaped as JSON.
"""

import hashlib
import io
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from msgspec import Struct
from PIL import Image

from generator.archive import zip_bytes
from generator.content.context import BuildContext
from generator.content.digital import CARD_BACK, Force, card_name
from generator.errors import UsageError
from generator.options import BuildOptions
from generator.units import MM_PER_INCH

SHEET_COLUMNS, SHEET_ROWS = 10, 7   # the most cards a TTS card sheet holds across and down
MAX_SHEET_PX = 4096                 # the widest and tallest sheet TTS takes
OBJECT = "bailout"                  # the saved object's file names: bailout.json and its thumbnail bailout.png
THUMB_PX = 256
AID = "player-aid.pdf"
# A Custom_Tile of scale 1 is about two table units (inches) across: a counter's scale is half its inches.
TILE_UNITS = 2.0
TILE_THICKNESS = 0.1
WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}


def folder_name(lang: str) -> str:
    """The folder the zip unpacks to: one an edition, so editions can lie side by side."""
    return f"{OBJECT}-{lang}"


def saved_objects() -> Path:
    """TTS's Saved Objects folder on this computer, where its installer puts it; a UsageError
    where the home folder is not known as a whole path (a file:// address is one)."""
    try:
        home = Path.home()
    except RuntimeError:        # no HOME and no user entry to take it from
        home = Path()
    if not home.is_absolute():
        raise UsageError(f"the home folder {str(home)!r} (HOME) is not a whole path, so the Tabletop Simulator "
                         f"object cannot name this computer's Saved Objects folder: set HOME, or give --image-url")
    if sys.platform.startswith("win"):
        return home / "Documents" / "My Games" / "Tabletop Simulator" / "Saves" / "Saved Objects"
    if sys.platform == "darwin":
        return home / "Library" / "Tabletop Simulator" / "Saves" / "Saved Objects"
    return home / ".local" / "share" / "Tabletop Simulator" / "Saves" / "Saved Objects"


def image_base(options: BuildOptions) -> str:
    """The address every file of the folder is loaded from: --image-url, else the folder unpacked
    into this computer's Saved Objects; ends in '/'."""
    given = options.image_url
    if given:
        return given if given.endswith("/") else given + "/"
    return (saved_objects() / folder_name(options.lang)).as_uri() + "/"


def saved_object(ctx: BuildContext, forces: Sequence[Force], cards: int, images: Mapping[str, bytes],
                 aid_pdf: bytes) -> bytes:
    """The zip: the folder with the object, its thumbnail, its images and the aid."""
    base = image_base(ctx.options)
    files: dict[str, bytes] = {AID: aid_pdf, f"images/{CARD_BACK}": images[CARD_BACK]}
    for force in forces:
        for piece in force.pieces:
            files[f"images/{piece.front}"] = images[piece.front]
            files[f"images/{piece.back}"] = images[piece.back]
    sheets = card_sheets([images[card_name(n, cards)] for n in range(1, cards + 1)])
    for n, sheet in enumerate(sheets, 1):
        files[f"images/rows/sheet-{n}.png"] = sheet.png
    objects = [_bag(ctx, force, i, len(forces), base) for i, force in enumerate(forces)]
    objects += [_deck(ctx, cards, sheets, base), _pdf(ctx, base)]
    _unique_guids(objects)
    files[f"{OBJECT}.json"] = (json.dumps(_save(objects), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    files[f"{OBJECT}.png"] = _thumbnail(images[forces[0].pieces[0].front] if forces else images[CARD_BACK])
    return zip_bytes(files, folder_name(ctx.options.lang))


class Sheet(Struct, frozen=True):
    """A card sheet: its image, how many cards across and down it is cut into, how many it holds."""
    png: bytes
    across: int
    down: int
    cards: int


def card_sheets(cards: Sequence[bytes]) -> list[Sheet]:
    """The cards in order on sheets of 10 x 7 at the most (fewer where a card is too large for
    4096 px), row by row from the top left."""
    if not cards:
        return []
    with Image.open(io.BytesIO(cards[0])) as first:
        w, h = first.size
        mode, palette = first.mode, first.getpalette()
    across = max(1, min(SHEET_COLUMNS, MAX_SHEET_PX // w))
    down = max(1, min(SHEET_ROWS, math.ceil(len(cards) / across), MAX_SHEET_PX // h))
    sheets = []
    # One sheet drawn over and over: a long deck's sheets are large images, and memory let go is
    # not always given back before the next is asked for.  The cards share one palette
    # (render/images.py card_images): the sheet takes it, and each card's pixels as they are.
    with Image.new(mode, (across * w, down * h)) as sheet:
        if palette is not None:
            sheet.putpalette(palette)
        for start in range(0, len(cards), across * down):
            chunk = cards[start:start + across * down]
            cols, rows = min(across, len(chunk)), math.ceil(len(chunk) / across)
            for i in range(cols * rows):
                place = ((i % across) * w, (i // across) * h)
                if i >= len(chunk):
                    # a place past the last card: paper, not the card an earlier sheet left there
                    sheet.paste(_paper(mode, palette), (*place, place[0] + w, place[1] + h))
                    continue
                with Image.open(io.BytesIO(chunk[i])) as card:
                    assert card.mode == mode and card.getpalette() == palette, "the deck's cards share one palette"
                    sheet.paste(card, place)
            out = io.BytesIO()
            whole = (cols * w, rows * h) == sheet.size
            (sheet if whole else sheet.crop((0, 0, cols * w, rows * h))).save(out, format="PNG", compress_level=3)
            sheets.append(Sheet(out.getvalue(), cols, rows, len(chunk)))
    return sheets


def _paper(mode: str, palette: list[int] | None) -> int | tuple[int, ...]:
    """The lightest colour a sheet of `mode` can hold: white, or its palette's lightest entry."""
    if palette is None:
        return (255,) * len(mode)
    colours = [palette[i:i + 3] for i in range(0, len(palette), 3)]
    return max(range(len(colours)), key=lambda index: sum(colours[index]))


def url(base: str, path: str) -> str:
    """A file of the folder by its address: `base` then its path, each part quoted for a URL."""
    return base + quote(path, safe="/")


def guid(*parts: object) -> str:
    """An object's six-hex-digit GUID, as TTS writes them: made from what the object is, so the
    same object keeps its GUID from build to build."""
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:6]


def _unique_guids(objects: Sequence[dict[str, Any]]) -> None:
    """Give each object whose GUID an earlier one has (six hex digits of a hash: two of a few
    thousand objects, or two nationalities a data folder names to that end, can share one) a
    GUID of its own, made from the one it had: TTS finds an object by its GUID."""
    seen: set[str] = set()
    pending = list(reversed(objects))
    while pending:
        obj = pending.pop()
        while obj["GUID"] in seen:
            obj["GUID"] = guid(obj["GUID"], "again")
        seen.add(obj["GUID"])
        pending.extend(reversed(obj.get("ContainedObjects", ())))


def _transform(x: float = 0.0, z: float = 0.0, *, scale: float = 1.0, flipped: bool = False) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if flipped else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _object(name: str, nickname: str, description: str, key: str, transform: dict[str, float]) -> dict[str, Any]:
    """The fields every object of a saved object carries."""
    return {"GUID": guid(name, key), "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "GMNotes": "", "ColorDiffuse": WHITE, "Locked": False, "Grid": True,
            "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True, "HideWhenFaceDown": False,
            "Hands": False, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _bag(ctx: BuildContext, force: Force, index: int, count: int, base: str) -> dict[str, Any]:
    """A nationality's bag: each piece as many times as its printed sheets hold it."""
    scale = round(float(ctx.options.counter_mm / MM_PER_INCH) / TILE_UNITS, 4)
    tiles = []
    for piece in force.pieces:
        for copy in range(piece.count):
            tile = _object("Custom_Tile", piece.name, piece.reading, f"{force.key}:{piece.front}:{copy}",
                           _transform(scale=scale))
            tile["CustomImage"] = {"ImageURL": url(base, f"images/{piece.front}"),
                                   "ImageSecondaryURL": url(base, f"images/{piece.back}"), "ImageScalar": 1.0,
                                   "WidthScale": 0.0,
                                   "CustomTile": {"Type": 0, "Thickness": TILE_THICKNESS, "Stackable": True,
                                                  "Stretch": True}}
            tiles.append(tile)
    bag = _object("Bag", ctx.words("digital.bag", nationality=force.name), "", force.key,
                  _transform((index - (count - 1) / 2) * 2.5, 4.0))
    bag.update({"MaterialIndex": -1, "MeshIndex": -1, "Bag": {"Order": 0}, "ContainedObjects": tiles})
    return bag


def _deck(ctx: BuildContext, cards: int, sheets: Sequence[Sheet], base: str) -> dict[str, Any]:
    """The deck of rows, face down, row 1 on top: a card's id is its sheet's number times 100
    plus its place on the sheet, counted across then down from 0."""
    words = ctx.words
    custom: dict[str, dict[str, Any]] = {}
    contained, ids = [], []
    row = 0
    for key, sheet in enumerate(sheets, 1):
        custom[str(key)] = {"FaceURL": url(base, f"images/rows/sheet-{key}.png"),
                            "BackURL": url(base, f"images/{CARD_BACK}"), "NumWidth": sheet.across,
                            "NumHeight": sheet.down, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        for place in range(sheet.cards):
            row += 1
            card = _object("Card", words("digital.card.row", row=row), "", f"row:{row}", _transform(flipped=True))
            card.update({"CardID": key * 100 + place, "SidewaysCard": False, "HideWhenFaceDown": True,
                         "CustomDeck": {str(key): custom[str(key)]}})
            contained.append(card)
            ids.append(key * 100 + place)
    assert row == cards, f"{row} cards on the sheets for {cards} rows"
    deck = _object("DeckCustom", words("digital.deck"), "", "rows", _transform(0.0, -2.0, flipped=True))
    deck.update({"HideWhenFaceDown": True, "SidewaysCard": False, "DeckIDs": ids, "CustomDeck": custom,
                 "ContainedObjects": contained})
    return deck


def _pdf(ctx: BuildContext, base: str) -> dict[str, Any]:
    """The player aid, a PDF to page through on the table."""
    pdf = _object("Custom_PDF", ctx.words("digital.chart", number=ctx.kit.rules.number), "", "aid",
                  _transform(5.0, -2.0))
    pdf["CustomPDF"] = {"PDFUrl": url(base, AID), "PDFPassword": "", "PDFPage": 0, "PDFPageOffset": 0}
    return pdf


def _save(objects: list[dict[str, Any]]) -> dict[str, Any]:
    """A saved object's file: a save whose fields but its objects are left empty, as TTS writes one."""
    return {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}


def _thumbnail(face: bytes) -> bytes:
    """The saved object's picture in TTS's browser: a crew counter's front on the paper's white."""
    with Image.open(io.BytesIO(face)) as image:
        side = round(THUMB_PX * 0.8)
        picture = Image.new("RGB", (THUMB_PX, THUMB_PX), (255, 255, 255))
        picture.paste(image.convert("RGB").resize((side, side), Image.Resampling.LANCZOS),
                      ((THUMB_PX - side) // 2, (THUMB_PX - side) // 2))
    out = io.BytesIO()
    picture.save(out, format="PNG", compress_level=3)
    return out.getvalue()
