"""An output folder other people can write: a team's sticky (1777) folder, or one unpacked from
elsewhere.  A build trusts only the staging folder it made itself (private to its user), never
one it finds there, so another user's planted plan cannot delete or replace its outputs; the
lock that keeps builds apart is the folder itself, so a built folder holds what MANIFEST.txt
lists and nothing else a player would zip up and share.
"""

import os
import re
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from generator import locking
from generator.errors import UsageError
from generator.make import transaction as T

NOBODY = 65534      # another user: the files of a test "by another user" are given to it (root only)
# A build of the kit's quickest outputs: what is written is not the point here, only where.
TABLES = ("--only", "prerolled", "--paper", "a4", "--rows", "8", "--quiet")


def _listed(out):
    """The file names MANIFEST.txt lists with their SHA-256, as a build made them."""
    text = (out / T.MANIFEST).read_text()
    return {m.group(1) for m in re.finditer(r"^(\S+)\s+\S+\s+[0-9a-f]{64}$", text, re.MULTILINE)}


@pytest.fixture
def shared(tmp_path):
    """A team's folder, sticky and writable by all (as /tmp is), holding a build of the tables."""
    out = tmp_path / "team"
    out.mkdir()
    out.chmod(0o1777)
    status, _, err = run_cli("build", "--out", out, *TABLES)
    assert status == 0, err
    return out


def _plant(out, owner_is_another):
    """A staging folder as a forged plan's author leaves one: `new` lines for the victim's outputs
    (the next build would delete them) and `had kit-a4.pdf` with a file of the author's in old/."""
    planted = out / (T.STAGING_PREFIX + "forged00")
    (planted / "new").mkdir(parents=True)
    (planted / "old").mkdir()
    (planted / "plan").write_text("new prerolled.csv\nnew prerolled-a4.pdf\nhad kit-a4.pdf\n")
    (planted / "old" / "kit-a4.pdf").write_bytes(b"%PDF- the author's own")
    if owner_is_another:
        if os.geteuid() != 0:
            pytest.skip("giving a folder to another user needs root")
        for path in (planted, planted / "new", planted / "old", planted / "plan", planted / "old" / "kit-a4.pdf"):
            os.chown(path, NOBODY, NOBODY)
        planted.chmod(0o700)       # private, but not the victim's
    else:
        planted.chmod(0o777)        # the victim's own uid cannot be forged without root: one anyone can write
    return planted


@pytest.mark.parametrize("owner_is_another", [True, False], ids=["another-users", "writable-by-all"])
def test_a_staging_plan_planted_in_a_shared_folder_is_never_read(shared, owner_is_another):
    before = {p.name: p.read_bytes() for p in shared.iterdir() if p.is_file()}
    planted = _plant(shared, owner_is_another)
    inside = {p: p.read_bytes() for p in planted.rglob("*") if p.is_file()}
    status, _, err = run_cli("build", "--out", shared, *TABLES, "--seed", "5")
    assert status == 0, err
    assert err.count("\n") == 1 and f"holds {planted.name}, not a private folder of yours" in err
    # every output of the build is there, as its MANIFEST lists it; none deleted, none replaced
    assert {p.name for p in shared.iterdir() if p.is_file()} == set(before) == _listed(shared) | {T.MANIFEST}
    assert b"the author's own" not in (shared / "prerolled-a4.pdf").read_bytes()
    # and the planted folder is left exactly as it was
    assert {p: p.read_bytes() for p in planted.rglob("*") if p.is_file()} == inside


def test_the_name_an_earlier_version_staged_in_is_never_read(shared):
    legacy = shared / ".bailout-staging"        # a fixed name: anyone could make it first
    (legacy / "old").mkdir(parents=True)
    (legacy / "plan").write_text("new prerolled.csv\n")
    status, _, err = run_cli("build", "--out", shared, *TABLES)
    assert status == 0, err
    assert (shared / "prerolled.csv").is_file() and (legacy / "plan").is_file()


