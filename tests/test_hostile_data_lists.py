"""Lists in a data file as long as the 8 MiB a file may hold: each list that is drawn or printed
is refused past what a page can show, naming its file and key, before anything is drawn.

Without the bound, an emblem of 40,000 shapes (2.2 MB of TOML) took a counters build two minutes
and 380 MB (every counter draws every shape) and `bailout check` more than five minutes; 200,000
Morale values for the aid were blamed on the template ("did not finish within 10 s").
"""

import time

import pytest

from conftest import SLOW, edit, one_line, run_cli

DISC = '[[emblem]]\nshape = "disc"\ncolour = "#20407f"\nsize = 50\n'
BARS = '[[emblem]]\nshape = "bars"\ncolours = [{}]\n'


def _refused_at_once(data, out, *words):
    started = time.monotonic()
    status, _, err = run_cli("build", "--data", data, "--out", out, "--only", "counters,aid", "--paper", "a4",
                             "--quiet")
    assert time.monotonic() - started < 30, "the list was drawn before it was refused"
    one_line(status, err, *words)
    assert not out.exists()


def test_an_emblem_of_thousands_of_shapes_is_refused_before_a_counter_is_drawn(data_copy, tmp_path):
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text() + DISC * 10_000)
    _refused_at_once(data_copy, tmp_path / "out", "nationalities/german.toml", "emblem", "10,002 tables")


def test_bars_of_thousands_of_colours_are_refused(data_copy, tmp_path):
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text() + BARS.format(", ".join(['"#20407f"', '"#ffffff"'] * 5_000)))
    _refused_at_once(data_copy, tmp_path / "out", "nationalities/german.toml", "emblem[2].colours", "10,000 items")


# How long a printed list of the rules is: BAILOUT_SLOW_TESTS=1 (CI) as long as a data file may
# hold it (megabytes of TOML, half a second to read); README's command a tenth of that, a
# thousand times what any of these lists may hold, refused by the same bound.
PRINTED_ITEMS = 200_000 if SLOW else 20_000


@pytest.mark.parametrize("key, old, item", [
    ("crew.aid_afv_morale", "aid_afv_morale = [3, 4, 5, 6, 7, 8]", "5"),
    ("crew.aid_crew_sizes", "aid_crew_sizes = [5, 4]", "4"),
    ("crew.leader_roles", 'leader_roles = ["SL", "ASL"]', '"SL"'),
    ("triggers.voluntary", 'voluntary = ["Immobilized", "Bogged Down", "main Ordnance has malfunctioned permanently"]',
     '"Immobilized"'),
    ("hero.weapon_choice", 'weapon_choice = ["rifle", "smg"]', '"rifle"'),
])
def test_a_printed_list_of_the_rules_past_what_a_page_holds_names_its_key_not_the_template(data_copy, tmp_path, key,
                                                                                          old, item):
    name = old.split(" = ")[0]
    edit(data_copy / "rules.toml", old, f"{name} = [{', '.join([item] * PRINTED_ITEMS)}]")
    _refused_at_once(data_copy, tmp_path / "out", "rules.toml", key, f"{PRINTED_ITEMS:,} items")


def test_a_nationality_speaking_thousands_of_languages_is_refused(data_copy, tmp_path):
    languages = ", ".join(['"en"'] * 10_000)
    edit(data_copy / "nationalities" / "american.toml", 'speaks = ["en"]', f"speaks = [{languages}]")
    _refused_at_once(data_copy, tmp_path / "out", "nationalities/american.toml", "speaks", "10,000 items")
