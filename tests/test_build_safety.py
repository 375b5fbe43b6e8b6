"""A build is all or nothing, one at a time per --out, and bounded in memory.

Signals need a real process: these tests run the builds they signal in subprocesses and use the
test hook BAILOUT_TEST_SLOW_COMMIT (build.py) to hold a build in its rename phase; the builds
before and after one run in this process.  Builds are of
the pre-rolled tables only, the fastest part, so the whole file stays quick.
"""

import hashlib
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, SLOW, edit, run_cli
from generator.layout.paper import PAPERS
from generator.make import transaction as B
from generator.make.outputs import all_file_names

FAST = ("--only", "prerolled", "--quiet")
# A build still rendering when it is signalled 0.3 s after its staging folder appears: 200,000 rows
# take seconds (20,000 rows, once used here, could end within the 0.3 s on a quick day and commit).
RENDERING = ("--paper", "a4", "--rows", "200000")


def start(out, *args, slow=None, hold=None):
    env = dict(os.environ, **({B.SLOW_COMMIT: str(slow)} if slow else {}),
               **({B.HOLD_COMMIT: str(hold)} if hold else {}))
    return subprocess.Popen([sys.executable, "-m", "generator", "build", "--out", str(out), *FAST, *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def build(out, *args):
    """A build no signal is sent to, in this process: (status, stderr)."""
    status, _, err = run_cli("build", "--out", out, *FAST, *args)
    return status, err


def files(out):
    """{name: sha256} of every file in `out`."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir()) if p.is_file()}


def only_kit_files(out):
    """Nothing in `out` but outputs and MANIFEST.txt (no lock file, no staging folder)."""
    return {p.name for p in out.iterdir()} <= {*all_file_names(PAPERS.values()), B.MANIFEST}


def staged(out, *parts):
    """Whether the build's staging folder in `out` (its name is random) holds `parts` (or exists)."""
    return any(path.joinpath(*parts).exists() for path in out.glob(B.STAGING_PREFIX + "*"))


def wait_for(predicate, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def manifest_matches(out):
    lines = (out / B.MANIFEST).read_text().splitlines()
    listed = {m.group(1): m.group(2) for m in (re.match(r"(\S+)\s+\S+\s+([0-9a-f]{64})$", ln) for ln in lines) if m}
    return listed == {name: digest for name, digest in files(out).items() if name != B.MANIFEST}


@pytest.fixture
def earlier(tmp_path):
    """An output folder holding a good build (a4), and the hashes of its files: made in this
    process (no signal is sent to it), the builds under test in their own."""
    out = tmp_path / "out"
    status, _, err = run_cli("build", "--out", out, *FAST, "--paper", "a4")
    assert status == 0, err
    return out, files(out)


def test_a_folder_in_the_way_leaves_every_earlier_file_as_it_was(earlier):
    out, before = earlier
    (out / "prerolled-letter.pdf").mkdir()          # renamed after prerolled-a4.pdf: that one is undone
    (out / "prerolled-letter.pdf" / "keep").write_text("mine")
    status, err = build(out, "--paper", "both", "--seed", "5")
    assert status == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert "prerolled-letter.pdf is a folder" in err
    assert files(out) == before
    assert (out / "prerolled-letter.pdf" / "keep").read_text() == "mine"
    assert {p.name for p in out.iterdir()} == {*before, "prerolled-letter.pdf"}


# SIGHUP raises what SIGTERM raises (generator/signals.py, ENDING): README's command sends SIGTERM
# and Ctrl-C's SIGINT (which Python raises otherwise) here, and SIGHUP to a release
# (test_interruptions.py test_release_stopped_with_its_workers_leaves_no_temporary_folder) and to
# serve (test_serve_security.py test_sigterm_and_sighup_end_serve_leaving_no_temporary_copy);
# BAILOUT_SLOW_TESTS=1 sends each here too.
ENDING = [signal.SIGTERM, signal.SIGHUP] if SLOW else [signal.SIGTERM]


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGINT, 130),
                                         *([(signal.SIGHUP, 128 + signal.SIGHUP)] if SLOW else [])])
