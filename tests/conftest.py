import contextlib
import functools
import io
import itertools
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pypdfium2  # noqa: F401 (first: see below)
import pytest
from hypothesis import HealthCheck, settings

from generator.make.workers import collect_seldom

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"

# The kit's commands the tests start as processes (a hundred or so) keep the kit's compiled
# modules in generator/__pycache__ (ignored by git), as on any developer's machine: where the
# environment forbids it (PYTHONDONTWRITEBYTECODE, set on some sandboxes and containers) each
# process would compile every module again.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The tests run the kit's commands in this process (run_cli), as `bailout` runs them in its own:
# with the collector passing seldom (make/workers.py collect_seldom).  At Python's default a test
# worker's collector passes over its whole heap (the libraries, the session's builds) many times a
# run, finding next to nothing (docs/speed.md, the test suite).
collect_seldom()

# The lightest build that reads every input and option a build reads and writes MANIFEST.txt: a
# pre-rolled table of one row on one paper (for a test of what the inputs make of the build as a
# whole, not of a part)
LIGHTEST_BUILD = ("build", "--only", "prerolled", "--rows", "1", "--paper", "a4", "--quiet")

# pypdfium2 is imported before anything makes a weakref.finalize (a build's temporary folder
# does): at exit the finalizers then close the documents the tests keep (pdfpage.pages_of caches
# them) before pypdfium2 shuts pdfium down, which warns of each document it finds still open.

# Hypothesis budgets: a profile picked by BAILOUT_HYPOTHESIS_PROFILE (.ci/run sets "ci").  Both are
# derandomized (the same examples every run, so nothing flakes) and keep no example database.
#   max_examples: any property test that runs in-process in milliseconds (the mutated-data fuzz).
#   argument_lists: the CLI argument fuzz; most lists stop in the parser, so it needs many.
#   builds: tests that build a kit per example, the costliest examples.
# The defaults come from injecting faults and counting the examples until the fuzz failed: data
# type checks dropped, example 9; TOML syntax errors uncaught, 3; `simulate 0` accepted, 759;
# data text not escaped for reportlab, build 5.  Each default is over 1.3x its worst case (the
# mutated data 6x, the builds 1.6x); "ci" tries 7x to 50x more.
PROFILES = {"default": {"max_examples": 60, "argument_lists": 1000, "builds": 8},
            "ci": {"max_examples": 3000, "argument_lists": 10000, "builds": 60}}
