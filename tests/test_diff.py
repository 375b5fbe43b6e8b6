"""`bailout diff`: a table of rules edits, each checked to list exactly the items it changes.

Every expected old and new value is worked out here from the rule text's arithmetic and the
edited data (column k reads 1 one time in k; a man's fate and weapon are separate draws), never
by asking the code under test.
"""

import math
import re
import shutil
import subprocess
import tomllib
from fractions import Fraction as F

import pytest
from babel.lists import format_list

from conftest import DATA, edit, run_cli
from generator.content.items import diff, print_items
from generator.content.words import Words, load_words
from generator.data import load
from generator.engine.odds import compute

WORDS = load_words()        # the kit's English: what a value in the kit's own words reads

RULES = tomllib.loads((DATA / "rules.toml").read_text())
NATIONS = sorted(p.stem for p in (DATA / "nationalities").glob("*.toml"))
SETS = 2                    # crew-marker sets per nationality, the build's default (docs/reference.md)
BLOCK = 12                  # lcm of every denominator in a pre-rolled row: fates in 3rds, weapons in 12ths


def man_chances(fate, weapon, draws_for=("unhurt", "wounded")):
    """One man's joint outcome, fate times weapon (separate cards), in the aid's order."""
    out = {}
    for f, p in fate.items():
        if f == "killed":
            continue
        if f in draws_for:
            for w, q in weapon.items():
                if p * q:
                    out[f[0].upper() + w] = p * q
        else:
            out[f[0].upper() + "P"] = p
    out["K"] = fate["killed"]
    return out


FATE = {"unhurt": F(1, 3), "wounded": F(1, 3), "killed": F(1, 3)}       # column 3: 1 / 2 / 3
# Column 4 reads 1 (1/4), then column 3 of that card reads 1 for a rifle (1/3), else an SMG.
WEAPON = {"P": F(3, 4), "R": F(1, 4) * F(1, 3), "S": F(1, 4) * F(2, 3)}


def composition(chances, block):
    return ", ".join(f"{int(p * block)} {code}" for code, p in chances.items() if p)


def read(data, rel):
    return tomllib.loads((data / rel).read_text())


# -- the edits: each returns {key: (old, new)} for exactly the items it should change ---------------

def closed_column(data):
    edit(data / "rules.toml", 'label = "Non-open-topped AFV"\ncolumn = 3', 'label = "Non-open-topped AFV"\ncolumn = 4')
    # Column 4 reads 1 one time in 4: 1/3 -> 1/4.  The block stays 36 (a multiple of 4).
    return {"bail_out.closed.column": (3, 4),
            "bail_out.closed.chance": (F(1, 3), F(1, 4))}     # the table holds no check


def open_succeed(data):
    edit(data / "rules.toml", 'column = 2\nsucceed = [1]', 'column = 2\nsucceed = [1, 2]')
    # Both values of column 2 succeed: 1/2 -> 1; every row of a block reads Y.
    return {"bail_out.open.succeed": ("1", "1, 2"),
            "bail_out.open.chance": (F(1, 2), F(1))}


def crew_size(data):
    edit(data / "rules.toml", "size = 5\n", "size = 6\n")
    expected = {"crew.size": (5, 6), "prerolled.men": (5, 6)}
    for nat in NATIONS:
        expected[f"counters.{nat}.crew.0.count"] = (SETS * 5, SETS * 6)
    alive = 1 - FATE["killed"]
    for hero in (False, True):
        rest = 6 - hero             # the Hero card's man survives without a draw
        dist = {k: (F(math.comb(rest, k - hero)) * alive ** (k - hero) * (1 - alive) ** (rest - k + hero)
                    if k >= hero else F(0)) for k in range(7)}
        tag = "hero" if hero else "no_hero"
        for k, p in dist.items():
            expected[f"survivors.6.{tag}.{k}"] = (None, p)
        expected[f"expected.6.{tag}"] = (None, hero + rest * alive)
    return expected


def morale_offset(data):
    edit(data / "rules.toml", "morale_offset = -2", "morale_offset = -1")
    crew = RULES["crew"]
    expected = {"crew.morale_offset": (-2, -1)}
    for m in crew["aid_afv_morale"]:
        expected[f"morale.{m}.average"] = (m - 2, m - 1)
        for size in crew["aid_crew_sizes"]:
            expected[f"morale.{m}.total.{size}"] = ((m - 2) * size, (m - 1) * size)
    return expected


