"""The VASSAL extension (bailout.vmdx) and module (bailout.vmod): what their buildFile holds, each
piece's definition read back as VASSAL reads it, names from a hostile data folder kept whole,
and the real engine (the team's checker, .ci/vassal/) loading both: every piece flips between
its two faces, the deck holds every pre-rolled row, row 1 on top.

The engine's tests need the checker installed (bash .ci/vassal/install.sh .cache/vassal-env, or
BAILOUT_VASSAL_ENV naming the folder); without it they skip with that reason, under CI=true they
fail."""

import ast
import csv
import io
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from conftest import HOSTILE_NAME, ROOT, run_cli
from generator.content.words import available_languages, load_words

WORDS = load_words()
SLOW = os.environ.get("BAILOUT_SLOW_TESTS") == "1"
ENV = Path(os.environ.get("BAILOUT_VASSAL_ENV") or ROOT / ".cache" / "vassal-env")
CHECK = ROOT / ".ci" / "vassal" / "check.sh"
CTRL_F = "70,130"       # VASSAL's Ctrl+F: key code 70, Ctrl's modifiers
CREW = 5


def decode(text, delimiter):
    """VASSAL's SequenceEncoder.Decoder (VASSAL.tools.SequenceEncoder), written again from its
    published source: the tokens of `text`, a backslash before a delimiter escaping it, a token in
    single quotes unquoted."""
    tokens, value = [], text
    while value is not None:
        i = value.find(delimiter)
        if i < 0:
            token, value = value, None
        else:
            buffer, begin, end = "", 0, i
            while begin < end and value[end - 1] == "\\":
                buffer += value[begin:end - 1]
                begin, end = end, value.find(delimiter, end + 1)
                if end < 0:
                    break
            if end < 0:
                token, value = buffer + value[begin:], None
            else:
                token = buffer + value[begin:end]
                value = "" if end >= len(value) - 1 else value[end + 1:]
        if len(token) > 1 and token.startswith("'") and token.endswith("'"):
            token = token[1:-1]
        tokens.append(token)
    return tokens


def piece(text):
    """(traits' types outermost first, the basic piece's fields) of a PieceSlot's text."""
    assert text.startswith("+/")
    _, type_, _state = decode(text[2:], "/")
    traits = []
    while True:
        parts = decode(type_, "\t")
        if len(parts) == 1:
            return traits, decode(parts[0], ";")
        traits.append(parts[0])
        type_ = parts[1]


def archive(content):
    files = zipfile.ZipFile(io.BytesIO(content))
    return {name: files.read(name) for name in files.namelist()}


def slots(build, tag):
    return list(ET.fromstring(build).iter(f"VASSAL.build.widget.{tag}"))


@pytest.fixture(scope="module")
def module(kit_files):
    return archive(kit_files["bailout.vmod"])


@pytest.fixture(scope="module")
def extension(kit_files):
    return archive(kit_files["bailout.vmdx"])


def test_the_extension_is_for_the_up_front_module_and_its_ids_are_its_own(extension):
    root = ET.fromstring(extension["buildFile.xml"])
    assert root.tag == "VASSAL.build.module.ModuleExtension"
    assert root.get("module") == "Up Front" and root.get("anyModule") == "false"
    prefix = root.get("extensionId") + ":"
    ids = [s.get("gpid") for tag in ("PieceSlot", "CardSlot") for s in slots(extension["buildFile.xml"], tag)]
    assert ids and all(i.startswith(prefix) for i in ids) and len(set(ids)) == len(ids)
    assert int(root.get("nextPieceSlotId")) > max(int(i[len(prefix):]) for i in ids)
    # every component is added at the module's top: a palette, a map window, a chart window
    kinds = [el[0].tag for el in root if el.tag == "VASSAL.build.module.ExtensionElement"]
    assert kinds == ["VASSAL.build.module.PieceWindow", "VASSAL.build.module.Map", "VASSAL.build.module.ChartWindow"]
    assert b"<universal>false</universal>" in extension["extensiondata"]


