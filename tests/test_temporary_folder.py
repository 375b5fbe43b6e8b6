"""The system's temporary folder, where `check` and `release` render and `diff git:REV` unpacks:
full, it is one line naming that folder (TMPDIR), not --out, and nothing is left in it or in
--out.
"""

import tempfile

import pytest

from conftest import run_cli, small_disk


@pytest.fixture
def full_tmpdir(tmp_path, monkeypatch):
    """The temporary folder (TMPDIR, as tempfile reads it) on a tmpfs already full but for a few
    KiB: room for a folder, not for a PDF."""
    with small_disk(tmp_path / "disk", "200k") as disk:
        (disk / "filler").write_bytes(b"\0" * (180 * 1024))
        monkeypatch.setattr(tempfile, "tempdir", str(disk))
        yield disk


def test_check_with_a_full_temporary_folder_names_it(full_tmpdir):
    disk = full_tmpdir
    status, _, err = run_cli("check")
    assert status == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"bailout: the temporary folder {disk}/bailout-render-") and "(TMPDIR)" in err
    assert "No space left on device" in err and "--out" not in err
    assert sorted(p.name for p in disk.iterdir()) == ["filler"]


def test_release_with_a_full_temporary_folder_names_it(full_tmpdir, tmp_path):
    disk, dist = full_tmpdir, tmp_path / "dist"
    status, _, err = run_cli("release", "--out", dist, "--quiet")
    assert status == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert f"the temporary folder {disk}/bailout-render-" in err and "--out" not in err
    assert sorted(p.name for p in disk.iterdir()) == ["filler"]
    assert not dist.exists()
