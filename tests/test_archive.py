"""The kit's zips (the release, the VASSAL files, the Tabletop Simulator folder) are reproducible
and no entry name can leave the folder they are unpacked into."""

import io
import zipfile

import pytest

from generator.archive import FIXED_DATE, entry_problem, zip_bytes

CLIMBING = ["../evil.png", "images/../../evil.png", "/etc/passwd", "C:\\evil.png", "images\\evil.png", "",
            "images//x.png", "./x.png", "images/./x.png", "a/ b.png", "a/b.png ", "a/b.", "nul\0.png", "x\n.png",
            "<x>.png", 'a"b.png', "a:b.png", "a|b.png", "a*b.png"]


@pytest.mark.parametrize("name", CLIMBING)
def test_a_name_that_could_leave_the_folder_or_break_a_disk_is_refused(name):
    assert entry_problem(name) is not None
    with pytest.raises(ValueError, match="cannot be a zip entry"):
        zip_bytes({name: b"x"})
    if name:        # no folder is no folder: the names stand at the zip's top
        with pytest.raises(ValueError, match="cannot be a zip entry"):
            zip_bytes({"x.png": b"x"}, folder=name)


def test_plain_names_are_kept_sorted_dated_and_the_same_bytes_each_time(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    files = {"images/bailout-rows-row-002.png": b"\x89PNG 2", "buildFile.xml": b"<x/>", "images/a b (1).png": b"x",
             "bailout-en.vmdx": b"PK", "bailout-tts-en.zip": b"PK", "player-aid-a4.pdf": b"%PDF"}
    content = zip_bytes(files, folder="bailout-en")
    assert content == zip_bytes(dict(reversed(files.items())), folder="bailout-en")
    infos = zipfile.ZipFile(io.BytesIO(content)).infolist()
    assert [i.filename for i in infos] == sorted(f"bailout-en/{n}" for n in files)
    assert all(i.date_time == FIXED_DATE and i.external_attr >> 16 == 0o100644 for i in infos)
    # what is compressed already (PNGs, PDFs, the kit's own zips) is stored; the rest deflated
    stored = {i.filename.removeprefix("bailout-en/") for i in infos if i.compress_type == zipfile.ZIP_STORED}
    assert stored == {"images/bailout-rows-row-002.png", "images/a b (1).png", "bailout-en.vmdx", "bailout-tts-en.zip",
                      "player-aid-a4.pdf"}
    assert all(i.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) for i in infos)


def test_source_date_epoch_dates_every_entry(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")       # 2023-11-14 22:13:20 UTC
    [info] = zipfile.ZipFile(io.BytesIO(zip_bytes({"a.txt": b"a"}))).infolist()
    assert info.date_time == (2023, 11, 14, 22, 13, 20)


def test_every_entry_of_the_kit_s_digital_files_is_plain(kit_files):
    for name in ("bailout.vmod", "bailout.vmdx", "bailout-tts.zip"):
        names = zipfile.ZipFile(io.BytesIO(kit_files[name])).namelist()
        assert names and [n for n in names if entry_problem(n) is not None] == [], name


@pytest.mark.larger_budget
def test_the_digital_files_of_a_build_dated_past_2107_are_dated_2107(monkeypatch, tmp_path):
    # a zip entry can say 2107 at most (MS-DOS time), a PDF 9999: every zip of the kit is dated
    # by generator.archive, so the VASSAL files and the saved object end at 2107 too
    from conftest import run_cli
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "4354819200")      # 2108-01-01 00:00:00 UTC
    status, _, err = run_cli("build", "--only", "vassal,tts", "--rows", "4", "--paper", "a4", "--quiet",
                             "--out", tmp_path)
    assert status == 0, err
    for name in ("bailout.vmod", "bailout.vmdx", "bailout-tts.zip"):
        dates = {i.date_time for i in zipfile.ZipFile(tmp_path / name).infolist()}
        assert dates == {(2107, 12, 31, 23, 59, 58)}, name
