import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of data/ a test may edit."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


@pytest.fixture(scope="session")
def release_zip():
    """(zip name, zip bytes) of `bailout release` with the default options, made once per run."""
    from generator.data import load
    from generator.options import BuildOptions
    from generator.release import make_release
    return make_release(load(DATA), BuildOptions())


def edit(path, old, new, count=1):
    """Replace text in a data file, failing loudly if the text is not there."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count))


def run_cli(*args):
    """Run `bailout` in a subprocess: (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "generator.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr
