"""Comparison bases as found: git:REV is read from the commit's tree under a data folder's limits
(no committed link unpacked, no file over the size limit read, a cap on files and on their bytes
in all, nothing left after SIGTERM), and a --since base, a folder or a rev, passes the build's
font check.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

from conftest import DATA, ROOT, edit, one_line, run_cli
from generator.data.revisions import MAX_FILES, MAX_TOTAL_BYTES
from generator.data.toml_file import MAX_FILE_BYTES

# -- 3. git:REV read from the tree under a data folder's limits --------------------------------

def _git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.fixture
def repo(tmp_path):
    """A git repository holding the kit's data/ and templates/, committed; TMPDIR a folder of its own."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copytree(DATA, repo / "data")
    shutil.copytree(ROOT / "templates", repo / "templates")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "kit")
    (tmp_path / "tmp").mkdir()
    return repo


@pytest.fixture
def diff_at(repo, monkeypatch):
    """Run `bailout diff ARGS` in this process from the repository, its temporary folder the repository's own."""
    def run(*args):
        monkeypatch.chdir(repo)
        monkeypatch.setattr(tempfile, "tempdir", str(repo.parent / "tmp"))
        return run_cli("diff", *args)
    return run


def _commit(repo, message="change"):
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)


def test_a_git_rev_is_read_from_its_tree(repo, diff_at):
    status, out, err = diff_at("git:HEAD", "data")
    assert (status, err) == (0, "") and "No printed change" in out
    assert not list((repo.parent / "tmp").iterdir())        # the temporary folder is gone


def test_a_committed_symbolic_link_is_refused_not_unpacked(repo, diff_at):
    (repo / "data" / "decks").symlink_to("../../../etc")
    _commit(repo)
    status, _, err = diff_at("git:HEAD", "data")
    one_line(status, err, "data/decks", "symbolic link")
    assert not list((repo.parent / "tmp").iterdir())


def test_a_file_over_the_limit_at_a_rev_is_refused_before_reading(repo, diff_at):
    big = repo / "data" / "big.toml"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    _commit(repo)
    big.unlink()
    status, _, err = diff_at("git:HEAD", "data")
    one_line(status, err, "data/big.toml", f"{MAX_FILE_BYTES + 1:,} bytes")
    assert not list((repo.parent / "tmp").iterdir())        # nothing was unpacked


def test_more_bytes_at_a_rev_than_the_cap_are_refused_before_reading(repo, diff_at):
    # each file within the limit of one, and all of them past the limit of a revision: git keeps
    # them in a few kilobytes, unpacked they would fill the temporary folder
    extra = repo / "data" / "extra"
    extra.mkdir()
    for i in range(MAX_TOTAL_BYTES // MAX_FILE_BYTES + 1):
        with open(extra / f"{i}.toml", "wb") as handle:
            handle.truncate(MAX_FILE_BYTES)
    _commit(repo)
    shutil.rmtree(extra)
    status, _, err = diff_at("git:HEAD", "data")
    one_line(status, err, f"more than {MAX_TOTAL_BYTES:,} bytes")
    assert not list((repo.parent / "tmp").iterdir())        # nothing was unpacked


def test_more_files_at_a_rev_than_the_cap_are_refused(repo, diff_at):
    extra = repo / "data" / "extra"
    extra.mkdir()
    for i in range(MAX_FILES + 1):
        (extra / f"{i}.txt").write_text("")
    _commit(repo)
    status, _, err = diff_at("git:HEAD", "data")
    one_line(status, err, f"more than {MAX_FILES:,} files")


def test_sigterm_removes_the_unpacked_revision(repo):
    tmp = repo.parent / "tmp"
    script = ("import os, signal, sys, time\n"
              "from generator.data.revisions import opened\n"
              "from generator.signals import Terminated\n"
              "try:\n"
              "    with opened('git:HEAD') as side:\n"
              "        assert (side.folder / 'rules.toml').is_file() and side.templates is not None\n"
              "        os.kill(os.getpid(), signal.SIGTERM)\n"
              "        time.sleep(10)\n"
              "except Terminated as stop:\n"       # unwound as Ctrl-C unwinds: the folder is gone by now
              "    sys.exit(stop.status)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT)))
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp.iterdir())


# -- 8. --since: the base's text and label pass the build's font check ------------------------

def test_since_a_folder_with_text_the_font_cannot_print_is_refused(data_copy, tmp_path):
    edit(data_copy / "nationalities" / "german.toml", 'model = "MP 40"', r'model = "MP 40 \u4e2d\u202e"')
    status, _, err = run_cli("build", "--out", tmp_path / "out", "--only", "aid", "--paper", "a4", "--quiet",
                             "--since", data_copy)
    assert status == 2 and "Traceback" not in err, err
    [line] = err.splitlines()
    assert line.startswith(f"bailout: --since {data_copy}: {data_copy}/nationalities/german.toml: smg[")
    assert "U+4E2D" in line and "U+202E" in line
    assert not (tmp_path / "out").exists()


def test_since_a_git_rev_whose_label_the_font_cannot_print_is_refused(repo, tmp_path, monkeypatch):
    branch = "v1\u202eevil"
    _git(repo, "branch", branch)
    out = tmp_path / "out"
    monkeypatch.chdir(repo)
    status, _, err = run_cli("build", "--out", out, "--only", "aid", "--paper", "a4", "--quiet", "--since",
                             f"git:{branch}")
    one_line(status, err, "label", "U+202E", "\\u202e")
    assert not out.exists()         # (a printable rev, git:HEAD, builds: test_since.py)