def test_every_counter_is_a_piece_that_flips_between_its_two_faces(module):
    pieces = slots(module["buildFile.xml"], "PieceSlot")
    faces = {name for name in module if name.startswith("images/bailout-faces-")}
    assert len(faces) == 2 * len(pieces) > 40
    for slot in pieces:
        [layer], basic = piece(slot.text)
        fields = decode(layer[len("emb2;"):], ";")
        front, back = decode(fields[15], ",")
        assert fields[3] == WORDS("digital.flip") and fields[27] == CTRL_F      # the menu item and Ctrl+F
        assert fields[25] == "true" and decode(slot.text[2:], "/")[2].split("\t")[0] == "1"   # always on, front up
        assert front.endswith("-front.png") and back == front.replace("-front.png", "-back.png")
        assert {f"images/{front}", f"images/{back}"} <= faces
        assert basic[0] == "piece" and basic[3] == front and basic[4] == slot.get("entryName")


def test_the_faces_are_the_release_s_face_images_at_screen_size(module, release_zip):
    name, content = release_zip
    release = zipfile.ZipFile(io.BytesIO(content))
    folder = name[:-len(".zip")]
    front = Image.open(io.BytesIO(module["images/bailout-faces-german-crew-front.png"]))
    printed = Image.open(io.BytesIO(release.read(f"{folder}/faces/german-crew-front.png")))
    # 3/4 in at 150 dpi (112.5 px, half a pixel up) and at 300 dpi
    assert front.size == (113, 113) and printed.size == (225, 225)
    # drawn at its own size from the same page, not shrunk from the print image: the same face,
    # its edges a half pixel apart at most (another face, or this one mirrored, differs by 28 or more)
    shrunk = printed.convert("RGB").resize(front.size, Image.Resampling.LANCZOS)
    difference = ImageChops.difference(shrunk, front.convert("RGB"))
    assert sum(ImageStat.Stat(difference).mean) / 3 < 16


def test_the_deck_holds_every_row_face_down_in_order(module, kit_files):
    rows = list(csv.reader(io.StringIO(kit_files["prerolled.csv"].decode("utf-8-sig"), newline="")))[1:]
    [pile] = ET.fromstring(module["buildFile.xml"]).iter("VASSAL.build.module.map.DrawPile")
    assert pile.get("faceDown") == "Always" and pile.get("shuffle") == "Never" and pile.get("allowSelect") == "false"
    assert pile.get("drawFaceUp") == "true"
    cards = slots(module["buildFile.xml"], "CardSlot")
    # a deck's top card is its last: row 1
    assert [c.get("entryName") for c in cards] == [WORDS("digital.card.row", row=n) for n in range(len(rows), 0, -1)]
    for card in cards:
        [mask], basic = piece(card.text)
        assert mask.startswith("obs;" + CTRL_F + ";bailout-rows-back.png;")
        assert f"images/{basic[3]}" in module and basic[4] == card.get("entryName")


def test_the_chart_window_holds_the_aid_s_pages(module):
    charts = list(ET.fromstring(module["buildFile.xml"]).iter("VASSAL.build.widget.Chart"))
    assert [c.get("chartName") for c in charts] == [WORDS("digital.chart.page", page=n) for n in (1, 2)]
    for chart in charts:
        page = Image.open(io.BytesIO(module[f"images/{chart.get('fileName')}"]))
        want = (210 / 25.4 * 120, 297 / 25.4 * 120)        # A4 at 120 dpi, a pixel rounded up at most
        assert all(0 <= got - w < 1.5 for got, w in zip(page.size, want, strict=True)), page.size


def test_the_archives_hold_plain_names_only(module, extension):
    for files in (module, extension):
        for name in files:
            plain = r"(buildFile\.xml|moduledata|extensiondata|images/bailout-[a-z0-9.-]+\.png)"
            assert re.fullmatch(plain, name), name


