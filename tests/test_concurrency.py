"""A build's work side by side (generator/make/workers.py) and one by one: the same bytes, the
same one-line problems, the same untouched folder when it fails or is stopped, no worker left.

The side-by-side tests set BAILOUT_JOBS=2 (whatever the machine's cores) and run both paths a
user gets: in this process, a pytest-xdist worker with threads of its own, whose workers spawn
(the plan told to expect them at no cost, so small builds spread); and as real `bailout`
processes, one thread each, whose workers fork, as the command line's do.  The session's
kit_dir and two_editions are made one by one (BAILOUT_JOBS=1).
"""

import concurrent.futures
import functools
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, bailout, edit, run_cli
from generator.errors import DataError
from generator.layout.paper import PAPERS
from generator.make import release, workers
from generator.make.outputs import OUTPUTS, selected
from generator.make.pipeline import _plan
from generator.make.transaction import LOCK_NAME, STAGING
from generator.options import PARTS, BuildOptions

needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds a build's workers in /proc")


@pytest.fixture
def pools(monkeypatch):
    """BAILOUT_JOBS=2, a worker expected to cost nothing to start (so a small build spreads), and
    the process pools a test's builds start, listed; afterwards no worker of theirs is left."""
    monkeypatch.setenv(workers.JOBS, "2")
    for starts in (workers.START, release.WORKER_START):
        for method in starts:
            monkeypatch.setitem(starts, method, 0.0)
    started = []

    class Listed(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            started.append(self)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Listed)    # workers() imports it as it starts a pool
    yield started
    assert multiprocessing.active_children() == []


def names(plan):
    return [[[output.file_name(paper) for output, paper in lane] for lane in phase] for phase in plan]


# -- the same bytes ----------------------------------------------------------------------------------

SPREAD = ("--rows", "3000")     # a kit whose plan spreads, the counters in a worker


def test_a_kit_built_side_by_side_is_the_same_bytes_as_one_by_one(pools, monkeypatch, tmp_path):
    assert [len(phase) for phase in _plan(BuildOptions(rows=3000), 2)] == [2, 2]
    side, one = tmp_path / "side", tmp_path / "one"
    status, _, err = run_cli("build", "--quiet", "--out", side, *SPREAD)
    assert status == 0, err
    assert len(pools) == 1
    monkeypatch.setenv(workers.JOBS, "1")
    status, _, err = run_cli("build", "--quiet", "--out", one, *SPREAD)
    assert status == 0, err
    assert len(pools) == 1
    made = sorted(p.name for p in side.iterdir())
    assert made == sorted(p.name for p in one.iterdir()) and "kit-letter.pdf" in made
    for name in made:
        assert (side / name).read_bytes() == (one / name).read_bytes(), name


@needs_proc
def test_the_command_lines_default_kit_forks_a_worker_and_is_the_same_bytes_as_one_by_one(tmp_path, kit_dir):
    # The path a user runs: a `bailout build` process of one thread, its plan two lanes, the
    # counters and tables made in a forked worker.
    status, _, err = bailout("build", "--quiet", "--out", tmp_path / "out", env={workers.JOBS: "2"})
    assert status == 0, err
    made = files(tmp_path / "out")
    assert made == files(kit_dir) and "kit-letter.pdf" in made


