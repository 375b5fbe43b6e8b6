"""A command stopped from outside ends in one line and leaves nothing behind: Ctrl-C while the
kit's modules still load, SIGTERM or SIGHUP during `check` or `release` (their temporary
folders, a worker's too), and the memory running out in the build's own process.  (A build
stopped while it renders or renames: tests/test_build_safety.py.)
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT, SLOW, run_cli

# Ctrl-C at the moment the command first imports `module`: a finder on the import path sends the
# signal, so the moment is the same on any machine, however loaded.
INTERRUPT_AT = textwrap.dedent("""\
    import os, signal, sys
    AT = sys.argv[1]
    class Interrupt:
        def find_spec(self, name, path=None, target=None):
            if name == AT:
                sys.meta_path.remove(self)
                os.kill(os.getpid(), signal.SIGINT)
            return None
    sys.meta_path.insert(0, Interrupt())
    sys.argv = ["bailout", *sys.argv[2:]]
    from generator.cli import run
    run()
    """)


# The first module the command imports, and the first its parser needs (every module after those
# loads inside the command's own Ctrl-C handling, as reportlab does); all of them where CI runs.
@pytest.mark.parametrize("module", ["generator.make.workers", "generator.cli.parser",
                                    *(["generator.cli.commands", "reportlab"] if SLOW else [])])
def test_ctrl_c_while_the_kit_loads_is_one_line_and_status_130(module, tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", INTERRUPT_AT, module, "build", "--out", str(out), "--only", "aid"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith("bailout: interrupted")
    assert not out.exists() or not list(out.iterdir())


def _stopped_once_rendering(args, sig, temp, count=1):
    """Run `bailout ARGS` with its temporary folder in `temp`, send `sig` once `count` of its
    render folders exist, and return (status, stderr)."""
    command = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ, TMPDIR=str(temp)))
    deadline = time.monotonic() + 120
    while len(list(temp.glob("bailout-render-*/out/*"))) < count:
        assert command.poll() is None and time.monotonic() < deadline, "it never started rendering"
        time.sleep(0.01)
    command.send_signal(sig)
    _, err = command.communicate(timeout=120)
    return command.returncode, err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP] if SLOW else [signal.SIGTERM])
def test_check_stopped_by_sigterm_or_sighup_leaves_no_temporary_folder(sig, tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    status, err = _stopped_once_rendering(["check"], sig, temp)
    assert status == 128 + sig and "Traceback" not in err, err
    assert err.startswith("bailout: interrupted") and err.count("\n") == 1
    assert list(temp.iterdir()) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP] if SLOW else [signal.SIGHUP])
def test_release_stopped_with_its_workers_leaves_no_temporary_folder(sig, tmp_path):
    temp, dist = tmp_path / "temp", tmp_path / "dist"
    temp.mkdir()
    # two editions, two processes: this one and a worker, each rendering in a folder of its own
    status, err = _stopped_once_rendering(["release", "--lang", "en,de", "--jobs", "2", "--rows", "8", "--out",
                                           str(dist), "--quiet"], sig, temp, count=2)
    assert status == 128 + sig and "Traceback" not in err, err
    assert err.startswith("bailout: interrupted") and err.count("\n") == 1
    assert list(temp.iterdir()) == []
    assert not dist.exists()


# The build's own process runs out of memory: the kit imported first (what it loads is not the
# point), then its address space limited to what it uses now and 2 MiB more, too little for a
# printed kit of 30,000 rows, which runs out as it joins its parts into the kit, once its tables
# are written (measured: 30,000 rows need 4 to 8 MiB more, 50,000 rows 8 to 12; the digital
# tables would first draw a thousand cards, seconds, before memory runs out). A short build of
# the same parts first loads every module the build imports as it goes: a module loaded under the
# limit can fail to map its shared library (an ImportError, not a MemoryError), and the test is of
# memory running out while the build works, not while Python imports.
OUT_OF_MEMORY = textwrap.dedent("""\
    import resource, sys, tempfile
    from generator.cli import main
    printed = ["--only", "aid,prerolled,counters", "--paper", "a4", "--quiet"]
    assert main(["build", "--out", tempfile.mkdtemp(), "--rows", "10", *printed]) == 0
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            now = int(line.split()[1]) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (now + 2 * 2**20, resource.RLIM_INFINITY))
    sys.exit(main(["build", "--out", sys.argv[1], "--rows", "30000", *printed]))
    """)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads its own memory from /proc (Linux)")
def test_out_of_memory_in_the_builds_own_process_is_one_line_and_changes_nothing(tmp_path):
    out = tmp_path / "out"
    # earlier outputs the failing build would replace (its tables), made in a moment
    status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--paper", "a4", "--rows", "8", "--quiet")
    assert status == 0, err
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    done = subprocess.run([sys.executable, "-c", OUT_OF_MEMORY, str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith("bailout: out of memory")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before      # no staging folder left either


def test_a_memory_error_anywhere_in_a_build_is_one_line_and_changes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "out"
    status, _, err = run_cli("build", "--out", out, "--only", "aid,counters", "--paper", "a4", "--quiet")
    assert status == 0, err
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    from generator.render.pdf import counters_pdf

    def too_much(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr(counters_pdf, "render", too_much)
    status, _, err = run_cli("build", "--out", out, "--only", "aid,counters", "--paper", "a4", "--quiet", "--seed", "5")
    assert status == 2 and err == ("bailout: out of memory (the system, or a limit such as ulimit -v, refused more); "
                                   "nothing was changed\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
