"""The docs say what the code does: their tables of languages, print profiles, papers and output
files are the registries' entries, the reference names every option and project-file key, and
every link leads to a file and heading that exist."""

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

import pytest

from conftest import ROOT

DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "benchmarks" / "README.md",
               *(ROOT / "docs").glob("*.md")])
REFERENCE = ROOT / "docs" / "reference.md"


def _text(path):
    return path.read_text(encoding="utf-8")


def _prose(text):
    """The text with its fenced code blocks left out (a '# comment' there is no heading)."""
    return re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)


def _cells(line):
    """A table row's cells, split at pipes that are not escaped (`a4\\|letter`)."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _tables(path):
    """[(header cells, [row cells])] of every Markdown table in the file."""
    lines, found = _prose(_text(path)).splitlines(), []
    for i in range(len(lines) - 1):
        if lines[i].startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[i + 1].strip()) \
                and not (i and lines[i - 1].startswith("|")):
            rows = []
            for line in lines[i + 2:]:
                if not line.startswith("|"):
                    break
                rows.append(_cells(line))
            found.append((_cells(lines[i]), rows))
    return found


def _tables_headed(first):
    """Every table in the docs whose first column is headed `first`: [(file, rows)]."""
    tables = [(path.relative_to(ROOT), rows) for path in DOCS for header, rows in _tables(path)
              if header[0].lower() == first]
    assert tables, f"no table headed {first!r} in {', '.join(str(p.relative_to(ROOT)) for p in DOCS)}"
    return tables


def _codes(cell):
    """The `code` spans of a cell."""
    return re.findall(r"`([^`]+)`", cell)


def _names(registry):
    """The entry names of a registry: its keys, or each entry's name (or key), or the strings."""
    if isinstance(registry, Mapping):
        return list(registry)
    return [entry if isinstance(entry, str) else getattr(entry, "name", None) or entry.key for entry in registry]


def _first_column(rows):
    return [code for row in rows for code in _codes(row[0])]


def test_the_language_tables_are_the_catalogues():
    from generator.content.words import available_languages
    for where, rows in _tables_headed("language"):
        listed = _first_column(rows)
        assert sorted(listed) == sorted(available_languages()), where


def test_the_print_profile_tables_are_the_registry():
    from generator.options import PRINT_PROFILES
    for where, rows in _tables_headed("print profile"):
        listed = _first_column(rows)
        assert sorted(listed) == sorted(_names(PRINT_PROFILES)), where


def test_the_paper_tables_are_the_registry():
    from generator.layout.paper import PAPERS
    for where, rows in _tables_headed("paper"):
        assert _first_column(rows) == list(PAPERS), where
        for row in rows:
            assert row[1].startswith(PAPERS[_codes(row[0])[0]].label + ","), (where, row)


def test_the_output_file_tables_are_the_registry():
    from generator.layout.paper import PAPERS
    from generator.make.outputs import OUTPUTS
    part = {name: output.part for output in OUTPUTS for name in output.file_names(PAPERS.values())}
    for where, rows in _tables_headed("output file"):
        listed = {name: row[1].strip("`") for row in rows for name in _codes(row[0])}
        assert sorted(listed) == sorted([*part, "MANIFEST.txt"]), where
        assert {name: listed[name] for name in part} == part, where


def test_the_reference_names_every_command_and_option():
    from generator.cli.commands import COMMANDS
    from generator.cli.parser import parser
    text = _text(REFERENCE)
    commands = {row[0].split()[1].strip("`") for header, rows in _tables(REFERENCE) if header[0] == "command"
                for row in rows}
    assert commands == set(COMMANDS)
    options = {(name, option) for name, command in parser().commands.items() for action in command._actions
               for option in action.option_strings if option.startswith("--") and option != "--help"}
    missing = [f"{name} {option}" for name, option in sorted(options)
               if not re.search(rf"`{re.escape(option)}(?![\w-])", text)]
    assert not missing, f"not in {REFERENCE.name}: {', '.join(missing)}"


def test_the_reference_lists_every_project_file_key():
    from generator.cli.project import KEYS
    [rows] = [rows for header, rows in _tables(REFERENCE) if header[0] == "key" and header[1] == "option"]
    assert [row[0].strip("`") for row in rows] == list(KEYS)
    for row in rows:        # each key is its option, underscores as hyphens
        assert row[1] == f"`--{row[0].strip('`').replace('_', '-')}`", row


def test_editing_names_every_interpretation_note():
    rules = tomllib.loads((ROOT / "data" / "rules.toml").read_text(encoding="utf-8"))
    [rows] = [rows for header, rows in _tables(ROOT / "docs" / "editing.md") if header[:2] == ["note", "setting"]]
    listed = {row[1].strip("`"): int(row[0]) for row in rows}
    assert listed == {name: note["note"] for name, note in rules["interpretation"].items()}


def test_contributing_names_what_ci_sets_and_benchmarks_readme_every_script():
    ci = _text(ROOT / ".ci" / "run")
    contributing = _text(ROOT / "CONTRIBUTING.md")
    for variable in re.findall(r"^export (BAILOUT_\w+)=", ci, flags=re.M):
        assert variable in contributing, variable
    bench = _text(ROOT / "benchmarks" / "README.md")
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        assert f"`{script.name}`" in bench, script.name


def _slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path):
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", _prose(_text(path)), flags=re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_heading_that_exist(doc):
    links = re.findall(r"\]\(([^)\s]+)\)", _prose(_text(doc)))
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue        # a web address
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        assert path.exists(), f"{doc.name}: {link}: no such file"
        if anchor:
            assert anchor in _anchors(Path(path)), f"{doc.name}: {link}: no such heading"
