"""What a cold build no longer pays for (issue 24), and that leaving it out changes no byte: the
kit merged in the lane beside the aid's, the caches between runs, the imports left out."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT
from generator import cache
from generator.content.words import po_messages

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform: lanes run one by one")


def python(code, **env):
    """Run `code` in a fresh interpreter (the test runner's threads keep this one from forking)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env}, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def bailout(*args, **env):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **env}, timeout=300)


# -- the kit's lanes: the kit waits for the aid the other lane renders -------------------------------

@needs_fork
def test_a_whole_kit_side_by_side_is_the_same_bytes_as_one_by_one(tmp_path, kit_dir):
    one, two = kit_dir, tmp_path / "two"          # the session's kit: its lanes one by one
    done = bailout("build", "--quiet", "--out", two, BAILOUT_JOBS="2")
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in two.iterdir()) and "kit-a4.pdf" in names
    for name in names:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


@needs_fork
def test_a_lane_waits_for_what_the_first_posts():
    out = python("""
        import time
        from generator.make.lanes import Board, run_lanes
        board = Board()
        def first():
            time.sleep(0.3)             # the second lane asks long before this is posted
            posting = time.monotonic()  # read before the post: the other lane may wake at once
            board.post("aid-a4.pdf")
            return posting
        def second():
            board.wait("aid-a4.pdf")
            return time.monotonic()
        posted, heard = run_lanes([first, second], board)
        print(heard >= posted)
    """, BAILOUT_JOBS="2")
    assert out.split() == ["True"]


@needs_fork
def test_a_lane_waiting_for_what_never_comes_is_told_so():
    out = python("""
        from generator.make.lanes import Board, run_lanes
        board = Board()
        def second():
            board.wait("counters-a4.pdf")
        try:
            run_lanes([lambda: None, second], board)
        except RuntimeError as problem:
            print(problem)
    """, BAILOUT_JOBS="2")
    assert "ended before it made counters-a4.pdf" in out


def test_run_one_by_one_the_first_lane_has_posted_before_the_second_waits(monkeypatch):
    from generator.make.lanes import JOBS, Board, run_lanes
    monkeypatch.setenv(JOBS, "1")
    board = Board()
    order = []
    run_lanes([lambda: (board.post("a"), order.append("posted")), lambda: (board.wait("a"), order.append("heard"))],
              board)
    assert order == ["posted", "heard"]


# -- the caches: an entry is named by what it was made from -----------------------------------------

PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a.key"\nmsgstr "{text}"\n'


def test_a_catalogue_is_read_once_and_again_when_it_changes(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    po = tmp_path / "xx.po"
    po.write_text(PO.format(text="Erste"), encoding="utf-8")
    assert po_messages(po, "de") == {"a.key": "Erste"}
    entries = list((tmp_path / "cache" / "catalogues").iterdir())
    assert len(entries) == 1 and json.loads(entries[0].read_text()) == {"a.key": "Erste"}
    import babel.messages.pofile as pofile
    monkeypatch.setattr(pofile, "read_po", lambda *a, **k: pytest.fail("read again"))
    assert po_messages(po, "de") == {"a.key": "Erste"}        # from the cache: Babel not asked
    monkeypatch.undo()
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    po.write_text(PO.format(text="Zweite"), encoding="utf-8")
    assert po_messages(po, "de") == {"a.key": "Zweite"}       # another file, another entry
    assert len(list((tmp_path / "cache" / "catalogues").iterdir())) == 2


def test_a_damaged_or_unwritable_cache_only_costs_the_reading(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    po = tmp_path / "xx.po"
    po.write_text(PO.format(text="Text"), encoding="utf-8")
    po_messages(po, "fr")
    (entry,) = (tmp_path / "cache" / "catalogues").iterdir()
    entry.write_bytes(b"\xff{not json")
    assert po_messages(po, "fr") == {"a.key": "Text"}
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv(cache.CACHE, str(blocked))          # a file where the folder would be
    assert po_messages(po, "fr") == {"a.key": "Text"}
    monkeypatch.setenv(cache.CACHE, "off")
    assert cache.cache_folder("catalogues") is None and po_messages(po, "fr") == {"a.key": "Text"}


def test_an_edited_template_is_compiled_afresh_and_a_damaged_entry_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    code = """
        import sys
        from pathlib import Path
        from generator.content.aid_text import compiled_template
        print(compiled_template(Path(sys.argv[1])).render())
    """
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "aid.md.j2").write_text("first {{ 1 + 1 }}\n")

    def render():
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), str(folder)], capture_output=True,
                              text=True, cwd=ROOT, env=dict(os.environ), timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()
    assert render() == "first 2"
    (entry,) = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    kept = entry.read_bytes(), entry.stat().st_mtime_ns
    assert render() == "first 2"
    assert (entry.read_bytes(), entry.stat().st_mtime_ns) == kept     # read back, not compiled and kept again
    (folder / "aid.md.j2").write_text("second {{ 2 + 2 }}\n")
    assert render() == "second 4"                  # Jinja's checksum of the source: compiled again
    assert entry.read_bytes() != kept[0]
    for path in (tmp_path / "cache").rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes()[:20])
    assert render() == "second 4"


