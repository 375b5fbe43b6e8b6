"""The web aid's fonts, cut by fontTools at build time: a quiet build stays quiet in every
edition (the subsetter logged "meta NOT subset; don't know how to subset; dropped" twice on
stderr for the Japanese faces, whose `meta` table it cannot cut)."""

from conftest import bailout


def test_a_quiet_japanese_build_of_the_web_aid_prints_nothing(tmp_path):
    status, out, err = bailout("build", "--out", tmp_path / "out", "--only", "aid", "--paper", "a4", "--lang", "ja",
                               "--quiet", timeout=180)
    assert status == 0, err
    assert (out, err) == ("", "")
    assert (tmp_path / "out" / "player-aid.html").stat().st_size > 0
