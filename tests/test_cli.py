import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction as F

import pytest

from conftest import ROOT, SLOW, run_cli


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
    for row in data["survivors"].values():
        for dist in row.values():
            assert sum(F(p) for p in dist.values()) == 1


def test_odds_table_shows_fraction_and_percent():
    status, out, _ = run_cli("odds")
    assert status == 0
    lines = out.splitlines()
    closed = next(ln for ln in lines if "Non-open-topped AFV (871.1.a" in ln)
    assert "1/3" in closed and "33.3%" in closed
    smg = next(ln for ln in lines if ln.strip().startswith("SMG"))
    assert "1/6" in smg and "16.7%" in smg
    # 871.4 in its own terms: "25% Chance" of a weapon, then rifle "33%" and SMG "66%" of those men.
    for start, fraction in (("armed: rifle or SMG", "1/4"), ("of armed men: rifle", "1/3"),
                            ("of armed men: SMG", "2/3")):
        line = next(ln for ln in lines if ln.strip().startswith(start))
        assert line.split()[-2] == fraction, line
    # The Hero card these crews count is the 871.3 one; the man it saves still draws (note 2).
    assert any("Hero card in 871.3 (he still draws for a weapon, note 2)" in ln for ln in lines)


def test_simulate_agrees_with_exact_odds():
    # Within four standard errors of the exact figure, however many draws: README's command
    # draws 5,000 (the errors twice as wide), BAILOUT_SLOW_TESTS=1 20,000.
    status, out, _ = run_cli("simulate", "20000" if SLOW else "5000", "--seed", "1", "--json")
    assert status == 0
    figures = json.loads(out)
    names = {f["name"] for f in figures}
    assert {"bail_out_closed", "bail_out_open", "fate.killed", "weapon.rifle",
            "expected_survivors.5.hero"} <= names
    for f in figures:
        assert f["se"] > 0
        assert abs(f["observed"] - float(F(f["exact"]))) < 4 * f["se"], f


def test_simulate_names_its_rows_in_the_rules_terms():
    # "Non-Open Topped AFVs" (871.1.a) and "Open Topped AFVs" (871.1.b), as the rules data labels
    # them; the JSON keeps its keys.
    import tomllib

    from conftest import DATA
    t = tomllib.loads((DATA / "rules.toml").read_text())
    status, out, _ = run_cli("simulate", "50", "--seed", "2")
    assert status == 0
    rows = [line.split("  ")[0] for line in out.splitlines()[2:-1]]
    for check in t["bail_out"].values():
        assert f"{check['label']}: crew may bail out ({check['rule']})" in rows
    assert not any(r.startswith(("bail_out", "fate.", "weapon.", "expected")) for r in rows)


def test_crew_cites_the_crew_size_note():
    # 871 with 28.431: five men less the commander casualties, never fewer than one: note 5.
    import tomllib

    from conftest import DATA
    t = tomllib.loads((DATA / "rules.toml").read_text())
    status, out, _ = run_cli("crew", "german", "--afv-morale", "5", "--casualties", "1")
    assert status == 0
    note = t["interpretation"]["crew_size"]["note"]
    size = t["crew"]["size"] - t["crew"]["per_commander_casualty"]
    assert f"{size} men (crew of {t['crew']['size']}, 1 commander casualty, 28.431; note {note})" in out


def test_simulate_is_seeded():
    a = run_cli("simulate", "500", "--seed", "7")[1]
    b = run_cli("simulate", "500", "--seed", "7")[1]
    c = run_cli("simulate", "500", "--seed", "8")[1]
    assert a == b and a != c


def test_bad_arguments_exit_2_without_traceback():
    for args in (["simulate", "0"], ["simulate", "x"], ["frobnicate"], ["odds", "--nope"]):
        status, _, err = run_cli(*args)
        assert status == 2, args
        assert "Traceback" not in err and err.startswith("bailout: ") and len(err.splitlines()) == 1, err


