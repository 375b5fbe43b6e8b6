"""Exact odds.  Every expectation comes from the words of rule 871, not from the code."""

from fractions import Fraction as F

import pytest

from conftest import DATA, edit
from generator.data import load
from generator.engine import deck as D
from generator.engine.odds import compute, percent

# The rule text's stated chances: 871.1.a "33% Chance" (column 3 reads 1), 871.1.b "50% Chance",
# 871.3: column 3 reads 1 unhurt, 2 wounded, otherwise killed; 871.4: "25% Chance" of a weapon,
# then column 3 = 1 rifle "33%", else SMG "66%".
CLOSED, OPEN = F(1, 3), F(1, 2)
FATE = {"unhurt": F(1, 3), "wounded": F(1, 3), "killed": F(1, 3)}
ARMED = F(1, 4)
WEAPON = {"pistol": 1 - ARMED, "rifle": ARMED * F(1, 3), "smg": ARMED * F(2, 3)}


@pytest.fixture(scope="module")
def odds():
    return compute(load(DATA))


def test_bail_out_chances_are_the_rule_text(odds):
    assert odds.bail_out_closed == CLOSED
    assert odds.bail_out_open == OPEN


def test_fate_and_weapon_are_the_rule_text(odds):
    assert odds.fate == FATE
    assert odds.weapon == WEAPON
    assert {"pistol": F(3, 4), "rifle": F(1, 12), "smg": F(1, 6)} == WEAPON


def test_armed_men_split_as_the_rule_states(odds):
    # 871.4 in its own terms: column 4 reads 1 for "25%"; of those men, rifle "33%", SMG "66%".
    assert odds.armed_chance == ARMED
    assert odds.armed_split == {"rifle": F(1, 3), "smg": F(2, 3)}
    assert sum(odds.armed_split.values()) == 1


def test_joint_man_outcome(odds):
    survive = 1 - FATE["killed"]
    assert sum(odds.man.values()) == 1
    assert odds.man[("killed", None)] == FATE["killed"]
    for fate in ("unhurt", "wounded"):
        for weapon, p in WEAPON.items():
            assert odds.man[(fate, weapon)] == FATE[fate] * p
    assert sum(p for (f, _), p in odds.man.items() if f != "killed") == survive


def test_expected_survivors(odds):
    # a crew of five: 5 x 2/3 = 10/3; a Hero card saves one outright: 1 + 4 x 2/3 = 11/3
    assert odds.expected_survivors[5][False] == F(10, 3)
    assert odds.expected_survivors[5][True] == F(11, 3)
    for size in range(1, 6):
        assert odds.expected_survivors[size][False] == size * F(2, 3)
        assert odds.expected_survivors[size][True] == 1 + (size - 1) * F(2, 3)


def test_survivor_distribution_is_binomial(odds):
    from math import comb
    s = F(2, 3)
    for size in range(1, 6):
        dist = odds.survivors[size][False]
        assert dist == {k: comb(size, k) * s ** k * (1 - s) ** (size - k) for k in range(size + 1)}
        hero = odds.survivors[size][True]
        assert hero[0] == 0 and sum(hero.values()) == 1


def test_armed_survivors(odds):
    a = (1 - FATE["killed"]) * ARMED     # survives and draws column 4 = 1
    assert odds.armed[5][False][5] == a ** 5
    assert odds.armed[5][False][0] == (1 - a) ** 5
    # separate Hero plays (default reading): the saved man still draws for his weapon
    assert odds.armed[1][True] == {0: 1 - ARMED, 1: ARMED}


def test_closed_reads_column_4_gives_one_quarter(data_copy):
    edit(data_copy / "rules.toml", 'label = "Non-open-topped AFV"\ncolumn = 3',
         'label = "Non-open-topped AFV"\ncolumn = 4')
    assert compute(load(data_copy)).bail_out_closed == F(1, 4)


def use_skewed_deck(data_copy):
    """Six cards transcribed into the data copy (below: which columns read 1 where); rules.toml path."""
    cards = [[1, 1, 1], [2, 1, 1], [2, 1, 2], [2, 2, 3], [2, 3, 4], [2, 2, 4]]
    (data_copy / "decks").mkdir(exist_ok=True)
    (data_copy / "decks" / "skewed.toml").write_text(
        "columns = [2, 3, 4]\ncards = [\n" + "".join(f"  {c},\n" for c in cards) + "]\n")
    rules = data_copy / "rules.toml"
    edit(rules, '# file = "decks/my-deck.toml"', 'file = "decks/skewed.toml"')
    edit(rules, 'reading = "uniform"', 'reading = "transcribed"')
    return rules