# -- a hostile data folder -----------------------------------------------------------------------------

HOSTILE = HOSTILE_NAME


@pytest.fixture(scope="module")
def hostile(hostile_digital):
    """A build of the digital files from data whose nationality's name holds XML's, VASSAL's and
    JSON's special characters (conftest's, which test_tts.py reads too)."""
    return hostile_digital


def test_a_hostile_name_is_escaped_at_every_level(hostile):
    build = archive((hostile / "bailout.vmod").read_bytes())["buildFile.xml"]
    root = ET.fromstring(build)         # well-formed
    assert HOSTILE in [p.get("entryName") for p in root.iter("VASSAL.build.widget.PanelWidget")]
    named = [s for s in slots(build, "PieceSlot") if HOSTILE in s.get("entryName")]
    assert len(named) > 3
    for slot in named:
        traits, basic = piece(slot.text)
        assert len(traits) == 1 and basic[4] == slot.get("entryName")      # the whole name, back from every level


# -- the real engine -------------------------------------------------------------------------------

def _engine():
    """check.sh's command for ENV, or skip (fail under CI=true) saying what is missing."""
    missing = [str(p) for p in (ENV / "venv" / "bin" / "python", ENV / "jars" / "Vengine.jar") if not p.exists()]
    if not os.environ.get("DISPLAY") and shutil.which("Xvfb") is None:
        missing.append("Xvfb")
    if not missing:
        return ["bash", str(CHECK), str(ENV)]
    reason = f"the VASSAL checker is not installed ({', '.join(missing)}): bash .ci/vassal/install.sh {ENV}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true: {reason}")
    pytest.skip(reason)


def _base_module(path):
    """A module named "Up Front" at the library's version, with one map: what the extension extends."""
    root = ET.Element("VASSAL.build.GameModule", ModuleOther1="", ModuleOther2="", VassalVersion="3.6.0",
                      description="A stand-in for the module library's Up Front", name="Up Front",
                      nextPieceSlotId="1", version="3.4.5")
    for part in ("BasicCommandEncoder", "Documentation", "Chatter", "PrototypesContainer"):
        ET.SubElement(root, f"VASSAL.build.module.{part}")
    table = ET.SubElement(root, "VASSAL.build.module.Map", allowMultiple="false", backgroundcolor="255,255,255",
                          buttonName="", color="0,0,0", launch="false", mapName="Table", markMoved="Never",
                          thickness="3")
    picker = ET.SubElement(table, "VASSAL.build.module.map.BoardPicker")
    ET.SubElement(picker, "VASSAL.build.module.map.boardPicker.Board", image="table.png", name="Table",
                  reversible="false")
    for part in ("PieceMover", "KeyBufferer"):
        ET.SubElement(table, f"VASSAL.build.module.map.{part}")
    data = ET.Element("data", version="1")
    for key, value in (("version", "3.4.5"), ("VassalVersion", "3.6.0"), ("dateSaved", "0"),
                       ("description", "Up Front"), ("name", "Up Front")):
        ET.SubElement(data, key).text = value
    image = io.BytesIO()
    Image.new("RGB", (400, 300), (230, 225, 200)).save(image, format="PNG")
    with zipfile.ZipFile(path, "w") as files:
        files.writestr("buildFile.xml", ET.tostring(root, encoding="UTF-8", xml_declaration=True))
        files.writestr("moduledata", ET.tostring(data, encoding="UTF-8", xml_declaration=True))
        files.writestr("images/table.png", image.getvalue())
    return path