def weapons_for_unhurt(data):
    edit(data / "rules.toml", 'reading = "survivors"', 'reading = "unhurt"')
    readings = RULES["interpretation"]["weapons_for"]["readings"]
    before = man_chances(FATE, WEAPON)
    after = man_chances(FATE, WEAPON, draws_for=("unhurt",))
    # Wounded men keep the pistol alone: WP takes all of the wounded third; WR and WS go.
    return {"note.weapons_for.reading": ("survivors", "unhurt"),
            "note.weapons_for.sentence": (readings["survivors"], readings["unhurt"]),
            # 871.4 arms each man as he "exits the vehicle", wounded too: 'unhurt' is a house rule
            "note.weapons_for.house_rule": (None, WORDS("item.yes")),
            "man.WP": (before["WP"], after["WP"]),
            "man.WR": (before["WR"], None),
            "man.WS": (before["WS"], None)}
    # the table prints a weapon for every man (read only for one who draws): its columns stay


def german_smg_span_and_model(data):
    german = data / "nationalities" / "german.toml"
    edit(german, 'years = [1939, 1939]\nmodel = "MP 38"', 'years = [1939, 1940]\nmodel = "MP 38/40"')
    edit(german, "years = [1940, 1945]", "years = [1941, 1945]")
    # Year spans print as the aid and counters print them: "1939", "1939–40".
    return {"weapons.german.smg": ("1939: MP 38; 1940–45: MP 40", "1939–40: MP 38/40; 1941–45: MP 40"),
            "counters.german.smg.0": ("SMG / MP 38 / ’39", "SMG / MP 38/40 / ’39–’40"),
            "counters.german.smg.1": ("SMG / MP 40 / ’40–’45", "SMG / MP 40 / ’41–’45")}


def hungarian_added(data):
    (data / "nationalities" / "hungarian.toml").write_text(
        'name = "Hungarian"\nadjective = "Hungarian"\ncolour = "#9a8f6a"\ntext_colour = "#000000"\n'
        '[[rifle]]\nyears = [1939, 1945]\nmodel = "35M"\nsource = "35M rifle"\n'
        '[[smg]]\nyears = [1939, 1945]\nmodel = "39M"\nsource = "39M Kiraly"\n'
        '[[emblem]]\nshape = "disc"\ncolour = "#000000"\n')
    w, cc, fate, after = RULES["weapon"], RULES["close_combat"], RULES["fate"], RULES["after"]
    minus = lambda n: f"{n:+d}".replace("-", "\u2212")      # noqa: E731
    # 871.4 "1 FP at Relative Range 5": the relative range under the pistol pictogram, the FP at the foot;
    # a face carries its symbol, its label and its factors, the rule in words is the counter key's
    reach = f"pistol RR{w['pistol_relative_range']}"
    factors = f"{w['pistol_fp']} FP / {minus(cc['ccv_modifier'])} CCV / no Smoke"
    crew = f"AFV CREW / {reach} / {factors} | back: WOUNDED / {reach} / {factors}"
    assert fate["wounded_rule"] and after["wreck_terrain"]      # said by the key, not the faces
    tem = f"{minus(after['wreck_tem'])} TEM"
    marker = f"BAILED OUT / wreck / {tem} | back: BAILED OUT / AFV / {tem}"
    first, last = RULES["period"]["first_year"], RULES["period"]["last_year"]
    years = f"{first}\u2013{str(last)[2:]}"      # same century: "1939-45"
    short = f"\u2019{first % 100:02d}\u2013\u2019{last % 100:02d}"     # on a counter: "'39-'45"
    colours = WORDS("item.nationality.colour.value", colour="#9a8f6a", text_colour="#000000")
    added = {"nationality.hungarian": "Hungarian", "nationality.hungarian.colour": colours,
             "weapons.hungarian.rifle": f"{years}: 35M", "weapons.hungarian.smg": f"{years}: 39M",
             "counters.hungarian.crew.0": crew, "counters.hungarian.crew.0.count": SETS * RULES["crew"]["size"],
             "counters.hungarian.rifle.0": f"RIFLE / 35M / {short}",
             "counters.hungarian.rifle.0.count": 1,
             "counters.hungarian.smg.0": f"SMG / 39M / {short}", "counters.hungarian.smg.0.count": 1,
             "counters.hungarian.marker.0": marker, "counters.hungarian.marker.0.count": SETS}
    return {key: (None, value) for key, value in added.items()}


def sentence_reworded(data):
    old = RULES["after"]["wreck_until"]
    new = "The wreck stays put until the crew leaves its range chit; then remove it."
    edit(data / "rules.toml", old, new)
    return {"after.wreck_until": (old, new)}


def label_renamed(data):
    edit(data / "rules.toml", 'label = "Non-open-topped AFV"', 'label = "Closed-top AFV"')
    return {"bail_out.closed.label": ("Non-open-topped AFV", "Closed-top AFV")}


