"""Hostile option combinations with the print profiles: what a profile has no use for never
changes what it prints.  A back offset is one home printer's own (read off the duplex
calibration pair); a shop's press, a print-on-demand upload and a die-cut board register their
backs themselves, so a shop's files must not carry it."""

import pytest

from conftest import run_cli
from generator.cli.parser import option_notes, options_from_args, parser

PRESSES = ["shop", "drivethru", "meinspiel", "tgc-punchout", "fold"]


@pytest.mark.parametrize("profile", PRESSES)
def test_a_back_offset_is_left_out_of_a_profile_without_the_calibration_pair(profile):
    """--print meinspiel --back-offset 5,-5 shifted every back of the upload 5 mm (page 4 of its
    counters differed all over its counters), and said nothing."""
    args = parser().parse_args(["build", "--print", profile, "--back-offset", "5,-5"])
    assert options_from_args(args).back_offset_mm == (0, 0)
    [note] = option_notes(args)
    assert "--back-offset 5,-5 is left out" in note and f"--print {profile}" in note


def test_duplex_still_takes_the_back_offset():
    args = parser().parse_args(["build", "--back-offset", "5,-5"])
    assert options_from_args(args).back_offset_mm == (5, -5) and option_notes(args) == []


def test_a_shops_counters_are_the_same_bytes_with_a_back_offset(tmp_path):
    status, _, err = run_cli("build", "--print", "drivethru", "--only", "counters", "--paper", "a4",
                             "--back-offset", "2,-2", "--out", tmp_path / "shifted")
    assert status == 0, err
    assert "--back-offset 2,-2 is left out" in err
    status, _, err = run_cli("build", "--print", "drivethru", "--only", "counters", "--paper", "a4",
                             "--out", tmp_path / "plain", "-q")
    assert status == 0, err
    shifted, plain = (tmp_path / name / "counters-a4.pdf" for name in ("shifted", "plain"))
    assert shifted.read_bytes() == plain.read_bytes()
