"""The project file `bailout init` writes: every key it suggests, uncommented alone, builds, and
the lists in its comments are the kit's own (languages, print profiles, papers, modes), as are
the languages the --lang help lists."""

import re

import pytest

from conftest import run_cli
from generator.cli.parser import parser
from generator.cli.project import BUILD_COMMANDS, FILE, KEYS, NEUTRAL, project_defaults, subparsers
from generator.content.rows import MODES
from generator.content.words import available_languages
from generator.options import PAPER_KEYS, PRINT_PROFILES

KEY_LINE = re.compile(r"# (\w+) = (.*?)\s+# (.*)")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """(folder, its bailout.toml's lines) of `bailout init`."""
    folder = tmp_path_factory.mktemp("project")
    status, _, err = run_cli("init", folder)
    assert status == 0, err
    return folder, (folder / FILE).read_text(encoding="utf-8").splitlines()


def key_lines(lines):
    """{key: (index of its line, the note with its continuation lines)} of the template."""
    found = {}
    for i, line in enumerate(lines):
        match = KEY_LINE.fullmatch(line)
        if match:
            more = []
            for after in lines[i + 1:]:
                if not re.fullmatch(r"#\s{20,}# .*", after):
                    break
                more.append(after.split("# ", 2)[-1])
            found[match[1]] = (i, " ".join([match[3], *more]))
    return found


def test_the_template_suggests_every_key_commented(project):
    _, lines = project
    assert all(line.startswith("#") or not line.strip() for line in lines)
    assert set(key_lines(lines)) == set(KEYS)


def test_every_commented_key_uncommented_alone_builds(project, monkeypatch):
    folder, lines = project
    monkeypatch.chdir(folder)
    commands = subparsers(parser())
    for key, (index, _) in key_lines(lines).items():
        alone = [line[2:] if i == index else line for i, line in enumerate(lines)]
        (folder / FILE).write_text("\n".join(alone) + "\n", encoding="utf-8")
        # every build command reads it: the key's option takes the value (paper: not on release, which
        # holds both papers; back_offset: not in a release, for every printer)
        for command in BUILD_COMMANDS:
            taken = project_defaults(folder / FILE, commands, command)
            left = command == "release" and (key == "paper" or key in NEUTRAL[command])
            assert len(taken) == (0 if left else 1), (key, command, taken)
        # a build of a short table: every key is read and checked as any build starts (the parts'
        # own tests build them at these values: the suggested ones are the defaults, 3/4in, the
        # label test_editor_loop.py prints); the key itself where it is paper or rows
        paper = () if key == "paper" else ("--paper", "a4")
        rows = () if key == "rows" else ("--rows", "1")
        status, _, err = run_cli("build", "--only", "prerolled", *paper, *rows, "--out", f"out-{key}", "--quiet")
        assert status == 0 and not err, (key, err)
        assert (folder / f"out-{key}" / "MANIFEST.txt").is_file()


def words_of(note):
    """The names a note lists after its colon ('the print profile: duplex, fold or shop')."""
    return [w for w in re.split(r",\s*|\s+or\s+", note.rsplit(": ", 1)[-1]) if w]


def test_the_lists_in_the_comments_are_the_registries(project):
    notes = {key: note for key, (_, note) in key_lines(project[1]).items()}
    assert words_of(notes["lang"]) == list(available_languages())
    assert words_of(notes["print"]) == list(PRINT_PROFILES)
    assert words_of(notes["paper"]) == [*PAPER_KEYS, "both"]
    assert words_of(notes["mode"]) == list(MODES)


def test_every_key_is_an_option_of_the_build_commands():
    """No key waits for an option the kit lacks: build and serve take them all, release all but
    paper (a release holds both papers)."""
    commands = subparsers(parser())
    for command in BUILD_COMMANDS:
        options = {o for action in commands[command]._actions for o in action.option_strings}
        lacking = {key for key in KEYS if f"--{key.replace('_', '-')}" not in options}
        assert lacking == ({"paper"} if command == "release" else set()), command


def test_lang_help_lists_every_catalogue():
    commands = subparsers(parser())
    for command in BUILD_COMMANDS:
        [action] = [a for a in commands[command]._actions if "--lang" in a.option_strings]
        listed = re.search(r"(?:language: |one of )(.*?) \(default", action.help)[1]
        assert words_of(f": {listed}") == list(available_languages()), command
