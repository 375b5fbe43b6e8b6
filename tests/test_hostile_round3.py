"""Hostile input, third round (issue 23): the output folder, git archives, concurrency, stdout.

Each numbered case of the issue is a test here; each failed before its fix.
"""

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib

import pytest

from conftest import DATA, ROOT, edit, run_cli
from generator.data import load
from generator.data.file_names import entry_name
from generator.data.revisions import MAX_FILES
from generator.data.toml_file import MAX_FILE_BYTES
from generator.errors import DataError, UsageError
from generator.errors import one_line as one_line_text
from generator.make import transaction as T
from test_hostile import one_line  # exit 2 and exactly one `bailout:` line, holding every word


def bailout(*args, env=None, timeout=60, cwd=ROOT):
    """Run `bailout` in a subprocess with a time limit: (status, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env=dict(os.environ, **(env or {})))
    return done.returncode, done.stdout, done.stderr




# -- 1. a leftover staging plan is trusted only for the kit's own file names ------------------

def _leftover(tmp_path, plan: bytes):
    """--out with a killed build's staging folder holding `plan`, and a target file beside --out."""
    out = tmp_path / "deep" / "out"
    staging = out / T.STAGING
    (staging / "new").mkdir(parents=True)
    (staging / "old").mkdir()
    (staging / "plan").write_bytes(plan)
    (out / "target.txt").write_text("in out")
    (staging / "old" / "target.txt").write_text("planted")
    victim = tmp_path / "victim"
    victim.write_text("outside")
    (tmp_path / "target.txt").write_text("outside too")
    return out, victim


def _contents(folder):
    """{path: bytes} of every file under `folder` but the build lock (made empty, and kept)."""
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.name != T.LOCK_NAME}


@pytest.mark.parametrize("plan", [b"had ../../target.txt\n", b"new ../victim\n", b"had target.txt\n",
                                  b"new /etc/passwd\n", b"new a\\..\\..\\victim\n", b"garbage\n", b"had\n",
                                  b"\xff\xfe not utf-8\n"])
def test_a_forged_plan_is_refused_and_nothing_is_touched(plan, tmp_path):
    out, victim = _leftover(tmp_path, plan)
    before = _contents(tmp_path)
    with pytest.raises(UsageError) as raised:
        T.write_all(out, {"MANIFEST.txt": b"x"})
    assert len(raised.value.problems) == 1 and T.STAGING in raised.value.problems[0]
    assert _contents(tmp_path) == before
    assert victim.read_text() == "outside" and (tmp_path / "target.txt").read_text() == "outside too"


def test_a_forged_plan_from_the_command_line_is_one_line(tmp_path):
    out, victim = _leftover(tmp_path, b"new ../victim\n")
    status, _, err = bailout("build", "--out", out, "--only", "prerolled", "--quiet")
    one_line(status, err, "plan", "line 1")
    assert victim.read_text() == "outside"


