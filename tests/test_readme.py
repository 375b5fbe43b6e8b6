import re

from conftest import ROOT

VENV = "python3 -m venv .venv && . .venv/bin/activate"


def _readme():
    return (ROOT / "README.md").read_text()


def _commands():
    setup = _readme().split("## Set up", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_readme_makes_a_venv_then_has_exactly_two_setup_commands():
    venv, build, test = _commands()
    assert venv == VENV
    assert "bailout build" in build
    assert "pytest" in test


def test_ci_runs_the_readme_venv_and_test_commands_in_order():
    venv, _, test = _commands()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert venv in ci and test in ci
    assert ci.index(venv) < ci.index(test)


def test_readme_lists_every_command():
    from generator.cli.commands import COMMANDS
    table = _readme().split("## Commands", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `bailout (\w+)", table, re.M))
    assert listed == set(COMMANDS)


def test_ci_picks_a_hypothesis_profile_the_tests_define():
    from conftest import PROFILES
    ci = (ROOT / ".ci" / "run").read_text()
    chosen = re.findall(r"^export BAILOUT_HYPOTHESIS_PROFILE=(\w+)$", ci, flags=re.M)
    assert chosen and chosen[0] in PROFILES and chosen[0] != "default"
    assert PROFILES[chosen[0]]["max_examples"] > PROFILES["default"]["max_examples"]