# -- the imports a build leaves out ---------------------------------------------------------------------

def test_a_kit_merge_imports_no_crypto_library():
    pytest.importorskip("cryptography", reason="cryptography not installed: nothing for pypdf to import")
    out = python("""
        import sys
        from generator.render.pdf import kit_pdf, shop_pdf
        from pypdf import PdfWriter
        print(any(m == "cryptography" or m.startswith("cryptography.") for m in sys.modules))
        import cryptography                 # hidden from pypdf only: the process still has it
        print("ok")
    """)
    assert out.split() == ["False", "ok"]


def test_platypus_is_imported_with_its_url_pattern_compiled_when_first_used():
    out = python("""
        import re
        from generator.render.pdf import platypus
        import reportlab.platypus.paragraph as paragraph
        print(re.compile is re.__dict__["compile"] and re.compile("a+").match("aa") is not None)
        print(paragraph.uri_pat.match("https://example.com/x") is not None, paragraph.uri_pat.match("no url"))
    """)
    assert out.split() == ["True", "True", "None"]


def test_the_tables_and_counters_parse_no_italic_face():
    out = python("""
        from reportlab.pdfbase import pdfmetrics
        from generator.render.pdf.canvas import register_fonts, ITALIC, BOLD_ITALIC, FONT, BOLD
        register_fonts()
        names = set(pdfmetrics.getRegisteredFontNames())
        print({FONT, BOLD} <= names, bool({ITALIC, BOLD_ITALIC} & names))
        register_fonts(italics=True)
        print({ITALIC, BOLD_ITALIC} <= set(pdfmetrics.getRegisteredFontNames()))
    """)
    assert out.split() == ["True", "False", "True"]


def test_the_lanes_of_a_kit_keep_the_aid_apart_and_split_long_tables():
    from generator.make.outputs import selected
    from generator.make.pipeline import _plan
    from generator.layout.paper import PAPERS
    from generator.options import PARTS
    papers = [PAPERS["a4"], PAPERS["letter"]]

    def names(long_tables):
        return [[o.file_name(p) for o, p in lane] for lane in _plan(selected(PARTS), papers, long_tables=long_tables)]
    first, second = names(False)
    assert first == ["player-aid-a4.pdf", "player-aid-letter.pdf", "player-aid.html"]
    from generator.make.outputs import all_file_names
    assert second[-2:] == ["kit-a4.pdf", "kit-letter.pdf"]
    assert sorted(first + second) == sorted(all_file_names(papers))     # every file but MANIFEST.txt
    first, second = names(True)                 # a long table a lane: neither waits on both
    assert "prerolled-letter.pdf" in first and "prerolled-a4.pdf" in second
    assert second[-2:] == ["kit-a4.pdf", "kit-letter.pdf"]


def test_a_kept_paragraph_wraps_as_reportlabs_at_every_width_and_after_a_refused_split():
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph
    from generator.render.pdf.canvas import FONT, register_fonts
    from generator.render.pdf.markdown_pdf import KeptParagraph
    register_fonts()
    style = ParagraphStyle("t", fontName=FONT, fontSize=9, leading=11)
    text = "Each crew member checks once, in the order the crew counter lists them, " * 6
    kept = KeptParagraph(text, style)
    for width in (120.0, 300.0, 120.0, 120.0, 61.5):
        assert kept.wrap(width, 1000) == Paragraph(text, style).wrap(width, 1000)
    kept.wrap(120.0, 1000)
    assert kept.split(120.0, 5) == []            # no room for two lines: reportlab drops its lines
    assert kept.wrap(120.0, 1000) == Paragraph(text, style).wrap(120.0, 1000) and kept.blPara.lines


def test_the_command_leaves_at_once_yet_runs_the_exit_handlers_and_keeps_its_status():
    code = """
        import atexit, sys
        atexit.register(lambda: print("handlers ran", flush=True))
        sys.argv = ["bailout", *sys.argv[1:]]
        from generator.cli import run
        run()
    """
    for args, status in ((["--version"], 0), (["build", "--data", "/no/such/folder"], 2)):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert done.returncode == status, done.stderr
        assert "handlers ran" in done.stdout
        assert status == 0 or done.stderr.startswith("bailout: ")


def test_under_a_profiler_the_command_exits_the_ordinary_way_so_the_profile_prints():
    done = subprocess.run([sys.executable, "-m", "cProfile", "-s", "cumtime", "-m", "generator", "--version"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bailout " in done.stdout and "function calls" in done.stdout