def test_a_linked_old_folder_in_the_plan_is_refused(tmp_path):
    out, _ = _leftover(tmp_path, b"had MANIFEST.txt\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "MANIFEST.txt").write_text("someone else's")
    (out / T.STAGING / "old" / "target.txt").unlink()
    (out / T.STAGING / "old").rmdir()
    (out / T.STAGING / "old").symlink_to(elsewhere)
    with pytest.raises(UsageError, match="symbolic link"):
        T.write_all(out, {"MANIFEST.txt": b"x"})
    assert (elsewhere / "MANIFEST.txt").read_text() == "someone else's"


def test_a_plan_the_kit_wrote_is_still_rolled_back(tmp_path):
    out, _ = _leftover(tmp_path, b"had MANIFEST.txt\nnew player-aid-a4.pdf\n")
    (out / T.STAGING / "old" / "MANIFEST.txt").write_text("earlier")
    (out / "MANIFEST.txt").write_text("half-committed")
    (out / "player-aid-a4.pdf").write_text("new, renamed in before the kill")
    T.write_all(out, {"MANIFEST.txt": b"now"})
    assert (out / "MANIFEST.txt").read_bytes() == b"now"
    assert not (out / "player-aid-a4.pdf").exists()     # the plan's new file is gone again
    assert not (out / T.STAGING).exists()


# -- 7. `bailout crew` under the no_floor reading, every man lost -----------------------------

def test_crew_reduced_to_none_is_one_line_not_a_division_by_zero(data_copy):
    rules = tomllib.loads((data_copy / "rules.toml").read_text())
    crew = rules["crew"]
    assert "no_floor" in rules["interpretation"]["crew_size"]["readings"]     # the shipped reading
    edit(data_copy / "rules.toml", 'reading = "floor"', 'reading = "no_floor"')
    lost = crew["size"] // crew["per_commander_casualty"]      # casualties that leave no man (28.431)
    status, out, err = run_cli("crew", "german", "--afv-morale", "7", "--casualties", str(lost),
                               "--data", str(data_copy))
    one_line(status, err, "none bails out", str(lost))
    assert out == ""
    status, out, err = run_cli("crew", "german", "--afv-morale", "7", "--casualties", str(lost - 1),
                               "--data", str(data_copy))
    assert status == 0, err


# -- 9. terminal escapes from data never reach stdout raw -------------------------------------

FORGED = r"K\u001b]0;pwned\u0007\u001b[31mRED\nFAKE: line\u202e"     # TOML escapes: ESC, BEL, LF, RLO
RAW = ("\x1b", "\x07", "\r", "\u202e")


def _hostile_terminal_data(data):
    edit(data / "nationalities" / "german.toml", 'model = "MP 40"', f'model = "{FORGED}"')
    edit(data / "nationalities" / "german.toml", 'name = "German"', r'name = "Ger\rman"')
    edit(data / "rules.toml", 'rule = "871.1.a"', r'rule = "871.1.a\u001b[2J"')
    edit(data / "rules.toml", 'title = "AFVs & Bail Out"', r'title = "AFVs & Bail\r Out"')   # odds print it


def _assert_escaped(out):
    assert out.strip()
    for raw in RAW:
        assert raw not in out, (raw, out)
    assert not any(line.startswith("FAKE") for line in out.splitlines())


@pytest.mark.parametrize("command", [("odds",), ("odds", "--json"), ("simulate", "50"), ("simulate", "50", "--json"),
                                     ("crew", "german", "--afv-morale", "7")])
def test_data_text_reaches_stdout_escaped(command, data_copy):
    _hostile_terminal_data(data_copy)
    status, out, err = run_cli(*command, "--data", str(data_copy))
    assert status == 0, err
    _assert_escaped(out)
    if "--json" in command:
        json.loads(out)             # the escapes keep it JSON


@pytest.mark.parametrize("as_json", [False, True])
def test_diff_prints_a_forged_model_escaped(as_json, tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(DATA, old)
    shutil.copytree(DATA, new)
    edit(new / "nationalities" / "german.toml", 'model = "MP 40"', f'model = "{FORGED}"')
    status, out, err = run_cli("diff", str(old), str(new), *(["--json"] if as_json else []))
    assert status == 1, err         # a printed change
    _assert_escaped(out)
    if as_json:
        shown = json.dumps(json.loads(out))
        assert "FAKE: line" in shown and "\\u202e" in shown     # the model is there, as JSON escapes
    else:
        assert "\\x1b]0;pwned\\x07" in out and "\\nFAKE: line\\u202e" in out


def test_check_ok_line_escapes_a_carriage_return(tmp_path):
    data = tmp_path / "da\rta"
    shutil.copytree(DATA, data)
    status, out, err = run_cli("check", "--data", str(data))
    assert status == 0, err
    assert "\r" not in out and "da\\rta" in out and len(out.splitlines()) == 1


@pytest.mark.parametrize("space", ["\r", "\t", "\u2028", "\u3000"])
def test_check_refuses_whitespace_the_font_cannot_print(space, data_copy):
    code = f"U+{ord(space):04X}"
    edit(data_copy / "rules.toml", 'title = "AFVs & Bail Out"', f'title = "AFVs & Bail\\u{ord(space):04x} Out"')
    status, _, err = run_cli("check", "--data", str(data_copy))
    one_line(status, err, "variant.title", code)


# -- 5. deep folders, and a data folder that is the whole disk --------------------------------

def test_twelve_hundred_nested_folders_do_not_end_in_recursion(data_copy):
    folders = [data_copy / "n"]
    for _ in range(1199):           # one at a time: mkdir(parents=True) itself recurses
        folders.append(folders[-1] / "n")
    try:
        for folder in folders:
            folder.mkdir()
        (folders[-1] / "stray.toml").write_text("x = 1\n")
        kit = load(data_copy)
        assert kit.hash == load(DATA).hash          # nothing under the stray folders is read
        status, _out, err = run_cli("odds", "--data", str(data_copy))
        assert status == 0, err
    finally:        # from the bottom up: rmtree, and pytest's clean-up of old runs, recurse too deep
        (folders[-1] / "stray.toml").unlink(missing_ok=True)
        for folder in reversed(folders):
            if folder.is_dir():
                folder.rmdir()


def test_check_data_root_does_not_walk_the_disk():
    started = time.monotonic()
    status, _, err = bailout("check", "--data", "/", timeout=30)
    assert time.monotonic() - started < 20
    assert status == 2 and "Traceback" not in err and "rules.toml" in err


# -- 6. data behind a symbolic link that leads out of the data folder --------------------------

def _transcribed_deck(data, where):
    """A deck file at `where`, named by the rules as decks/mine.toml."""
    rows = ",\n".join(f"  [{a}, {b}, {c}]" for a in (1, 2) for b in (1, 2, 3) for c in (1, 2, 3, 4))
    where.mkdir(parents=True, exist_ok=True)
    (where / "mine.toml").write_text(f"columns = [2, 3, 4]\ncards = [\n{rows},\n]\n")
    edit(data / "rules.toml", '# file = "decks/my-deck.toml"', 'file = "decks/mine.toml"')
    edit(data / "rules.toml", 'reading = "uniform"', 'reading = "transcribed"')


def test_a_deck_behind_a_linked_folder_is_refused(data_copy, tmp_path):
    _transcribed_deck(data_copy, tmp_path / "elsewhere")
    (data_copy / "decks").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{data_copy}/decks/mine.toml: leads outside the data folder (to "
                                     f"{tmp_path / 'elsewhere' / 'mine.toml'}, through a symbolic link); "
                                     f"data files must lie inside it"]


def test_linked_nationalities_folder_is_refused(data_copy, tmp_path):
    shutil.move(data_copy / "nationalities", tmp_path / "nats")
    (data_copy / "nationalities").symlink_to(tmp_path / "nats")
    status, _, err = run_cli("check", "--data", str(data_copy))
    assert status == 2 and "leads outside the data folder" in err
    assert len(err.splitlines()) == len(list((tmp_path / "nats").glob("*.toml")))   # one line per file


def test_a_link_inside_the_data_folder_is_followed(data_copy):
    (data_copy / "nats").mkdir()
    shutil.move(data_copy / "nationalities" / "german.toml", data_copy / "nats" / "german.toml")
    (data_copy / "nationalities" / "german.toml").symlink_to("../nats/german.toml")
    assert "german" in [n.key for n in load(data_copy).nationalities]


def test_the_data_hash_covers_exactly_what_was_read(data_copy):
    plain = load(data_copy).hash
    (data_copy / "notes.toml").write_text("unused = true\n")        # not a file the kit reads
    (data_copy / "decks").mkdir()
    (data_copy / "decks" / "spare.toml").write_text("columns = []\n")
    assert load(data_copy).hash == plain
    _transcribed_deck(data_copy, data_copy / "decks")
    with_deck = load(data_copy).hash
    assert with_deck != plain
    edit(data_copy / "decks" / "mine.toml", "[1, 1, 1]", "[1, 1, 2]")   # the deck is read: it is hashed
    assert load(data_copy).hash != with_deck


# -- 10. file names made from data: the release's face images --------------------------------

@pytest.mark.parametrize("stem", ["..\\..\\..\\..\\evil", "a\nb", "ger\u202eman", "c:d", "x" * 240, "a b",
                                  "-german", "ger--man", "ger.man", "germ\u00e4n"])
def test_a_nationality_file_name_that_makes_no_safe_file_name_is_named_by_check(stem, data_copy):
    nats = data_copy / "nationalities"
    try:
        (nats / f"{stem}.toml").write_bytes((nats / "german.toml").read_bytes().replace(b'"German"', b'"Evil"'))
    except OSError:
        pytest.skip(f"this file system cannot hold the name {stem!r} itself")
    with pytest.raises(DataError) as raised:
        load(data_copy)
    [problem] = raised.value.problems
    assert problem.startswith(f"{nats}/") and "safe file name" in problem and "\n" not in problem
    assert one_line_text(f"{stem}.toml") in problem


def test_nationality_names_differing_only_in_case_are_refused(data_copy):
    nats = data_copy / "nationalities"
    (nats / "German.toml").write_bytes((nats / "german.toml").read_bytes().replace(b'"German"', b'"Other"'))
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{nats}/german.toml: differs only in case from nationalities/German.toml; "
                                     f"the two would be one file on many disks"]


def test_release_face_names_are_made_of_safe_parts(release_zip):
    import io
    import zipfile
    _name, content = release_zip
    faces = [n for n in zipfile.ZipFile(io.BytesIO(content)).namelist() if "/faces/" in n]
    assert faces
    for entry in faces:
        _folder, sub, file = entry.split("/")
        assert sub == "faces" and re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*\.png", file), entry
    with pytest.raises(ValueError):
        entry_name("..\\evil", "crew")


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


def _diff_at(repo, *args, timeout=60):
    env = dict(os.environ, TMPDIR=str(repo.parent / "tmp"))
    done = subprocess.run([sys.executable, "-m", "generator", "diff", *args], cwd=repo, capture_output=True,
                          text=True, timeout=timeout, env=env)
    return done.returncode, done.stdout, done.stderr


def _commit(repo, message="change"):
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)


