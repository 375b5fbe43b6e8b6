"""The command line behaves as people expect of click, git or pip: negative numbers
as values, each command named in its refusals, `bailout` alone and `bailout help CMD`, sizes in mm, cm
and in, numbers refused by their size before any arithmetic, every refusal listing what is
accepted, "did you mean", shell completion, help and a default for every option."""

import argparse
import os
import shutil
import subprocess
import time
from fractions import Fraction

import pytest

from conftest import run_cli
from generator.cli.parser import parser
from generator.options import MAX_COUNTER_MM, MIN_COUNTER_MM

MM_PER_INCH = Fraction(254, 10)     # the inch's definition


def test_bailout_alone_lists_the_commands_one_a_line():
    status, out, err = run_cli()
    assert status == 0 and err == ""
    lines = out.splitlines()
    for name in parser().commands:
        assert sum(line.split()[:1] == [name] for line in lines) == 1, name
    assert "bailout help COMMAND" in out


def test_help_command_shows_that_commands_options():
    status, out, _ = run_cli("help", "build")
    assert status == 0 and out.startswith("usage: bailout build")
    assert out == parser().commands["build"].format_help()
    for name, command in parser().commands.items():     # every one, help and completion too
        assert run_cli("help", name) == (0, command.format_help(), ""), name
    status, listed, _ = run_cli("help")
    assert status == 0 and listed == run_cli()[1]
    status, _, err = run_cli("help", "biuld")
    assert status == 2 and "did you mean build?" in err


def test_each_command_names_itself_in_its_refusals():
    status, _, err = run_cli("build", "out2")
    assert status == 2 and err == "bailout: build: unrecognized arguments: out2; did you mean --out out2?\n"
    status, _, err = run_cli("release", "--ouy", "x")
    assert status == 2 and err.startswith("bailout: release: ") and "did you mean --out?" in err
    status, _, err = run_cli("odds", "--jsno")
    assert status == 2 and err.startswith("bailout: odds: ") and "did you mean --json?" in err


@pytest.mark.parametrize("text, offset", [("-0.5,1", (Fraction(-1, 2), Fraction(1))),
                                          ("1.5,-0.5", (Fraction(3, 2), Fraction(-1, 2))),
                                          ("-10,-10", (Fraction(-10), Fraction(-10))),
                                          ("0.5mm,-1mm", (Fraction(1, 2), Fraction(-1)))])
def test_negative_numbers_are_values(text, offset):
    assert parser().parse_args(["build", "--back-offset", text]).back_offset == offset
    assert parser().parse_args(["release", "--back-offset", text]).back_offset == offset


@pytest.mark.parametrize("text, mm", [("2cm", 20), ("20 mm", 20), ("0.75in", Fraction(3, 4) * MM_PER_INCH),
                                      ("3/4in", Fraction(3, 4) * MM_PER_INCH), ("19", 19), ("1.9e1mm", 19),
                                      ("4 CM", 40), (f"{MIN_COUNTER_MM}mm", MIN_COUNTER_MM),
                                      ("1in", MM_PER_INCH), (".7in", MM_PER_INCH * 7 / 10)])
def test_counter_sizes_in_mm_cm_and_inches(text, mm):
    assert parser().parse_args(["build", "--counter-size", text]).counter_size == mm


@pytest.mark.parametrize("argv", [
    ["build", "--counter-size", "1e400mm"], ["build", "--counter-size", "1e99999999mm"],
    ["build", "--counter-size", "-1e99999999mm"], ["build", "--back-offset", "1e99999999,0"],
    ["build", "--back-offset", "0,-1e400"], ["build", "--rows", "9" * 5000], ["simulate", "9" * 5000],
    ["build", "--counter-size", f"{MAX_COUNTER_MM + 0.01}mm"], ["build", "--counter-size", "4.1cm"],
    ["build", "--counter-size", "9.99"], ["build", "--back-offset", "10.01,0"], ["build", "--seed", "1" * 400]])
def test_numbers_out_of_range_answer_at_once_in_one_line(argv):
    started = time.monotonic()
    status, out, err = run_cli(*argv)
    assert time.monotonic() - started < 1.0
    assert status == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"bailout: {argv[0]}: {'N' if argv[0] == 'simulate' else argv[1]}: ") and len(err) < 400


@pytest.mark.parametrize("argv, accepted", [
    (["build", "--paper", "a5"], ["a4", "letter", "both"]),
    (["build", "--mode", "random"], ["balanced", "independent"]),
    (["build", "--only", "maps"], ["aid", "prerolled", "counters"]),
    (["build", "--counter-size", "big"], ["5/8in", "3/4in", "1in", "mm", "cm", "in"]),
    (["build", "--back-offset", "1"], ["X,Y", "-10", "10"]),
    (["build", "--rows", "many"], ["1", "1,000,000"]),
    (["completion", "csh"], ["bash", "zsh", "fish"]),
])
def test_every_refused_value_lists_what_is_accepted(argv, accepted):
    status, _, err = run_cli(*argv)
    assert status == 2
    for word in accepted:
        assert word in err, (word, err)


