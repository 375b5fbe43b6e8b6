"""A hostile project folder or command line against the digital-table files (the VASSAL module
and extension, the Tabletop Simulator folder): the address the saved object loads its files
from, the objects' GUIDs, the names a data folder gives them, and how much a long build writes.

What the other test files hold already is not repeated here: XML, piece-definition and JSON
escaping of a hostile nationality name (test_vassal.py, test_tts.py), zip entry names
(test_archive.py), a character the edition's faces lack (test_hostile_data_folder.py,
test_japanese.py)."""

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, one_line, run_cli
from generator.cli.argtypes import image_url

TTS = ("build", "--only", "tts", "--rows", "12", "--paper", "a4", "--quiet")

# Each would have every file's address point somewhere the folder is not, or say more than it should.
NOT_A_FOLDER = [
    "file://attacker.example/share/",       # a network share: TTS on Windows would open \\attacker.example\share
    "file:////attacker.example/share/",     # the same, written with four slashes
    "https://user:secret@example.org/kit/",     # a password every player given the object reads
    "https://example.org/kit?",             # an empty query: every file's path would be the query
    "https://example.org/kit#",             # an empty fragment: every path after it never sent
    "https://example.org/a/../../etc/",     # a part that climbs
    "https://example.org/%2E%2E/etc/",      # the same, escaped
    "https://example.org/%zz/",             # not an escape
    "https://example.org:99999/kit/",       # no such port
    "https:example.org/kit/",               # no host
]


@pytest.mark.parametrize("url", NOT_A_FOLDER)
def test_an_image_url_that_is_not_a_folder_s_address_is_refused(url):
    with pytest.raises(argparse.ArgumentTypeError, match=r"not a folder's address|not an address"):
        image_url(url)


@pytest.mark.parametrize("url", ["https://example.org/kits/bailout", "http://[::1]:8080/kit/",
                                 "file:///home/me/Saved%20Objects/bailout-en", "file://localhost/srv/kit/",
                                 "file:///C:/Users/me/OneDrive/bailout-en/"])
def test_a_folder_s_address_is_taken_with_a_slash_at_its_end(url):
    assert image_url(url) == url.rstrip("/") + "/"


@pytest.fixture
def earlier_object(hostile_digital):
    """An output folder holding a build of the saved object (the tests below copy it): the
    session's hostile_digital (tests/conftest.py), which test_vassal.py and test_tts.py read."""
    return hostile_digital


def test_a_project_file_s_image_url_of_another_computer_is_one_line_naming_file_and_key(tmp_path, monkeypatch,
                                                                                        earlier_object):
    """Each refused before anything is written: the earlier build's files stay as they were."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(earlier_object, "out")
    before = (tmp_path / "out" / "bailout-tts.zip").read_bytes()
    (tmp_path / "bailout.toml").write_text('image_url = "file://attacker.example/share/bailout/"\n')
    one_line(*run_cli(*TTS, "--out", "out")[::2], "bailout.toml", "image_url", "this computer")
    one_line(*run_cli(*TTS, "--out", "out", "--image-url", "https://me:pw@example.org/")[::2], "--image-url",
             "password")
    assert (tmp_path / "out" / "bailout-tts.zip").read_bytes() == before
    save = zipfile.ZipFile(tmp_path / "out" / "bailout-tts.zip")
    assert "attacker" not in json.dumps([save.read(n).decode("latin-1") for n in save.namelist()])


# -- a very long name ------------------------------------------------------------------------------

@pytest.mark.parametrize("length", [101, 100_000])
def test_a_name_longer_than_a_hundred_characters_is_one_line_naming_file_and_key(tmp_path, data_copy, length):
    """Every piece and tile repeats its nationality's name: a name of 100,000 characters made each
    digital file 1.7 MB, and one of 8,000,000 (a data file's most) was refused as the aid
    template's fault."""
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text().replace('name = "German"', f'name = "{"G" * length}"', 1))
    one_line(*run_cli(*TTS, "--data", data_copy, "--out", tmp_path / "out")[::2], "german.toml", "name:",
             "at most 100")
    assert not (tmp_path / "out").exists()


