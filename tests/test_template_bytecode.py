"""Nothing executable is read from outside the installed code: a template's name never names a file
the kit runs, and the only compiled template the kit takes is Jinja's bytecode in the per-user
cache folder, under a hash of the template's name, the Jinja and the kit's own code, headed by
the checksum of the template's very text, and nothing in it unpickled.  A project shared with
you (its templates, files planted beside them) runs nothing in `bailout build` or `bailout check`."""

import hashlib
import json
import marshal
import os
import pickle
import shutil
from importlib.metadata import version
from pathlib import Path

import jinja2
import pytest

from conftest import ROOT, one_line, run_cli
from generator.content import aid_text, template_sandbox

INCLUDED = "/proc/self/cwd/templates/x"     # absolute: pathlib would drop whatever stood left of it


def _payload(mark: Path) -> str:
    """Python that leaves a mark when it runs."""
    return f"import pathlib\npathlib.Path({str(mark)!r}).write_text('ran')\n"


def _old_code_file(name: str, source: str, mark: Path) -> str:
    """What the kit once took as Jinja's Python for the template `name` of text `source`: a header
    naming the text's SHA-256, the Jinja and the kit's code (anyone can compute all three), then
    code of the planter's own."""
    kind = f"jinja2-{version('Jinja2')}-" + hashlib.sha256(
        Path(aid_text.__file__).read_bytes() + Path(template_sandbox.__file__).read_bytes()).hexdigest()[:12]
    head = {"sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(), "kind": kind, "name": name}
    return "# " + json.dumps(head, sort_keys=True) + "\n" + _payload(mark)


def _bytecode(source: str, mark: Path) -> bytes:
    """A file in Jinja's bytecode format, headed by the checksum of `source`, whose code leaves a mark."""
    checksum = jinja2.BytecodeCache().get_source_checksum(source)
    return jinja2.bccache.bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(compile(_payload(mark), "x", "exec"))


class _Ran:
    """A pickle that leaves a mark once unpickled."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self):
        return (Path.write_text, (self.mark, "ran"))


def _plant(folder: Path, name: str, source: str, filename: Path, mark: Path) -> None:
    """Every file a reader of the template `name` (of `source`, at `filename`) might take for code:
    the kit's old read-ahead file and Jinja's bytecode under the names Jinja gives it."""
    folder.mkdir(parents=True, exist_ok=True)
    default_key = jinja2.BytecodeCache().get_cache_key(name, str(filename))
    (folder / (Path(name).name + ".code")).write_text(_old_code_file(name, source, mark))
    for file in (f"__jinja2_{default_key}.cache", default_key, Path(name).name + ".cache"):
        (folder / file).write_bytes(_bytecode(source, mark))


@pytest.fixture
def project(tmp_path):
    """A shared project: its own templates (the kit's), and its folder the command's working folder."""
    folder = tmp_path / "project"
    shutil.copytree(ROOT / "templates", folder / "templates")
    return folder


@pytest.fixture
def bailout(monkeypatch):
    """Run `bailout ARGS` in this process as a command started afresh in `cwd` with `env` would
    run it: (status, stdout, stderr).  What an earlier command compiled of a template is
    forgotten first, so each reads the cache folder as a new process does (a planted file that
    ran would run here, and leave its mark all the same)."""
    def run(*args: object, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
        monkeypatch.chdir(cwd)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        aid_text._environment.cache_clear()
        return run_cli(*args)
    yield run
    aid_text._environment.cache_clear()


@pytest.mark.parametrize("command", ["build", pytest.param("check", marks=pytest.mark.larger_budget)])
def test_an_include_by_absolute_name_runs_no_file_planted_beside_the_template(command, project, tmp_path,
                                                                               bailout):
    templates, mark = project / "templates", tmp_path / "ran"
    with open(templates / "aid.md.j2", "a", encoding="utf-8") as aid:
        aid.write(f"{{% include '{INCLUDED}' %}}\n")
    # Jinja's loader splits the name on "/": it finds the included text inside templates/ ...
    included = templates.joinpath(*INCLUDED.strip("/").split("/"))
    included.parent.mkdir(parents=True)
    included.write_text("Included text.\n", encoding="utf-8")
    # ... where the kit once also read templates/x.code, the same name's read-ahead code.
    for folder in (templates, project, included.parent, project / "cache" / "jinja"):
        _plant(folder, INCLUDED, "Included text.\n", included, mark)
    env = {"BAILOUT_CACHE": str(project / "cache")}
    args = ["--templates", templates] + (["--only", "aid", "--paper", "a4", "--out", tmp_path / "out", "-q"]
                                         if command == "build" else [])
    status, _, err = bailout(command, *args, env=env, cwd=project)
    assert not mark.exists(), "planted code ran"
    assert status == 0, err
    status, _, err = bailout(command, *args, env=env, cwd=project)     # with a warm cache
    assert status == 0 and not mark.exists(), err


def test_an_include_of_a_missing_absolute_name_is_one_line_and_runs_nothing(project, tmp_path, bailout):
    templates, mark = project / "templates", tmp_path / "ran"
    (templates / "aid.md.j2").write_text("{% include '/proc/self/cwd/templates/y' %}\n", encoding="utf-8")
    _plant(templates, "/proc/self/cwd/templates/y", "", templates / "y", mark)
    status, _, err = bailout("check", "--templates", templates, env={"BAILOUT_CACHE": "off"}, cwd=project)
    one_line(status, err, str(templates / "aid.md.j2"), "'/proc/self/cwd/templates/y' not found")
    assert not mark.exists()


def _warm(project: Path, tmp_path: Path, bailout) -> tuple[Path, dict[str, str]]:
    """The kit's cache after one build: (its entry of the aid template's bytecode, the commands' env)."""
    env = {"BAILOUT_CACHE": str(project / "cache")}
    status, _, err = bailout("build", "--only", "aid", "--paper", "a4", "--out", tmp_path / "first", "-q",
                             env=env, cwd=project)
    assert status == 0, err
    (entry,) = (project / "cache" / "jinja").iterdir()
    return entry, env


@pytest.mark.parametrize("command", ["build", pytest.param("check", marks=pytest.mark.larger_budget)])
def test_stray_and_forged_files_in_the_cache_folder_run_nothing(command, project, tmp_path, bailout):
    entry, env = _warm(project, tmp_path, bailout)
    mark, source = tmp_path / "ran", (ROOT / "templates" / "aid.md.j2").read_text(encoding="utf-8")
    _plant(entry.parent, "aid.md.j2", source, ROOT / "templates" / "aid.md.j2", mark)
    # The kit's own entry forged: a pickle where Jinja keeps the template's checksum.
    entry.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(_Ran(mark)) + b"rest")
    args = ["--only", "aid", "--paper", "a4", "--out", tmp_path / "out", "-q"] if command == "build" else []
    status, _, err = bailout(command, *args, env=env, cwd=project)
    assert status == 0 and err == "" and not mark.exists(), err


def test_a_forged_entry_in_a_cache_folder_others_can_write_runs_nothing(project, tmp_path, bailout):
    entry, env = _warm(project, tmp_path, bailout)
    mark = tmp_path / "ran"
    # Named and headed as the kit's own entry for this template, Jinja and kit (anyone can work
    # that out), in a folder anyone could have written it to.
    entry.write_bytes(_bytecode((ROOT / "templates" / "aid.md.j2").read_text(encoding="utf-8"), mark))
    for folder in (entry.parent.parent, entry.parent):
        os.chmod(folder, 0o777)
    # the aid alone: what reads the template, as `check` does (and a second a process more)
    aid = ["--only", "aid", "--paper", "a4", "--out", tmp_path / "out"]
    status, _, err = bailout("build", *aid, env=env, cwd=project)
    assert status == 0 and not mark.exists(), err
    note, wrote = err.splitlines()      # the note is one line; then the build's closing line
    assert "writable by group or others" in note and wrote.startswith("bailout: wrote "), err
    # The control: the very same entry in the user's own private folder is taken, as the user's
    # own files are (whoever can write there is that user); the forgery above is a live one.
    for folder in (entry.parent.parent, entry.parent):
        os.chmod(folder, 0o700)
    bailout("build", *aid, "-q", env=env, cwd=project)
    assert mark.exists()
