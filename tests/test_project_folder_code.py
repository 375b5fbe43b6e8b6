"""Nothing in a project folder runs as code: started as `bailout` or `python -P -m generator`
(docs/reference.md), the kit imports nothing from the folder it runs in, whatever that folder
holds (a `generator/` package of someone else's).  Spawned workers likewise:
tests/test_concurrency.py::test_a_worker_imports_nothing_from_the_working_folder."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def planted(tmp_path):
    """A project folder holding a `generator/` package that leaves a mark if it is ever imported."""
    package = tmp_path / "generator"
    package.mkdir()
    code = f"open({str(tmp_path / 'ran')!r}, 'w').close()\n"
    (package / "__init__.py").write_text(code)
    (package / "__main__.py").write_text(code)
    return tmp_path


def _command():
    """The `bailout` command of the Python running the tests."""
    found = shutil.which("bailout", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("the bailout command is not installed beside this Python")
    return [found]


@pytest.mark.parametrize("started", ["bailout", "python -P -m generator"])
def test_the_kit_imports_nothing_from_the_folder_it_runs_in(started, planted):
    command = _command() if started == "bailout" else [sys.executable, "-P", "-m", "generator"]
    done = subprocess.run([*command, "odds"], cwd=planted, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "871.1.a" in done.stdout and not (planted / "ran").exists()
