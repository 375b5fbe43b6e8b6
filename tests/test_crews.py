"""871.2: crews from a roster.  Expected crews are worked out by hand in the comments, and by
counting every choice of cards against rules.toml's crew numbers (never the code under test)."""

import re
import tomllib
from itertools import combinations

from conftest import DATA, edit, one_line, run_cli
from generator.data import load
from generator.engine.crews import find_crews

ROSTER = [("G1", "SL", 4), ("G2", "ASL", 3), ("G3", "", 3), ("G4", "", 3), ("G5", "", 2), ("G6", "", 4),
          ("G7", "", 2)]


def add_roster(data, afv_morale=5):
    text = "".join(f'\n[[roster]]\ncard = "{c}"\n' + (f'role = "{r}"\n' if r else "") + f"morale = {m}\n"
                   for c, r, m in ROSTER)
    text += f'\n[[afv]]\nname = "Test AFV"\nmorale = {afv_morale}\nopen_topped = false\n'
    with open(data / "nationalities" / "german.toml", "a") as handle:
        handle.write(text)


def ids(search):
    return {frozenset(card.card_id for card in crew) for crew in search.crews}


def test_crews_meet_the_average_and_the_one_leader_limit(data_copy):
    # AFV Morale 5, offset -2: average 3, five men total 15.  The seven cards total 21, so the two
    # left out total 6: G1+G5, G1+G7, G6+G5, G6+G7, G2+G3, G2+G4, G3+G4.  Keeping both G1 (SL) and
    # G2 (ASL) breaks the one-leader limit, which rules out G6+G5, G6+G7 and G3+G4.
    add_roster(data_copy)
    kit = load(data_copy)
    german = next(n for n in kit.nationalities if n.key == "german")
    search = find_crews(kit.rules, german.roster, 5)
    assert (search.size, search.average, search.total) == (5, 3, 15)
    every = {f"G{i}" for i in range(1, 8)}
    assert ids(search) == {frozenset(every - {a, b}) for a, b in
                           (("G1", "G5"), ("G1", "G7"), ("G2", "G3"), ("G2", "G4"))}


def test_commander_casualty_and_cards_in_use(data_copy):
    # One casualty: 4 men totalling 12, from G2..G7 (G1 in use): drop two totalling 17 - 12 = 5,
    # i.e. a 3 and a 2: G2/G3/G4 with G5/G7, six crews, each with at most the one ASL.
    add_roster(data_copy)
    kit = load(data_copy)
    german = next(n for n in kit.nationalities if n.key == "german")
    search = find_crews(kit.rules, german.roster, 5, commander_casualties=1, in_use=["G1"])
    assert (search.size, search.total) == (4, 12)
    rest = {f"G{i}" for i in range(2, 8)}
    assert ids(search) == {frozenset(rest - {a, b}) for a in ("G2", "G3", "G4") for b in ("G5", "G7")}


def test_crew_command(data_copy):
    add_roster(data_copy)
    status, out, err = run_cli("crew", "german", "--afv", "test afv", "--data", data_copy)
    assert status == 0, err
    assert "average Morale 3" in out and "totals 15" in out and "4 crews" in out
    status, out, _ = run_cli("crew", "american", "--afv-morale", "6", "--data", data_copy)
    assert status == 0 and "average Morale 4" in out and "key: roster" in out
    status, out, _ = run_cli("crew", "american", "--afv-morale", "6", "--casualties", "4", "--data", data_copy)
    assert status == 0 and "1 man (" in out and "4 commander casualties" in out
    for args, words in ((["martian", "--afv-morale", "5"], "no nationality"),
                        (["german", "--afv", "Tiger"], "no AFV named"),
                        (["german", "--afv-morale", "5", "--in-use", "G99"], "G99"),
                        (["german"], "required"),
                        (["german", "--afv-morale", "99"], "--afv-morale must be"),
                        # a crew of five, never fewer than one (note 5): four casualties are the most
                        # that change it; a fifth would be printed as if it counted
                        (["german", "--afv-morale", "5", "--casualties", "5"], "give 0 to 4")):
        status, _, err = run_cli("crew", *args, "--data", data_copy)
        assert status == 2 and words in err and "Traceback" not in err, (args, err)