def test_a_git_rev_is_read_from_its_tree(repo):
    status, out, err = _diff_at(repo, "git:HEAD", "data")
    assert (status, err) == (0, "") and "No printed change" in out
    assert not list((repo.parent / "tmp").iterdir())        # the temporary folder is gone


def test_a_committed_symbolic_link_is_refused_not_unpacked(repo):
    (repo / "data" / "decks").symlink_to("../../../etc")
    _commit(repo)
    status, _, err = _diff_at(repo, "git:HEAD", "data")
    one_line(status, err, "data/decks", "symbolic link")
    assert not list((repo.parent / "tmp").iterdir())


def test_a_file_over_the_limit_at_a_rev_is_refused_before_reading(repo):
    big = repo / "data" / "big.toml"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    _commit(repo)
    big.unlink()
    status, _, err = _diff_at(repo, "git:HEAD", "data")
    one_line(status, err, "data/big.toml", f"{MAX_FILE_BYTES + 1:,} bytes")
    assert not list((repo.parent / "tmp").iterdir())        # nothing was unpacked


def test_more_files_at_a_rev_than_the_cap_are_refused(repo):
    extra = repo / "data" / "extra"
    extra.mkdir()
    for i in range(MAX_FILES + 1):
        (extra / f"{i}.txt").write_text("")
    _commit(repo)
    status, _, err = _diff_at(repo, "git:HEAD", "data")
    one_line(status, err, f"more than {MAX_FILES:,} files")


