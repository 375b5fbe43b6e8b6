"""A hostile project folder or command line against the digital-table files (the VASSAL module
and extension, the Tabletop Simulator folder): the address the saved object loads its files
from, the objects' GUIDs, the names a data folder gives them, and how much a long build writes.

What the other test files hold already is not repeated here: XML, piece-definition and JSON
escaping of a hostile nationality name (test_vassal.py, test_tts.py), zip entry names
(test_archive.py), a character the edition's faces lack (test_hostile_data_folder.py,
test_japanese.py)."""

import argparse
import json
import zipfile

import pytest

from conftest import one_line, run_cli
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
    with pytest.raises(argparse.ArgumentTypeError, match="not a folder's address|not an address"):
        image_url(url)


@pytest.mark.parametrize("url", ["https://example.org/kits/bailout", "http://[::1]:8080/kit/",
                                 "file:///home/me/Saved%20Objects/bailout-en", "file://localhost/srv/kit/",
                                 "file:///C:/Users/me/OneDrive/bailout-en/"])
def test_a_folder_s_address_is_taken_with_a_slash_at_its_end(url):
    assert image_url(url) == url.rstrip("/") + "/"


def test_a_project_file_s_image_url_of_another_computer_is_one_line_naming_file_and_key(tmp_path, monkeypatch):
    """Each refused before anything is written: the earlier build's files stay as they were."""
    monkeypatch.chdir(tmp_path)
    status, _, err = run_cli(*TTS, "--out", "out")
    assert status == 0, err
    before = (tmp_path / "out" / "bailout-tts.zip").read_bytes()
    (tmp_path / "bailout.toml").write_text('image_url = "file://attacker.example/share/bailout/"\n')
    one_line(*run_cli(*TTS, "--out", "out")[::2], "bailout.toml", "image_url", "this computer")
    one_line(*run_cli(*TTS, "--out", "out", "--image-url", "https://me:pw@example.org/")[::2], "--image-url",
             "password")
    assert (tmp_path / "out" / "bailout-tts.zip").read_bytes() == before
    save = zipfile.ZipFile(tmp_path / "out" / "bailout-tts.zip")
    assert "attacker" not in json.dumps([save.read(n).decode("latin-1") for n in save.namelist()])
