"""Whole work in worker processes (generator/make/workers.py): a build's papers with --jobs, a
release's editions.  The same bytes as in one process, the same one-line problems, the same
untouched folder when it fails or is stopped, no worker left.  The session's kit_dir and
two_editions are made in one process (the default)."""

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SLOW, edit, run_cli
from generator.errors import DataError
from generator.make import release, workers
from generator.make.transaction import LOCK_NAME, STAGING_PREFIX

needs_proc = pytest.mark.skipif(not Path(f"/proc/self/task/{os.getpid()}/children").exists(),
                                reason="finds a build's workers in /proc (Linux, its children lists)")


@pytest.fixture
def pools(monkeypatch):
    """The lanes each side_by_side of a test's builds was given (their number: workers started);
    afterwards no worker of theirs is left."""
    started = []
    side_by_side = workers.side_by_side

    def listed(here, run, work):
        started.append(len(work))
        return side_by_side(here, run, work)
    monkeypatch.setattr(workers, "side_by_side", listed)
    yield started
    assert multiprocessing.active_children() == []


def files(out):
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file() and p.name != LOCK_NAME}


# -- the same bytes ----------------------------------------------------------------------------------

def test_a_kit_built_a_paper_a_process_is_the_same_bytes_as_in_one(pools, tmp_path, kit_dir):
    # A worker makes a paper's files, the parts printed on it; the digital tables are made once a
    # build, here, as in one process: README's command builds the printed parts and compares
    # them (MANIFEST.txt lists the files asked for), BAILOUT_SLOW_TESTS=1 the whole kit.
    printed = () if SLOW else ("--only", "aid,prerolled,counters")
    status, _, err = run_cli("build", "--quiet", "--out", tmp_path / "out", "--jobs", "2", *printed)
    assert status == 0, err
    assert pools == [1]
    made, whole = files(tmp_path / "out"), files(kit_dir)
    if printed:
        del made["MANIFEST.txt"]
    assert made == {name: whole[name] for name in made} and "kit-letter.pdf" in made
    assert not SLOW or made == whole


def test_one_job_the_default_starts_no_worker(pools, tmp_path):
    # a short table: a part made per paper, so both papers are work a second process could take
    status, _, err = run_cli("build", "--quiet", "--out", tmp_path / "out", "--only", "prerolled", "--rows", "8")
    assert status == 0, err
    assert pools == []
    status, _, err = run_cli("build", "--quiet", "--out", tmp_path / "one", "--only", "prerolled", "--rows", "8",
                             "--paper", "a4", "--jobs", "4")
    assert status == 0, err
    assert pools == []          # one paper: no second lane to give a worker


@pytest.mark.larger_budget
def test_a_release_of_two_editions_a_process_each_is_the_same_zip_as_in_one(pools, tmp_path, two_editions,
                                                                           monkeypatch):
    # two editions in two processes (a process is given two at the least, unless told otherwise)
    monkeypatch.setattr(release, "EDITIONS_A_PROCESS", 1)
    status, _, err = run_cli("release", "--quiet", "--lang", "en,de", "--rows", "8", "--out", tmp_path,
                             "--jobs", "3")
    assert status == 0, err
    assert pools == [1]         # two editions: one here, one in a worker
    [made] = sorted(tmp_path.glob("*.zip"))
    assert made.name == two_editions.name and made.read_bytes() == two_editions.read_bytes()


def test_work_is_dealt_out_in_turn_over_at_most_as_many_lanes_as_there_is_work():
    # this process's lane first, the longest: a worker starts an interpreter before its work
    assert workers.lanes(["en", "de", "fr", "it", "es"], 2) == [["en", "fr", "es"], ["de", "it"]]
    assert workers.lanes(["a4", "letter"], 8) == [["a4"], ["letter"]]
    assert workers.lanes(["a4"], 2) == [["a4"]]
    assert workers.lanes(["en", "de"], 1) == [["en", "de"]]
    # at least two a lane: three editions stay in one, four go two and two
    assert workers.lanes(["en", "de", "fr"], 2, each=2) == [["en", "de", "fr"]]
    assert workers.lanes(["en", "de", "fr", "it"], 2, each=2) == [["en", "fr"], ["de", "it"]]


@pytest.mark.larger_budget
def test_a_release_of_three_editions_stays_in_one_process(pools, tmp_path):
    status, _, err = run_cli("release", "--quiet", "--lang", "en,de,fr", "--rows", "8", "--out", tmp_path / "a",
                             "--jobs", "2")
    assert status == 0, err
    assert pools == [0]         # side_by_side with nothing for a worker: all here


def test_jobs_auto_is_one_a_core_and_nothing_else_is_taken(monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 3)
    status, _, err = run_cli("build", "--jobs", "0")
    assert status == 2 and "--jobs" in err and "at least 1" in err
    from generator.cli.argtypes import jobs
    assert jobs("auto") == 3 and jobs("AUTO") == 3 and jobs("2") == 2


# -- problems ----------------------------------------------------------------------------------------

