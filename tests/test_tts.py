"""The Tabletop Simulator saved object (bailout-tts.zip) against the saved-object structure TTS
documents (its knowledge base's Save File Format and custom objects): every object's fields,
each card's id pointing at its place on its sheet, the sheets within TTS's limits, every
address a file of the folder; and each row's card image showing exactly that row."""

import csv
import functools
import io
import json
import re
import sys
import zipfile
from urllib.parse import unquote

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from conftest import HOSTILE_NAME, SLOW, run_cli
from generator.content.words import load_words

WORDS = load_words()
CREW = 5
FOLDER = "bailout-en/"
HEX6 = re.compile(r"[0-9a-f]{6}")
# What every object of a save carries (ObjectState: Name, Transform, Nickname, Description,
# ColorDiffuse, Grid, Locked), and what each kind adds.
EVERY = {"GUID", "Name", "Transform", "Nickname", "Description", "ColorDiffuse", "Grid", "Locked"}
TRANSFORM = {f"{what}{axis}" for what in ("pos", "rot", "scale") for axis in "XYZ"}
KINDS = {"Bag": {"ContainedObjects"}, "Custom_Tile": {"CustomImage"}, "DeckCustom": {"DeckIDs", "CustomDeck",
         "ContainedObjects"}, "Card": {"CardID", "CustomDeck"}, "Custom_PDF": {"CustomPDF"}}
CUSTOM_DECK = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}
# What a kind's own record holds (CustomImage of a tile, CustomPDF of a PDF).
INNER = {"Custom_Tile": ("CustomImage", {"ImageURL", "ImageSecondaryURL", "ImageScalar", "WidthScale", "CustomTile"}),
         "Custom_PDF": ("CustomPDF", {"PDFUrl", "PDFPassword", "PDFPage", "PDFPageOffset"})}
SAVE = {"SaveName", "Date", "VersionNumber", "GameMode", "GameType", "GameComplexity", "Tags", "Gravity", "PlayArea",
        "Table", "Sky", "Note", "TabStates", "LuaScript", "LuaScriptState", "XmlUI", "ObjectStates"}


def unpacked(content):
    files = zipfile.ZipFile(io.BytesIO(content))
    names = files.namelist()
    assert names and all(n.startswith(FOLDER) for n in names)       # one folder, as it lands in Saved Objects
    return {n[len(FOLDER):]: files.read(n) for n in names}


@pytest.fixture(scope="module")
def folder(kit_files):
    return unpacked(kit_files["bailout-tts.zip"])


@pytest.fixture(scope="module")
def save(folder):
    return json.loads(folder["bailout.json"])


def objects(states):
    """Every object, those inside bags and decks too."""
    for state in states:
        yield state
        yield from objects(state.get("ContainedObjects", []))


