"""Property tests: mutated data files and argument lists end in success or a clean exit 2.

How many examples each test tries comes from the Hypothesis profile loaded in tests/conftest.py
(BAILOUT_HYPOTHESIS_PROFILE, BUDGET).
"""

import contextlib
import io
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BUDGET, DATA, SLOW, run_cli
from generator.cli.parser import options_from_args, parser

FILES = ["rules.toml", *sorted(f"nationalities/{p.name}" for p in (DATA / "nationalities").glob("*.toml"))]
NASTY = ["0", "-1", "99", "1e400", "true", '""', '"  "', '"<b>&amp;</b> & <"', '"' + "W" * 10_000 + '"',
         "[]", "[1, 2, 3]", '["x"]', "{}", '{ a = 1 }', "1.5", "1979-05-27", '"\\u00e9\\u4e2d"', "[[1]]"]


def run(argv):
    """`bailout ARGV` in-process: its exit status, and whatever it wrote to stderr."""
    status, _, err = run_cli(*argv)
    return status, err


mutation = st.tuples(
    st.sampled_from(FILES),
    st.integers(0, 10_000),                       # which line (modulo the file's length)
    st.sampled_from(["delete", "value", "duplicate", "insert", "truncate", "garble"]),
    st.sampled_from(NASTY),
    st.integers(0, 10_000),
)


def mutate(text, line_no, how, literal, n):
    lines = text.splitlines() or [""]
    i = line_no % len(lines)
    if how == "delete":
        del lines[i]
    elif how == "value" and "=" in lines[i]:
        lines[i] = lines[i].split("=", 1)[0] + "= " + literal
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "insert":
        lines.insert(i, f"extra_{n % 7} = {literal}")
    elif how == "truncate":
        return text[: n % (len(text) + 1)]
    elif how == "garble" and lines[i]:
        j = n % len(lines[i])
        lines[i] = lines[i][:j] + "]\"=[" [n % 4] + lines[i][j + 1:]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz") / "data"
    shutil.copytree(DATA, folder)
    return folder


@given(changes=st.lists(mutation, min_size=1, max_size=3))
def test_mutated_data_is_accepted_or_cleanly_refused(scratch, changes):
    originals = {}
    try:
        for file, line_no, how, literal, n in changes:
            path = scratch / file
            originals.setdefault(path, path.read_text())
            path.write_text(mutate(path.read_text(), line_no, how, literal, n))
        status, err = run(["odds", "--data", str(scratch)])
        assert status in (0, 2), err
        if status == 2:
            assert err.startswith("bailout: ") and "Traceback" not in err
            assert str(scratch) in err, "the message names the file"
    finally:
        for path, text in originals.items():
            path.write_text(text)


TOKENS = ["build", "check", "odds", "simulate", "crew", "german", "Soviet", "--afv", "--afv-morale", "--casualties",
          "--in-use", "--most", "--json", "--data", "--seed", "--paper", "--only", "--rows",
          "--mode", "--counter-size", "--back-offset", "--sets", "--bw", "--quiet", "--out", "a4", "letter",
          "both", "aid", "aid,counters", "maps", "balanced", "independent", "3/4in", "5/8in", "1in", "16mm",
          "0mm", "1,2", "x,y", "99,0", "0", "1", "-3", "7", "abc", "", "--", "-h", "--version", "\x00"]


# One parser for every list: making it (and argparse's gettext look-ups while it does) was two
# thirds of this test's time; parse_args leaves a parser as it found it.
PARSER = parser()


@settings(max_examples=BUDGET["argument_lists"])
@given(argv=st.lists(st.sampled_from(TOKENS), max_size=8))
def test_argument_lists_parse_or_exit_2(argv):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            args = PARSER.parse_args(argv)
        except SystemExit as exit_:
            assert exit_.code in (0, 2), err.getvalue()
            return
    if args.command == "build":
        options_from_args(args)       # what build would run with: must not raise
        return
    if args.command == "check" and args.data is None and args.templates is None:
        # `bailout check` of the kit's own data and templates, which renders every part (seconds):
        # test_bad_data.py test_shipped_data_is_valid runs it (whole under BAILOUT_SLOW_TESTS=1)
        return
    if args.command == "simulate":
        args_n = min(args.n, 50)
        argv = [a if a != str(args.n) else str(args_n) for a in argv]
    if getattr(args, "data", None) and not args.data.exists():     # `bailout` alone has no --data
        pass                                # a missing folder must still end cleanly
    status, message = run(argv)
    assert status in (0, 2), message


TEXT_KEYS = [("nationalities/german.toml", 'name = "German"', "name = {}"),
             ("nationalities/soviet.toml", 'model = "PPS-43"', "model = {}"),
             ("nationalities/british.toml", 'adjective = "British"', "adjective = {}"),
             ("rules.toml", 'label = "Open-topped AFV"', "label = {}"),
             ("rules.toml", 'credit = "Tom Cundiff"', "credit = {}")]
TEXT = st.text(alphabet=st.sampled_from(list("aZ 9<>&;/\\\"'*_#[]()-\u00e9\u00df\u2014\u4e2d\t")), min_size=1,
               max_size=60) | st.sampled_from(["W" * 10_000, "<b>", "&amp;", "**x**", "{{ 1 }}", "<br>", " "])


# What each example builds: README's command the printed kit (aid, tables of a page, counters,
# merged kit), a third of a whole build's time; the digital tables' own tests feed them a hostile
# name (test_vassal.py test_a_hostile_name_is_escaped_at_every_level, test_tts.py
# test_a_hostile_name_is_one_json_string).  BAILOUT_SLOW_TESTS=1 (CI) builds every part.
PARTS = () if SLOW else ("--only", "aid,prerolled,counters", "--rows", "8")


@settings(max_examples=BUDGET["builds"])
@given(where=st.sampled_from(TEXT_KEYS), text=TEXT)
def test_any_text_in_data_builds_or_is_cleanly_refused(scratch, tmp_path_factory, where, text):
    """Text from data reaches every renderer: it prints, or the build stops with a clean message."""
    import json
    file, old, new = where
    path = scratch / file
    original = path.read_text()
    try:
        path.write_text(original.replace(old, new.format(json.dumps(text)), 1))
        out = tmp_path_factory.mktemp("fuzz-build")
        status, err = run(["build", "--data", str(scratch), "--out", str(out), "--paper", "a4", "--quiet", *PARTS])
        assert status in (0, 2), err
        assert (status == 0) == (out / "kit-a4.pdf").exists()
        if status == 2:
            assert err.startswith("bailout: ") and "Traceback" not in err
    finally:
        path.write_text(original)
