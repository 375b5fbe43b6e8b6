"""The variant's number and title from the data, printed on every page's footer and in the
colophon: a title too long for one line is refused, naming rules.toml and the key, where the
footer ran off both edges of every page and the aid's colophon off its last page."""

from conftest import edit, one_line, run_cli

LONG_TITLE = "AFVs & Bail Out " * 12      # some 190 characters: wider than A4 at the footer's 7 pt


def test_a_title_too_long_for_the_footer_is_one_line_naming_rules_toml(data_copy, tmp_path):
    edit(data_copy / "rules.toml", 'title = "AFVs & Bail Out"', f'title = "{LONG_TITLE.strip()}"')
    out = tmp_path / "out"
    status, _, err = run_cli("build", "--data", data_copy, "--out", out, "--only", "counters", "--paper", "a4",
                             "--quiet")
    one_line(status, err, "rules.toml", "variant.title", "footer")
    assert not out.exists()


def test_the_shipped_title_with_the_widest_label_still_fits(tmp_path):
    """A --label of 40 characters (its limit) of the widest capital still fits beside the title."""
    status, _, err = run_cli("build", "--out", tmp_path / "out", "--only", "aid", "--paper", "a4", "--label",
                             "W" * 40, "--quiet")
    assert status == 0, err
