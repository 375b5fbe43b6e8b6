"""`bailout build`: the whole kit, reproducible, bookmarked, atomic."""

import ast
import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys

import pytest
from pypdf import PdfReader

from commands_source import parsed
from conftest import DATA, ROOT, SLOW, edit, run_cli
from generator.cli import main
from generator.layout.paper import PAPERS as PAPERS_BY_KEY
from generator.make import transaction as B
from generator.make.outputs import OUTPUTS, all_file_names, part_pdf
from generator.profiles.registry import DEFAULT as _DEFAULT
from generator.profiles.registry import PROFILES as _PROFILES

DEFAULT_PROFILE = _PROFILES[_DEFAULT]       # what a build without --print makes

PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def hashes(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


# kit_dir (tests/conftest.py): one default `bailout build` for the whole session.


def test_default_build_writes_every_file(kit_dir):
    # every file the Output registry declares, for each paper, and nothing else (no lock file: see locking.py)
    expected = {*all_file_names((PAPERS_BY_KEY[key] for key in PAPERS), DEFAULT_PROFILE), B.MANIFEST}
    assert {p.name for p in kit_dir.iterdir()} == expected
    assert {f"player-aid-{paper}.pdf" for paper in PAPERS} | {"player-aid.html", "prerolled.csv"} <= expected


def test_kit_merges_every_part_with_bookmarks(kit_dir):
    merged = next(o for o in OUTPUTS if o.merges)
    for paper, (w, h) in PAPERS.items():
        kit = PdfReader(kit_dir / merged.file_name(PAPERS_BY_KEY[paper]))
        pages = 0
        for part in merged.merges:
            n = len(PdfReader(kit_dir / part_pdf(part).file_name(PAPERS_BY_KEY[paper])).pages)
            pages += n + (pages % 2)        # each part starts on a fresh sheet
        assert len(kit.pages) == pages
        top = [item for item in kit.outline if not isinstance(item, list)]
        assert [t.title for t in top] == ["Player aid", "Pre-rolled bail-out tables", "Crew counters"]
        nested = [item for item in kit.outline if isinstance(item, list)]
        assert len(nested) == 3 and all(nested), "each part keeps its own section bookmarks"
        for page in kit.pages:
            assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == (w, h)
        prefs = kit.trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"
        assert kit.metadata.title and kit.metadata.creator
        aid = PdfReader(kit_dir / f"player-aid-{paper}.pdf")
        assert kit.metadata["/CreationDate"] == aid.metadata["/CreationDate"]


def test_manifest_lists_each_file_hash_and_pages(kit_dir):
    text = (kit_dir / "MANIFEST.txt").read_text()
    from generator.data import load
    assert f"data {load(ROOT / 'data').hash}" in text
    for name, digest in hashes(kit_dir).items():
        if name in ("MANIFEST.txt", B.LOCK_NAME):
            continue
        line = next(ln for ln in text.splitlines() if ln.startswith(name + " "))
        assert digest in line
        if name.endswith(".pdf"):
            assert int(line.split()[1]) == len(PdfReader(kit_dir / name).pages)


def test_manifest_names_python_and_each_library_that_shapes_the_bytes(kit_dir):
    lines = (kit_dir / "MANIFEST.txt").read_text().splitlines()
    assert f"Python {platform.python_version()}" in lines
    for name in ("reportlab", "Jinja2", "Markdown"):
        assert f"{name} {importlib.metadata.version(name)}" in lines
    assert not any(line.startswith("pypdf ") for line in lines)     # a default build never loads it


def test_a_print_shop_manifest_names_pypdf_which_rewrites_its_pdfs():
    from generator.data import load
    from generator.make.manifest import manifest
    from generator.options import BuildOptions
    lines = manifest(load(DATA), {}, BuildOptions(print_profile="shop")).decode().splitlines()
    assert f"pypdf {importlib.metadata.version('pypdf')}" in lines
    assert f"reportlab {importlib.metadata.version('reportlab')}" in lines


def test_each_library_says_the_version_pip_installed():
    # The version is pip's whether or not the library is imported, or two identical builds would
    # list different versions depending on what happened to be imported.
    code = ("import sys; from generator.make.manifest import installed_version as v, LIBRARIES\n"
            "before = [v(n) for n in LIBRARIES]\n"
            "import reportlab, pypdf, jinja2, markdown, fontTools, brotli\n"
            "print(before == [v(n) for n in LIBRARIES], *before)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    same, *versions = done.stdout.split()
    assert same == "True"
    assert versions == [importlib.metadata.version(n)
                        for n in ("reportlab", "pypdf", "Jinja2", "Markdown", "fonttools", "Brotli")]


def test_a_release_manifest_names_the_image_libraries_as_pip_installed_them():
    from generator.make.manifest import IMAGE_LIBRARIES, installed_version
    assert [installed_version(n) for n in IMAGE_LIBRARIES] == [importlib.metadata.version(n) for n in IMAGE_LIBRARIES]
    assert installed_version("no-such-distribution-here") == "unknown"


def _reads_a_version(node):
    """Whether `node` names a module's own version: an attribute, a string or a name imported
    from anywhere but the kit itself."""
    names = ("__version__", "Version")
    if isinstance(node, ast.Attribute):
        return node.attr in names
    if isinstance(node, ast.Constant):
        return node.value in names
    if isinstance(node, ast.ImportFrom):
        return node.module != "generator" and any(alias.name in names for alias in node.names)
    return False


def test_no_library_s_version_is_read_from_its_module():
    # A library's metadata says what pip installed; its module's __version__ may be deprecated
    # or gone in a next release (Jinja 3.2 deprecates it), and reading it would break every build.
    reads = [f"{path.relative_to(ROOT)}:{node.lineno}" for path in sorted((ROOT / "generator").rglob("*.py"))
             for node in ast.walk(parsed(path.read_text(encoding="utf-8"), str(path))) if _reads_a_version(node)]
    assert reads == []


def test_two_builds_are_byte_identical(kit_dir, tmp_path):
    # README's command makes the printed parts on one paper again (the digital tables are four
    # fifths of a default build's time, a paper half of the rest) and compares them with the
    # session's build; BAILOUT_SLOW_TESTS=1 the whole kit.
    printed = () if SLOW else ("--only", "aid,prerolled,counters", "--paper", "letter")
    assert main(["build", "--out", str(tmp_path), "--quiet", *printed]) == 0
    made, whole = hashes(tmp_path), hashes(kit_dir)
    if printed:
        del made[B.MANIFEST]        # it lists the files asked for
        assert "kit-letter.pdf" in made
    assert made == {name: whole[name] for name in made}
    assert not SLOW or made == whole


def test_source_date_epoch_sets_the_embedded_date(tmp_path, monkeypatch):
    def date(out, name):
        return PdfReader(out / name).metadata["/CreationDate"]
    # a process started with the variable, as a shell or CI starts it (one row's table: the
    # lightest PDF a new process makes) ...
    env = dict(os.environ, SOURCE_DATE_EPOCH="1000000000")
    subprocess.run([sys.executable, "-m", "generator", "build", "--only", "prerolled", "--rows", "1", "--paper", "a4",
                    "--quiet", "--out", str(tmp_path / "a")], check=True, env=env, cwd=ROOT)
    assert date(tmp_path / "a", "prerolled-a4.pdf").startswith("D:20010909")      # 2001-09-09 01:46:40 UTC
    # ... and another value read afresh by the next build of a process
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert main(["build", "--only", "aid", "--paper", "a4", "--quiet", "--out", str(tmp_path / "b")]) == 0
    assert date(tmp_path / "b", "player-aid-a4.pdf").startswith("D:20231114")


def test_bad_data_leaves_earlier_outputs_untouched(kit_dir, tmp_path, data_copy):
    out = tmp_path / "out"
    shutil.copytree(kit_dir, out)       # a whole kit built earlier: the session's
    before = hashes(out)
    edit(data_copy / "rules.toml", "size = 5", "size = 'five'")
    status, _, err = run_cli("build", "--out", str(out), "--data", str(data_copy))
    assert status == 2 and "crew.size" in err and "Traceback" not in err
    assert hashes(out) == before


def test_failure_mid_build_leaves_earlier_outputs_untouched(kit_dir, tmp_path, monkeypatch):
    out = tmp_path / "out"
    shutil.copytree(kit_dir, out)       # a whole kit built earlier: the session's
    printed = ["--only", "aid,prerolled,counters"]        # the counters its last part, then the kit they make
    before = hashes(out)
    from generator.render.pdf import counters_pdf as counters

    def explode(*args):
        raise KeyboardInterrupt     # Ctrl-C while the last part renders
    monkeypatch.setattr(counters, "render", explode)
    assert main(["build", "--out", str(out), "--quiet", "--paper", "a4", "--seed", "5", *printed]) == 130
    assert hashes(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".")], \
        "no temporary files left"


def test_only_and_paper_limit_the_build(tmp_path):
    assert main(["build", "--out", str(tmp_path), "--quiet", "--only", "aid,counters", "--paper", "letter"]) == 0
    assert {p.name for p in tmp_path.iterdir()} == {"player-aid-letter.pdf", "player-aid.html", "counters-letter.pdf",
                                                    "MANIFEST.txt"}


@pytest.mark.parametrize("args, words", [
    (["--only", "aid,maps"], "--only"), (["--paper", "a3"], "--paper"), (["--rows", "0"], "--rows"),
    (["--counter-size", "2in"], "--counter-size"), (["--back-offset", "1"], "--back-offset"),
    (["--mode", "random"], "--mode"), (["--sets", "x"], "--sets")])
def test_bad_build_options_exit_2(args, words, tmp_path):
    status, _, err = run_cli("build", "--out", tmp_path / "o", *args)
    assert status == 2 and words in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_out_that_is_a_file_is_a_clean_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status, _, err = run_cli("build", "--out", str(blocker / "sub"), "--only", "aid", "--paper", "a4")
    assert status == 2 and "--out" in err and "Traceback" not in err


def test_a_build_refuses_names_outside_out(tmp_path, monkeypatch, capsys):
    from generator.make import outputs
    escape = outputs.Output("aid", "../escape-{paper}.pdf", outputs.OUTPUTS[0].make, outputs.OUTPUTS[0].needs)
    monkeypatch.setattr(outputs, "OUTPUTS", [escape])
    assert main(["build", "--out", str(tmp_path / "out"), "--only", "aid", "--paper", "a4"]) == 2
    assert "refusing to write '../escape-a4.pdf'" in capsys.readouterr().err
    assert not list(tmp_path.rglob("escape*"))


def test_help_does_not_import_reportlab():
    code = ("import sys; from generator.cli.parser import parser\n"
            "try:\n    parser().parse_args(['--help'])\nexcept SystemExit:\n    pass\n"
            "assert not any(m.startswith(('reportlab', 'pypdf', 'jinja2', 'markdown')) for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="pdftoppm (poppler-utils) not installed")
def test_smoke_every_page_renders_without_warnings(kit_dir, tmp_path):
    """Render every page of every PDF at low resolution; the renderer must say nothing.  The kit
    PDFs join the parts' pages: README's command renders each part's PDF on one paper, the papers
    taken in turn (the counters' pages are most of the time), BAILOUT_SLOW_TESTS=1 every PDF."""
    parts = sorted(p for p in kit_dir.glob("*.pdf") if not p.name.startswith("kit-"))
    papers = sorted({p.stem.rsplit("-", 1)[1] for p in parts})
    stems = sorted({p.stem.rsplit("-", 1)[0] for p in parts})
    share = [kit_dir / f"{stem}-{papers[i % len(papers)]}.pdf" for i, stem in enumerate(stems)]
    assert len(papers) == 2 and set(share) <= set(parts)
    for pdf in sorted(kit_dir.glob("*.pdf")) if SLOW else share:
        done = subprocess.run(["pdftoppm", "-r", "20", "-png", str(pdf), str(tmp_path / pdf.stem)],
                              capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr.strip(), (pdf.name, done.stderr)
        assert len(list(tmp_path.glob(pdf.stem + "-*.png"))) == len(PdfReader(pdf).pages)


@pytest.mark.skipif(not shutil.which("pdffonts"), reason="pdffonts (poppler-utils) not installed")
def test_every_font_embedded(kit_dir):
    for pdf in sorted(kit_dir.glob("*.pdf")):
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        fonts = rows.splitlines()[2:]
        assert fonts, pdf.name
        for row in fonts:
            assert row.split()[-5] == "yes", (pdf.name, row)
            assert not any(std in row for std in ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats"))


def test_outputs_are_readable_by_others(kit_dir):
    for path in kit_dir.iterdir():
        assert path.stat().st_mode & 0o044, f"{path.name} is not group/world readable"


@pytest.mark.parametrize("only", ["aid", "prerolled", "counters"])
def test_text_the_font_cannot_draw_is_refused_by_every_part(only, data_copy, tmp_path):
    edit(data_copy / "nationalities" / "soviet.toml", 'model = "PPS-43"', 'model = "PPS-43 \\u4e2d"')
    status, _, err = run_cli("build", "--only", only, "--data", str(data_copy), "--out", str(tmp_path / "out"))
    assert status == 2 and "Traceback" not in err
    assert "soviet.toml: smg[3].model" in err and "U+4E2D" in err
    assert not (tmp_path / "out").exists()


def test_bad_source_date_epoch_is_a_clean_error(tmp_path, monkeypatch):
    # read as each build starts (the test above): this process's variable is the build's
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "abc")
    status, _, err = run_cli("build", "--out", tmp_path / "o")
    assert status == 2 and "SOURCE_DATE_EPOCH" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_partial_build_names_the_files_it_did_not_make(kit_dir, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for path in kit_dir.iterdir():      # every file of an A4 build: the session's, its Letter files left out
        if "letter" not in path.name:
            shutil.copy2(path, out / path.name)
    status, _, err = run_cli("build", "--out", str(out), "--only", "aid", "--paper", "a4")
    assert status == 0 and "counters-a4.pdf" in err and "kit-a4.pdf" in err
    text = (out / "MANIFEST.txt").read_text()
    listed, left = text.split("Not made by this build", 1)
    assert "player-aid-a4.pdf" in listed and "counters-a4.pdf" not in listed
    assert {"counters-a4.pdf", "kit-a4.pdf", "prerolled-a4.pdf", "prerolled.csv", "bailout.vmdx", "bailout.vmod",
            "bailout-tts.zip"} == set(left.split()[-7:])