def test_crew_command_says_when_871_2_cannot_be_met(data_copy):
    # 871.2: average Morale "two less than the Morale Value of the AFV": an AFV of Morale 1 asks
    # for an average of -1, which no personality card can give.
    status, out, _ = run_cli("crew", "german", "--afv-morale", "1", "--data", data_copy)
    assert status == 0 and "average Morale -1" in out and "871.2 cannot be met as written" in out
    status, out, _ = run_cli("crew", "german", "--afv-morale", "5", "--data", data_copy)
    assert status == 0 and "cannot be met" not in out


# -- the crews `bailout crew` lists ----------------------------------------------------------------

CREW = tomllib.loads((DATA / "rules.toml").read_text())["crew"]
LISTED = re.compile(r"(G\d+)(?: (SL|ASL))? \(M(\d+)\)")


def expected_crews(afv_morale, casualties=0, in_use=()):
    """Every crew 871.2 allows from ROSTER, counted by hand: `size` unused cards (the crew less
    one man a commander casualty, never below the minimum) whose Morale averages the AFV's plus
    the offset, with at most `max_leaders` SL or ASL."""
    size = max(CREW["size"] - CREW["per_commander_casualty"] * casualties, CREW["minimum_size"])
    free = [card for card in ROSTER if card[0] not in in_use]
    return {frozenset(c for c, _, _ in crew) for crew in combinations(free, size)
            if sum(m for _, _, m in crew) == (afv_morale + CREW["morale_offset"]) * size
            and sum(r in CREW["leader_roles"] for _, r, _ in crew) <= CREW["max_leaders"]}


def listed_crews(out):
    """The crews the report lists, one a line, each as the set of its card ids; each card as the
    roster gives it (role and Morale); the notes the report ends with are not crews."""
    crews = []
    for line in out.splitlines():
        if line.startswith("  ") and not line.startswith(("  ...", "  note ")):
            cards = LISTED.findall(line)
            assert ", ".join(f"{c}{' ' + r if r else ''} (M{m})" for c, r, m in cards) == line.strip(), line
            assert all((c, r, int(m)) in ROSTER for c, r, m in cards), line
            crews.append(frozenset(c for c, _, _ in cards))
    return crews


def test_crew_command_lists_every_crew(data_copy):
    add_roster(data_copy)
    every = expected_crews(5)
    assert len(every) == 4      # as worked out in test_crews_meet_the_average_and_the_one_leader_limit
    status, out, err = run_cli("crew", "german", "--afv", "test afv", "--data", data_copy)
    assert status == 0, err
    crews = listed_crews(out)
    assert len(crews) == len(every) and set(crews) == every
    assert "more (--most N" not in out
    # one casualty, G1 in use: six crews of four (test_commander_casualty_and_cards_in_use)
    every = expected_crews(5, casualties=1, in_use=("G1",))
    assert len(every) == 6
    status, out, err = run_cli("crew", "german", "--afv-morale", "5", "--casualties", "1", "--in-use", "G1",
                               "--data", data_copy)
    assert status == 0, err
    crews = listed_crews(out)
    assert len(crews) == 6 and set(crews) == every


def test_crew_command_most_limits_the_list(data_copy):
    add_roster(data_copy)
    for args, every in ((["--afv", "test afv"], expected_crews(5)),
                        (["--afv-morale", "5", "--casualties", "1", "--in-use", "G1"],
                         expected_crews(5, casualties=1, in_use=("G1",)))):
        for most in (1, 2, len(every) - 1, len(every), len(every) + 5):
            status, out, err = run_cli("crew", "german", *args, "--most", most, "--data", data_copy)
            assert status == 0, err
            crews = listed_crews(out)
            shown = min(most, len(every))
            assert len(crews) == shown and len(set(crews)) == shown and set(crews) <= every, (args, most)
            more = len(every) - shown
            assert (f"... and {more} more" in out) == (more > 0), (args, most, out)
            assert f"{len(every)} crews from" in out


