import json
from fractions import Fraction as F

from conftest import run_cli


def test_odds_json_has_exact_fractions():
    status, out, _ = run_cli("odds", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["bail_out_closed"] == "1/3"
    assert data["bail_out_open"] == "1/2"
    assert data["fate"] == {"unhurt": "1/3", "wounded": "1/3", "killed": "1/3"}
    assert data["weapon"] == {"pistol": "3/4", "rifle": "1/12", "smg": "1/6"}
    assert data["armed_chance"] == "1/4" and data["armed_split"] == {"rifle": "1/3", "smg": "2/3"}
    assert data["expected_survivors"]["5"] == {"no_hero": "10/3", "hero": "11/3"}
    for size, row in data["survivors"].items():
        for dist in row.values():
            assert sum(F(p) for p in dist.values()) == 1


def test_odds_table_shows_fraction_and_percent():
    status, out, _ = run_cli("odds")
    assert status == 0
    lines = out.splitlines()
    closed = next(l for l in lines if "Non-open-topped AFV (871.1.a" in l)
    assert "1/3" in closed and "33.3%" in closed
    smg = next(l for l in lines if l.strip().startswith("SMG"))
    assert "1/6" in smg and "16.7%" in smg
    # 871.4 in its own terms: "25% Chance" of a weapon, then rifle "33%" and SMG "66%" of those men.
    for start, fraction in (("armed: rifle or SMG", "1/4"), ("of armed men: rifle", "1/3"),
                            ("of armed men: SMG", "2/3")):
        line = next(l for l in lines if l.strip().startswith(start))
        assert line.split()[-2] == fraction, line
    # The Hero card these crews count is the 871.3 one; the man it saves still draws (note 2).
    assert any("Hero card in 871.3 (he still draws for a weapon, note 2)" in l for l in lines)


def test_simulate_agrees_with_exact_odds():
    status, out, _ = run_cli("simulate", "20000", "--seed", "1", "--json")
    assert status == 0
    figures = json.loads(out)
    names = {f["name"] for f in figures}
    assert {"bail_out_closed", "bail_out_open", "fate.killed", "weapon.rifle",
            "expected_survivors.5.hero"} <= names
    for f in figures:
        assert f["se"] > 0
        assert abs(f["observed"] - float(F(f["exact"]))) < 4 * f["se"], f


def test_simulate_is_seeded():
    a = run_cli("simulate", "500", "--seed", "7")[1]
    b = run_cli("simulate", "500", "--seed", "7")[1]
    c = run_cli("simulate", "500", "--seed", "8")[1]
    assert a == b and a != c


def test_bad_arguments_exit_2_without_traceback():
    for args in (["simulate", "0"], ["simulate", "x"], ["frobnicate"], ["odds", "--nope"], []):
        status, _, err = run_cli(*args)
        assert status == 2, args
        assert "Traceback" not in err and "error" in err
