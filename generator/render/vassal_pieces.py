"""VASSAL's piece definitions: a piece as the text a PieceSlot or CardSlot holds in a buildFile.

VASSAL writes a piece as an AddPiece command: "+/", the piece's id, its type and its state, each
joined by VASSAL's SequenceEncoder (VASSAL.tools.SequenceEncoder): a delimiter inside a value is
escaped with a backslash before it, and a value that ends in a backslash or is quoted in single
quotes is wrapped in single quotes.  A trait's type is its fields joined by ';', a list of
names joined by ',' within one field; a trait wraps the piece inside it with a tab.  Every name
that reaches a definition (a catalogue word, a nationality's name) goes through encode() at each
level, so no character of it can end a field, a trait or the command.
"""

from collections.abc import Sequence

from msgspec import Struct

CTRL = 130              # the modifiers VASSAL stores for Ctrl (InputEvent.CTRL_DOWN_MASK | CTRL_MASK)
FLIP_KEY = f"70,{CTRL}"     # Ctrl+F, the key VASSAL modules flip a counter and a card with


def encode(values: Sequence[str], delimiter: str) -> str:
    """The values joined as VASSAL's SequenceEncoder joins them (its append(String) for each),
    a value ending in a backslash always quoted, so the engine's Decoder gives each back whole."""
    return delimiter.join(_escaped(value, delimiter) for value in values)


def _escaped(value: str, delimiter: str) -> str:
    escaped = value.replace(delimiter, "\\" + delimiter)
    if value.endswith("\\") or (value.startswith("'") and value.endswith("'")):
        return f"'{escaped}'"
    return escaped


class Trait(Struct, frozen=True):
    """One trait of a piece: its type (fields already joined) and its state."""
    type: str
    state: str


def layer(images: tuple[str, str], command: str, name: str) -> Trait:
    """A Layer ("Embellishment", emb2) that is always active and steps between a piece's two
    faces with `command` (its menu item) and Ctrl+F, round and round; level 1 (the front) shown."""
    fields = [
        "", "0", "",                    # no activate command: the layer is always active
        command, "2", "F",              # increase: the menu item, then the pre-3.1 modifiers and key
        "", "2", "",                    # no decrease command
        "", "", "1",                    # no reset command, key or level
        "false", "0", "0",              # drawn over the piece, at no offset
        encode(images, ","), encode(("", ""), ","),     # the two faces, no level names
        "true", name,                   # the levels loop; the layer's name (its property is NAME_Image)
        "", "",                         # no random command
        "false", "", "1",               # follows no property
        "1", "true",                    # version 1 (named keys), always active
        "", FLIP_KEY, "",               # no activate key; increase: Ctrl+F; no decrease key
        "", "1.0",                      # no description; drawn at 1:1
    ]
    return Trait("emb2;" + encode(fields, ";"), "1")


def mask(back: str, command: str, masked_name: str) -> Trait:
    """A Mask ("Obscurable", obs): a card face down shows `back` to everyone; `command` (and
    Ctrl+F) turns a drawn card face down again; any player may turn it up."""
    fields = [FLIP_KEY, back, command, "G" + back, masked_name, "player:", "", "", "true"]
    return Trait("obs;" + encode(fields, ";"), encode(("null", ""), ";"))


def basic(image: str, name: str, gpid: str) -> Trait:
    """The piece itself (BasicPiece): its image and name, off any map, its slot's id."""
    return Trait(encode(("piece", "", "", image, name), ";"), encode(("null", "0", "0", gpid, "0"), ";"))


def definition(traits: Sequence[Trait], inner: Trait) -> str:
    """The AddPiece text of `inner` wrapped in `traits`, outermost first."""
    piece = inner
    for trait in reversed(traits):
        piece = Trait(encode((trait.type, piece.type), "\t"), encode((trait.state, piece.state), "\t"))
    return "+/" + encode(("null", piece.type, piece.state), "/")
