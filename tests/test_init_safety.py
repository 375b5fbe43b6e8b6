"""`bailout init`: one at a time, all or nothing, on a full disk too, and never through a planted
link; what a killed init left is cleared.
"""

import os
import subprocess
import sys

import pytest

from conftest import DATA, ROOT, one_line, run_cli, small_disk
from generator.errors import UsageError

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
        # no lock, no staging; the winner's commented project file beside its copies
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
        status, _, err = run_cli("init", disk / into)
        one_line(status, err, "No space left on device", "nothing was copied")
        assert list(disk.iterdir()) == []


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


@pytest.mark.parametrize("target_exists", [False, True])
def test_init_never_writes_through_a_linked_project_file(target_exists, tmp_path):
    folder, elsewhere = tmp_path / "kit", tmp_path / "someone-elses.toml"
    folder.mkdir()
    if target_exists:
        elsewhere.write_text("theirs\n")
    (folder / "bailout.toml").symlink_to(elsewhere)         # dangling, or to another's file
    status, _, err = run_cli("init", folder)
    assert status == 0, err
    assert (folder / "data" / "rules.toml").is_file() and (folder / "bailout.toml").is_symlink()
    assert elsewhere.read_text() == "theirs\n" if target_exists else not elsewhere.exists()