# Six cards: columns 2 and 3 stay uniform (so every bail-out and fate chance holds), but only two
# cards read 1 in column 4: one with column 3 = 1 (rifle), one with 2 (SMG).
DECK = [(1, 1, 1), (2, 1, 2), (1, 2, 1), (2, 2, 2), (1, 3, 3), (2, 3, 4)]


def transcribed_deck(data):
    (data / "decks").mkdir()
    rows = ",\n".join(f"  [{a}, {b}, {c}]" for a, b, c in DECK)
    (data / "decks" / "mine.toml").write_text(f"columns = [2, 3, 4]\ncards = [\n{rows},\n]\n")
    edit(data / "rules.toml", '# file = "decks/my-deck.toml"', 'file = "decks/mine.toml"')
    edit(data / "rules.toml", 'reading = "uniform"', 'reading = "transcribed"')
    n = len(DECK)
    armed = [c for c in DECK if c[2] == 1]
    weapon = {"P": F(n - len(armed), n), "R": F(sum(c[1] == 1 for c in armed), n),
              "S": F(sum(c[1] != 1 for c in armed), n)}
    assert weapon == {"P": F(2, 3), "R": F(1, 6), "S": F(1, 6)}
    before, after = man_chances(FATE, WEAPON), man_chances(FATE, weapon)
    fates = {f[0].upper(): p for f, p in FATE.items()}
    block = math.lcm(*(p.denominator for p in (*FATE.values(), *weapon.values())))      # 6
    readings = RULES["interpretation"]["deck"]["readings"]
    expected = {"deck": (WORDS("item.deck.ideal"), WORDS("item.deck.transcribed", file="decks/mine.toml")),
                "deck.size": (24, n),
                "note.deck.reading": ("uniform", "transcribed"),
                "note.deck.sentence": (readings["uniform"], readings["transcribed"]),
                "weapon.pistol.chance": (WEAPON["P"], weapon["P"]),
                "weapon.rifle.chance": (WEAPON["R"], weapon["R"]),
                # the SMG stays 1/6, so it is not listed
                "prerolled.block": (BLOCK, block),
                "prerolled.fate": (composition(fates, BLOCK), composition(fates, block)),
                "prerolled.weapon": (composition(WEAPON, BLOCK), composition(weapon, block))}
    for code in before:
        if before[code] != after[code]:
            expected[f"man.{code}"] = (before[code], after[code])
    assert "man.K" not in expected and "man.US" not in expected and "man.UR" in expected
    return expected


EDITS = [closed_column, open_succeed, crew_size, morale_offset, weapons_for_unhurt, german_smg_span_and_model,
         hungarian_added, sentence_reworded, label_renamed, transcribed_deck]


def items(folder):
    kit = load(folder)
    return print_items(kit, compute(kit), SETS)


@pytest.fixture(scope="module")
def base_items():
    return items(DATA)


@pytest.mark.parametrize("make_edit", EDITS, ids=lambda f: f.__name__)
def test_each_edit_lists_exactly_what_it_changes(make_edit, data_copy, base_items):
    expected = make_edit(data_copy)
    groups = diff(base_items, items(data_copy))
    got = {c.key: (c.old, c.new) for _, changes in groups for c in changes}
    assert set(got) == set(expected), (sorted(set(got) - set(expected)), sorted(set(expected) - set(got)))
    for key, (old, new) in expected.items():
        assert got[key] == (old, new), key


def test_changes_are_grouped_by_the_rule_numbers_in_the_data(data_copy, base_items):
    closed_column(data_copy)
    open_succeed(data_copy)
    groups = diff(base_items, items(data_copy))
    closed, open_ = RULES["bail_out"]["closed"]["rule"], RULES["bail_out"]["open"]["rule"]
    assert [rule for rule, _ in groups] == [closed, open_]
    assert {c.key for c in groups[0][1]} == {"bail_out.closed.column", "bail_out.closed.chance"}


def test_no_edit_no_change(base_items):
    assert diff(base_items, items(DATA)) == []


class _Keys(dict):
    """A catalogue that knows every key and words each as the key itself, in brackets."""

    def __missing__(self, key):
        return f"[{key}]"

    def __contains__(self, key):
        return True


def test_every_label_and_word_of_the_items_is_the_catalogues():
    kit = load(DATA)
    keyed = print_items(kit, compute(kit), SETS, Words("keys", _Keys()))
    english = print_items(kit, compute(kit), SETS)
    assert keyed.keys() == english.keys()
    for key, item in keyed.items():
        assert re.fullmatch(r"\[item\.[a-z_.]+\]", item.label), (key, item.label)
        assert item.label != english[key].label
    # Values in the kit's words are the catalogue's too: yes and no, an SMG gap's "none, so"; a
    # list of alternatives ("SL or ASL") is the locale's (CLDR, through Babel).
    flags = [k for k, i in english.items() if i.value in (WORDS("item.yes"), WORDS("item.no"))]
    assert flags and all(keyed[k].value in ("[item.yes]", "[item.no]") for k in flags)
    assert keyed["deck"].value == "[item.deck.ideal]"
    assert keyed["crew.leader_roles"].value == format_list(RULES["crew"]["leader_roles"], style="or", locale="en")
    assert any("[item.weapons.none_so]" in str(i.value) for k, i in keyed.items() if k.startswith("weapons."))