def test_a_glossary_s_name_longer_than_a_hundred_characters_is_one_line_naming_file_and_key(tmp_path, data_copy):
    glossary = data_copy / "glossary" / "ja.toml"
    glossary.write_text(glossary.read_text(encoding="utf-8").replace('german = { name = "ドイツ"',
                                                                     f'german = {{ name = "{"ド" * 101}"', 1),
                        encoding="utf-8")
    one_line(*run_cli(*TTS, "--lang", "ja", "--data", data_copy, "--out", tmp_path / "out")[::2], "ja.toml",
             "nationalities.german.name", "at most 100")


# -- the Japanese edition's faces ---------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "key"), [
    ('german = { name = "ドイツ"', 'german = { name = "독일"', "nationalities.german.name"),      # Hangul
    ('german = { name = "ドイツ"', 'german = { name = "ド\\u202eイツ"', "nationalities.german.name"),
    ('german = { name = "ドイツ"', 'german = { name = "ド\\u0000イツ"', "nationalities.german.name"),
])
def test_a_japanese_name_the_edition_s_faces_lack_is_one_line_naming_file_and_key(old, new, key, data_copy,
                                                                                   tmp_path):
    glossary = data_copy / "glossary" / "ja.toml"
    text = glossary.read_text(encoding="utf-8")
    assert old in text
    glossary.write_text(text.replace(old, new, 1), encoding="utf-8")
    one_line(*run_cli(*TTS, "--lang", "ja", "--data", data_copy, "--out", tmp_path / "out")[::2],
             str(glossary), key, "IBM Plex Sans JP", "cannot print")



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="HOME names the home folder on Linux")
def test_a_home_folder_that_is_not_a_whole_path_is_one_line_and_the_earlier_object_stays(tmp_path, monkeypatch,
                                                                                          earlier_object):
    """Without --image-url the object's addresses are file:// ones of the home folder's Saved
    Objects: a relative HOME cannot be one (it was a ValueError's traceback)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(earlier_object, "out")
    before = (tmp_path / "out" / "bailout-tts.zip").read_bytes()
    monkeypatch.setenv("HOME", "relative/home")
    one_line(*run_cli(*TTS, "--out", "out")[::2], "'relative/home' (HOME)", "--image-url")
    assert (tmp_path / "out" / "bailout-tts.zip").read_bytes() == before
    status, _, err = run_cli(*TTS, "--out", "out", "--image-url", "https://example.org/kit/")
    assert status == 0, err


# -- the saved object's GUIDs ---------------------------------------------------------------------

def _guids(zip_path):
    """Every object's GUID in the saved object, bags' contents included."""
    files = zipfile.ZipFile(zip_path)
    save = json.loads(files.read(next(n for n in files.namelist() if n.endswith("/bailout.json"))))
    found, pending = [], list(save["ObjectStates"])
    while pending:
        obj = pending.pop()
        found.append(obj["GUID"])
        pending += obj.get("ContainedObjects", [])
    return found


def _keys_whose_bags_share_a_guid():
    """Two nationality keys whose bags' GUIDs, six hex digits of SHA-256 of what the bag is
    ('Bag', NUL, its key), are the same: a data folder can name its nationalities so."""
    seen = {}
    for i in range(100_000):
        key = f"n{i}"
        digest = hashlib.sha256(f"Bag\0{key}".encode()).hexdigest()[:6]
        if digest in seen:
            return seen[digest], key
        seen[digest] = key
    raise AssertionError("no two keys found")


def test_every_object_of_the_saved_object_has_a_guid_of_its_own(tmp_path, data_copy):
    first, second = _keys_whose_bags_share_a_guid()
    german = data_copy / "nationalities" / "german.toml"
    for key, name in ((first, "Alpha"), (second, "Beta")):
        (german.parent / f"{key}.toml").write_text(german.read_text().replace('name = "German"', f'name = "{name}"', 1))
    status, _, err = run_cli(*TTS, "--data", data_copy, "--out", tmp_path / "out")
    assert status == 0, err
    guids = _guids(tmp_path / "out" / "bailout-tts.zip")
    assert len(guids) > 100 and len(set(guids)) == len(guids)


# -- VASSAL's own decoder ------------------------------------------------------------------------

ENV = Path(os.environ.get("BAILOUT_VASSAL_ENV") or ROOT / ".cache" / "vassal-env")
DECODE = """
import json, sys, jpype
jpype.startJVM(jpype.getDefaultJVMPath(), classpath=[sys.argv[1]], convertStrings=True)
Decoder = jpype.JClass("VASSAL.tools.SequenceEncoder").Decoder
out = []
for text, delimiter in json.load(sys.stdin):
    decoder, tokens = Decoder(text, delimiter), []
    while decoder.hasMoreTokens():
        tokens.append(str(decoder.nextToken()))
    out.append(tokens)
