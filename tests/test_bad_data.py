"""Bad data: one clear message per problem naming file and key, exit 2, no traceback."""

import pytest

from conftest import SLOW, edit, run_cli
from generator.data import load
from generator.errors import DataError

R, G = "rules.toml", "nationalities/german.toml"

# (file, old text, new text, words the message must contain)
CASES = {
    "malformed toml": (R, '[variant]', '[variant', [R, "not valid TOML"]),
    "unknown key": (R, 'credit = "Tom Cundiff"', 'credit = "Tom Cundiff"\ncredits = "x"',
                    [R, "variant.credits", "unknown key"]),
    "unknown top table": (R, '[period]', '[periods]\nx = 1\n[period]', [R, "periods", "unknown key"]),
    "wrong type": (R, 'size = 5', 'size = "five"', [R, "crew.size", "expected an integer"]),
    "bool for int": (R, 'size = 5', 'size = true', [R, "crew.size", "expected an integer"]),
    "missing field": (R, 'morale_offset = -2 ', '', [R, "crew.morale_offset", "missing"]),
    "missing table": (R, '[after]', '[afterwards]', [R, "after", "missing table"]),
    "out of range": (R, 'size = 5', 'size = 0', [R, "crew.size", "out of range"]),
    "column the deck lacks": (R, 'columns = [2, 3, 4]', 'columns = [2, 3]', [R, "weapon.armed_column", "deck lacks"]),
    "column not on a card": (R, 'label = "Open-topped AFV"\ncolumn = 2', 'label = "Open-topped AFV"\ncolumn = 9',
                             [R, "bail_out.open.column", "out of range"]),
    "succeed value above column": (R, 'column = 2\nsucceed = [1]', 'column = 2\nsucceed = [3]',
                                   [R, "bail_out.open.succeed[0]", "out of range"]),
    "outcome table does not cover": (R, 'otherwise = "killed"\n', '', [R, "fate.outcomes", "does not cover value 3"]),
    "unknown fate": (R, 'wounded = [2]', 'wounded = [2]\nmaimed = [3]', [R, "fate.outcomes.maimed", "unknown result"]),
    "value given twice": (R, 'wounded = [2]', 'wounded = [1, 2]', [R, "fate.outcomes", "already gives"]),
    "unknown reading": (R, 'reading = "separate"', 'reading = "both"',
                        [R, "interpretation.hero_card.reading", "not one of"]),
    "unknown setting": (R, '[interpretation.deck]', '[interpretation.decks]\nnote = 9\n[interpretation.deck]',
                        [R, "interpretation.decks", "unknown setting"]),
    "transcribed without deck": (R, 'reading = "uniform"', 'reading = "transcribed"',
                                 [R, "interpretation.deck.reading", "names no deck"]),
    "deck file missing": (R, '# file = "decks/my-deck.toml"', 'file = "decks/none.toml"',
                          ["decks/none.toml", "file not found"]),
    "period reversed": (R, 'last_year = 1945', 'last_year = 1938', [R, "period.last_year", "before first_year"]),
    "year with no rifle": (G, 'years = [1939, 1945]\nmodel = "Kar98k"', 'years = [1940, 1945]\nmodel = "Kar98k"',
                           [G, "rifle", "no rifle for 1939"]),
    "overlapping smg": (G, 'years = [1940, 1945]\nmodel = "MP 40"', 'years = [1939, 1945]\nmodel = "MP 40"',
                        [G, "smg", "overlap"]),
    "bad colour": (G, 'colour = "#8a9aa6"', 'colour = "grey"', [G, "colour", "not a colour"]),
    "illegible in greyscale": (G, 'text_colour = "#000000"', 'text_colour = "#7a8a96"',
                               [G, "text_colour", "greyscale"]),
    "blank model": (G, 'model = "Kar98k"', 'model = "  "', [G, "rifle[0].model", "blank"]),
    "empty roster": (G, 'text_colour = "#000000"', 'text_colour = "#000000"\nroster = []', [G, "roster", "empty"]),
    "bad roster role": (G, 'text_colour = "#000000"',
                        'text_colour = "#000000"\n[[roster]]\ncard = "1"\nrole = "CO"\nmorale = 3',
                        [G, "roster[0].role", "not one of"]),
    "afv missing morale": (G, 'text_colour = "#000000"',
                           'text_colour = "#000000"\n[[afv]]\nname = "PzKw IV"\nopen_topped = false',
                           [G, "afv[0].morale", "missing"]),
    # A span outside rules.toml's [period] (1939-1945) would print years the kit does not cover.
    "rifle span past the period": (G, 'years = [1939, 1945]\nmodel = "Kar98k"',
                                   'years = [1939, 1946]\nmodel = "Kar98k"',
                                   [G, "rifle[0].years", "[1939, 1946]", "period", "1939-1945"]),
    "smg span before the period": (G, 'years = [1939, 1939]', 'years = [1938, 1939]', [G, "smg[0].years", "period"]),
    "years not a pair": (G, 'years = [1939, 1939]', 'years = [1939]', [G, "smg[0].years", "first, last"]),
    "string where array": (R, 'leader_roles = ["SL", "ASL"]', 'leader_roles = "SL"',
                           [R, "crew.leader_roles", "expected an array"]),
    "note number twice": (R, 'note = 2', 'note = 1', [R, "note: 1 is already the number of interpretation."]),
    "deck outside data": (R, '# file = "decks/my-deck.toml"', 'file = "/etc/passwd"',
                          [R, "deck.file", "inside the data folder"]),
    "deck climbing out": (R, '# file = "decks/my-deck.toml"', 'file = "../rules.toml"',
                          [R, "deck.file", "inside the data folder"]),
    "unknown leader role": (R, 'leader_roles = ["SL", "ASL"]', 'leader_roles = ["SL", "CO"]',
                            [R, "crew.leader_roles[1]", "not one of"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_data_is_reported_clearly(name, data_copy):
    file, old, new, words = CASES[name]
    edit(data_copy / file, old, new)
    with pytest.raises(DataError) as raised:
        load(data_copy)
    text = "\n".join(raised.value.problems)
    for word in words:
        assert word in text, f"{word!r} not in:\n{text}"


def test_cli_reports_every_problem_at_once_and_exits_2(data_copy):
    edit(data_copy / R, 'size = 5', 'size = "five"')
    edit(data_copy / G, 'colour = "#8a9aa6"', 'colour = "grey"')
    (data_copy / "nationalities" / "broken.toml").write_text("name = [\n")
    status, _out, err = run_cli("check", "--data", data_copy)
    assert status == 2
    assert "Traceback" not in err
    assert "rules.toml: crew.size" in err
    assert "nationalities/german.toml: colour" in err
    assert "nationalities/broken.toml" in err and "not valid TOML" in err


def test_two_nationalities_with_one_name(data_copy):
    nat = data_copy / "nationalities"
    (nat / "german2.toml").write_text((nat / "german.toml").read_text())
    status, _, err = run_cli("check", "--data", data_copy)
    assert status == 2 and "german2.toml: name" in err and "also the name" in err


def test_missing_data_folder(tmp_path):
    status, _, err = run_cli("odds", "--data", tmp_path / "nowhere")
    assert status == 2 and "no such data folder" in err and "Traceback" not in err


def test_no_nationalities(data_copy):
    for path in (data_copy / "nationalities").glob("*.toml"):
        path.unlink()
    status, _, err = run_cli("check", "--data", data_copy)
    assert status == 2 and "no nationality files" in err


def test_shipped_data_is_valid(request):
    # check's first step renders every part of the English kit on both papers with the default
    # options, the build the session's kit_dir makes (tests/test_build.py
    # test_default_build_writes_every_file reads it): README's command checks the shipped data
    # without that render, BAILOUT_SLOW_TESTS=1 (CI) runs check whole.
    if not SLOW:
        request.getfixturevalue("check_after_its_render")
    status, out, err = run_cli("check")
    assert status == 0, err
    assert "OK" in out and "7 nationalities" in out