def test_did_you_mean_for_values_options_and_nationalities():
    assert "did you mean letter?" in run_cli("build", "--paper", "leter")[2]
    assert "did you mean independent?" in run_cli("build", "--mode", "independant")[2]
    assert "did you mean counters?" in run_cli("build", "--only", "aid,counter")[2]
    status, _, err = run_cli("crew", "germn", "--afv-morale", "5")
    assert status == 2 and "did you mean german?" in err and len(err.splitlines()) == 1


def test_a_us_spelling_in_a_data_file_is_named(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    text = german.read_text()
    assert "\ncolour = " in text
    german.write_text(text.replace("\ncolour = ", "\ncolor = ", 1))
    status, _, err = run_cli("check", "--data", data_copy)
    assert status == 2
    assert f"{german}: color: unknown key; did you mean colour? (US spelling)" in err.splitlines()[-1] or \
        any(line.endswith("color: unknown key; did you mean colour? (US spelling)") for line in err.splitlines())


def test_a_misspelt_data_key_gets_the_closest(data_copy):
    rules = data_copy / "rules.toml"
    text = rules.read_text()
    assert 'credit = "' in text
    rules.write_text(text.replace('credit = "', 'credt = "', 1))
    status, _, err = run_cli("check", "--data", data_copy)
    assert status == 2 and any(line.endswith("credt: unknown key; did you mean credit?") for line in err.splitlines())


def test_build_and_simulate_share_one_default_seed():
    p = parser()
    assert p.parse_args(["build"]).seed == p.parse_args(["simulate", "10"]).seed == p.parse_args(["release"]).seed


def _options(command: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in command._actions if a.option_strings and a.help != argparse.SUPPRESS
            and not isinstance(a, argparse._HelpAction)]


def test_every_option_has_help_and_shows_its_default():
    p = parser()
    for name, command in p.commands.items():
        text = command.format_help()
        for action in _options(command):
            assert action.help, (name, action.option_strings)
            if action.default not in (None, False):
                # the default is written in the option's own help, or added by the formatter
                assert "default" in (action.help or "") or f"(default: {action.default})" in text, \
                    (name, action.option_strings)
        for action in command._actions:
            if not action.option_strings:
                assert action.help, (name, action.dest)      # positional arguments too


def test_each_commands_out_help_says_where_that_command_writes():
    # `serve --help` said "(default output/)" while serve writes nothing unless --out is given.
    import re
    for name, command in parser().commands.items():
        out = next((a for a in _options(command) if "--out" in a.option_strings), None)
        if out is None:
            continue
        used = command.parse_args([]).out          # what the command runs with when --out is not given
        folder = re.search(r"\(default:? (\w+)/\)", out.help or "")
        if used is None:
            assert folder is None and "nothing written" in (out.help or ""), (name, out.help)
        else:
            assert folder and folder[1] == used, (name, out.help, used)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell):
    status, script, err = run_cli("completion", shell)
    assert status == 0 and err == ""
    for word in ("build", "simulate", "--counter-size", "--back-offset"):
        assert word in script, word
    checker = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}[shell]
    if not shutil.which(checker[0]):
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI installs {shell} (.ci/run) to check its completion script")
        pytest.skip(f"{shell} is not installed: its completion script is not parsed (apt-get install {shell})")
    done = subprocess.run([*checker], input=script, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr        # the script at least parses in its shell


def test_bash_completes_an_option_and_a_command():
    if not shutil.which("bash"):
        pytest.skip("bash is not installed")
    script = run_cli("completion", "bash")[1]

    def complete(*words: str) -> set[str]:
        """What bash offers for the last of `words` after `bailout`."""
        line = " ".join(("bailout", *words))
        previous = words[-2] if len(words) > 1 else "bailout"
        probe = (f'source /dev/stdin <<< "$SCRIPT"; COMP_WORDS=({line}); COMP_CWORD={len(words)}; '
                 f'COMP_LINE="{line}"; COMP_POINT=${{#COMP_LINE}}; _shtab_bailout bailout {words[-1]} {previous}; '
                 'printf "%s\\n" "${COMPREPLY[@]}"')
        done = subprocess.run(["bash", "-c", probe], env={**os.environ, "SCRIPT": script}, capture_output=True,
                              text=True, timeout=30)
        return set(done.stdout.split())
    assert complete("build", "--pa") == {"--paper"}
    assert complete("si") == {"simulate"}
    assert complete("build", "--paper", "le") == {"letter"}


def test_the_calibration_pages_tell_a_player_what_to_print_not_what_to_build(kit_files):
    """A player holds the PDF: a miss is answered by printing again at actual size with "Fit to
    page" off and measuring again; no rebuild, no back offset to give a builder."""
    import io

    from pypdf import PdfReader
    pages = PdfReader(io.BytesIO(kit_files["counters-a4.pdf"])).pages[:2]     # the calibration sheet
    text = " ".join(" ".join(page.extract_text().split()) for page in pages)
    assert "print this page again at 100% / Actual size, with “Fit to page” off, and measure again" in text
    for program_words in ("build", "offset is", "whoever", "again with it"):
        assert program_words not in text, program_words


def test_an_afv_name_misspelt_gets_the_closest(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text() + '\n[[afv]]\nname = "PzKpfw IVH"\nmorale = 5\nopen_topped = false\n')
    status, _, err = run_cli("crew", "german", "--afv", "PzKpfw IV", "--data", data_copy)
    assert status == 2 and "did you mean PzKpfw IVH?" in err and len(err.splitlines()) == 1
