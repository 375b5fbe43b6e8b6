"""A project folder's own data and templates are what a command reads, even when a file there
cannot be read: `./data/rules.toml` (or `./templates/aid.md.j2`) as a FIFO, a dangling link or a
folder is that file's problem, one line and exit 2, never a quiet switch to the kit's own data,
which would check as OK and build the kit's own edition with status 0.
"""

import os

import pytest

from conftest import run_cli, time_limit

BROKEN = {"a FIFO": os.mkfifo, "a dangling link": lambda path: os.symlink("/no/such/file", path),
          "a folder": os.mkdir}


@pytest.fixture
def project(tmp_path):
    status, _, err = run_cli("init", tmp_path / "project")
    assert status == 0, err
    return tmp_path / "project"


def _in(project, monkeypatch, *args):
    """`bailout ARGS` run in this process from the project folder; one that waited on a FIFO fails."""
    monkeypatch.chdir(project)
    with time_limit(60):
        return run_cli(*args)


@pytest.mark.parametrize("kind", BROKEN)
@pytest.mark.parametrize("command", [("check",), ("build", "--only", "aid", "--paper", "a4", "--quiet")],
                         ids=["check", "build"])
def test_a_rules_file_that_cannot_be_read_is_reported_not_replaced(project, kind, command, monkeypatch):
    rules = project / "data" / "rules.toml"
    rules.unlink()
    BROKEN[kind](rules)
    status, out, err = _in(project, monkeypatch, *command)
    assert status == 2 and "Traceback" not in err, err
    assert err.count("\n") == 1 and "rules.toml" in err and str(project / "data") in err
    assert "OK" not in out and not (project / "output").exists()


@pytest.mark.parametrize("kind", BROKEN)
def test_an_aid_template_that_cannot_be_read_is_reported_not_replaced(project, kind, monkeypatch):
    template = project / "templates" / "aid.md.j2"
    template.unlink()
    BROKEN[kind](template)
    status, _, err = _in(project, monkeypatch, "build", "--only", "aid", "--paper", "a4", "--quiet")
    assert status == 2 and "Traceback" not in err, err
    assert err.count("\n") == 1 and str(template) in err
    assert not (project / "output").exists()


def test_a_large_stray_file_in_templates_is_never_read(project, monkeypatch):
    # larger than any template may be (sparse: a moment to make), so it shapes nothing printed:
    # the stamp is the one without it, and no build opens it
    import builtins
    args = ("build", "--only", "aid", "--paper", "a4", "--quiet", "--data", project / "data", "--out")
    status, _, err = run_cli(*args, project / "before")
    assert status == 0, err
    stray = project / "templates" / "stray.mov"
    with open(stray, "wb") as handle:
        handle.truncate(300 << 20)
    opened = []
    real_open, real_os_open = builtins.open, os.open
    monkeypatch.setattr(builtins, "open", lambda file, *a, **k: opened.append(str(file)) or real_open(file, *a, **k))
    monkeypatch.setattr(os, "open", lambda path, *a, **k: opened.append(str(path)) or real_os_open(path, *a, **k))
    status, _, err = run_cli(*args, project / "after")
    monkeypatch.undo()
    assert status == 0, err
    assert opened and str(stray) not in opened
    assert (project / "after" / "MANIFEST.txt").read_text() == (project / "before" / "MANIFEST.txt").read_text()
