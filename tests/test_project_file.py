"""bailout.toml as editors write it: with the byte order mark some editors add, through a link
to a file kept elsewhere, and undone on the command line (--no-bw); and what is not a file at
its name (a folder, a FIFO, a link to nothing) is one line, never silently passed over."""

import os
import time

import pytest

from conftest import LIGHTEST_BUILD, one_line, run_cli

AID = ("build", "--only", "aid", "--paper", "a4", "--out", "o", "--quiet")


def _options(*argv):
    """The build options `bailout build ARGV` runs with, the project file read as main() reads it."""
    from generator.cli.parser import options_from_args, parse
    from generator.cli.project import with_project
    args = parse(["build", *argv])
    return options_from_args(with_project(["build", *argv], args))


def test_a_project_file_with_a_byte_order_mark_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bailout.toml").write_bytes(b"\xef\xbb\xbfbw = true\nsets = 1\n")
    assert _options().bw and _options().sets == 1


def test_bw_in_the_project_file_is_undone_on_the_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bailout.toml").write_text("bw = true\n")
    assert _options().bw and not _options("--no-bw").bw and _options("--bw").bw
    (tmp_path / "bailout.toml").write_text("bw = false\n")
    assert _options("--bw").bw and not _options().bw


def test_a_linked_project_file_is_read_wherever_it_lies(tmp_path, monkeypatch):
    elsewhere = tmp_path / "settings" / "kit.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text('label = "Linked"\n')
    project = tmp_path / "project"
    project.mkdir()
    (project / "bailout.toml").symlink_to(elsewhere)
    monkeypatch.chdir(project)
    # MANIFEST.txt names the label whatever the build makes
    status, _, err = run_cli(*LIGHTEST_BUILD, "--out", "o")
    assert status == 0, err
    assert "label Linked" in (project / "o" / "MANIFEST.txt").read_text()


@pytest.mark.parametrize("kind", ["folder", "fifo", "dangling link"])
@pytest.mark.parametrize("given", [False, True])
def test_a_project_file_that_is_no_file_is_one_line(kind, given, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ("other.toml" if given else "bailout.toml")
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)         # nobody writes to it: reading it would wait for ever
    else:
        path.symlink_to(tmp_path / "gone.toml")
    started = time.monotonic()
    status, _, err = run_cli(*AID, *(["--config", path.name] if given else []))
    assert time.monotonic() - started < 5
    one_line(status, err, path.name, {"folder": "a folder", "fifo": "a FIFO", "dangling link": "to nothing"}[kind])
    assert not (tmp_path / "o").exists()
