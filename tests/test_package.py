"""The kit as a package: what the wheel carries, where data/ and templates/ are found, `bailout
init`, the one version, and quiet exits on a closed pipe.

.ci/run builds the real wheel, installs it in a fresh virtual environment and builds from an
empty folder; these tests cover the same ground in-process, fast, on copies laid out the way
the wheel lays them out.
"""

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from fractions import Fraction as F

import pytest

from conftest import DATA, ROOT, edit, run_cli
from generator.data import sources as paths
from generator.errors import UsageError

TEMPLATES = ROOT / "templates"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def bailout(*args, cwd, env=None):
    """`python -m generator ARGS` in folder `cwd`: (status, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env)
    return done.returncode, done.stdout, done.stderr


def files_under(folder):
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


# --- what the wheel and sdist carry --------------------------------------------------------------

def _package_folders():
    """{package name: its folder} for every package pyproject.toml lists (package-dir maps some)."""
    mapped = SETUPTOOLS["package-dir"]
    folders = {}
    for package in SETUPTOOLS["packages"]:
        parent = max((m for m in mapped if package == m or package.startswith(m + ".")), key=len, default=None)
        rest = package[len(parent) + 1:] if parent else package
        folders[package] = ROOT.joinpath(mapped[parent] if parent else "", *filter(None, rest.split(".")))
    return folders


def test_every_folder_of_code_data_and_templates_is_a_listed_package():
    assert SETUPTOOLS["package-dir"] == {"generator.shipped.data": "data", "generator.shipped.templates": "templates"}
    code = {p.parent for p in (ROOT / "generator").rglob("__init__.py")}
    shipped = {p for root in (DATA, TEMPLATES) for p in [root, *root.rglob("*")]
               if p.is_dir() and p.name != "__pycache__"}
    assert set(_package_folders().values()) == code | shipped, \
        "list each new folder in pyproject.toml [tool.setuptools] packages"


def test_package_data_carries_every_file_of_data_and_templates():
    carried = set()
    for package, folder in _package_folders().items():
        for pattern in SETUPTOOLS["package-data"].get(package, ()):
            carried |= {p for p in folder.glob(pattern) if p.is_file()}
    present = {p for root in (DATA, TEMPLATES) for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    present |= {p for p in (ROOT / "generator").rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")}
    assert carried == present
    assert DATA / "rules.toml" in carried and TEMPLATES / "aid.md.j2" in carried


# --- lookup order: --data, ./data, shipped -------------------------------------------------------

def test_a_checkout_ships_its_own_top_level_folders():
    # The tests run from the source tree (README installs it editable): its data/ is the shipped copy.
    assert paths.source_checkout() == ROOT
    assert paths.shipped("data") == DATA and paths.shipped("templates") == TEMPLATES


def test_lookup_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert paths.data_folder() == DATA and paths.template_folder() == TEMPLATES
    (tmp_path / "data").mkdir()                     # a data/ without rules.toml is not the kit's
    (tmp_path / "templates").mkdir()
    assert paths.data_folder() == DATA and paths.template_folder() == TEMPLATES
    (tmp_path / "data" / "rules.toml").write_text("")
    (tmp_path / "templates" / "aid.md.j2").write_text("")
    assert paths.data_folder() == tmp_path / "data"
    assert paths.template_folder() == tmp_path / "templates"
    assert paths.data_folder(tmp_path / "other") == tmp_path / "other"     # --data wins


def _installed_copy(site):
    """The package laid out as the wheel installs it, plus a stray top-level data/ beside it."""
    shutil.copytree(ROOT / "generator", site / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(DATA, site / "generator" / "shipped" / "data")
    shutil.copytree(TEMPLATES, site / "generator" / "shipped" / "templates")
    (site / "data").mkdir()
    (site / "data" / "rules.toml").write_text("stray = 'another project put this here'\n")


WHERE = ("import json, generator.data.sources as p; "
         "print(json.dumps([str(p.data_folder()), str(p.template_folder())]))")


def _where(site_path, cwd):
    env = {**os.environ, "PYTHONPATH": str(site_path)}
    done = subprocess.run([sys.executable, "-c", WHERE], capture_output=True, text=True, cwd=cwd, env=env)
    return done.returncode, done.stdout, done.stderr


def test_an_installed_copy_reads_its_shipped_data_never_a_stray_folder(tmp_path):
    site, empty = tmp_path / "site", tmp_path / "empty"
    site.mkdir(), empty.mkdir()
    _installed_copy(site)
    status, out, err = _where(site, empty)
    assert status == 0, err
    assert json.loads(out) == [str(site / "generator" / "shipped" / "data"),
                               str(site / "generator" / "shipped" / "templates")]
    # Without its shipped copy, the install says so; it never falls back to site/data.
    shutil.rmtree(site / "generator" / "shipped")
    status, out, err = _where(site, empty)
    assert status != 0 and "lacks its own data/" in err and str(site / "data") not in out + err


def test_a_zipped_install_reads_its_shipped_data(tmp_path):
    site, empty = tmp_path / "site", tmp_path / "empty"
    site.mkdir(), empty.mkdir()
    _installed_copy(site)
    archive = tmp_path / "site.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in sorted(site.rglob("*")):
            if path.is_file():
                z.write(path, path.relative_to(site).as_posix())
    script = ("import hashlib, json, generator.data.sources as p; d, t = p.data_folder(), p.template_folder(); "
              "print(json.dumps([str(d), sorted(x.relative_to(d).as_posix() for x in d.rglob('*') if x.is_file()), "
              "hashlib.sha256((d / 'rules.toml').read_bytes()).hexdigest(), "
              "hashlib.sha256((t / 'aid.md.j2').read_bytes()).hexdigest()]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=empty,
                          env={**os.environ, "PYTHONPATH": str(archive)})
    assert done.returncode == 0, done.stderr
    folder, listing, rules, template = json.loads(done.stdout)
    assert listing == sorted(files_under(DATA))
    assert rules == hashlib.sha256((DATA / "rules.toml").read_bytes()).hexdigest()
    assert template == hashlib.sha256((TEMPLATES / "aid.md.j2").read_bytes()).hexdigest()
    assert not paths.Path(folder).exists()      # the extracted copy is removed at exit
    status, out, err = bailout("odds", "--json", cwd=empty, env={**os.environ, "PYTHONPATH": str(archive)})
    assert status == 0 and out == in_folder(ROOT, "odds", "--json")[1], err


# --- bailout init ----------------------------------------------------------------------------------

def in_folder(folder, *args):
    """`bailout ARGS` in this process, run in `folder` as its working folder: (status, stdout, stderr)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        return run_cli(*args)


