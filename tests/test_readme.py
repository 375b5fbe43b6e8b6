import re

from conftest import ROOT


def _commands():
    text = (ROOT / "README.md").read_text()
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_readme_has_exactly_two_setup_commands():
    build, test = _commands()
    assert "bailout build" in build
    assert "pytest" in test


def test_ci_runs_the_readme_test_command():
    _, test = _commands()
    ci = (ROOT / ".ci" / "run").read_text()
    assert test in ci.splitlines()


def test_ci_picks_a_hypothesis_profile_the_tests_define():
    from conftest import PROFILES
    ci = (ROOT / ".ci" / "run").read_text()
    chosen = re.findall(r"^export BAILOUT_HYPOTHESIS_PROFILE=(\w+)$", ci, flags=re.M)
    assert chosen and chosen[0] in PROFILES and chosen[0] != "default"
    assert PROFILES[chosen[0]]["max_examples"] > PROFILES["default"]["max_examples"]
