"""A data folder as found: deep folders and the whole disk are not walked, symbolic links that
lead out of the folder are refused (those inside it followed), the data hash covers exactly what
is read, and nationality file names that would make unsafe release file names are refused.
"""

import re
import shutil
import time

import pytest

from conftest import DATA, edit, run_cli, time_limit
from generator.data import load
from generator.data.file_names import entry_name
from generator.errors import DataError
from generator.errors import one_line as one_line_text

# -- 5. deep folders, and a data folder that is the whole disk --------------------------------

@pytest.mark.larger_budget
def test_twelve_hundred_nested_folders_do_not_end_in_recursion(data_copy):
    folders = [data_copy / "n"]
    for _ in range(1199):           # one at a time: mkdir(parents=True) itself recurses
        folders.append(folders[-1] / "n")
    try:
        for folder in folders:
            folder.mkdir()
        (folders[-1] / "stray.toml").write_text("x = 1\n")
        kit = load(data_copy)
        assert kit.hash == load(DATA).hash          # nothing under the stray folders is read
        status, _out, err = run_cli("odds", "--data", str(data_copy))
        assert status == 0, err
    finally:        # from the bottom up: rmtree, and pytest's clean-up of old runs, recurse too deep
        (folders[-1] / "stray.toml").unlink(missing_ok=True)
        for folder in reversed(folders):
            if folder.is_dir():
                folder.rmdir()


def test_check_data_root_does_not_walk_the_disk():
    started = time.monotonic()
    with time_limit(30):
        status, _, err = run_cli("check", "--data", "/")
    assert time.monotonic() - started < 20
    assert status == 2 and "Traceback" not in err and "rules.toml" in err


# -- 6. data behind a symbolic link that leads out of the data folder --------------------------

def _transcribed_deck(data, where):
    """A deck file at `where`, named by the rules as decks/mine.toml."""
    rows = ",\n".join(f"  [{a}, {b}, {c}]" for a in (1, 2) for b in (1, 2, 3) for c in (1, 2, 3, 4))
    where.mkdir(parents=True, exist_ok=True)
    (where / "mine.toml").write_text(f"columns = [2, 3, 4]\ncards = [\n{rows},\n]\n")
    edit(data / "rules.toml", '# file = "decks/my-deck.toml"', 'file = "decks/mine.toml"')
    edit(data / "rules.toml", 'reading = "uniform"', 'reading = "transcribed"')


def test_a_deck_behind_a_linked_folder_is_refused(data_copy, tmp_path):
    _transcribed_deck(data_copy, tmp_path / "elsewhere")
    (data_copy / "decks").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{data_copy}/decks/mine.toml: leads outside the data folder (to "
                                     f"{tmp_path / 'elsewhere' / 'mine.toml'}, through a symbolic link); "
                                     f"data files must lie inside it"]


def test_linked_nationalities_folder_is_refused(data_copy, tmp_path):
    shutil.move(data_copy / "nationalities", tmp_path / "nats")
    (data_copy / "nationalities").symlink_to(tmp_path / "nats")
    status, _, err = run_cli("check", "--data", str(data_copy))
    assert status == 2 and "leads outside the data folder" in err
    assert len(err.splitlines()) == len(list((tmp_path / "nats").glob("*.toml")))   # one line per file


def test_a_link_inside_the_data_folder_is_followed(data_copy):
    (data_copy / "nats").mkdir()
    shutil.move(data_copy / "nationalities" / "german.toml", data_copy / "nats" / "german.toml")
    (data_copy / "nationalities" / "german.toml").symlink_to("../nats/german.toml")
    assert "german" in [n.key for n in load(data_copy).nationalities]


def test_the_data_hash_covers_exactly_what_was_read(data_copy):
    plain = load(data_copy).hash
    (data_copy / "notes.toml").write_text("unused = true\n")        # not a file the kit reads
    (data_copy / "decks").mkdir()
    (data_copy / "decks" / "spare.toml").write_text("columns = []\n")
    assert load(data_copy).hash == plain
    _transcribed_deck(data_copy, data_copy / "decks")
    with_deck = load(data_copy).hash
    assert with_deck != plain
    edit(data_copy / "decks" / "mine.toml", "[1, 1, 1]", "[1, 1, 2]")   # the deck is read: it is hashed
    assert load(data_copy).hash != with_deck


# -- 10. file names made from data: the release's face images --------------------------------

@pytest.mark.parametrize("stem", ["..\\..\\..\\..\\evil", "a\nb", "ger\u202eman", "c:d", "x" * 240, "a b",
                                  "-german", "ger--man", "ger.man", "germ\u00e4n"])
def test_a_nationality_file_name_that_makes_no_safe_file_name_is_named_by_check(stem, data_copy):
    nats = data_copy / "nationalities"
    try:
        (nats / f"{stem}.toml").write_bytes((nats / "german.toml").read_bytes().replace(b'"German"', b'"Evil"'))
    except OSError:
        pytest.skip(f"this file system cannot hold the name {stem!r} itself")
    with pytest.raises(DataError) as raised:
        load(data_copy)
    [problem] = raised.value.problems
    assert problem.startswith(f"{nats}/") and "safe file name" in problem and "\n" not in problem
    assert one_line_text(f"{stem}.toml") in problem


def test_nationality_names_differing_only_in_case_are_refused(data_copy):
    nats = data_copy / "nationalities"
    (nats / "German.toml").write_bytes((nats / "german.toml").read_bytes().replace(b'"German"', b'"Other"'))
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{nats}/german.toml: differs only in case from nationalities/German.toml; "
                                     f"the two would be one file on many disks"]


def test_release_face_names_are_made_of_safe_parts(release_zip):
    import io
    import zipfile
    _name, content = release_zip
    faces = [n for n in zipfile.ZipFile(io.BytesIO(content)).namelist() if "/faces/" in n]
    assert faces
    for entry in faces:
        _folder, sub, file = entry.split("/")
        assert sub == "faces" and re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*\.png", file), entry
    with pytest.raises(ValueError):
        entry_name("..\\evil", "crew")