def test_transcribed_deck_with_a_skewed_column(data_copy):
    # Six cards; column 3 reads 1 on three of them, column 2 reads 1 on one, column 4 reads 1 on two.
    use_skewed_deck(data_copy)
    kit = load(data_copy)
    odds = compute(kit)
    assert odds.deck_size == 6
    assert odds.bail_out_closed == F(3, 6)
    assert odds.bail_out_open == F(1, 6)
    assert odds.fate == {"unhurt": F(3, 6), "wounded": F(2, 6), "killed": F(1, 6)}
    # armed when column 4 = 1 (cards 1 and 2); both have column 3 = 1: rifles, no SMG
    assert odds.weapon == {"pistol": F(4, 6), "rifle": F(2, 6), "smg": F(0)}
    assert odds.armed_chance == F(2, 6) and odds.armed_split == {"rifle": F(1), "smg": F(0)}
    assert odds.expected_survivors[5][False] == 5 * F(5, 6)


def test_weapon_type_from_a_new_card_under_note_9(data_copy):
    # The skewed deck above: column 4 reads 1 on cards 1 and 2 (2/6), column 3 reads 1 on cards
    # 1-3 (3/6).  Same card (note 9 "same_card"): both armed cards read column 3 = 1, all rifles.
    # A new card ("new_card"): the type is an independent draw, rifle 3/6 and SMG 3/6 of armed men.
    rules = use_skewed_deck(data_copy)
    edit(rules, 'note = 9\nreading = "same_card"', 'note = 9\nreading = "new_card"')
    odds = compute(load(data_copy))
    assert odds.armed_chance == F(2, 6) and odds.armed_split == {"rifle": F(1, 2), "smg": F(1, 2)}
    assert odds.weapon == {"pistol": F(4, 6), "rifle": F(2, 6) * F(1, 2), "smg": F(2, 6) * F(1, 2)}


def test_new_card_reading_changes_nothing_over_the_ideal_deck(data_copy):
    # Over the ideal deck columns 3 and 4 are independent: the rule's 25%, 33% and 66% either way.
    edit(data_copy / "rules.toml", 'note = 9\nreading = "same_card"', 'note = 9\nreading = "new_card"')
    odds = compute(load(data_copy))
    assert odds.weapon == WEAPON and odds.armed_split == {"rifle": F(1, 3), "smg": F(2, 3)}


def test_a_deck_that_never_arms_a_man_splits_nothing(data_copy):
    # Column 4 never reads 1: no man gets a rifle or SMG, so there is no share among armed men.
    (data_copy / "decks").mkdir(exist_ok=True)
    (data_copy / "decks" / "unarmed.toml").write_text("columns = [2, 3, 4]\ncards = [[1, 1, 2], [2, 3, 4]]\n")
    rules = data_copy / "rules.toml"
    edit(rules, '# file = "decks/my-deck.toml"', 'file = "decks/unarmed.toml"')
    edit(rules, 'reading = "uniform"', 'reading = "transcribed"')
    odds = compute(load(data_copy))
    assert odds.armed_chance == 0 and odds.armed_split == {"rifle": 0, "smg": 0}


def test_joint_columns_of_one_card_are_kept():
    # Column 4 then column 3 of the SAME card: on the ideal deck they are independent ...
    deck = D.ideal((2, 3, 4))
    assert len(deck) == 2 * 3 * 4
    assert deck.probability(lambda c: c[4] == 1 and c[3] == 1) == F(1, 12)
    # ... but on a deck where they move together the joint chance is not the product.
    tied = D.transcribed((3, 4), [(1, 1), (2, 2), (3, 3), (1, 4)])
    assert tied.probability(lambda c: c[4] == 1) == F(1, 4)
    assert tied.probability(lambda c: c[3] == 1) == F(1, 2)
    assert tied.probability(lambda c: c[4] == 1 and c[3] == 1) == F(1, 4)


@pytest.mark.parametrize("p, text", [(F(1, 3), "33.3%"), (F(2, 3), "66.7%"), (F(1, 12), "8.3%"),
                                     (F(1, 6), "16.7%"), (F(1, 8), "12.5%"), (F(1), "100.0%"), (F(0), "0.0%"),
                                     # two significant figures at least: (1/3)**5, (1/6)**5
                                     (F(1, 243), "0.41%"), (F(1, 7776), "0.013%")])
def test_percent_rounds_half_up(p, text):
    assert percent(p) == text