def urls(value):
    """Every address in a piece of the JSON."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key.endswith(("URL", "Url")) and isinstance(item, str):
                yield item
            else:
                yield from urls(item)
    elif isinstance(value, list):
        for item in value:
            yield from urls(item)


def test_the_folder_is_a_saved_object_with_its_thumbnail(folder, save):
    assert set(save) >= SAVE and save["SaveName"] == "" and save["ObjectStates"]
    thumb = Image.open(io.BytesIO(folder["bailout.png"]))       # TTS shows NAME.png beside NAME.json
    assert thumb.format == "PNG" and thumb.size == (256, 256)


def test_every_object_has_the_documented_fields(save):
    guids = []
    for state in objects(save["ObjectStates"]):
        assert set(state) >= EVERY, state["Name"]
        assert set(state["Transform"]) == TRANSFORM
        assert KINDS[state["Name"]] <= set(state), state["Name"]
        if state["Name"] in INNER:
            record, fields = INNER[state["Name"]]
            assert set(state[record]) >= fields, state["Name"]
        assert HEX6.fullmatch(state["GUID"])
        guids.append(state["GUID"])
    assert len(set(guids)) == len(guids)
    kinds = [s["Name"] for s in save["ObjectStates"]]
    assert kinds == ["Bag"] * (len(kinds) - 2) + ["DeckCustom", "Custom_PDF"] and len(kinds) > 5


def test_each_counter_is_a_two_sided_tile_in_its_nationality_s_bag(save):
    bags = [s for s in save["ObjectStates"] if s["Name"] == "Bag"]
    for bag in bags:
        nation = bag["Nickname"]
        tiles = bag["ContainedObjects"]
        assert tiles and all(t["Name"] == "Custom_Tile" for t in tiles)
        for tile in tiles:
            image = tile["CustomImage"]
            assert image["ImageURL"].endswith("-front.png") and image["ImageSecondaryURL"] == \
                image["ImageURL"].replace("-front.png", "-back.png")
            assert set(image["CustomTile"]) == {"Type", "Thickness", "Stackable", "Stretch"}
        # one nationality a bag: every tile's image names the bag's own
        stems = {re.search(r"images/faces/([a-z0-9]+)-", t["CustomImage"]["ImageURL"])[1] for t in tiles}
        assert len(stems) == 1, nation
    crew = WORDS("digital.piece", kind=WORDS("counter.kind.crew"), nationality="German")
    german = next(b for b in bags if b["Nickname"] == WORDS("digital.bag", nationality="German"))
    # the printed sheets' sets: two sets of a crew of five
    assert sum(t["Nickname"] == crew for t in german["ContainedObjects"]) == 2 * CREW


def test_card_ids_match_their_places_on_sheets_within_tts_limits(folder, save, kit_files):
    [deck] = [s for s in save["ObjectStates"] if s["Name"] == "DeckCustom"]
    rows = list(csv.reader(io.StringIO(kit_files["prerolled.csv"].decode("utf-8-sig"), newline="")))[1:]
    cards = deck["ContainedObjects"]
    assert len(cards) == len(rows) == len(deck["DeckIDs"]) and deck["DeckIDs"] == [c["CardID"] for c in cards]
    assert deck["Transform"]["rotZ"] == 180 and deck["HideWhenFaceDown"]          # face down
    # row 1 first: TTS deals a deck from the front of its list
    assert [c["Nickname"] for c in cards] == [WORDS("digital.card.row", row=n) for n in range(1, len(rows) + 1)]
    sheets = {}
    for key, sheet in deck["CustomDeck"].items():
        assert set(sheet) >= CUSTOM_DECK and sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        image = Image.open(io.BytesIO(folder[unquote(sheet["FaceURL"].split(FOLDER, 1)[1])]))
        assert max(image.size) <= 4096
        assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0
        sheets[int(key)] = (image.convert("RGB"), sheet)
    back = {s["BackURL"] for _, s in sheets.values()}
    assert len(back) == 1 and not any(s["UniqueBack"] for _, s in sheets.values())       # one common back
    for n, card in enumerate(cards, 1):
        key, place = divmod(card["CardID"], 100)
        image, sheet = sheets[key]
        assert card["CustomDeck"] == {str(key): sheet} and place < sheet["NumWidth"] * sheet["NumHeight"]
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        x, y = place % sheet["NumWidth"] * w, place // sheet["NumWidth"] * h
        cut = image.crop((x, y, x + w, y + h))
        own = Image.open(io.BytesIO(folder_card(kit_files, n))).convert("RGB")
        assert cut.tobytes() == own.tobytes(), f"row {n}: its place on sheet {key} is another card"


def test_a_sheet_s_places_past_its_cards_are_blank(folder, save):
    """A sheet's last line, where the cards run out, shows paper, not a card of another row."""
    [deck] = [s for s in save["ObjectStates"] if s["Name"] == "DeckCustom"]
    used = {}
    for card in deck["ContainedObjects"]:
        key, place = divmod(card["CardID"], 100)
        used.setdefault(key, set()).add(place)
    partial = 0
    for key, sheet in deck["CustomDeck"].items():
        image = Image.open(io.BytesIO(folder[unquote(sheet["FaceURL"].split(FOLDER, 1)[1])])).convert("RGB")
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        for place in set(range(sheet["NumWidth"] * sheet["NumHeight"])) - used[int(key)]:
            x, y = place % sheet["NumWidth"] * w, place // sheet["NumWidth"] * h
            colours = image.crop((x, y, x + w, y + h)).getcolors()
            assert colours is not None and len(colours) == 1, f"sheet {key}, place {place}: not blank"
            partial += 1
    assert partial, "the default build's deck ends part way through a sheet's line"


