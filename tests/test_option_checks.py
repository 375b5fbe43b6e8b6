"""Options that would print something wrong or nothing at all are refused or explained in one
line: a --label the font cannot print, --no-marks without crop marks, --back-offset on fold
sheets, a --counter-size the counter words cannot fit."""

import pytest

from conftest import SLOW, one_line, run_cli
from generator.options import MAX_COUNTER_MM, MIN_COUNTER_MM

AID = ("build", "--only", "aid", "--paper", "a4", "--quiet")


@pytest.mark.parametrize("label", ["Ed \U0001d11e", "\u4e2d\u6587 errata", "Ed \u202e1"])
def test_a_label_the_font_cannot_print_is_refused(label, tmp_path):
    status, _, err = run_cli(*AID, "--out", tmp_path / "o", "--label", label)
    assert status == 2 and "--label" in err and ("cannot print" in err or "printable text" in err), err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "o").exists()


def test_a_project_file_label_the_font_cannot_print_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bailout.toml").write_text('label = "Ed \U0001d11e"\n', encoding="utf-8")
    status, _, err = run_cli(*AID, "--out", "o")
    one_line(status, err, "bailout.toml", "label", "cannot print")


@pytest.mark.parametrize("profile", ["duplex", "fold"])
def test_no_marks_without_crop_marks_is_refused(profile, tmp_path):
    status, _, err = run_cli(*AID, "--out", tmp_path / "o", "--print", profile, "--no-marks")
    one_line(status, err, "--no-marks", f"--print {profile}", "shop")


def test_a_back_offset_on_fold_sheets_is_left_out_saying_so(tmp_path):
    status, _, err = run_cli("build", "--only", "counters", "--paper", "a4", "--print", "fold", "--back-offset",
                             "0.5,-1", "--out", tmp_path / "o", "--sets", 1)
    assert status == 0, err
    [note] = [line for line in err.splitlines() if "note:" in line]
    assert "--back-offset 0.5,-1 is left out" in note and "fold" in note
    plain = run_cli("build", "--only", "counters", "--paper", "a4", "--print", "fold", "--out", tmp_path / "p",
                    "--sets", 1, "--quiet")
    assert plain[0] == 0
    assert (tmp_path / "o" / "counters-a4.pdf").read_bytes() == (tmp_path / "p" / "counters-a4.pdf").read_bytes()


@pytest.mark.parametrize("size", ["10mm", "15mm", "1.5cm", "0.6in"])
def test_a_counter_size_no_edition_can_fit_is_refused_at_once(size, tmp_path):
    status, _, err = run_cli(*AID, "--out", tmp_path / "o", "--counter-size", size)
    assert status == 2 and "too small" in err and "5/8in" in err, err


def test_the_smallest_size_fits_every_edition_s_counter_words():
    """5/8in, the smallest accepted, fits every edition's counter words: each edition's faces laid
    out on A4 under the default profile as a build lays them out (test_safe_zones.py's laid_out,
    which fails where a face's words do not fit)."""
    from generator.content.words import available_languages
    from test_safe_zones import laid_out
    assert float(MIN_COUNTER_MM) == pytest.approx(15.875) and MAX_COUNTER_MM == 40
    for lang in available_languages():
        assert laid_out(lang, "duplex", "5/8in") is not None, lang


def test_the_smallest_size_builds_in_every_edition(tmp_path):
    """5/8in builds: README's command builds the English counters (every edition's faces laid out
    by test_the_smallest_size_fits_every_edition_s_counter_words above), BAILOUT_SLOW_TESTS=1 every
    edition's."""
    from generator.content.words import available_languages
    for lang in available_languages() if SLOW else ("en",):
        status, _, err = run_cli("build", "--only", "counters", "--paper", "a4", "--counter-size", "5/8in",
                                 "--lang", lang, "--sets", 1, "--out", tmp_path / lang, "--quiet")
        assert status == 0, (lang, err)