def test_a_signal_while_renaming_puts_every_earlier_file_back(sig, status, earlier):
    out, before = earlier
    build_ = start(out, "--paper", "a4", "--seed", "5", slow=0.3)
    wait_for(lambda: any(out.glob(B.STAGING_PREFIX + "*/old/*")), "the first earlier file to be moved aside")
    build_.send_signal(sig)
    _, err = build_.communicate(timeout=60)
    assert build_.returncode == status and "Traceback" not in err
    assert err.strip() == "bailout: interrupted; earlier outputs are untouched"
    assert files(out) == before and only_kit_files(out)


@pytest.mark.parametrize("sig", ENDING)     # SIGHUP: the build's terminal closed
def test_sigterm_or_sighup_while_rendering_leaves_no_stray_files(sig, earlier):
    out, before = earlier
    build_ = start(out, *RENDERING)
    wait_for(lambda: staged(out, "new"), "rendering to start")
    time.sleep(0.3)
    build_.send_signal(sig)
    _, err = build_.communicate(timeout=60)
    assert build_.returncode == 128 + sig and "Traceback" not in err
    assert files(out) == before and only_kit_files(out)


def test_after_sigkill_while_rendering_the_next_build_cleans_up(earlier):
    out, before = earlier
    build_ = start(out, *RENDERING)
    wait_for(lambda: staged(out, "new"), "rendering to start")
    time.sleep(0.3)
    build_.kill()
    build_.communicate(timeout=60)
    assert build_.returncode == -signal.SIGKILL      # killed while rendering, not after it ended
    assert files(out) == before and staged(out)
    (out / ".kit-a4.pdf.k2j4_x9q.tmp").write_bytes(b"what an older version left when killed")
    status, err = build(out, "--paper", "a4", "--seed", "5")
    assert status == 0, err
    assert only_kit_files(out) and manifest_matches(out)


def test_after_sigkill_while_renaming_the_next_build_undoes_the_commit_first(earlier, data_copy):
    out, before = earlier
    build_ = start(out, "--paper", "a4", "--seed", "5", slow=0.3)
    wait_for(lambda: any(out.glob(B.STAGING_PREFIX + "*/old/*")), "the first earlier file to be moved aside")
    build_.kill()
    build_.communicate(timeout=60)
    assert files(out) != before                 # a rename was cut short: the plan is the way back
    # The next build undoes that commit before it renders: even one that then fails to render
    # (a weapon name the font cannot draw) leaves the earlier files as they were, and no staging.
    edit(data_copy / "nationalities" / "soviet.toml", 'model = "PPS-43"', 'model = "PPS-43 \\u4e2d"')
    status, err = build(out, "--paper", "a4", "--data", str(data_copy))
    assert status == 2 and "U+4E2D" in err and "Traceback" not in err
    assert files(out) == before and only_kit_files(out)


def test_a_second_build_into_the_same_folder_stops_and_the_manifest_holds(earlier):
    out, _ = earlier
    # The first build holds before its first rename until the second has been refused: however
    # loaded the machine, the second reaches the lock while the first is surely committing.
    go = out.parent / "go"
    first = start(out, "--paper", "a4", "--seed", "5", hold=go)
    wait_for(lambda: staged(out, "plan"), "the first build to start renaming")
    status, err = build(out, "--paper", "a4", "--seed", "6")
    go.touch()
    assert status == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert f"--out {out}: another build is writing this folder now" in err
    _, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    assert manifest_matches(out) and only_kit_files(out)
    from pypdf import PdfReader
    assert "seed 5," in PdfReader(out / "prerolled-a4.pdf").metadata["/Subject"]