json.dump(out, sys.stdout)
"""


def test_every_field_comes_back_whole_through_vassal_s_own_decoder():
    """Fields of the characters that end a field, a trait or a command (';', ',', '/', tab), the
    backslash that escapes them and the quote that wraps a field, at random, joined by the kit's
    encode() and split by the engine's SequenceEncoder.Decoder (the jar the checker loads)."""
    from generator.render.vassal_pieces import encode
    python, jar = ENV / "venv" / "bin" / "python", ENV / "jars" / "Vengine.jar"
    if not (python.exists() and jar.exists() and shutil.which("java")):
        reason = f"VASSAL's engine is not installed: bash .ci/vassal/install.sh {ENV}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    draw = random.Random(871)
    alphabet = ["a", ";", ",", "/", "\t", "\\", "'", " "]
    cases = [[""], ["'"], ["\\"], ["''"], ["'a"], ["a'"], ["\\;"], [";\\"], ["'\\'"], ["", ""], ["a", ""]]
    cases += [["".join(draw.choice(alphabet) for _ in range(draw.randint(0, 6))) for _ in range(draw.randint(1, 4))]
              for _ in range(3000)]
    asked = [(encode(values, delimiter), delimiter) for values in cases for delimiter in ";,/\t"]
    done = subprocess.run([str(python), "-c", DECODE, str(jar)], input=json.dumps(asked), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    decoded = json.loads(done.stdout)
    wanted = [values for values in cases for _ in ";,/\t"]
    wrong = [(w, a) for w, d, a in zip(wanted, decoded, asked, strict=True) if w != d]
    assert not wrong, wrong[:5]


# -- a long table -----------------------------------------------------------------------------------

MEASURE = ("import resource, subprocess, sys\n"
           "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
           "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, repr(done.stderr))")
DECK = 1000             # docs/digital.md: a deck holds at most the first 1,000 rows


@pytest.mark.larger_budget
def test_a_long_table_s_digital_files_hold_a_deck_of_a_thousand_rows_in_bounded_memory(tmp_path):
    """--only vassal,tts of 20,000 rows (1,000,000 measured the same way: 106 MiB, 37 s, files
    the size of 1,000 rows'): each deck a thousand cards, each file under 16 MiB, the build's
    peak under 150 MiB, and the build says it left rows out."""
    done = subprocess.run([sys.executable, "-c", MEASURE, sys.executable, "-m", "generator", "build", "--only",
                           "vassal,tts", "--rows", "20000", "--paper", "a4", "--out", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    status, peak_kib, err = done.stdout.split(" ", 2)
    assert status == "0", err
    assert f"decks hold the first {DECK:,} of the 20,000" in err
    assert int(peak_kib) < 150 * 1024
    for name in ("bailout.vmod", "bailout.vmdx", "bailout-tts.zip"):
        assert (tmp_path / name).stat().st_size < 16 * 1024 * 1024, name
    build = zipfile.ZipFile(tmp_path / "bailout.vmod").read("buildFile.xml").decode()
    assert build.count("<VASSAL.build.widget.CardSlot ") == DECK
    save = zipfile.ZipFile(tmp_path / "bailout-tts.zip")
    deck = [o for o in json.loads(save.read("bailout-en/bailout.json"))["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(deck) == 1 and len(deck[0]["DeckIDs"]) == DECK
