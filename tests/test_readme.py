"""README is the front door: small, its set-up commands first and the ones CI runs."""

import re

from conftest import ROOT

VENV = "python3 -m venv .venv && . .venv/bin/activate"
WINDOWS_VENV = ("py -m venv .venv", ".venv\\Scripts\\activate")
BUILD = "pip install -e . && bailout build"
TEST = 'pip install -e ".[test]" && python -m pytest -q'
MAX_BYTES = 12_000


def _readme():
    return (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(text):
    """[(language, body)] of every fenced code block, in order."""
    return re.findall(r"^```(\w*)\n(.*?)\n```$", text, flags=re.M | re.S)


def _setup_commands():
    """(venv blocks, the two commands after them): README's code blocks before any other."""
    blocks = [body for _, body in _blocks(_readme())]
    first = next(i for i, body in enumerate(blocks) if "venv" not in body)
    return blocks[:first], blocks[first:first + 2]


def test_readme_is_under_12_kb():
    size = len(_readme().encode("utf-8"))
    assert size < MAX_BYTES, f"README.md is {size:,} bytes: move detail into docs/"


def test_the_two_setup_commands_come_first_after_the_venv_line():
    venvs, commands = _setup_commands()
    assert commands == [BUILD, TEST]
    assert venvs[0] == VENV
    assert len(venvs) == 2 and tuple(venvs[1].splitlines()) == WINDOWS_VENV


def test_the_set_up_section_holds_the_venv_lines_and_exactly_two_commands():
    setup = _readme().split("\n## Set up\n", 1)[1].split("\n## ", 1)[0]
    venvs, commands = _setup_commands()
    assert [body for _, body in _blocks(setup)] == venvs + commands


def test_windows_and_posix_venv_lines_stand_side_by_side():
    setup = _readme().split("\n## Set up\n", 1)[1].split("\n## ", 1)[0]
    table = setup.split("<table>", 1)[1].split("</table>", 1)[0]
    assert "Linux, macOS" in table and "Windows" in table
    assert VENV in table and all(line in table for line in WINDOWS_VENV)


def test_ci_runs_the_readme_venv_and_test_commands_in_order():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert VENV in ci and TEST in ci
    assert ci.index(VENV) < ci.index(TEST)


def test_ci_runs_the_test_command_again_with_the_lowest_versions_the_bounds_allow():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    lowest = next(i for i, line in enumerate(ci) if "--resolution lowest-direct" in line)
    assert ci.index(TEST) < lowest and '-e ".[test]"' in ci[lowest]
    assert any("python -m pytest -q" in line and ".venv-lowest" in line for line in ci[lowest + 1:])
    assert ".venv-lowest/" in (ROOT / ".gitignore").read_text().splitlines()


def test_readme_lists_every_command():
    from generator.cli.commands import COMMANDS
    table = _readme().split("## Commands", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `bailout (\w+)", table, re.M))
    assert listed == set(COMMANDS)


def test_every_file_readme_names_is_one_a_build_writes():
    from generator.layout.paper import PAPERS
    from generator.make.outputs import all_file_names
    named = set(re.findall(r"`(?:output/)?([\w-]+\.(?:pdf|csv|html|vmdx|vmod|zip))`", _readme()))
    assert named and named <= set(all_file_names(PAPERS.values()))


def test_ci_picks_a_hypothesis_profile_the_tests_define():
    from conftest import PROFILES
    ci = (ROOT / ".ci" / "run").read_text()
    chosen = re.findall(r"^export BAILOUT_HYPOTHESIS_PROFILE=(\w+)$", ci, flags=re.M)
    assert chosen and chosen[0] in PROFILES and chosen[0] != "default"
    assert PROFILES[chosen[0]]["max_examples"] > PROFILES["default"]["max_examples"]


def test_git_ignores_the_folders_build_and_release_write_by_default():
    from generator.cli.parser import parser
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    for command in ("build", "release"):
        out = parser().parse_args([command]).out
        assert f"{out}/" in ignored or f"/{out}/" in ignored, command


def test_the_release_readme_installs_the_kit_as_readme_does():
    # The release's README.txt sends a player to "set it up as its README.md says ... with the
    # command below": that command is README's own, in every edition.
    from generator.content.words import available_languages, load_words
    install = BUILD.split(" && ", maxsplit=1)[0]
    assert install in _readme()
    for lang in available_languages():
        assert load_words(lang)("release.readme.rebuild.install") == install, lang


def test_readme_names_each_component_a_test_skips_without():
    # A newcomer's `pytest -rs` listed the VASSAL engine, which README's list of skips left out.
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    rows = re.findall(r"^  \| (.+?) \| .+ \| .+ \|$", contributing.split("**Real components.**", 1)[1], flags=re.M)
    components = [row for row in rows if row != "component" and not row.startswith("---")]
    skips = " ".join(_readme().split("Some tests skip", 1)[1].split("\n\n", 1)[0].split())
    assert len(components) > 5
    for component in components:
        names = re.findall(r"[A-Za-z][\w-]{2,}", component.replace("`", ""))
        assert any(re.search(rf"\b{re.escape(n)}\b", skips) for n in names if n not in ("the", "and")), component