def folder_card(kit_files, row):
    """Row `row`'s card image, as the VASSAL module holds it (the same card the sheets are cut into)."""
    return _module(kit_files["bailout.vmod"]).read(f"images/bailout-rows-row-{row:03d}.png")


@functools.lru_cache(maxsize=1)
def _module(content):
    """The VASSAL module's archive, its directory read once for every row's card."""
    return zipfile.ZipFile(io.BytesIO(content))


def test_every_address_is_a_file_of_the_folder(folder, save):
    found = list(urls(save))
    base = found[0][:found[0].index(FOLDER) + len(FOLDER)]
    assert base.startswith("file:///") and base.endswith("/Saved%20Objects/" + FOLDER)
    for url in found:
        assert url.startswith(base), url
        assert unquote(url[len(base):]) in folder, url
    used = {unquote(u[len(base):]) for u in found}
    assert used == {n for n in folder if n not in ("bailout.json", "bailout.png")}      # nothing unused


def test_an_image_url_that_is_no_address_is_refused(tmp_path):
    status, _, err = run_cli("build", "--only", "tts", "--rows", "1", "--paper", "a4", "--quiet",
                             "--image-url", "https://example.org/bail out", "--out", tmp_path)
    assert status == 2 and "not an address" in err           # a space is %20


def test_the_image_url_is_the_base_of_the_addresses():
    # every address of a save starts from its one base (test_every_address_is_a_file_of_the_folder)
    from generator.options import BuildOptions
    from generator.render.tts import image_base
    for given in ("https://example.org/kits/bailout", "https://example.org/kits/bailout/"):
        assert image_base(BuildOptions(image_url=given)) == "https://example.org/kits/bailout/"


# A TTS build of its own (a second or so, the face images): README's command holds its pieces with
# test_the_image_url_is_the_base_of_the_addresses and test_every_address_is_a_file_of_the_folder.
@pytest.mark.larger_budget
def test_image_url_sets_every_address(tmp_path):
    status, _, err = run_cli("build", "--only", "tts", "--rows", "1", "--paper", "a4", "--quiet",
                             "--image-url", "https://example.org/kits/bailout", "--out", tmp_path)
    assert status == 0, err
    folder = unpacked((tmp_path / "bailout-tts.zip").read_bytes())
    found = list(urls(json.loads(folder["bailout.json"])))
    assert found and all(u.startswith("https://example.org/kits/bailout/") for u in found)
    assert {u[len("https://example.org/kits/bailout/"):] for u in found} <= set(folder)


def _saved_objects(home):
    """Where TTS's Linux installer keeps a player's saved objects: this edition's folder there."""
    return home / ".local" / "share" / "Tabletop Simulator" / "Saves" / "Saved Objects" / "bailout-en"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="TTS's Saved Objects folder of Linux")
def test_the_default_base_is_the_folder_in_this_computer_s_saved_objects(save, tmp_path, monkeypatch):
    from pathlib import Path

    from generator.options import BuildOptions
    from generator.render.tts import image_base
    # the session's build (this run's home folder) ...
    assert save["ObjectStates"][-1]["CustomPDF"]["PDFUrl"] == _saved_objects(Path.home()).as_uri() + "/player-aid.pdf"
    # ... and a home whose name needs quoting in an address
    home = tmp_path / "home of a player"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    assert image_base(BuildOptions()) == _saved_objects(home).as_uri() + "/"


# A TTS build of its own: README's command holds it with
# test_the_default_base_is_the_folder_in_this_computer_s_saved_objects above.
@pytest.mark.larger_budget
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="TTS's Saved Objects folder of Linux")
def test_the_default_address_is_the_folder_in_this_computer_s_saved_objects(tmp_path, monkeypatch):
    home = tmp_path / "home of a player"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    status, _, err = run_cli("build", "--only", "tts", "--rows", "1", "--paper", "a4", "--quiet",
                             "--out", tmp_path / "out")
    assert status == 0, err
    folder = unpacked((tmp_path / "out" / "bailout-tts.zip").read_bytes())
    pdf = json.loads(folder["bailout.json"])["ObjectStates"][-1]["CustomPDF"]["PDFUrl"]
    assert pdf == _saved_objects(home).as_uri() + "/player-aid.pdf"