def test_sigterm_removes_the_unpacked_revision(repo):
    tmp = repo.parent / "tmp"
    script = ("import os, signal, time\n"
              "from generator.data.revisions import opened\n"
              "with opened('git:HEAD') as side:\n"
              "    assert (side.folder / 'rules.toml').is_file() and side.templates is not None\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    time.sleep(10)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT)))
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp.iterdir())


# -- a small tmpfs, for a full disk -----------------------------------------------------------

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


SHIPPED_BYTES = sum(p.stat().st_size for root in (DATA, ROOT / "templates") for p in root.rglob("*") if p.is_file())


# -- 2 and 12. `bailout init`: one at a time, all or nothing ----------------------------------

def _shipped_files():
    return {(root.name, p.relative_to(root).as_posix()): p.read_bytes()
            for root in (DATA, ROOT / "templates") for p in root.rglob("*") if p.is_file()}


def _init_files(folder):
    return {(name, p.relative_to(folder / name).as_posix()): p.read_bytes()
            for name in ("data", "templates") if (folder / name).is_dir()
            for p in (folder / name).rglob("*") if p.is_file()}


ROUNDS = 30 if os.environ.get("BAILOUT_SLOW_TESTS") else 2     # CI: the 30 runs of the report


def test_concurrent_inits_lose_nothing(tmp_path):
    shipped = _shipped_files()
    for round in range(ROUNDS):
        folder = tmp_path / f"kit{round}"
        runs = [subprocess.Popen([sys.executable, "-m", "generator", "init", str(folder)], cwd=tmp_path,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
        results = [(run.wait(timeout=60), *run.communicate()) for run in runs]
        assert [status for status, _, _ in results].count(0) == 1, results
        for status, _out, err in results:
            if status:
                one_line(status, err, "nothing was copied")
        assert _init_files(folder) == shipped           # the winner's copy, whole
        # no lock, no staging; the winner's commented project file (issue 20) beside its copies
        assert sorted(p.name for p in folder.iterdir()) == ["bailout.toml", "data", "templates"]


def test_init_refused_while_another_holds_the_lock(tmp_path):
    from filelock import FileLock

    from generator.data.sources import INIT_LOCK, init
    tmp_path.joinpath("kit").mkdir()
    with FileLock(tmp_path / "kit" / INIT_LOCK), pytest.raises(UsageError, match="another bailout init"):
        init(tmp_path / "kit")
    assert sorted(p.name for p in (tmp_path / "kit").iterdir()) == [INIT_LOCK]      # the holder's, kept


@pytest.mark.parametrize("into", ["new/kit", "."])
def test_a_failed_init_on_a_full_disk_leaves_nothing_behind(into, tmp_path):
    with small_disk(tmp_path / "disk", SHIPPED_BYTES // 2) as disk:
        status, _, err = bailout("init", disk / into)
        one_line(status, err, "No space left on device", "nothing was copied")
        assert list(disk.iterdir()) == []


# -- 4. a full disk: one line, exit 2, nothing changed (build and release) --------------------

def _files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_build_on_a_full_disk_is_one_line_and_changes_nothing(tmp_path):
    with small_disk(tmp_path / "disk", "200k") as disk:
        out = disk / "out"
        status, _, err = bailout("build", "--out", out, "--only", "prerolled", "--paper", "a4", "--quiet")
        assert status == 0, err                 # about 70 kB: it fits
        before = _files(out)
        status, _, err = bailout("build", "--out", out, "--only", "prerolled", "--paper", "a4", "--rows", "3000",
                                 "--quiet")     # some 600 kB: it does not
        one_line(status, err, "No space left on device", "nothing was changed")
        assert _files(out) == before and sorted(p.name for p in out.iterdir()) == sorted(before)


def test_a_release_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    # cmd_release writes the zip it made with write_all: a zip too large for the disk stands in for it
    with small_disk(tmp_path / "disk", "200k") as disk:
        with pytest.raises(UsageError) as raised:
            T.write_all(disk / "dist", {"bailout-kit-0.1.0-0123abcd.zip": os.urandom(400_000)})
        assert raised.value.problems == [f"--out {disk / 'dist'}: cannot write bailout-kit-0.1.0-0123abcd.zip "
                                         f"(No space left on device); nothing was changed"]
        assert list(disk.iterdir()) == []


# -- 8. --since: the base's text and label pass the build's font check ------------------------

def test_since_a_folder_with_text_the_font_cannot_print_is_refused(data_copy, tmp_path):
    edit(data_copy / "nationalities" / "german.toml", 'model = "MP 40"', r'model = "MP 40 \u4e2d\u202e"')
    status, _, err = bailout("build", "--out", tmp_path / "out", "--only", "aid", "--paper", "a4", "--quiet",
                             "--since", data_copy)
    assert status == 2 and "Traceback" not in err, err
    [line] = err.splitlines()
    assert line.startswith(f"bailout: --since {data_copy}: {data_copy}/nationalities/german.toml: smg[")
    assert "U+4E2D" in line and "U+202E" in line
    assert not (tmp_path / "out").exists()


def test_since_a_git_rev_whose_label_the_font_cannot_print_is_refused(repo, tmp_path):
    branch = "v1\u202eevil"
    _git(repo, "branch", branch)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--out", str(out), "--only", "aid",
                           "--paper", "a4", "--quiet", "--since", f"git:{branch}"], cwd=repo, capture_output=True,
                          text=True, timeout=120)
    one_line(done.returncode, done.stderr, "label", "U+202E", "\\u202e")
    assert not out.exists()         # (a printable rev, git:HEAD, builds: test_since.py)


def test_init_removes_the_staging_folder_a_killed_init_left(tmp_path):
    from generator.data.sources import STAGING_PREFIX, init
    (tmp_path / f"{STAGING_PREFIX}killed" / "data").mkdir(parents=True)
    init(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "templates"]


def test_init_refuses_a_linked_lock_file(tmp_path):
    from generator.data.sources import INIT_LOCK, init
    victim = tmp_path / "victim"
    victim.write_text("keep")
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / INIT_LOCK).symlink_to(victim)
    with pytest.raises(UsageError, match="symbolic link"):
        init(tmp_path / "kit")
    assert victim.read_text() == "keep"
