"""Print profiles are registry entries (generator/profiles/): one a test registers, a copy of fold
under another name, is a profile like the shipped ones, built by `bailout build --print NAME`
and listed by --help; and no code outside the registry spells a profile's name."""

import ast
import re

import pytest
from msgspec.structs import replace
from pypdf import PdfReader

from conftest import ROOT, page_texts, run_cli
from generator.profiles import registry
from generator.profiles.fold import FOLD
from generator.profiles.print_profile import ColourModel

NAME = "fold-copy"
HELP = "fold's sheets under another name, registered by a test"
BUILD = ("--only", "counters", "--paper", "a4", "--quiet")


@pytest.fixture
def added(monkeypatch):
    """A copy of fold registered as NAME for one test: an entry, and nothing else."""
    monkeypatch.setitem(registry.PROFILES, NAME, replace(FOLD, name=NAME, help=HELP))


def built(folder, profile):
    """(counters-a4.pdf's page texts with the edition stamp taken out, MANIFEST.txt's lines)."""
    status, _, err = run_cli("build", "--print", profile, "--out", folder, *BUILD)
    assert status == 0, err
    manifest = (folder / "MANIFEST.txt").read_text().splitlines()
    stamp = next(line.split()[1] for line in manifest if line.startswith("edition "))
    pdf = (folder / "counters-a4.pdf").read_bytes()
    return [re.sub(stamp[:8] + r"\w*", "STAMP", text) for text in page_texts(pdf)], manifest


def test_a_profile_added_to_the_registry_builds_as_the_profile_it_copies(added, tmp_path):
    ours, manifest = built(tmp_path / "copy", NAME)
    theirs, _ = built(tmp_path / "fold", FOLD.name)
    assert f"print {NAME}" in manifest
    assert ours == theirs       # the same fold-and-glue sheets, page for page, word for word
    prefs = PdfReader(tmp_path / "copy" / "counters-a4.pdf").trailer["/Root"].get("/ViewerPreferences", {})
    assert "/Duplex" not in prefs, "printed on one side, as fold is"


@pytest.mark.parametrize("command", ["build", "release"])
def test_help_lists_a_profile_added_to_the_registry(added, command):
    status, out, _ = run_cli(command, "--help")
    assert status == 0
    assert NAME in out and " ".join(HELP.split()) in " ".join(out.split())


def test_a_release_takes_a_profile_added_to_the_registry(added):
    from generator.cli.parser import options_from_args, parser
    args = parser().parse_args(["release", "--print", f"{NAME},{FOLD.name}"])
    assert args.print_profile == (NAME, FOLD.name)
    assert options_from_args(args).profile.fold_sheets


def test_an_unknown_profile_is_refused_in_one_line(tmp_path):
    status, _, err = run_cli("build", "--print", NAME, "--out", tmp_path, *BUILD)
    assert status == 2 and "Traceback" not in err and NAME in err
    assert all(name in err for name in registry.names())        # it says what --print takes


def test_profile_names_are_spelt_only_in_the_registry():
    names = set(registry.names())
    code = ROOT / "generator"
    spelt = []
    for path in sorted(code.rglob("*.py")):
        if path.relative_to(code).parts[0] == "profiles":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                spelt.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not spelt, "ask the profile (options.profile), not its name:\n" + "\n".join(spelt)


def test_inks_and_a_prepress_go_together():
    with pytest.raises(ValueError, match=NAME):
        replace(FOLD, name=NAME, colour=ColourModel.CMYK)       # CMYK, but no boxes or output intent
