"""Progress as people expect it: on a terminal a live line per file with its pages
and aligned sizes; on every build, terminal or not, one closing line unless --quiet."""

import io
import logging
import re
import sys
from pathlib import Path

import pytest

from conftest import SLOW, bailout, run_cli
from generator.locking import LOCK_NAME
from generator.make.progress import file_line


def _closing(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("bailout: wrote ")]
    assert len(lines) == 1, err
    return lines[0]


def test_a_build_ends_with_one_line_naming_files_folder_data_templates_and_stamp(tmp_path, data_copy):
    out = tmp_path / "out"
    status, stdout, err = run_cli("build", "--only", "prerolled", "--out", out, "--data", data_copy)
    assert status == 0 and stdout == ""
    written = sorted(p.name for p in out.iterdir() if p.name != LOCK_NAME)
    stamp = next(line.split()[1] for line in (out / "MANIFEST.txt").read_text().splitlines()
                 if line.startswith("edition "))        # the edition stamp the footers print, in full
    line = _closing(err)
    assert line == (f"bailout: wrote {len(written)} files to {out} from data {data_copy} and the kit's own "
                    f"templates; stamp {stamp[:10]}")
    assert err.splitlines()[-1] == line      # the last word of the build


def test_a_fall_back_to_the_shipped_data_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)         # no ./data here: the kit's own is read
    status, _, err = run_cli("build", "--only", "prerolled", "--out", "out")
    assert status == 0 and "from the kit's own data and the kit's own templates" in _closing(err)


def test_quiet_says_nothing(tmp_path):
    status, stdout, err = run_cli("build", "--only", "prerolled", "--out", tmp_path / "out", "--quiet")
    assert status == 0 and stdout == "" and err == ""


def test_a_release_ends_with_the_zip_on_stdout_and_the_closing_line(tmp_path, monkeypatch):
    from generator.make import release
    monkeypatch.setattr(release, "make_release", lambda kit, options, **how: ("kit.zip", b"PK"))
    status, stdout, err = run_cli("release", "--out", tmp_path / "dist")
    assert status == 0 and stdout.strip() == str(tmp_path / "dist" / "kit.zip")
    assert _closing(err).startswith(f"bailout: wrote 1 file to {tmp_path / 'dist'} from ")


def test_file_lines_align_their_sizes():
    lines = [file_line("prerolled-letter.pdf", b"x" * 12_345_678, 3_812), file_line("MANIFEST.txt", b"x" * 7, None),
             file_line("kit-a4.pdf", b"x" * 123, 1)]
    ends = {line.index(" bytes") for line in lines}
    assert len(ends) == 1, lines
    assert "12,345,678 bytes" in lines[0] and "3,812 pages" in lines[0] and "1 page " in lines[2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_each_file_gets_a_live_line_with_its_pages(tmp_path, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("COLUMNS", "100")
    status, _, _ = _run_on(terminal, "build", "--only", "counters", "--paper", "a4", "--out", tmp_path / "out")
    assert status == 0
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", terminal.getvalue())
    pdf = (tmp_path / "out" / "counters-a4.pdf").read_bytes()
    pages = len(re.findall(rb"/Type /Page\b", pdf))
    assert pages > 1
    assert re.search(rf"counters-a4\.pdf +{pages} pages .* {len(pdf):,} bytes", shown), shown


def _run_on(terminal: io.StringIO, *args: object) -> tuple[int, str, str]:
    """run_cli, but with stderr left on `terminal` (run_cli would replace it)."""
    from generator.cli import main
    status = main([str(a) for a in args])
    return status, "", terminal.getvalue()



def test_a_build_that_fails_on_a_terminal_leaves_it_as_it_was(tmp_path, monkeypatch):
    from generator.render.pdf import counters_pdf
    from generator.render.pdf.canvas import PAGE_LISTENERS
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)

    def broken(*args: object) -> bytes:
        raise KeyboardInterrupt()       # as Ctrl-C in the middle of a file
    monkeypatch.setattr(counters_pdf, "render", broken)
    status, _, _ = _run_on(terminal, "build", "--only", "counters", "--out", tmp_path / "out")
    assert status == 130
    assert PAGE_LISTENERS == []
    shown = terminal.getvalue()
    assert "\x1b[?25l" in shown and shown.rfind("\x1b[?25h") > shown.rfind("\x1b[?25l")     # the cursor back


def test_cutting_the_japanese_web_fonts_logs_no_warning(caplog):
    """fontTools logged "meta NOT subset" as it cut the Japanese web aid's fonts: a library's
    warning, which a process of the kit's prints on stderr whatever --quiet says (the kit gives
    logging no handler: Python's last resort prints from WARNING up).  README's command cuts the
    first face (each face carries the same tables, the meta among them), BAILOUT_SLOW_TESTS=1 each."""
    from generator.render.html import web_fonts
    faces = web_fonts.FACES["IBM Plex Sans JP"]
    with caplog.at_level(logging.WARNING):
        for *_, file in faces if SLOW else faces[:1]:
            cut = web_fonts._cut(str(Path(web_fonts.FONT_FOLDER) / file), "871 乗員の脱出 Bail-Out")
            assert cut.startswith(b"wOF2")
    assert caplog.records == []


# The Japanese aid built whole, its fonts cut without the cache, in a process of its own (seconds):
# README's command holds the cut with test_cutting_the_japanese_web_fonts_logs_no_warning above.
@pytest.mark.larger_budget
def test_quiet_says_nothing_while_the_web_aids_fonts_are_cut(tmp_path):
    # The Japanese web aid's fonts, cut without the cache, had fontTools log "meta NOT subset"
    # twice under --quiet.  A process of its own: in this one pytest takes the library's log.
    status, stdout, err = bailout("build", "--only", "aid", "--paper", "a4", "--lang", "ja",
                                  "--out", tmp_path / "out", "--quiet", env={"BAILOUT_CACHE": "off"}, timeout=120)
    assert status == 0 and stdout == "" and err == ""


def test_every_line_a_build_writes_on_stderr_names_the_kit(tmp_path):
    # A stale-file note began "note:", where every other message of the kit begins "bailout:".
    out = tmp_path / "out"
    for paper in ("a4", "letter"):          # the second leaves the first's table behind: a note
        status, _, err = run_cli("build", "--only", "prerolled", "--paper", paper, "--out", out)
        assert status == 0, err
    assert "still holds files" in err
    assert all(line.startswith("bailout: ") for line in err.splitlines()), err


def test_a_file_written_as_it_was_made_is_never_read_back_for_its_line(tmp_path, monkeypatch):
    """A long table's PDF and CSV are written as they are made; the build's progress takes their
    size from the disk, never their bytes (read back, a million rows' took a build that is not
    --quiet from 64 MiB to 166 MiB)."""
    read = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    status, _, err = run_cli("build", "--out", tmp_path / "out", "--only", "prerolled", "--paper", "a4",
                             "--rows", "300")
    assert status == 0, err
    assert {"prerolled-a4.pdf", "prerolled.csv"}.isdisjoint(read), read
