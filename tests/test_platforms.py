"""The kit runs where POSIX does not: Windows has no fcntl, no signal.pthread_sigmask, no
os.O_NOFOLLOW, os.O_CLOEXEC or signal.SIGPIPE.  These tests run `bailout` in a subprocess whose
prelude deletes all of them before generator is imported, so any use of one that is not
guarded ends the run with a traceback.

The whole build and release, a build of one part and the lock.
"""

import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT
from generator.locking import LOCK_NAME

# What Windows lacks, removed from this interpreter before anything of the kit loads.
STRIP = textwrap.dedent("""\
    import os, signal, sys
    sys.modules["fcntl"] = None             # `import fcntl` now raises ImportError
    for module, name in ((signal, "pthread_sigmask"), (signal, "SIGPIPE"), (os, "O_NOFOLLOW"),
                         (os, "O_CLOEXEC")):
        if hasattr(module, name):
            delattr(module, name)
    assert not hasattr(signal, "pthread_sigmask") and not hasattr(os, "O_NOFOLLOW")
    """)
RUN = STRIP + textwrap.dedent("""\
    from generator.cli import main
    status = 0
    for line in sys.argv[1:]:               # each argument: one command line, run in turn
        status = status or main(line.split("\\x1f"))
    sys.exit(status)
    """)
# Holds the lock as a build would, says so, then waits for its stdin to close.
HOLD = STRIP + textwrap.dedent("""\
    from pathlib import Path
    from generator.locking import folder_lock
    with folder_lock(Path(sys.argv[1])):
        print("held", flush=True)
        sys.stdin.read()
    """)


def stripped(*commands: list[str], timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """Run each command line in one stripped interpreter."""
    return subprocess.run([sys.executable, "-c", RUN, *("\x1f".join(c) for c in commands)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_a_build_runs_twice_without_posix_calls(tmp_path):
    out = tmp_path / "out"
    # a short table: the calls the stripped interpreter lacks are the test, not the rows
    once = ["build", "--only", "prerolled", "--rows", "8", "--out", str(out), "--quiet"]
    done = stripped(once, once)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (out / "prerolled-a4.pdf").stat().st_size > 1000 and (out / "MANIFEST.txt").is_file()
    # neither the lock (only its existence, without flock) nor a staging folder outlives the build
    assert sorted(p.name for p in out.iterdir()) == ["MANIFEST.txt", "prerolled-a4.pdf", "prerolled-letter.pdf",
                                                    "prerolled.csv"]


def test_a_second_build_is_refused_without_posix_calls(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        started = time.monotonic()
        second = stripped(["build", "--only", "prerolled", "--out", str(out), "--quiet"])
        assert second.returncode == 2, second.stderr
        assert second.stderr.count("\n") == 1 and "another build is writing this folder" in second.stderr
        assert str(out) in second.stderr and time.monotonic() - started < 30     # at once, no wait
        assert not (out / "prerolled-a4.pdf").exists()
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    again = stripped(["build", "--only", "prerolled", "--rows", "8", "--out", str(out), "--quiet"])
    assert again.returncode == 0, again.stderr      # released: the next build goes ahead


@pytest.mark.larger_budget
def test_the_whole_build_and_release_without_posix_calls(tmp_path, kit_dir):
    out, dist = tmp_path / "out", tmp_path / "dist"
    done = stripped(["build", "--out", str(out), "--quiet"], ["release", "--out", str(dist), "--quiet"])
    assert done.returncode == 0, done.stderr
    # same bytes as a build with every POSIX call there: nothing took another path
    assert (out / "MANIFEST.txt").read_bytes() == (kit_dir / "MANIFEST.txt").read_bytes()
    zips = sorted(p.name for p in dist.iterdir() if p.suffix == ".zip")
    assert len(zips) == 1 and (dist / zips[0]).stat().st_size > 100_000
    assert sorted(p.name for p in dist.iterdir() if p.name != LOCK_NAME) == zips
