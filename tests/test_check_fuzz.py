"""Data is text from anyone: every string `bailout check` accepts must work in every command (or
check must refuse it).  The strings commands take as names or order by (rule numbers, a
nationality's file name and its words) are written into a copy of the data; whatever the data
checks accept (load, and the font check every build makes before it renders) must then run in
odds, crew (by every spelling of the name), diff and simulate, with no traceback and no refusal.  Build and
release are what check itself renders."""

import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BUDGET, DATA, run_cli
from generator.content.items import rule_order
from generator.data import load
from generator.errors import KitError

RULE_LINE = 'rule = "871.1.a"'
NAME_LINE = 'name = "German"'
RULES = st.text(alphabet=st.sampled_from(list("0123456789.-ab Z()²³١٢\u00a0")), min_size=1, max_size=12) \
    | st.sampled_from(["9" * 5000, "871²", "0871.1", "871.01", "١٢٣", "871.1.a "])
FILE_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,6}(-[A-Za-z0-9]{1,4})?", fullmatch=True) \
    | st.sampled_from(["German", "GERMAN", "ger-Man2", "a", "Z-9"])
NAMES = st.text(alphabet=st.sampled_from(list("aZ 9-'&<>*_\u00e9\u00df")), min_size=1, max_size=20)


def _accepted(data) -> bool:
    """Whether the data passes what `bailout check` checks before it renders (load, the font)."""
    from generator.content.words import load_words
    from generator.render.pdf.glyphs import check_printable
    try:
        check_printable(load(data), load_words())
    except KitError:
        return False
    return True


def _works(*argv: object, statuses: tuple[int, ...] = (0,)) -> str:
    status, out, err = run_cli(*argv)
    assert status in statuses and "Traceback" not in err, (argv, status, err)
    return out


def _every_command(data, key: str) -> None:
    """Each command on `data`, the nationality file `key` (the one changed) by every spelling."""
    json.loads(_works("odds", "--data", data, "--json"))
    for spelt in (key, key.upper(), key.lower()):
        _works("crew", spelt, "--data", data, "--afv-morale", 7)
    _works("diff", DATA, data, statuses=(0, 1))
    _works("simulate", 20, "--data", data)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("check-fuzz") / "data"
    shutil.copytree(DATA, folder)
    return folder


@settings(max_examples=BUDGET["builds"])
@given(rule=RULES, file_name=FILE_NAMES, name=NAMES)
def test_what_check_accepts_works_in_every_command(scratch, rule, file_name, name):
    rules, german = scratch / "rules.toml", scratch / "nationalities" / "german.toml"
    original_rules, original_german = rules.read_text(), german.read_text()
    moved = scratch / "nationalities" / f"{file_name}.toml"
    try:
        rules.write_text(original_rules.replace(RULE_LINE, f"rule = {json.dumps(rule)}", 1))
        german.write_text(original_german.replace(NAME_LINE, f"name = {json.dumps(name)}", 1))
        if not moved.exists():
            german.rename(moved)
        if _accepted(scratch):
            _every_command(scratch, file_name)
    finally:
        if moved.exists() and moved != german:
            moved.rename(german)
        rules.write_text(original_rules)
        german.write_text(original_german)


# '²' is a digit to str.isdigit and '½' a number to str.isnumeric, neither to int(); the type prints both.
@pytest.mark.parametrize("rule", ["871.1²", "871.1." + "9" * 5000, "871.½"])
def test_a_rule_number_check_accepts_is_ordered_by_diff(rule, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    (data / "rules.toml").write_text((DATA / "rules.toml").read_text().replace(RULE_LINE, f"rule = {json.dumps(rule)}"))
    assert _accepted(data)
    out = _works("diff", DATA, data, statuses=(1,))
    assert f"871.1.a -> {rule}" in out


def test_rule_numbers_read_in_order_whatever_their_length():
    rules = ["871.10", "871.9", "871.1.b", "871.1.a", "871." + "9" * 5000, "871.1²", "871", "note 2"]
    assert sorted(rules, key=rule_order) == ["871", "871.1.a", "871.1.b", "871.1²", "871.9", "871.10",
                                             "871." + "9" * 5000, "note 2"]


def test_crew_finds_a_nationality_by_the_name_it_suggests(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    (data / "nationalities" / "german.toml").rename(data / "nationalities" / "German.toml")
    assert _accepted(data)
    status, _, err = run_cli("crew", "germann", "--data", data, "--afv-morale", 7)
    assert status == 2 and "did you mean German?" in err
    for spelt in ("German", "german", "GERMAN"):
        assert "German crew" in _works("crew", spelt, "--data", data, "--afv-morale", 7)
