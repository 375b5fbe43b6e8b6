"""A release is for everyone: a back offset (one printer's own) stays out of it, and its folder
holds the zip alone."""

import pytest

from conftest import LIGHTEST_BUILD, one_line, run_cli
from generator.locking import LOCK_NAME


@pytest.fixture
def release_of(monkeypatch):
    """cmd_release with the making of the zip stood in for: [the options each release was made with]."""
    from generator.make import release
    made = []

    def make(kit, options, langs, **_):
        made.append(options)
        return "bailout-kit-0.1.0-0123abcd.zip", b"PK zip"
    monkeypatch.setattr(release, "make_editions_release", make)
    return made


def test_a_project_file_back_offset_is_left_out_of_a_release_saying_so(release_of, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bailout.toml").write_text('back_offset = "0.5,-0.3"\nsets = 1\n')
    status, _, err = run_cli("release", "--out", "dist")
    assert status == 0, err
    [options] = release_of
    assert options.back_offset_mm == (0, 0) and options.sets == 1       # the rest of the file still holds
    [note] = [line for line in err.splitlines() if "note:" in line and "back_offset" in line]
    assert "release is for every printer" in note
    # a build still shifts them, quietly (whatever it makes)
    status, _, err = run_cli(*LIGHTEST_BUILD, "--out", "o")
    assert status == 0 and "back_offset" not in err


def test_a_release_folder_holds_the_zip_alone(release_of, tmp_path):
    status, _, err = run_cli("release", "--out", tmp_path / "dist", "--quiet")
    assert status == 0, err
    assert [p.name for p in (tmp_path / "dist").iterdir()] == ["bailout-kit-0.1.0-0123abcd.zip"]
    assert (tmp_path / "dist" / "bailout-kit-0.1.0-0123abcd.zip").read_bytes() == b"PK zip"
    assert not (tmp_path / "dist" / LOCK_NAME).exists()


def test_a_back_offset_on_the_release_command_line_is_refused(release_of, tmp_path):
    status, _, err = run_cli("release", "--back-offset", "0.5,1", "--out", tmp_path / "dist")
    one_line(status, err, "--back-offset", "release is for every printer")
    assert not (tmp_path / "dist").exists() and release_of == []


def test_a_release_says_where_its_saved_object_loads_its_images_from(release_of, tmp_path):
    status, _, err = run_cli("release", "--out", tmp_path / "dist")
    assert status == 0, err
    [note] = [line for line in err.splitlines() if "Tabletop Simulator" in line]
    assert "Saved Objects" in note and "--image-url" in note        # a folder of this computer: say so
    status, _, err = run_cli("release", "--out", tmp_path / "dist2", "--image-url", "https://example.org/k/")
    assert status == 0 and "Tabletop Simulator" not in err
    [options] = release_of[-1:]
    assert options.image_url == "https://example.org/k/"
