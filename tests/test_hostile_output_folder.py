"""What a build finds in its output folder, and a full disk it writes to: a killed build's
staging plan (in a private folder of the user's own: tests/test_shared_output_folder.py holds
that any other is never read) is trusted only for the kit's own file names, and a write that
cannot finish changes nothing (one line, exit 2).
"""

import os

import pytest

from conftest import one_line, run_cli, small_disk
from generator.errors import UsageError
from generator.make import transaction as T

# -- 1. a leftover staging plan is trusted only for the kit's own file names ------------------

KILLED = T.STAGING_PREFIX + "killed00"      # a staging folder as a killed build of this user leaves it


def _leftover(tmp_path, plan: bytes):
    """--out with a killed build's staging folder holding `plan`, and a target file beside --out."""
    out = tmp_path / "deep" / "out"
    staging = out / KILLED
    (staging / "new").mkdir(parents=True)
    (staging / "old").mkdir()
    staging.chmod(0o700)        # as mkdtemp makes it
    (staging / "plan").write_bytes(plan)
    (out / "target.txt").write_text("in out")
    (staging / "old" / "target.txt").write_text("planted")
    victim = tmp_path / "victim"
    victim.write_text("outside")
    (tmp_path / "target.txt").write_text("outside too")
    return out, victim


def _contents(folder):
    """{path: bytes} of every file under `folder`."""
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("plan", [b"had ../../target.txt\n", b"new ../victim\n", b"had target.txt\n",
                                  b"new /etc/passwd\n", b"new a\\..\\..\\victim\n", b"garbage\n", b"had\n",
                                  b"\xff\xfe not utf-8\n"])
def test_a_forged_plan_is_refused_and_nothing_is_touched(plan, tmp_path):
    out, victim = _leftover(tmp_path, plan)
    before = _contents(tmp_path)
    with pytest.raises(UsageError) as raised:
        T.write_all(out, {"MANIFEST.txt": b"x"})
    assert len(raised.value.problems) == 1 and KILLED in raised.value.problems[0]
    assert _contents(tmp_path) == before
    assert victim.read_text() == "outside" and (tmp_path / "target.txt").read_text() == "outside too"


def test_a_forged_plan_from_the_command_line_is_one_line(tmp_path):
    out, victim = _leftover(tmp_path, b"new ../victim\n")
    status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--quiet")
    one_line(status, err, "plan", "line 1")
    assert victim.read_text() == "outside"


def test_a_linked_old_folder_in_the_plan_is_refused(tmp_path):
    out, _ = _leftover(tmp_path, b"had MANIFEST.txt\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "MANIFEST.txt").write_text("someone else's")
    (out / KILLED / "old" / "target.txt").unlink()
    (out / KILLED / "old").rmdir()
    (out / KILLED / "old").symlink_to(elsewhere)
    with pytest.raises(UsageError, match="symbolic link"):
        T.write_all(out, {"MANIFEST.txt": b"x"})
    assert (elsewhere / "MANIFEST.txt").read_text() == "someone else's"


def test_a_plan_the_kit_wrote_is_still_rolled_back(tmp_path):
    out, _ = _leftover(tmp_path, b"had MANIFEST.txt\nnew player-aid-a4.pdf\n")
    (out / KILLED / "old" / "MANIFEST.txt").write_text("earlier")
    (out / "MANIFEST.txt").write_text("half-committed")
    (out / "player-aid-a4.pdf").write_text("new, renamed in before the kill")
    T.write_all(out, {"MANIFEST.txt": b"now"})
    assert (out / "MANIFEST.txt").read_bytes() == b"now"
    assert not (out / "player-aid-a4.pdf").exists()     # the plan's new file is gone again
    assert not list(out.glob(T.STAGING_PREFIX + "*"))


# -- 4. a full disk: one line, exit 2, nothing changed (build and release) --------------------

def _files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_build_on_a_full_disk_is_one_line_and_changes_nothing(tmp_path):
    with small_disk(tmp_path / "disk", "200k") as disk:
        out = disk / "out"
        status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--paper", "a4", "--quiet")
        assert status == 0, err                 # about 70 kB: it fits
        before = _files(out)
        status, _, err = run_cli("build", "--out", out, "--only", "prerolled", "--paper", "a4", "--rows", "3000",
                                 "--quiet")     # some 600 kB: it does not
        one_line(status, err, "No space left on device", "nothing was changed")
        assert _files(out) == before and sorted(p.name for p in out.iterdir()) == sorted(before)


def test_a_release_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    # cmd_release writes the zip it made with write_one: a zip too large for the disk stands in for it
    with small_disk(tmp_path / "disk", "200k") as disk:
        with pytest.raises(UsageError) as raised:
            T.write_one(disk / "dist", "bailout-kit-0.1.0-0123abcd.zip", os.urandom(400_000))
        assert raised.value.problems == [f"--out {disk / 'dist'}: cannot write bailout-kit-0.1.0-0123abcd.zip "
                                         f"(No space left on device); nothing was changed"]
        assert list(disk.iterdir()) == []
