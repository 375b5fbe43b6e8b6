"""A build's lanes (generator/make/lanes.py): side by side in forked processes, the same bytes
as one after the other, and a problem found in another process is the same one-line message."""

import os
import pickle
import subprocess
import sys

import pytest

from conftest import ROOT, edit
from generator.make.lanes import can_fork, run_lanes
from generator.errors import DataError, RenderError

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform: lanes run one by one")


def bailout(*args, jobs):
    env = {**os.environ, "BAILOUT_JOBS": str(jobs)}
    # A fresh process: the test runner's own threads would make forking unsafe, so it never forks.
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def hashes(folder):
    lines = (folder / "MANIFEST.txt").read_text().splitlines()
    return [line for line in lines if line.endswith((".pdf", ".csv", ".html")) or " " in line and len(line) > 64]


@needs_fork
def test_side_by_side_gives_the_same_bytes_as_one_by_one(tmp_path):
    args = ("build", "--quiet", "--paper", "a4", "--only", "aid,counters")
    one, two = tmp_path / "one", tmp_path / "two"
    assert bailout(*args, "--out", one, jobs=1).returncode == 0
    assert bailout(*args, "--out", two, jobs=2).returncode == 0
    assert (one / "MANIFEST.txt").read_bytes() == (two / "MANIFEST.txt").read_bytes()
    for name in ("player-aid-a4.pdf", "counters-a4.pdf"):
        assert (one / name).read_bytes() == (two / name).read_bytes()


@needs_fork
def test_a_problem_in_another_lane_is_one_line_and_leaves_the_folder_as_it_was(tmp_path, data_copy):
    out = tmp_path / "out"
    assert bailout("build", "--quiet", "--paper", "a4", "--only", "aid,counters", "--out", out, jobs=2).returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    # A model name too long for any counter: the counters' lane (not the first) finds it.
    edit(data_copy / "nationalities" / "german.toml", 'model = "MP 40"', 'model = "' + "MP40 " * 40 + '"')
    done = bailout("build", "--quiet", "--paper", "a4", "--only", "aid,counters", "--out", out, "--data", data_copy,
                   jobs=2)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "cannot fit" in done.stderr
    assert all(line.startswith("bailout: ") for line in done.stderr.splitlines())
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_problem_keeps_its_lines_across_processes():
    problem = DataError(["a.toml: x: first", "b.toml: y: second"])
    again = pickle.loads(pickle.dumps(problem))
    assert type(again) is DataError and again.problems == problem.problems


def test_lanes_keep_their_order_and_raise_the_first_problem():
    assert run_lanes([lambda: 1, lambda: 2, lambda: 3]) == [1, 2, 3]

    def bad():
        raise RenderError("c.toml: z: too long")
    with pytest.raises(RenderError) as caught:
        run_lanes([lambda: 1, bad])
    assert caught.value.problems == ["c.toml: z: too long"]


def test_a_process_with_other_threads_does_not_fork():
    import threading
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


def test_a_rendered_pdf_keeps_its_page_count_across_processes():
    from generator.render.pdf.canvas import Pdf
    again = pickle.loads(pickle.dumps(Pdf(b"%PDF-1.4", 3)))
    assert type(again) is Pdf and again == b"%PDF-1.4" and again.pages == 3


@needs_fork
def test_a_release_of_two_editions_side_by_side_is_the_same_zip_as_one_by_one(tmp_path, two_editions):
    two = tmp_path / "two"
    done = bailout("release", "--quiet", "--lang", "en,de", "--rows", "8", "--out", two, jobs=2)
    assert done.returncode == 0, done.stderr
    a, [b] = two_editions, sorted(two.glob("*.zip"))
    assert a.name == b.name and a.read_bytes() == b.read_bytes()