def test_a_build_stages_in_a_folder_of_its_own_that_only_its_user_can_enter(shared, tmp_path):
    go = tmp_path / "go"
    build = subprocess.Popen([sys.executable, "-m", "generator", "build", "--out", str(shared), *TABLES], cwd=ROOT,
                             env=dict(os.environ, **{T.HOLD_COMMIT: str(go)}), stderr=subprocess.PIPE, text=True)
    try:
        import time
        deadline = time.monotonic() + 60
        while not list(shared.glob(T.STAGING_PREFIX + "*/plan")):
            assert time.monotonic() < deadline and build.poll() is None, "the build never staged its plan"
            time.sleep(0.02)
        [staging] = shared.glob(T.STAGING_PREFIX + "*")
        info = os.lstat(staging)
        assert stat.S_ISDIR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
        assert T.own_private_folder(staging)
    finally:
        go.touch()
        _, err = build.communicate(timeout=60)
    assert build.returncode == 0, err
    assert not list(shared.glob(T.STAGING_PREFIX + "*"))


def test_a_built_folder_holds_what_its_manifest_lists_and_nothing_else(tmp_path):
    out = tmp_path / "output"
    for _ in range(2):          # a first build, and one over it
        status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--rows", "8", "--quiet")
        assert status == 0, err
    assert sorted(p.name for p in out.iterdir()) == sorted(_listed(out) | {T.MANIFEST})


def test_the_empty_lock_file_an_earlier_version_left_goes(tmp_path):
    out = tmp_path / "output"
    out.mkdir()
    (out / locking.LOCK_NAME).touch()
    status, _, err = run_cli("build", "--out", out, *TABLES)
    assert status == 0, err
    assert not os.path.lexists(out / locking.LOCK_NAME)


# Holds the folder's lock as another user (everything it needs imported first: that user may not
# be able to read this Python's own files), says so, then waits for its stdin to close.
HOLD = textwrap.dedent("""\
    import fcntl, os, sys
    from pathlib import Path
    from generator.locking import folder_lock
    os.setgid(int(sys.argv[2]))
    os.setuid(int(sys.argv[2]))
    with folder_lock(Path(sys.argv[1])):
        print("held", flush=True)
        sys.stdin.read()
    """)


@pytest.fixture
def reachable():
    """A folder every user can reach (pytest's own temporary folders are private to their user)."""
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="bailout-test-shared-")
    os.chmod(folder, 0o755)
    yield Path(folder)
    shutil.rmtree(folder)


def test_two_users_building_into_one_shared_folder_exclude_each_other(reachable):
    if os.geteuid() != 0:
        pytest.skip("a second user needs root to become one")
    shared = reachable / "team"
    shared.mkdir()
    shared.chmod(0o1777)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(shared), str(NOBODY)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        status, _, err = run_cli("build", "--out", shared, *TABLES)
        assert status == 2 and "another build is writing this folder now" in err and err.count("\n") == 1
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    status, _, err = run_cli("build", "--out", shared, *TABLES)
    assert status == 0, err
    assert not os.path.lexists(shared / locking.LOCK_NAME)


def test_where_a_folder_cannot_be_locked_the_lock_is_a_file(tmp_path, monkeypatch):
    # as on Windows, or a network file system that locks files but not folders
    monkeypatch.setattr(locking, "_lock_folder_itself", lambda folder: None)
    with locking.folder_lock(tmp_path):
        assert os.path.lexists(tmp_path / locking.LOCK_NAME)
        with pytest.raises(UsageError, match="another build is writing this folder now"), \
                locking.folder_lock(tmp_path):
            pass
    with locking.folder_lock(tmp_path):       # let go: the next one takes it
        pass


def test_many_planted_staging_folders_are_one_line(shared):
    for i in range(500):
        (shared / f"{T.STAGING_PREFIX}spam{i:04}").mkdir(mode=0o777)
    status, _, err = run_cli("build", "--out", shared, *TABLES)
    assert status == 0 and err.count("\n") == 1 and "and 497 more" in err, err