PROFILE = os.environ.get("BAILOUT_HYPOTHESIS_PROFILE", "default")
for _name, _budget in PROFILES.items():
    settings.register_profile(_name, max_examples=_budget["max_examples"], derandomize=True, database=None,
                              deadline=None, print_blob=False,
                              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
settings.load_profile(PROFILE if PROFILE in PROFILES else "default")
BUDGET = PROFILES.get(PROFILE, PROFILES["default"])
# The larger budgets of tests that are not Hypothesis's: every paper, every edition, every sheet
# (.ci/run sets it); README's command checks a share of them, each test still run.
SLOW = os.environ.get("BAILOUT_SLOW_TESTS") == "1"


def matrix(*axes):
    """The cases of a test parametrized over several axes (each a sequence of values): under
    BAILOUT_SLOW_TESTS=1 their whole product; else a covering share, each value of every axis in
    at least one case (case i takes value i of each axis, wrapping round), as many cases as the
    longest axis has values."""
    if SLOW:
        return list(itertools.product(*axes))
    return [tuple(axis[i % len(axis)] for axis in axes) for i in range(max(map(len, axes)))]


def pytest_configure(config):
    if PROFILE not in PROFILES:
        raise pytest.UsageError(f"BAILOUT_HYPOTHESIS_PROFILE={PROFILE!r}: expected one of {', '.join(PROFILES)}")
    # A run started with Ctrl-C ignored (a background job of a script, nohup) would hand that on
    # to every build and server it starts, and the tests of Ctrl-C would meet a build that cannot
    # be stopped by it: the run takes Ctrl-C back as a terminal gives it, and its children with it.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    if SLOW:
        return
    later = pytest.mark.skip(reason="a larger budget: BAILOUT_SLOW_TESTS=1 runs it (.ci/run sets it)")
    for item in items:
        if item.get_closest_marker("larger_budget"):
            item.add_marker(later)


def pytest_report_header(config):
    return f"hypothesis profile: {PROFILE} (BAILOUT_HYPOTHESIS_PROFILE), {PROFILES[PROFILE]}"


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of data/ a test may edit."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


@pytest.fixture
def templates(tmp_path):
    """A private copy of templates/ a test may edit; what this process compiled of it is forgotten after."""
    from generator.content import aid_text
    folder = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", folder)
    yield folder
    aid_text._environment.cache_clear()


@pytest.fixture
def locale(tmp_path, monkeypatch):
    """A private copy of the catalogues (generator/content/locale) that the kit reads instead of
    its own, for a test to edit."""
    import generator.content.words as words_mod
    from generator.content import aid_files
    copy = tmp_path / "locale"
    shutil.copytree(words_mod.LOCALE, copy)
    monkeypatch.setattr(words_mod, "LOCALE", copy)
    monkeypatch.setattr(aid_files, "LOCALE", copy)
    monkeypatch.setattr(words_mod, "_READ", {})
    monkeypatch.setattr(aid_files, "_AID_READ", {})
    yield copy


@pytest.fixture
def check_after_its_render(monkeypatch):
    """`bailout check` (in this process) without its first step, the render of every part of the
    English kit on both papers (seconds), for a test of what check's later steps find (an
    edition's catalogue or glossary) or of what it says after: each part's own tests build what
    it renders, the session's default build (kit_dir) renders the same, and test_bad_data's check
    of the shipped data runs check whole under BAILOUT_SLOW_TESTS=1."""
    from generator.make import pipeline
    monkeypatch.setattr(pipeline, "render_all", lambda *args, **kwargs: {})


@contextlib.contextmanager
def _made_once(tmp_path_factory, name):
    """(folder, made): a folder every test worker of this run shares, and whether one made its
    contents already.  The first worker to ask makes them while it holds the folder's lock; the
    others wait for it and read them (pytest-xdist runs a worker per core; made once, not once a
    worker).  Without workers: a folder of this session's own."""
    from filelock import FileLock
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield tmp_path_factory.mktemp(name), False
        return
    shared = tmp_path_factory.getbasetemp().parent / name
    with FileLock(str(shared) + ".lock"):
        done = shared.parent / f"{name}.made"       # beside the folder: its listing is the build's
        made = done.exists()
        shared.mkdir(exist_ok=True)
        yield shared, made
        done.touch()


@pytest.fixture(scope="session")
def release_zip(tmp_path_factory):
    """(zip name, zip bytes) of `bailout release` with the default options, made once per run."""
    with _made_once(tmp_path_factory, "release-zip") as (folder, made):
        if made:
            [path] = folder.glob("*.zip")
            return path.name, path.read_bytes()
        from generator.data import load
        from generator.make.release import make_release
        from generator.options import BuildOptions
        name, content = make_release(load(DATA), BuildOptions())
        (folder / name).write_bytes(content)
        return name, content


@pytest.fixture(scope="session")
def kit_dir(tmp_path_factory):
    """`bailout build` of the shipped data, default options, once per run, in one process (what
    tests/test_concurrency.py holds a build of several processes to).  Read only."""
    with _made_once(tmp_path_factory, "kit") as (out, made):
        if not made:
            from generator.cli import main
            assert main(["build", "--out", str(out), "--quiet"]) == 0
        return out


@pytest.fixture(scope="session")
def two_editions(tmp_path_factory):
    """The zip path of `bailout release --lang en,de --rows 8 --jobs 1`, its editions made one by
    one in one process, once per run (tests/test_editions.py reads it, tests/test_concurrency.py
    holds one made a process an edition to it)."""
    with _made_once(tmp_path_factory, "two-editions") as (out, made):
        if not made:
            status, _, err = run_cli("release", "--lang", "en,de", "--rows", "8", "--out", out, "--quiet",
                                     "--jobs", "1")
            assert status == 0, err
        [path] = out.glob("*.zip")
        return path


@pytest.fixture(scope="session")
def kit_files(kit_dir):
    """{file name: bytes} of the session's default build."""
    return {p.name: p.read_bytes() for p in sorted(kit_dir.iterdir())}


_FACTORY = []       # the session's tmp_path_factory, for what plain functions share between workers


@pytest.fixture(scope="session", autouse=True)
def _session_factory(tmp_path_factory):
    _FACTORY.append(tmp_path_factory)


def aid_edition(lang, paper="a4"):
    """{file name: bytes} of the aid alone in `lang` (its PDF on `paper` and its web page), made
    once a run (by the first worker to ask; the others read its files) and kept by this process:
    the tests that read no other file of an edition share it, every edition on both papers."""
    return _aid_edition(lang, paper)        # one key for aid_edition("en") and aid_edition("en", "a4")


@functools.cache
def _aid_edition(lang, paper):
    with _made_once(_FACTORY[0], f"aid-{lang}" + ("" if paper == "a4" else f"-{paper}")) as (folder, made):
        if made:
            return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
        from generator.data import load
        from generator.make.pipeline import render_all
        from generator.options import BuildOptions
        files = render_all(load(DATA), BuildOptions(lang=lang, parts=("aid",), papers=(paper,)))
        for name, content in files.items():
            (folder / name).write_bytes(content)
        return files


def edit(path, old, new, count=1):
    """Replace text in a data file, failing loudly if the text is not there."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count))


def run_cli(*args):
    """Run `bailout ARGS` in this process: (exit status, stdout, stderr).

    In-process: a fresh interpreter per call would import the kit, parse its fonts and compile
    the aid template again each time.  An exception that would end the process with a
    traceback fails the test here instead.  test_build.py runs the real process.
    """
    from generator.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(a) for a in args])
        except SystemExit as exit_:     # argparse: --help, --version, usage errors
            status = exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
    return status, out.getvalue(), err.getvalue()


def bailout(*args, env=None, timeout=60, cwd=ROOT, prefix=()):
    """Run `bailout ARGS` as a process of its own, with a time limit: (status, stdout, stderr)."""
    done = subprocess.run([*prefix, sys.executable, "-m", "generator", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          env=dict(os.environ, **(env or {})))
    return done.returncode, done.stdout, done.stderr


def one_line(status, err, *words):
    """Exit 2 and exactly one `bailout:` line on stderr, holding every word."""
    assert status == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bailout: "), err
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


def _skip(reason):
    """Skip, saying why; with CI=true fail instead: CI runs as root and must run these."""
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"CI must run the full-disk tests: {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def small_disk(where, size):
    """A tmpfs of `size` mounted at `where` (root only); the test skips, saying why, where it cannot."""
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        _skip("a full disk needs a small tmpfs: mount -t tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True,
                          text=True)
    if done.returncode:
        _skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def pdf_text(content):
    """Every page's text, pages joined by a newline: read by pdfium (the C library the kit already
    uses for thumbnails), far sooner than pypdf's extract_text on a whole kit.  Words
    printed in two sizes with no space between ("1 FP" as a big 1 and a small FP) come out joined."""
    return "\n".join(page_texts(content))


def page_texts(content):
    """[each page's text], read by pdfium as pdf_text reads them (in the content's order, a line
    of text a line, as pypdf's extract_text gives them but for a heading run into its text); the
    typographic apostrophe (the English edition's) read as the straight one the catalogues and
    data type, so a test finds their words as written (raw_page_texts keeps it).  PDF bytes are
    read once a process: many tests read a file another read already (the session's kit, an
    edition's aid)."""
    texts = _page_texts(content) if isinstance(content, bytes) else raw_page_texts(content)
    return [text.replace(TYPOGRAPHIC_APOSTROPHE, "'") for text in texts]


@functools.lru_cache(maxsize=32)
def _page_texts(content):
    """raw_page_texts of a PDF's bytes, read once a process."""
    return tuple(raw_page_texts(content))


TYPOGRAPHIC_APOSTROPHE = "\u2019"


def raw_page_texts(content):
    """[each page's text] as pdfium reads it, its apostrophes as printed."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(content) if isinstance(content, os.PathLike) else content)
    try:
        pages = []
        for i in range(len(doc)):
            text = doc[i].get_textpage()
            pages.append(text.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
        return pages
    finally:
        doc.close()


@pytest.fixture(scope="session")
def preset_builds():
    """{preset: {file name: bytes}}: the counters (A4) of each named shop preset at the counter
    size a build of it prints by default, and DriveThruCards' pre-rolled tables (A4, 24 rows),
    made once per run."""
    from generator.data import load
    from generator.make.pipeline import render_all
    from generator.options import BuildOptions, default_counter_mm
    builds = {}
    for preset in ("drivethru", "meinspiel", "tgc-punchout"):
        parts = ("counters", "prerolled") if preset == "drivethru" else ("counters",)
        builds[preset] = render_all(load(DATA), BuildOptions(parts=parts, papers=("a4",), rows=24,
                                                             print_profile=preset,
                                                             counter_mm=default_counter_mm((preset,))))
    return builds


# -- a command run in this process that could wait for ever ---------------------------------------

class Hung(Exception):
    """A command run in this process outlived its time limit, as one waiting on a FIFO would."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise Hung in the body once `seconds` (whole) have passed: a command run in this process
    that would wait for ever (on a FIFO nobody writes) fails its test rather than hang the run.
    SIGALRM, so in the main thread, where pytest runs a test."""
    def hung(signum, frame):
        raise Hung(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- what the tests of the commands and the digital tables share: a build, a browser ---------------

HOSTILE_NAME = "Ger</x> & \"man\" 'q' a;b,c/d\\e f'"       # XML's, VASSAL's and JSON's special characters


@pytest.fixture(scope="session")
def hostile_digital(tmp_path_factory):
    """The folder `bailout build --only vassal,tts --rows 12 --paper a4` wrote from data whose German
    nationality is named HOSTILE_NAME, made once a run (test_vassal.py and test_tts.py read it)."""
    with _made_once(tmp_path_factory, "hostile-digital") as (folder, made):
        if not made:
            shutil.copytree(DATA, folder / "data")
            path = folder / "data" / "nationalities" / "german.toml"
            quoted = HOSTILE_NAME.replace("\\", "\\\\").replace('"', '\\"')
            edit(path, 'name = "German"', f'name = "{quoted}"')
            status, _, err = run_cli("build", "--data", folder / "data", "--only", "vassal,tts", "--rows", "12",
                                     "--paper", "a4", "--quiet", "--out", folder / "out")
            assert status == 0, err
        return folder / "out"


def browser_unavailable(reason):
    """Skip a browser test, saying what is missing; with CI=true fail instead: CI runs them."""
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_driver():
    """One headless Chromium (serving.chromium) for the run's browser tests (test_browser.py,
    test_serve.py: a start is about a second of CPU), its console log kept; skips, saying what is
    missing, where selenium, Chromium or chromedriver is."""
    import tempfile

    from serving import Unavailable, chromium
    profile = tempfile.mkdtemp(prefix="bailout-chromium-")
    try:
        driver = chromium(Path(profile))
    except Unavailable as missing:
        shutil.rmtree(profile, ignore_errors=True)
        browser_unavailable(str(missing))
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# -- what the tests of the printed pages share: the shipped data, builds, page texts ------------------

@functools.cache
def shipped_kit():
    """load(DATA), read once a process (a KitData is frozen: every test may share it): some 20 ms
    a read, and the printed pages' tests read the shipped data three hundred times."""
    from generator.data import load
    return load(DATA)


def kit_of(data):
    """The kit in the data folder `data`: the shipped one shared (shipped_kit), any other read anew
    (a test's edited copy changes between reads)."""
    from generator.data import load
    return shipped_kit() if data == DATA else load(data)


PRINTED_KIT = ("aid", "prerolled", "counters")       # `--only aid,prerolled,counters`: no digital tables


def shipped_build(**options):
    """{file name: bytes} of render_all on the shipped data with BuildOptions(**options), made
    once per option set in this process: the tests of several files that read the same build
    (an edition's counters at one size, a preset's sheets) share it.  Read only."""
    from generator.options import BuildOptions
    return _shipped_build(BuildOptions(**options))


@functools.lru_cache(maxsize=32)
def _shipped_build(options):
    import types

    from generator.make.pipeline import render_all
    return types.MappingProxyType(render_all(shipped_kit(), options))