def _checked(*files):
    """The checker's report of `files` with --strict --start-game; fails unless it found no problem."""
    done = subprocess.run([*_engine(), "--strict", "--start-game", *map(str, files)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "== OK: 0 problem(s)" in done.stdout
    return done.stdout


QUOTED = r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""      # a string as Python's repr writes it


def _engine_saw(report, build, rows, words=WORDS):
    """The engine flipped every piece to its back and front again, and dealt every row, row 1 on
    top, each named in the edition's `words`."""
    pieces = slots(build, "PieceSlot")
    # the report prints names as Python writes a string (repr: a no-break space as \xa0)
    stepped = re.findall(rf"Layer 'Side': Side_Image while stepping with {QUOTED}: (\[[^\]]*\])", report)
    assert len(stepped) == len(pieces) > 40
    for command, seen in stepped:
        front, back, again = ast.literal_eval(seen)
        assert ast.literal_eval(command) == words("digital.flip")
        assert back == front.replace("-front.png", "-back.png") and again == front
    [dealt] = re.findall(rf"deck {re.escape(repr(words('digital.deck')))}: (\d+) cards (\[[^\]]*\])", report)
    names = ast.literal_eval(dealt[1])
    assert int(dealt[0]) == rows == len(names)
    assert names[-1] == words("digital.card.row", row=1) and names[0] == words("digital.card.row", row=rows)


@pytest.fixture(scope="module")
def engine():
    """check.sh's command, or the engine's tests skip (fail under CI=true) before anything is built for them."""
    return _engine()


@pytest.fixture(scope="module")
def engine_build(engine, tmp_path_factory, kit_dir):
    """The digital files the engine loads: the default build's under BAILOUT_SLOW_TESTS (its deck
    as many cards as its CSV has rows), else a build of 24 rows (a shorter game to start)."""
    if SLOW:
        return kit_dir, len((kit_dir / "prerolled.csv").read_text(encoding="utf-8").splitlines()) - 1
    out = tmp_path_factory.mktemp("vassal") / "out"
    status, _, err = run_cli("build", "--only", "vassal", "--rows", "24", "--paper", "a4", "--quiet", "--out", out)
    assert status == 0, err
    return out, 24


def test_the_engine_loads_the_module_strictly_and_starts_a_game(engine_build):
    _engine()
    out, rows = engine_build
    report = _checked(out / "bailout.vmod")
    _engine_saw(report, archive((out / "bailout.vmod").read_bytes())["buildFile.xml"], rows)


def test_the_engine_loads_the_extension_over_up_front(engine_build, tmp_path):
    _engine()
    out, rows = engine_build
    report = _checked(_base_module(tmp_path / "upfront.vmod"), out / "bailout.vmdx")
    assert re.search(r"extension loaded in .*: 'bailout' .* module='Up Front'", report)
    _engine_saw(report, archive((out / "bailout.vmdx").read_bytes())["buildFile.xml"], rows)


def test_the_engine_reads_a_hostile_name_whole(hostile):
    _engine()
    report = _checked(hostile / "bailout.vmod")
    name = WORDS("digital.piece", kind=WORDS("counter.kind.crew"), nationality=HOSTILE)
    assert f"name={name!r}" in report        # the piece's name as VASSAL decodes it (the report prints its repr)


@pytest.mark.skipif(not SLOW, reason="every edition in the engine: BAILOUT_SLOW_TESTS=1 (CI sets it)")
@pytest.mark.parametrize("lang", [lang for lang in available_languages() if lang != "en"])
def test_the_engine_loads_every_edition_s_module_and_extension(lang, tmp_path):
    """Each edition's names (Japanese, Cyrillic, Polish letters) as the engine decodes them: its
    module and its extension over Up Front load strictly, flip every piece and deal every row."""
    _engine()
    out = tmp_path / "out"
    status, _, err = run_cli("build", "--only", "vassal", "--rows", "24", "--paper", "a4", "--lang", lang, "--quiet",
                             "--out", out)
    assert status == 0, err
    words = load_words(lang)
    for files in ((out / "bailout.vmod",), (_base_module(tmp_path / "upfront.vmod"), out / "bailout.vmdx")):
        report = _checked(*files)
        _engine_saw(report, archive(files[-1].read_bytes())["buildFile.xml"], 24, words)