# -- under the no_floor reading, every man lost --------------------------------------------------

def test_crew_reduced_to_none_is_one_line_not_a_division_by_zero(data_copy):
    rules = tomllib.loads((data_copy / "rules.toml").read_text())
    crew = rules["crew"]
    assert "no_floor" in rules["interpretation"]["crew_size"]["readings"]     # the shipped reading
    edit(data_copy / "rules.toml", 'reading = "floor"', 'reading = "no_floor"')
    lost = crew["size"] // crew["per_commander_casualty"]      # casualties that leave no man (28.431)
    status, out, err = run_cli("crew", "german", "--afv-morale", "7", "--casualties", str(lost),
                               "--data", str(data_copy))
    one_line(status, err, "none bails out", str(lost))
    assert out == ""
    status, out, err = run_cli("crew", "german", "--afv-morale", "7", "--casualties", str(lost - 1),
                               "--data", str(data_copy))
    assert status == 0, err


# -- a roster added as docs/editing.md and the shipped files' example say -----------------------

def _docs_example():
    """The TOML block docs/editing.md gives under "Your own personality cards and AFVs"."""
    text = (DATA.parent / "docs" / "editing.md").read_text(encoding="utf-8")
    section = text.split("### Your own personality cards and AFVs", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```toml\n(.*?)```", section, re.S)[1]


def _crew_finds(data, nationality, example):
    """`bailout crew NATIONALITY --afv NAME` on `data`, NAME the example's AFV: its output."""
    table = tomllib.loads(example)
    [afv] = table["afv"]
    status, out, err = run_cli("crew", nationality, "--afv", afv["name"], "--data", data)
    assert status == 0, err
    assert f"{afv['name']} (Morale {afv['morale']})" in out
    cards = len(table["roster"])
    # "1 crew", "1 unused card": the shipped files' example lists one card
    assert re.search(rf" from {cards} unused card{'' if cards == 1 else 's'}[.:]", out), out
    return out


def test_a_roster_added_as_the_docs_show_is_found(data_copy):
    with open(data_copy / "nationalities" / "german.toml", "a", encoding="utf-8") as handle:
        handle.write("\n" + _docs_example())
    _crew_finds(data_copy, "german", _docs_example())


def test_each_nationality_file_ends_with_the_example_commented_out(data_copy):
    kit = load(DATA)
    assert all(not n.afvs and not n.roster for n in kit.nationalities)     # commented out: nothing listed
    for nationality in kit.nationalities:
        path = data_copy / "nationalities" / f"{nationality.key}.toml"
        text = path.read_text(encoding="utf-8")
        head, example = text.split("\n#[[afv]]\n", 1)
        assert f'bailout crew {nationality.key} --afv "' in head.rsplit("\n\n", 1)[1]    # its comment says how
        # as the comment says: the first "#" off each line from [[afv]] on
        uncommented = "\n".join(line[1:] for line in ("#[[afv]]\n" + example).splitlines())
        path.write_text(head + "\n" + uncommented + "\n", encoding="utf-8")
        _crew_finds(data_copy, nationality.key, uncommented)


def test_an_afv_asked_for_where_none_is_listed_says_where_and_how(data_copy):
    status, out, err = run_cli("crew", "german", "--afv", "PzKpfw IVH", "--data", data_copy)
    one_line(status, err, str(data_copy / "nationalities" / "german.toml"), "no AFV is listed", "[[afv]]",
             "docs/editing.md", "--afv-morale M")
    assert out == ""


def test_crew_prints_the_note_it_cites(data_copy):
    rules = tomllib.loads((DATA / "rules.toml").read_text())["interpretation"]["crew_size"]
    status, out, _ = run_cli("crew", "german", "--afv-morale", "5", "--data", data_copy)
    assert status == 0 and f"note {rules['note']})" in out
    assert f"  note {rules['note']}: {rules['readings'][rules['reading']]}" in out.splitlines()
