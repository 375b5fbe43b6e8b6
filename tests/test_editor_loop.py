"""The editor's loop: the edition stamp, templates beside the data, bailout.toml, --label,
release --since, and `bailout diff` over editions (template sentences, rule numbers, unique keys)."""

import io
import re
import shutil
import tomllib
import zipfile
from html import escape

import pytest
from msgspec.structs import fields
from pypdf import PdfReader

from conftest import DATA, LIGHTEST_BUILD, ROOT, aid_edition, edit, run_cli
from generator import __version__
from generator.content.compare import compare
from generator.content.stamp import UNSTAMPED, edition_stamp
from generator.content.words import load_words
from generator.data import load
from generator.errors import DataError
from generator.make.pipeline import render_all
from generator.make.release import make_release, zip_name
from generator.options import BuildOptions

TEMPLATES = ROOT / "templates"
OLD, NEW = "Every man who gets out has a pistol.", "Every man who bails out has a pistol."
AID = {"parts": ("aid",), "papers": ("a4",)}


@pytest.fixture
def project(tmp_path):
    """A project folder as `bailout init` makes it: data/ and templates/ side by side."""
    shutil.copytree(DATA, tmp_path / "kit" / "data")
    shutil.copytree(TEMPLATES, tmp_path / "kit" / "templates")
    return tmp_path / "kit"


def _edition(manifest: bytes) -> str:
    return re.search(r"^edition ([0-9a-f]{64})$", manifest.decode(), re.M).group(1)


def test_a_template_edit_changes_the_stamp_the_manifest_the_zip_name_and_the_diff(project):
    kit = load(project / "data")
    # before the edit the project is the kit as shipped, and so is its edition (the test below):
    # the session's English aid
    before = aid_edition("en")
    assert _edition(before["MANIFEST.txt"]) == edition_stamp(kit, BuildOptions(**AID), project / "templates").hash
    edit(project / "templates" / "aid.md.j2", OLD, NEW)
    # the web aid and MANIFEST.txt alone (no paper: the PDFs are test_since.py's to read)
    after = render_all(kit, BuildOptions(parts=("aid",), papers=()), templates=project / "templates")
    assert _edition(before["MANIFEST.txt"]) != _edition(after["MANIFEST.txt"])
    stamps = [edition_stamp(kit, BuildOptions(), t) for t in (TEMPLATES, project / "templates")]
    assert zip_name(stamps[0]) != zip_name(stamps[1])
    short = _edition(after["MANIFEST.txt"])[:10]
    rules = tomllib.loads((DATA / "rules.toml").read_text())["variant"]
    colophon = load_words()("colophon.edition", kit=f"{rules['number']}\u00a0{rules['title']}", version=__version__,
                            stamp=short)
    assert escape(colophon) in after["player-aid.html"].decode()
    result = compare(str(DATA), str(project / "data"))
    changes = [c for _, cs in result.groups for c in cs]
    assert [(c.old, c.new) for c in changes] == [(OLD, NEW)]
    assert result.groups[0][0] == load_words()("item.template.section", section="The procedure")


def test_same_inputs_same_stamp_and_every_option_is_stamped(project):
    kit = load(DATA)
    assert edition_stamp(kit, BuildOptions(), TEMPLATES) == edition_stamp(load(project / "data"), BuildOptions(),
                                                                          project / "templates")
    from fractions import Fraction

    from generator.content.stamp import options_text
    stamped = [f.name for f in fields(BuildOptions) if f.name not in UNSTAMPED]
    # every field, by name (an option added later is covered without more work)
    assert [line.split("=")[0] for line in options_text(BuildOptions()).splitlines()] == stamped
    changed = {"bw": True, "rows": 10, "seed": 1, "mode": "balanced", "sets": 3, "fill": False, "label": "x",
               "counter_mm": Fraction(25), "back_offset_mm": (Fraction(1), Fraction(0))}
    base = edition_stamp(kit, BuildOptions(), TEMPLATES).hash
    for name, value in changed.items():
        assert edition_stamp(kit, BuildOptions(**{name: value}), TEMPLATES).hash != base, name


def test_data_beside_templates_is_read(project, tmp_path):
    edit(project / "templates" / "aid.md.j2", OLD, NEW)
    code, _, err = run_cli("build", "--data", project / "data", "--only", "aid", "--paper", "a4",
                           "--out", tmp_path / "out", "--quiet")
    assert code == 0, err
    assert NEW in (tmp_path / "out" / "player-aid.html").read_text()
    # --templates wins over the folder beside the data: the edition is made of the shipped templates
    # (the session's English aid's), seen in any build's MANIFEST.txt
    code, _, err = run_cli(*LIGHTEST_BUILD, "--data", project / "data", "--templates", TEMPLATES,
                           "--out", tmp_path / "out2")
    assert code == 0, err
    shipped = _templates(aid_edition("en")["MANIFEST.txt"].decode())
    assert _templates((tmp_path / "out2" / "MANIFEST.txt").read_text()) == shipped
    assert _templates((tmp_path / "out" / "MANIFEST.txt").read_text()) != shipped


def _templates(manifest: str) -> str:
    """The templates' hash a MANIFEST.txt lists among its edition's inputs."""
    return re.search(r"^  templates ([0-9a-f]{64})$", manifest, re.M).group(1)


