"""One style for every bad argument, whichever command and option: one line on stderr that says
what is wrong (and the closest accepted name where one is close, else where the options are
listed), exit status 2, no usage block (that is for --help) and nothing on stdout.  Every option
of every command is tried with a value it refuses and misspelt."""

import argparse
import re

import pytest

from conftest import DATA, run_cli
from generator.cli.parser import parser

# A value each option (by its long name) and each positional (by its dest) refuses, at once or as
# its command starts, before any work.  A new option needs its row here (a test holds that).
BAD_VALUES = {
    "--data": "no-such-folder", "--templates": "no-such-folder", "--config": "no-such.toml",
    "--out": "a-file", "--since": "no-such-folder", "--paper": "a5", "--only": "maps", "--rows": "0",
    "--seed": "-1", "--mode": "random", "--counter-size": "big", "--back-offset": "1", "--sets": "0",
    "--print": "duplx", "--label": "bell\x07", "--lang": "german", "--jobs": "0", "--port": "70000",
    "--afv": "Panther", "--afv-morale": "99", "--casualties": "-1", "--in-use": "G99", "--most": "0",
    "nationality": "russian", "old": "no-such-folder", "new": "no-such-folder", "n": "x", "folder": "a-file",
    "shell": "csh", "topic": "buidl", "--image-url": "ftp://example.org/bailout/",
}
# What each command needs besides the option tried, so that the option is what is refused.
GIVEN = {"crew": ["german", "--afv-morale", "5"], "simulate": ["10"], "diff": [str(DATA)], "completion": ["bash"]}


def _arguments():
    """(command, action, its name: the long option or the positional's dest) for every argument."""
    for command, sub in parser().commands.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            name = next((o for o in action.option_strings if o.startswith("--")), action.dest)
            yield command, action, name


ARGUMENTS = list(_arguments())


def _bad_argv(command, action, name):
    """The command line that gives `name` a value it refuses (a flag: a value it takes none of)."""
    given = GIVEN.get(command, [])
    if action.option_strings and action.nargs == 0:
        return [command, *given, f"{name}=yes"]
    if action.option_strings:
        if name == "--afv":     # instead of --afv-morale, not beside it
            return [command, given[0], name, BAD_VALUES[name]]
        return [command, *given, name, BAD_VALUES[name]]
    if name == "nationality":
        return [command, BAD_VALUES[name], *given[1:]]
    if name == "old":
        return [command, BAD_VALUES[name], str(DATA)]
    if name == "new":
        return [command, str(DATA), BAD_VALUES[name]]
    return [command, BAD_VALUES[name]]


@pytest.fixture
def no_serving(monkeypatch, tmp_path):
    """A scratch folder to run in (with a file named a-file), where a serve that got as far as
    serving fails at once rather than serving until the test times out."""
    from generator.make import serve

    def served(*args, **kwargs):
        raise AssertionError("serve started serving despite a bad argument")
    monkeypatch.setattr(serve, "serve", served)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder\n")


def _one_line(status, out, err, command):
    assert status == 2, err
    assert out == "" and "Traceback" not in err and "usage:" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bailout: "), err
    return lines[0]


def test_every_argument_has_a_bad_value_to_try():
    named = {name for _, action, name in ARGUMENTS if action.nargs != 0}
    assert named <= set(BAD_VALUES), sorted(named - set(BAD_VALUES))


@pytest.mark.parametrize("command, action, name", ARGUMENTS, ids=[f"{c} {n}" for c, _, n in ARGUMENTS])
def test_a_refused_value_is_one_line(no_serving, command, action, name):
    argv = _bad_argv(command, action, name)
    _one_line(*run_cli(*argv), command)


LONG_OPTIONS = [(command, option) for command, action, _ in ARGUMENTS for option in action.option_strings
                if option.startswith("--")]


@pytest.mark.parametrize("command, option", LONG_OPTIONS, ids=[f"{c} {o}" for c, o in LONG_OPTIONS])
def test_a_misspelt_option_is_one_line_with_the_option_meant(no_serving, command, option):
    # the last letter doubled: no option starts so, so argparse cannot take it for a short form
    line = _one_line(*run_cli(command, *GIVEN.get(command, []), option + option[-1], "x"), command)
    assert re.search(rf"did you mean [^?]*(?<![\w-]){re.escape(option)}(?![\w-])", line), line
    assert line.startswith(f"bailout: {command}: unrecognized arguments: {option + option[-1]}"), line


@pytest.mark.parametrize("argv, words", [
    (["buidl"], "'buidl' is not a command; did you mean build?"),
    (["help", "biuld"], "did you mean build?"),
    (["crew", "german"], "bailout help crew lists its options"),
    (["diff"], "the following arguments are required: OLD; bailout help diff lists its options"),
    (["odds", "extra"], "unrecognized arguments: extra; bailout help odds lists its options"),
    (["build", "--papr", "a4"], "did you mean --paper"),
])
def test_no_usage_block_unless_asked(no_serving, argv, words):
    line = _one_line(*run_cli(*argv), argv[0])
    assert words in line, line


def test_usage_on_request():
    status, out, err = run_cli("build", "--help")
    assert status == 0 and out.startswith("usage: bailout build") and err == ""


@pytest.mark.parametrize("name", ["german", "deutsch", "Deutsch", "allemand", "tedesco", "niemiecki", "немецкий"])
def test_a_language_named_in_any_language_suggests_its_code(name):
    # Babel's (CLDR's) names of German: in English, in German itself, French, Italian, Polish, Russian
    line = _one_line(*run_cli("build", "--lang", name), "build")
    assert "did you mean de?" in line and "the kit has en, de" in line, line
    line = _one_line(*run_cli("release", "--lang", f"en,{name}"), "release")
    assert "did you mean de?" in line, line


@pytest.mark.parametrize("name, key", [("russian", "soviet"), ("Russisch", "soviet"), ("Sowjetunion", "soviet"),
                                       ("Sowjets", "soviet"), ("Red Army", "soviet"), ("Germany", "german"),
                                       ("deutsch", "german"), ("allemand", "german"), ("japonais", "japanese")])
def test_a_nationality_named_in_any_language_suggests_its_file(name, key):
    # the data's speaks (soviet: ru, whose names Babel gives), its names and armies, and the
    # glossaries' (data/glossary/de.toml names the Soviets "Sowjets")
    line = _one_line(*run_cli("crew", name, "--afv-morale", "5"), "crew")
    assert f"did you mean {key}?" in line, line


def test_english_names_both_nationalities_that_speak_it():
    line = _one_line(*run_cli("crew", "english", "--afv-morale", "5"), "crew")
    assert "did you mean american or british?" in line, line


@pytest.mark.parametrize("argv, words", [
    (["release", "--print", "duplex,fol"], "'fol' is not a print profile; did you mean fold?"),
    (["release", "--print", ","], "names no print profile; accepted: duplex, fold"),
    (["release", "--lang", ","], "names no language; the kit has en, de"),
    (["build", "--lang", "ja,de"], "one language here (bailout release takes a comma list)"),
])
def test_a_comma_list_names_the_member_it_refuses(no_serving, argv, words):
    # release --print duplex,fol said "--print: --print takes ...; got 'duplex,fol'", naming
    # neither the profile it refused nor the one meant
    line = _one_line(*run_cli(*argv), argv[0])
    assert words in line and line.count(argv[1]) == 1, line