def _refusal(argv, capsys):
    """The message argparse gives for `argv` (which must be refused with status 2)."""
    from generator.cli.parser import parser
    with pytest.raises(SystemExit) as exit_:
        parser().parse_args(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


def test_paper_is_case_blind():
    from generator.cli.parser import parser
    for text, paper in (("A4", "a4"), ("Letter", "letter"), ("BOTH", "both")):
        assert parser().parse_args(["build", "--paper", text]).paper == paper


def test_a_bare_inch_size_suggests_its_unit(capsys):
    assert "Did you mean 3/4in?" in _refusal(["build", "--counter-size", "3/4"], capsys)
    assert "Did you mean" not in _refusal(["build", "--counter-size", "50"], capsys)


@pytest.mark.parametrize("command", [["build"], ["simulate", "10"]])
def test_both_commands_take_the_same_seeds_and_say_which(command, capsys):
    from generator.cli.parser import parser
    top = 2 ** 63 - 1
    for good in ("0", "871", str(top)):
        assert parser().parse_args([*command, "--seed", good]).seed == int(good)
    err = _refusal([*command, "--seed", "-5"], capsys)
    assert f"0 to {top}," in err and "draw the same as 5" in err
    assert f"0 to {top}," in _refusal([*command, "--seed", str(top + 1)], capsys)
    assert f"0 to {top}," in _refusal([*command, "--seed", "x"], capsys)


def test_odds_never_print_a_chance_as_zero():
    """Rare chances keep two significant figures: a crew of 5 all killed (871.3) is 1/243, not 0.4%."""
    status, out, _ = run_cli("odds")
    assert status == 0
    rows = [ln.split() for ln in out.splitlines() if ln.endswith("%")]
    assert len(rows) > 30
    for row in rows:
        p, shown = F(row[-2]), row[-1]
        assert p == 0 or shown.rstrip("%").strip("0.") != "", row
        if 0 < p < F(1, 10):
            assert len(shown.rstrip("%").replace(".", "").lstrip("0")) >= 2, row


# -- the command's exit: an ordinary one ---------------------------------------------------------------

def test_the_command_runs_the_exit_handlers_and_keeps_its_status():
    code = """
        import atexit, sys
        atexit.register(lambda: print("handlers ran", flush=True))
        sys.argv = ["bailout", *sys.argv[1:]]
        from generator.cli import run
        run()
    """
    for args, status in ((["--version"], 0), (["build", "--data", "/no/such/folder"], 2)):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert done.returncode == status, done.stderr
        assert "handlers ran" in done.stdout
        assert status == 0 or done.stderr.startswith("bailout: ")


def test_the_command_has_its_collector_pass_seldom_and_a_program_importing_the_kit_keeps_its_own():
    code = """
        import atexit, gc, json, sys
        seen = {"python": gc.get_threshold()}
        atexit.register(lambda: print(json.dumps({**seen, "command": gc.get_threshold()}), flush=True))
        sys.argv = ["bailout", *sys.argv[1:]]
        from generator.cli import run
        from generator.make.workers import COLLECTOR_THRESHOLDS
        seen.update(imported=gc.get_threshold(), kit=COLLECTOR_THRESHOLDS)
        run()
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), "--version"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["imported"] == seen["python"]       # importing the kit leaves the importer's collector alone
    assert seen["command"] == seen["kit"] != seen["python"]


def test_under_a_profiler_the_command_exits_so_the_profile_prints():
    done = subprocess.run([sys.executable, "-m", "cProfile", "-s", "cumtime", "-m", "generator", "--version"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bailout " in done.stdout and "function calls" in done.stdout


def test_a_reader_that_leaves_before_the_last_flush_gets_the_sigpipe_status_and_no_traceback():
    # The reader has gone by the time the command flushes what main() left in stdout's buffer:
    # the status is 128 + SIGPIPE and nothing more is said, at that flush or at the exit's.
    code = """
        import os, sys
        from generator import cli
        read, write = os.pipe()
        os.close(read)
        os.dup2(write, sys.stdout.fileno())
        cli.main = lambda: print("left in the buffer") or 0
        cli.run()
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}        # stdout buffered, as in a pipe
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)
    assert done.returncode == 141 and done.stderr == ""


@pytest.mark.parametrize("argv", [["odds"], ["simulate", "50"], ["crew", "german", "--afv-morale", "5"]])
def test_every_note_a_report_cites_is_printed_with_it(argv):
    # The notes live on the aid's second page; a terminal has no page to turn to.
    import re
    import tomllib

    from conftest import DATA
    notes = {n["note"]: n for n in tomllib.loads((DATA / "rules.toml").read_text())["interpretation"].values()}
    status, out, _ = run_cli(*argv)
    assert status == 0
    lines = out.splitlines()
    printed = {int(m[1]): line for line in lines if (m := re.match(r"  note (\d+): ", line))}
    cited = {int(n) for line in lines if not line.startswith("  note ") for n in re.findall(r"\bnote (\d+)\b", line)}
    assert cited and set(printed) == cited, (cited, sorted(printed))
    for number, line in printed.items():
        note = notes[number]
        assert line.endswith(note["readings"][note["reading"]]), line