def test_a_hostile_name_is_one_json_string(hostile_digital):
    # the session's build of data whose German is named HOSTILE_NAME (test_vassal.py reads it too)
    save = json.loads(unpacked((hostile_digital / "bailout-tts.zip").read_bytes())["bailout.json"])
    assert WORDS("digital.bag", nationality=HOSTILE_NAME) in [s["Nickname"] for s in save["ObjectStates"]]


# -- a row's card shows exactly that row ---------------------------------------------------------

CELLS = {"U": WORDS("prerolled.cell.unhurt"), "W": WORDS("prerolled.cell.wounded"), "K": WORDS("prerolled.cell.killed"),
         "P": WORDS("prerolled.cell.pistol"), "R": WORDS("prerolled.cell.rifle"), "S": WORDS("prerolled.cell.smg"),
         "": "\u2013"}      # a killed man's weapon: the table's dash


def test_each_row_s_card_shows_that_row_and_nothing_else(kit_files, kit_ctx_cards):
    """The card PDF's page N reads row N of the CSV in the table's words, and the image named for
    row N is that page drawn (VASSAL's card and, by the test above, TTS's place on its sheet).
    Every page's words are read; README's command draws and compares the first two rows' images,
    the last's and every 20th's (a card shifted by a row is caught at row 1), BAILOUT_SLOW_TESTS=1
    every row's."""
    rows = list(csv.reader(io.StringIO(kit_files["prerolled.csv"].decode("utf-8-sig"), newline="")))[1:]
    drawn_rows = range(1, len(rows) + 1) if SLOW else {1, 2, len(rows), *range(20, len(rows), 20)}
    pdf = pdfium.PdfDocument(kit_ctx_cards)
    assert len(pdf) == len(rows) + 1            # and the back
    rules = (WORDS("digital.card.fates", rule="871.3"), WORDS("digital.card.weapons", rule="871.4"))
    for n, row in enumerate(rows, 1):
        page = pdf[n - 1]
        text = page.get_textpage().get_text_range().split()
        want = [*WORDS("digital.card.row", row=n).split(), *" ".join(rules).split()]
        for man in range(CREW):
            want += [*WORDS("prerolled.head.man", n=man + 1).split(), CELLS[row[1 + man]], CELLS[row[1 + CREW + man]]]
        assert text[:len(want)] == want, n
        # and after the row, the edition's stamp alone
        rest = text[len(want):]
        assert rest and " ".join(rest) == WORDS("digital.card.stamp", stamp=rest[-1]), (n, rest)
        if n not in drawn_rows:
            continue
        drawn = page.render(scale=120 / 72).to_pil().convert("RGB")
        own = Image.open(io.BytesIO(folder_card(kit_files, n)))
        # the page drawn, each pixel the deck's palette's nearest: the image is this page ...
        assert drawn.quantize(palette=own, dither=Image.Dither.NONE).tobytes() == own.tobytes(), n
        # ... and the palette keeps its colours: no pixel moves far, nearly all stay within a shade
        diff = ImageChops.difference(drawn, own.convert("RGB")).convert("L")
        histogram = diff.histogram()
        assert max(i for i, count in enumerate(histogram) if count) <= 24, n
        assert sum(histogram[8:]) < 0.002 * drawn.width * drawn.height, n
    pdf.close()


@pytest.fixture(scope="module")
def kit_ctx_cards():
    """The cards' PDF of the default build's rows (what the build rasterises into each card's image)."""
    from conftest import DATA
    from generator.content.context import make_context
    from generator.content.digital import cards
    from generator.data import load
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.products import ROWS, Products
    from generator.options import BuildOptions
    from generator.render.pdf.cards_pdf import card_pdf
    kit = load(DATA)
    ctx = make_context(kit, compute(kit), BuildOptions(), shipped("templates"))
    # the build's rows: the default fills the tables' pages (make/products.py)
    return bytes(card_pdf(ctx, cards(ctx, Products(ctx).get(ROWS))))