# -- the command --------------------------------------------------------------------------------

def test_cli_prints_fraction_and_percentage_and_exits_1(data_copy):
    closed_column(data_copy)
    status, out, err = run_cli("diff", DATA, data_copy)
    assert status == 1, err
    lines = out.splitlines()
    assert RULES["bail_out"]["closed"]["rule"] in lines
    assert any("1/3 (33.3%) -> 1/4 (25.0%)" in line for line in lines)
    assert RULES["bail_out"]["open"]["rule"] not in lines


def test_cli_same_data_exits_0():
    status, out, _ = run_cli("diff", DATA, DATA)
    assert status == 0 and out.startswith("No printed change")


def test_cli_json_has_fractions_as_strings(data_copy):
    closed_column(data_copy)
    status, out, _ = run_cli("diff", DATA, data_copy, "--json")
    import json
    rows = {row["key"]: row for row in json.loads(out)}
    assert status == 1
    assert rows["bail_out.closed.chance"]["old"] == "1/3" and rows["bail_out.closed.chance"]["new"] == "1/4"
    assert rows["bail_out.closed.chance"]["rule"] == RULES["bail_out"]["closed"]["rule"]
    assert rows["bail_out.closed.column"]["old"] == 3


def test_cli_bad_data_names_the_side(data_copy, tmp_path):
    edit(data_copy / "rules.toml", "size = 5\n", "size = \"five\"\n")
    other = tmp_path / "other"
    shutil.copytree(DATA, other)
    edit(other / "rules.toml", "morale_offset = -2", "morale_offset = 99")
    status, out, err = run_cli("diff", other, data_copy)
    lines = err.strip().splitlines()
    assert status == 2 and out == ""
    assert len(lines) == 2 and "Traceback" not in err
    assert lines[0].startswith("bailout: OLD") and "crew.morale_offset" in lines[0]
    assert lines[1].startswith("bailout: NEW") and "crew.size" in lines[1]


def test_cli_missing_folder(tmp_path):
    status, _, err = run_cli("diff", DATA, tmp_path / "nowhere")
    assert status == 2 and len(err.strip().splitlines()) == 1 and "nowhere" in err


# -- git:REV ------------------------------------------------------------------------------------

def _git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True,
                   capture_output=True)


def _diff_in(repo, *args):
    """`bailout diff ARGS` in this process, run in `repo` as its working folder (git:REV reads the
    repository there)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(repo)
        return run_cli("diff", *args)


@pytest.fixture
def repo(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    shutil.copytree(DATA, repo / "data")
    _git(repo, "init", "-q")
    _git(repo, "add", "data")
    _git(repo, "commit", "-q", "-m", "rules as shipped")
    return repo


def test_git_rev_against_the_working_folder(repo):
    closed_column(repo / "data")
    status, out, err = _diff_in(repo, "git:HEAD", "data")
    assert status == 1, err
    assert "git:HEAD (" in out and "1/3 (33.3%) -> 1/4 (25.0%)" in out
    _git(repo, "commit", "-q", "-am", "871.1.a reads column 4")
    assert _diff_in(repo, "git:HEAD", "data")[0] == 0
    status, out, _ = _diff_in(repo, "git:HEAD~1", "git:HEAD")
    assert status == 1 and "1/3 (33.3%) -> 1/4 (25.0%)" in out


def test_git_errors_are_one_line(repo, tmp_path):
    status, _, err = _diff_in(repo, "git:no-such-rev", "data")
    assert status == 2 and len(err.strip().splitlines()) == 1 and "no-such-rev" in err
    plain = tmp_path / "plain"
    plain.mkdir()
    status, _, err = _diff_in(plain, "git:HEAD", DATA)
    assert status == 2 and len(err.strip().splitlines()) == 1 and "not in a git repository" in err


def test_git_rev_with_bad_data_names_the_revision(repo):
    edit(repo / "data" / "rules.toml", "size = 5\n", "size = 0\n")
    _git(repo, "commit", "-q", "-am", "bad")
    status, _, err = _diff_in(repo, "git:HEAD", DATA)
    assert status == 2
    assert err.startswith("bailout: OLD (git:HEAD): git:HEAD:data/rules.toml: crew.size"), err
