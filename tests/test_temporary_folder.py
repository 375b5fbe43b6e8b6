"""The system's temporary folder, where `check` and `release` render and `diff git:REV` unpacks:
full, it is one line naming that folder (TMPDIR), not --out, and nothing is left in it or in
--out.
"""

from conftest import bailout, small_disk


def _tmpdir_full(disk):
    """TMPDIR on a tmpfs already full but for a few KiB: room for a folder, not for a PDF."""
    (disk / "filler").write_bytes(b"\0" * (180 * 1024))
    return {"TMPDIR": str(disk)}


def test_check_with_a_full_temporary_folder_names_it(tmp_path):
    with small_disk(tmp_path / "disk", "200k") as disk:
        status, _, err = bailout("check", env=_tmpdir_full(disk))
        assert status == 2 and "Traceback" not in err and err.count("\n") == 1, err
        assert err.startswith(f"bailout: the temporary folder {disk}/bailout-render-") and "(TMPDIR)" in err
        assert "No space left on device" in err and "--out" not in err
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]


def test_release_with_a_full_temporary_folder_names_it(tmp_path):
    dist = tmp_path / "dist"
    with small_disk(tmp_path / "disk", "200k") as disk:
        status, _, err = bailout("release", "--out", dist, "--quiet", env=_tmpdir_full(disk))
        assert status == 2 and "Traceback" not in err and err.count("\n") == 1, err
        assert f"the temporary folder {disk}/bailout-render-" in err and "--out" not in err
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]
    assert not dist.exists()