def test_a_problem_in_a_worker_is_the_builds_one_line_and_leaves_the_folder_as_it_was(pools, tmp_path, data_copy,
                                                                                      kit_dir):
    out = tmp_path / "out"
    out.mkdir()
    for made in kit_dir.iterdir():
        (out / made.name).write_bytes(made.read_bytes())
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    # A model name too long for any counter: the counters' renderer refuses it (in each paper's process).
    edit(data_copy / "nationalities" / "german.toml", 'model = "MP 40"', 'model = "' + "MP40 " * 40 + '"')
    status, _, err = run_cli("build", "--quiet", "--out", out, "--data", data_copy, "--jobs", "2")
    assert status == 2, err
    assert "Traceback" not in err and "cannot fit" in err
    assert all(line.startswith("bailout: ") for line in err.splitlines())
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert pools == [1]


def test_a_problem_keeps_its_lines_across_processes():
    problem = DataError(["a.toml: x: first", "b.toml: y: second"])
    again = pickle.loads(pickle.dumps(problem))
    assert type(again) is DataError and again.problems == problem.problems


def test_a_rendered_pdf_keeps_its_page_count_across_processes():
    from generator.render.pdf.canvas import Pdf
    again = pickle.loads(pickle.dumps(Pdf(b"%PDF-1.4", 3)))
    assert type(again) is Pdf and again == b"%PDF-1.4" and again.pages == 3


def test_a_worker_imports_nothing_from_the_working_folder(tmp_path, monkeypatch, pools):
    # A project folder's own `multiprocessing` package would run as a spawned worker starts
    # (`python -c` puts the working folder first on its path).
    planted = tmp_path / "multiprocessing"
    planted.mkdir()
    (planted / "__init__.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    status, _, err = run_cli("build", "--quiet", "--out", tmp_path / "out", "--only", "prerolled", "--rows", "8",
                             "--jobs", "2")
    assert status == 0, err
    assert pools == [1] and not (tmp_path / "ran").exists()


# -- signals and lost workers: a real build process --------------------------------------------------

# A long table a paper, one in a worker: the worker renders its table (Letter's) for half a second
# or more of its CPU once it has begun writing it (a test polls for that every 20 ms; 24 runs side
# by side on two busy cores, load 4, all found it), and the build's own table, which a lost
# worker's test waits out, is not longer than that needs.
LONG = ("--only", "prerolled", "--rows", "20000", "--quiet", "--jobs", "2")


def start(out, *args, **popen):
    return subprocess.Popen([sys.executable, "-m", "generator", "build", "--out", str(out), *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def worker_of(pid, out, timeout=60):
    """The pid of the build `pid`'s worker, once it renders: its child that runs multiprocessing's
    spawn_main (not its resource tracker), once the Letter table it writes is in the staging folder."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(out.glob(f"{STAGING_PREFIX}*/new/prerolled-letter.pdf")):
            for child in children(pid):
                try:
                    if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                        return child
                except OSError:
                    continue
        time.sleep(0.02)
    pytest.fail("no worker rendering")


def children(pid):
    """The pids of the process `pid`'s children, as each of its threads lists those it started."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def running(pid):
    """Whether `pid` runs (an orphan's zombie, left for init to reap, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture
def earlier(tmp_path):
    """A folder holding an earlier build's outputs (made in this process: no worker, no signal)."""
    out = tmp_path / "out"
    status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--quiet")
    assert status == 0, err
    return out, files(out)


@needs_proc
@pytest.mark.parametrize("how", ["SIGTERM to the build", "Ctrl-C to its process group"])
def test_a_build_stopped_while_a_worker_renders_stops_the_worker_and_changes_nothing(how, earlier):
    out, before = earlier
    build = start(out, *LONG, "--seed", "5", start_new_session=True)
    worker = worker_of(build.pid, out)
    if how.startswith("SIGTERM"):
        build.send_signal(signal.SIGTERM)
    else:
        os.killpg(build.pid, signal.SIGINT)
    _, err = build.communicate(timeout=60)
    assert build.returncode == (128 + signal.SIGTERM if how.startswith("SIGTERM") else 130)
    assert err.strip() == "bailout: interrupted; earlier outputs are untouched"      # nothing from the worker
    assert not Path(f"/proc/{worker}").exists()       # stopped, and reaped by the build
    assert files(out) == before and not any(out.glob(STAGING_PREFIX + "*"))


@needs_proc
def test_a_worker_killed_is_the_builds_one_line_and_changes_nothing(earlier):
    out, before = earlier
    build = start(out, *LONG, "--seed", "6")
    os.kill(worker_of(build.pid, out), signal.SIGKILL)
    _, err = build.communicate(timeout=60)
    assert build.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("bailout: ") and "worker" in err
    assert files(out) == before and not any(out.glob(STAGING_PREFIX + "*"))


@pytest.mark.larger_budget
@needs_proc
def test_a_build_killed_outright_leaves_a_worker_that_ends_with_its_work(earlier):
    # A worker left without its build finishes its lane at most (here one table): it then finds
    # its build gone (the pipe to it closed) and ends.
    out, _ = earlier
    build = start(out, *LONG, "--seed", "7")
    worker = worker_of(build.pid, out)
    build.kill()
    build.communicate(timeout=60)
    deadline = time.monotonic() + 60
    while running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(worker)
    status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--quiet")   # the next build cleans up,
    assert status == 0 and not any(out.glob(STAGING_PREFIX + "*")), err        # as after any kill