def test_init_copies_the_shipped_folders_and_refuses_to_overwrite(tmp_path):
    status, _out, err = in_folder(tmp_path, "init", "kit")
    assert status == 0, err
    for name, source in (("data", DATA), ("templates", TEMPLATES)):
        copy = tmp_path / "kit" / name
        assert files_under(copy) == files_under(source)
        assert all((copy / f).read_bytes() == (source / f).read_bytes() for f in files_under(source))
    edit(tmp_path / "kit" / "data" / "rules.toml", "[bail_out", "# mine\n[bail_out")
    status, _, err = in_folder(tmp_path, "init", "kit")
    assert status == 2 and "Traceback" not in err
    assert "kit/data" in err and "kit/templates" in err and "already exist" in err
    assert "# mine" in (tmp_path / "kit" / "data" / "rules.toml").read_text()     # untouched


def test_init_refuses_when_only_one_folder_exists(tmp_path):
    (tmp_path / "templates").mkdir()
    status, _, err = in_folder(tmp_path, "init")
    assert status == 2 and "templates already exists" in err
    assert not (tmp_path / "data").exists()


def test_a_command_in_the_init_folder_uses_its_edited_rules(tmp_path):
    assert in_folder(tmp_path, "init")[0] == 0
    rules = tmp_path / "data" / "rules.toml"
    closed = tomllib.loads(rules.read_text())["bail_out"]["closed"]
    assert closed["succeed"] == [1]
    edit(rules, "succeed = [1]", "succeed = [1, 2]")
    assert tomllib.loads(rules.read_text())["bail_out"]["closed"]["succeed"] == [1, 2]
    status, out, err = in_folder(tmp_path, "odds", "--json")
    assert status == 0, err
    assert F(json.loads(out)["bail_out_closed"]) == F(2, closed["column"])
    assert F(json.loads(in_folder(ROOT, "odds", "--json")[1])["bail_out_closed"]) == F(1, closed["column"])


def test_init_into_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(UsageError, match="is not a folder"):
        paths.init(tmp_path / "f")


# --- one version --------------------------------------------------------------------------------------

def test_the_version_lives_in_one_place():
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "generator.__version__"}
    written = [p for p in (ROOT / "generator").rglob("*.py") if re.search(r"^__version__\s*=", p.read_text(), re.M)]
    assert written == [ROOT / "generator" / "__init__.py"]


def test_python_m_generator_version_is_the_package_metadata_version():
    status, out, _ = bailout("--version", cwd=ROOT)
    assert status == 0
    assert out.split() == ["bailout", importlib.metadata.version("bailout-kit")]


# --- a closed pipe ------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["odds", "--json"], ["odds"], ["simulate", "2000"]])
def test_a_closed_pipe_ends_quietly(args):
    """`bailout odds --json | true`: the reader is gone before the first write."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "generator", *args], stdout=write, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT)
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 128 + 13      # as a program killed by SIGPIPE (cat, seq) reports it