@pytest.mark.skipif(os.name != "posix" or sys.platform == "darwin", reason="forks only on POSIX but macOS")
def test_a_worker_forks_only_while_this_process_runs_one_thread():
    probe = ("import threading, time; from generator.make import workers; print(workers.start_method()); "
             "threading.Thread(target=time.sleep, args=(1,), daemon=True).start(); print(workers.start_method())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout.split() == ["fork", "spawn"], done.stderr


def test_bailout_jobs_1_starts_no_worker(pools, monkeypatch, tmp_path):
    monkeypatch.setenv(workers.JOBS, "1")
    status, _, err = run_cli("build", "--quiet", "--out", tmp_path / "out", "--only", "prerolled")
    assert status == 0, err
    assert pools == []


# Two lanes: each edition whole in a lane, finished there (its pages, its MANIFEST.txt, its
# files named for its language).  Three: each edition's papers in different lanes, so this
# process finishes both from their parts.
@pytest.mark.parametrize("jobs", ["2", "3"])
def test_a_release_of_two_editions_side_by_side_is_the_same_zip_as_one_by_one(pools, monkeypatch, tmp_path,
                                                                              two_editions, jobs):
    monkeypatch.setenv(workers.JOBS, jobs)
    status, _, err = run_cli("release", "--quiet", "--lang", "en,de", "--rows", "8", "--out", tmp_path)
    assert status == 0, err
    assert len(pools) == 1          # the editions side by side; each one's parts one by one
    [made] = sorted(tmp_path.glob("*.zip"))
    assert made.name == two_editions.name and made.read_bytes() == two_editions.read_bytes()


# -- problems ----------------------------------------------------------------------------------------

def test_a_problem_in_a_worker_is_the_builds_one_line_and_leaves_the_folder_as_it_was(pools, tmp_path, data_copy,
                                                                                      kit_dir):
    [first, *others], *_ = _plan(BuildOptions(rows=3000), 2)
    assert others and all(output.part != "counters" for output, _ in first)     # a worker makes the counters
    out = tmp_path / "out"
    out.mkdir()
    for made in kit_dir.iterdir():
        (out / made.name).write_bytes(made.read_bytes())
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    # A model name too long for any counter: the counters' renderer refuses it.
    edit(data_copy / "nationalities" / "german.toml", 'model = "MP 40"', 'model = "' + "MP40 " * 40 + '"')
    status, _, err = run_cli("build", "--quiet", "--out", out, "--data", data_copy, *SPREAD)
    assert status == 2, err
    assert "Traceback" not in err and "cannot fit" in err
    assert all(line.startswith("bailout: ") for line in err.splitlines())
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert len(pools) == 1


def test_a_problem_keeps_its_lines_across_processes():
    problem = DataError(["a.toml: x: first", "b.toml: y: second"])
    again = pickle.loads(pickle.dumps(problem))
    assert type(again) is DataError and again.problems == problem.problems


def test_a_rendered_pdf_keeps_its_page_count_across_processes():
    from generator.render.pdf.canvas import Pdf
    again = pickle.loads(pickle.dumps(Pdf(b"%PDF-1.4", 3)))
    assert type(again) is Pdf and again == b"%PDF-1.4" and again.pages == 3


# -- signals and lost workers: a real build process --------------------------------------------------

# A long table a paper, one in a worker: the worker still renders a second after it starts (its
# table alone takes seconds), and the build's own table, which a lost worker's test waits out,
# is not longer than that needs.
LONG = ("--only", "prerolled", "--rows", "100000", "--quiet")


def start(out, *args, **popen):
    return subprocess.Popen([sys.executable, "-m", "generator", "build", "--out", str(out), *args], cwd=ROOT,
                            env={**os.environ, workers.JOBS: "2"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **popen)


def files(out):
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file() and p.name != LOCK_NAME}


def worker_of(pid, timeout=60):
    """The pid of the build `pid`'s worker, once it renders: its child that runs the command the
    build runs (a forked worker does; a spawned one would run multiprocessing's spawn_main)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        build = Path(f"/proc/{pid}/cmdline").read_bytes()      # empty for a moment as the build starts
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
                command = (stat.parent / "cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid and build and command == build:
                time.sleep(1.0)         # its start done: it is rendering the other paper's table
                return int(stat.parent.name)
        time.sleep(0.02)
    pytest.fail("no worker forked")


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
    worker = worker_of(build.pid)
    if how.startswith("SIGTERM"):
        build.send_signal(signal.SIGTERM)
    else:
        os.killpg(build.pid, signal.SIGINT)
    _, err = build.communicate(timeout=60)
    assert build.returncode == (128 + signal.SIGTERM if how.startswith("SIGTERM") else 130)
    assert err.strip() == "bailout: interrupted; earlier outputs are untouched"      # nothing from the worker
    assert not Path(f"/proc/{worker}").exists()       # stopped, and reaped by the build
    assert files(out) == before and not (out / STAGING).exists()


@needs_proc
def test_a_worker_killed_is_the_builds_one_line_and_changes_nothing(earlier):
    out, before = earlier
    build = start(out, *LONG, "--seed", "6")
    os.kill(worker_of(build.pid), signal.SIGKILL)
    _, err = build.communicate(timeout=60)
    assert build.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("bailout: ") and "worker" in err
    assert files(out) == before and not (out / STAGING).exists()


@needs_proc
def test_a_build_killed_outright_takes_its_worker_with_it(earlier):
    out, _ = earlier
    build = start(out, *LONG, "--seed", "7")
    worker = worker_of(build.pid)
    build.kill()
    build.communicate(timeout=60)       # the worker holds no pipe of the build's open for long
    deadline = time.monotonic() + 30
    while running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(worker)
    status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--quiet")   # the next build cleans up,
    assert status == 0 and not (out / STAGING).exists(), err                          # as after any kill


# -- the plan ----------------------------------------------------------------------------------------

def test_units_spread_costliest_first_each_where_it_ends_first_and_stay_whole():
    # In units of a worker's start: units of 6 (2 + 4), 5, 3 and 1 over two lanes, the second 1
    # late.  6 -> first (6 < 1 + 6); 5 -> second (1 + 5 < 11); 3 -> first (9, as 1 + 5 + 3: the
    # first of equals); 1 -> second (1 + 5 + 1 < 10).  The end: 9.
    start = 10.0
    cost = {"a": 2 * start, "b": 4 * start, "c": 5 * start, "d": 3 * start, "e": start}.get

    def lane(items):
        return sum(map(cost, items))
    units = [["e"], ["a", "b"], ["d"], ["c"]]
    spread, end = workers._spread([units], lane, 2, start)
    assert spread == [[["a", "b", "d"], ["c", "e"]]] and end == 9 * start
    assert workers._spread([[["a"]]], lane, 3, start) == ([[["a"]]], 2 * start)       # no empty lanes


def test_lanes_side_by_side_only_where_they_are_expected_to_pay():
    start = 10.0

    def lane(items):
        return len(items) * 4 * start
    two = [[["a"], ["b"]]]
    assert workers.plan(two, lane, 2, start=start) == [[["a"], ["b"]]]             # 8 against 4 + 1: it pays
    assert workers.plan(two, lane, 1, start=start) == [[["a", "b"]]]
    # With 12 of the run's own besides, 20 against 17: under PAYS, one lane.
    assert workers.PAYS > 20 / 17
    assert workers.plan(two, lane, 2, fixed=12 * start, start=start) == [[["a", "b"]]]
    # A worker that ran in one phase is no longer late in the next.
    spread, end = workers._spread([[["a"], ["b"]], [["c"], ["d"]]], lane, 2, start)
    assert spread == [[["a"], ["b"]], [["c"], ["d"]]] and end == 5 * start + 4 * start
    # A worker as dear as the work itself: one lane.
    assert workers.plan(two, lane, 2, start=8 * start) == [[["a", "b"]]]


@pytest.fixture
def starting(monkeypatch):
    """starting(method): the plan made as if this process started its workers so."""
    def set_method(method):
        monkeypatch.setattr(workers, "start_method", lambda: method)
    return set_method


def test_the_default_kit_is_two_lanes_where_workers_fork_and_one_where_they_spawn(starting):
    everything = [[(o, p) for o in selected(PARTS) if not o.merges for p in
                   ([*PAPERS.values()] if o.per_paper else [None])]]
    starting("spawn")           # a new interpreter that imports the kit: most of what the second core gives
    assert _plan(BuildOptions(), 2) == [everything, [[(o, p) for o in selected(PARTS) if o.merges
                                                      for p in PAPERS.values()]]]
    starting("fork")            # the aid here; the counters, tables and web aid in the worker
    parts, kits = names(_plan(BuildOptions(), 2))
    assert len(parts) == 2 and all(name.startswith("player-aid-") for name in parts[0] if name.endswith(".pdf"))
    assert {"counters-a4.pdf", "counters-letter.pdf", "prerolled-a4.pdf", "player-aid.html"} <= set(parts[1])
    assert sorted(kits) == [["kit-a4.pdf"], ["kit-letter.pdf"]]     # a kit a process, once every part is made


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_long_table_a_paper_a_process(starting, method):
    starting(method)
    parts, kits = names(_plan(BuildOptions(rows=200_000), 2))
    assert [sum(name.startswith("prerolled-") and name.endswith(".pdf") for name in lane) for lane in parts] == [1, 1]
    assert sorted(kits) == [["kit-a4.pdf"], ["kit-letter.pdf"]]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_an_output_keeps_its_papers_in_one_lane_unless_its_own_work_outweighs_a_lanes_share(starting, method):
    starting(method)
    parts, _ = names(_plan(BuildOptions(rows=3000), 2))
    assert sorted(name for lane in parts for name in lane) == sorted(
        name for output in selected(PARTS) if not output.merges for name in output.file_names(PAPERS.values()))
    for output in OUTPUTS:      # its setup (imports, the aid's text) is paid once where its files are made
        files = output.file_names(PAPERS.values())
        assert len({i for i, lane in enumerate(parts) for name in lane if name in files}) <= 1, output.name


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_small_build_and_one_core_start_no_worker(starting, method):
    starting(method)
    assert len(_plan(BuildOptions(parts=("prerolled",), papers=("a4",), rows=20_000), 2)[0]) == 1
    assert len(_plan(BuildOptions(parts=("aid",), papers=("a4",)), 2)[0]) == 1
    assert [len(phase) for phase in _plan(BuildOptions(rows=200_000), 1)] == [1, 1]


def test_bailout_jobs_sets_the_width_and_a_lane_runs_its_own_work_one_by_one(monkeypatch):
    monkeypatch.setenv(workers.JOBS, "3")
    assert workers.width() == 3
    monkeypatch.setenv(workers.JOBS, "1")
    assert workers.width() == 1
    monkeypatch.setenv(workers.JOBS, "2")
    token = workers._IN_A_LANE.set(True)
    try:
        assert workers.width() == 1
    finally:
        workers._IN_A_LANE.reset(token)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_release_spreads_its_editions_and_one_edition_only_with_a_long_table(starting, method):
    # One edition: its face images follow its PDFs, so two lanes would not end PAYS times sooner.
    starting(method)
    assert len(release._plan(("en",), None)) == 1
    assert len(release._plan(("en", "de", "fr", "it", "es"), None)) == 2
    assert len(release._plan(("en",), 200_000)) == 2          # a long table a paper
    if method == "fork":
        assert len(release._plan(("en", "de"), None)) == 2


def test_work_run_ahead_is_asked_for_once_and_its_problem_raised_here(pools):
    made = []
    ahead = workers.Serial().ahead(lambda: made.append(1) or "text")
    assert made == [] and ahead() == "text" and ahead() == "text" and made == [1]    # here, when asked, once
    with workers.workers(2) as runner:
        assert isinstance(runner, workers.Parallel)
        ahead = runner.ahead(functools.partial(_refused, "data/rules.toml: crew.size: must be 1 to 9"))
        with pytest.raises(DataError) as raised:
            ahead()
    assert raised.value.problems == ["data/rules.toml: crew.size: must be 1 to 9"]


def _refused(problem):
    raise DataError(problem)


@needs_proc
def test_a_template_that_fails_in_the_worker_making_the_aids_text_is_the_builds_one_line(templates, tmp_path):
    # The command line's default kit: the web aid in the forked worker renders the aid's text for
    # this process's PDFs (pipeline._text_ahead); its problem is the build's one line all the same.
    source = templates / "aid.md.j2"
    source.write_text(source.read_text(encoding="utf-8") + "\n{{ no_such_name }}\n", encoding="utf-8")
    status, _, err = bailout("build", "--quiet", "--out", tmp_path / "out", "--templates", templates,
                             env={workers.JOBS: "2"})
    assert status == 2 and len(err.splitlines()) == 1, err
    assert str(source) in err and "no_such_name" in err and not (tmp_path / "out").exists()