def test_label_prints_in_the_footers_the_colophon_and_the_manifest(tmp_path):
    """The label names the edition for players: in every footer, beside the variant's name; the
    stamp it goes with is the colophon's and MANIFEST.txt's, never a footer's."""
    code, _, err = run_cli("build", "--only", "aid", "--paper", "a4", "--label", "2026 errata 2",
                           "--out", tmp_path, "--quiet")
    assert code == 0, err
    manifest = (tmp_path / "MANIFEST.txt").read_text()
    assert "label 2026 errata 2" in manifest
    words = load_words()
    rules = tomllib.loads((DATA / "rules.toml").read_text())["variant"]
    footer = words("page.footer.named", number=rules["number"], title=rules["title"], label="2026 errata 2",
                   paper="A4")
    stamp = words("page.footer.labelled", stamp=_edition(manifest.encode())[:10], label="2026 errata 2")
    held = words("colophon.edition", kit=f"{rules['number']}\u00a0{rules['title']}", version=__version__, stamp=stamp)
    colophon = " ".join(held.split())
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(tmp_path / "player-aid-a4.pdf").pages]
    assert all(footer in page and stamp not in page.replace(colophon, "") for page in pages)
    assert colophon in pages[-1]
    page = (tmp_path / "player-aid.html").read_text()
    assert escape(held) in page and escape(words("page.footer.named", number=rules["number"], title=rules["title"],
                                                     label="2026 errata 2", paper=words("aid.html.edition"))) in page


def test_project_file_sets_paper_and_counter_size_and_the_command_line_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bailout.toml").write_text('paper = "letter"\ncounter_size = "1in"\nsets = 1\n')
    code, _, err = run_cli("build", "--only", "counters", "--out", "o", "--quiet")
    assert code == 0, err
    made = sorted(p.name for p in (tmp_path / "o").iterdir() if not p.name.startswith("."))
    assert made == ["MANIFEST.txt", "counters-letter.pdf"]
    page = PdfReader(tmp_path / "o" / "counters-letter.pdf").pages[0]
    assert round(float(page.mediabox.width)) == 612          # US Letter: 8.5 in
    one_inch = render_all(load(DATA), BuildOptions(parts=("counters",), papers=("letter",), sets=1,
                                                   counter_mm=BuildOptions().counter_mm * 4 / 3))
    assert (tmp_path / "o" / "counters-letter.pdf").read_bytes() == one_inch["counters-letter.pdf"]
    code, _, err = run_cli("build", "--only", "counters", "--paper", "a4", "--out", "o2", "--quiet")
    assert code == 0 and (tmp_path / "o2" / "counters-a4.pdf").is_file()


def test_project_file_bad_keys_one_line_each(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bailout.toml").write_text('colour = "red"\nsets = "two"\ncounter_size = "huge"\n')
    code, _out, err = run_cli("build", "--out", "o", "--quiet")
    assert code == 2 and not (tmp_path / "o").exists()
    lines = err.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("bailout: bailout.toml: ") for line in lines)
    assert {line.split(": ")[2] for line in lines} == {"colour", "sets", "counter_size"}
    assert "Traceback" not in err


def test_rule_number_edits_are_printed_changes_and_keys_are_unique(data_copy):
    edit(data_copy / "rules.toml", '[after]\nrule = "871"', '[after]\nrule = "871.5"')
    changes = [c for _, cs in compare(str(DATA), str(data_copy)).groups for c in cs]
    assert [(c.key, c.old, c.new) for c in changes] == [("after.rule", "871", "871.5")]
    # A nationality called "german.colour" could take the key of german's colour: the data
    # refuses such a file name (one line, naming the file), and the item keys escape a dot anyway.
    shutil.copy(data_copy / "nationalities" / "german.toml", data_copy / "nationalities" / "german.colour.toml")
    with pytest.raises(DataError) as refused:
        load(data_copy)
    assert any("german.colour.toml" in line for line in refused.value.problems)
    from generator.content.items import key_part
    assert key_part("german.colour") == "german\\.colour"      # not the key of german's colour


def test_release_takes_since_and_names_the_marked_edition(data_copy):
    from generator.cli.parser import options_from_args, parser
    from generator.make.pipeline import context
    options = options_from_args(parser().parse_args(["release", "--since", str(DATA), "--rows", "8"]))
    assert options.since == str(DATA)
    edit(data_copy / "rules.toml", '[after]\nrule = "871"', '[after]\nrule = "871.5"')
    kit = load(data_copy)
    marked = context(kit, options)
    assert marked.changes is not None and marked.changes.groups
    assert marked.stamp != context(kit, BuildOptions(rows=8)).stamp


# A whole release (seconds). README's command holds its pieces with lighter tests: a release takes
# --since, its context marks the changes and its stamp differs from the unmarked one
# (test_release_takes_since_and_names_the_marked_edition above), and the aid marks them
# (test_since.py test_web_aid_marks_the_same_changes, test_manifest_records_the_base).
@pytest.mark.larger_budget
def test_release_since_marks_the_aids(data_copy):
    edit(data_copy / "rules.toml", '[after]\nrule = "871"', '[after]\nrule = "871.5"')
    name, content = make_release(load(data_copy), BuildOptions(rows=8, since=str(DATA)))
    plain = edition_stamp(load(data_copy), BuildOptions(rows=8), TEMPLATES)
    assert name != zip_name(plain)      # the marks are part of the edition
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        html = archive.read(f"{name[:-4]}/player-aid.html").decode()
        manifest = archive.read(f"{name[:-4]}/MANIFEST.txt").decode()
    assert re.search(r'class="[^"]*\bchanged\b', html)      # a card's class may stand beside it
    assert f"since {DATA}:" in manifest