def test_many_rows_say_how_many_pages_first(capsys):
    import io

    from pypdf import PdfReader

    from generator.content.context import make_context
    from generator.content.rows import table_for
    from generator.data import load
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.pipeline import rows_notice
    from generator.options import BuildOptions
    from generator.render.pdf import prerolled_pdf as prerolled
    kit = load(ROOT / "data")
    from generator.layout.paper import PAPERS
    from generator.make import pipeline as P
    a4 = PAPERS["a4"]
    for rows in (P.ROWS_NOTICE, P.ROWS_NOTICE + 1):
        ctx = make_context(kit, compute(kit), BuildOptions(rows=rows, papers=("a4",)), shipped("templates"))
        rows_notice(ctx)
    said = capsys.readouterr().err
    # The pages the notice names are the pages the table prints: the 20,001-row table itself (some
    # 400 pages, seconds) where CI runs (BAILOUT_SLOW_TESTS=1); README's command checks the
    # forecast against a rendered table of 1,001 rows and reads the notice against the forecast.
    if SLOW:
        pages = len(PdfReader(io.BytesIO(prerolled.render(ctx, a4, table_for(ctx)))).pages)
    else:
        small = make_context(kit, compute(kit), BuildOptions(rows=1001, papers=("a4",)), shipped("templates"))
        assert len(PdfReader(io.BytesIO(prerolled.render(small, a4, table_for(small)))).pages) == \
            prerolled.page_count(small, a4, table_for(small)) > 2
        pages = prerolled.page_count(ctx, a4, table_for(ctx))
    assert said == (f"bailout: note: --rows {P.ROWS_NOTICE + 1:,} makes pre-rolled tables of {pages:,} pages on A4; "
                    f"this takes a while\n")


# -- bounded memory (slow: CI runs these, with BAILOUT_SLOW_TESTS=1 from .ci/run) -------------

slow = pytest.mark.skipif(os.environ.get("BAILOUT_SLOW_TESTS") != "1",
                          reason="slow (a minute or more); set BAILOUT_SLOW_TESTS=1, as .ci/run does")

MEASURE = ("import resource, subprocess, sys\n"
           "subprocess.run(sys.argv[1:], check=True)\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")     # KiB on Linux


def peak_kib(*args):
    done = subprocess.run([sys.executable, "-c", MEASURE, sys.executable, "-m", "generator", "build",
                           *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


@slow
def test_two_hundred_thousand_rows_peak_under_200_mib(tmp_path):
    assert peak_kib("--out", tmp_path / "o", "--rows", "200000", "--quiet") < 200 * 1024


@slow
def test_a_print_shops_kit_of_two_hundred_thousand_rows_peaks_under_200_mib_too(tmp_path):
    """A shop's tables are drawn as its pages, one at a time, and its kit joined from them as
    they were written (docs/guarantees.md): DriveThruRPG's kit, both papers."""
    assert peak_kib("--out", tmp_path / "o", "--print", "drivethru", "--rows", "200000", "--quiet") < 200 * 1024


@slow
def test_a_shops_tables_of_a_million_rows_peak_under_100_mib(tmp_path):
    """The tables alone, PDF and CSV, of 1,000,000 rows as meinspiel prints them (some 17,000
    pages, a 48 MB CSV): both written as they are made, and never read back for the progress
    line (not --quiet) (docs/guarantees.md)."""
    assert peak_kib("--out", tmp_path / "o", "--only", "prerolled", "--paper", "a4", "--rows", "1000000",
                    "--print", "meinspiel") < 100 * 1024


@slow
@pytest.mark.parametrize("profile", ["duplex", "meinspiel"])
def test_memory_grows_by_a_small_constant_per_page(tmp_path, profile):
    """A home printer's tables and a print shop's (PDF/X-4, its colours converted page by page)."""
    from pypdf import PdfReader
    peak, pages = {}, {}
    for rows in (5_000, 100_000):
        out = tmp_path / str(rows)
        peak[rows] = peak_kib("--out", out, "--only", "prerolled", "--paper", "a4", "--rows", rows, "--print", profile,
                              "--quiet")
        pages[rows] = len(PdfReader(out / "prerolled-a4.pdf").pages)
    per_page = (peak[100_000] - peak[5_000]) / (pages[100_000] - pages[5_000])
    assert per_page < 40, f"{per_page:.1f} KiB a page"
