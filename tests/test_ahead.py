"""The kit's own catalogues and aid template read and compiled ahead (generator/content/ahead.py):
each file is what Babel and Jinja make now, a first build takes them rather than reading and
compiling again, and anything else (an edited catalogue or template, another Jinja, a file that
names other bytes) is read as it always was."""

import json
import subprocess
import sys

import jinja2
import pytest

from conftest import ROOT
from generator import cache
from generator.content import ahead, aid_text
from generator.content.words import po_catalogue
from generator.make import compile_ahead


def test_every_file_read_ahead_is_what_babel_and_jinja_make_now():
    made = compile_ahead.made()
    kept = {p for p in ahead.COMPILED.rglob("*") if p.is_file()}
    assert set(made) == kept, "run: python -m generator.make.compile_ahead"
    stale = [str(path.relative_to(ROOT)) for path, text in made.items() if path.read_text(encoding="utf-8") != text]
    assert not stale, f"out of date (run: python -m generator.make.compile_ahead): {stale}"
    # one table a catalogue the kit ships, and the template
    assert len(made) == len(list(ROOT.glob("generator/content/locale/**/*.po"))) + 1


def test_a_catalogue_read_ahead_is_taken_only_for_its_very_bytes(locale, monkeypatch, tmp_path):
    monkeypatch.setenv(cache.CACHE, "off")
    from babel.messages import pofile
    read = pofile.read_po
    asked = []
    monkeypatch.setattr(pofile, "read_po", lambda *a, **k: asked.append(1) or read(*a, **k))
    german = po_catalogue(locale / "de.po", "de")
    assert asked == [] and german.messages["counter.kind.rifle"]       # read ahead: Babel not asked
    po = locale / "de.po"
    entry = f'msgid "counter.kind.rifle"\nmsgstr "{german.messages["counter.kind.rifle"]}"'
    assert entry in po.read_text(encoding="utf-8")
    po.write_text(po.read_text(encoding="utf-8").replace(entry, 'msgid "counter.kind.rifle"\nmsgstr "Neu"'),
                  encoding="utf-8")
    assert po_catalogue(po, "de").messages["counter.kind.rifle"] == "Neu" and asked == [1]
    # the French table offered for the German bytes: not taken
    assert ahead.catalogue("fr", None, (locale / "de.po").read_bytes()) is None


def test_a_table_that_names_other_bytes_is_not_taken(monkeypatch, tmp_path, locale):
    monkeypatch.setenv(cache.CACHE, "off")
    copy = tmp_path / "compiled"
    copy.mkdir()
    from babel.messages import pofile
    with open(locale / "it.po", "rb") as po:      # the word as Babel reads it from the file itself
        true = pofile.read_po(po, locale="it")["counter.kind.rifle"].string
    kept = json.loads(ahead.catalogue_file("it", None).read_text(encoding="utf-8"))
    kept["table"]["messages"]["counter.kind.rifle"] = "FALSO"
    kept["sha256"] = "0" * 64
    (copy / "locale").mkdir()
    (copy / "locale" / "it.json").write_text(json.dumps(kept), encoding="utf-8")
    monkeypatch.setattr(ahead, "COMPILED", copy)
    assert po_catalogue(locale / "it.po", "it").messages["counter.kind.rifle"] == true


def _compiles(monkeypatch) -> list[str]:
    """The templates Jinja compiles from here on (their names)."""
    compiled = []
    compile_ = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return compile_(self, source, name, filename, raw, defer_init)
    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return compiled


def test_the_kits_own_template_is_not_compiled_and_names_its_own_file(monkeypatch, templates):
    monkeypatch.setenv(cache.CACHE, "off")
    compiled = _compiles(monkeypatch)
    aid_text._environment.cache_clear()
    template = aid_text.compiled_template(templates)
    assert compiled == [] and template.filename == str(templates / aid_text.TEMPLATE)
    # the same text as Jinja's own compile
    fresh = jinja2.Environment.compile(aid_text._environment(str(templates)), (templates / aid_text.TEMPLATE)
                                       .read_text(encoding="utf-8"), aid_text.TEMPLATE, raw=True)
    assert ahead.template_code(aid_text.TEMPLATE, (templates / aid_text.TEMPLATE).read_text(encoding="utf-8"),
                               aid_text.environment_kind()) == fresh


def test_an_edited_template_or_another_jinja_compiles_afresh(monkeypatch, templates):
    monkeypatch.setenv(cache.CACHE, "off")
    source = (templates / aid_text.TEMPLATE).read_text(encoding="utf-8")
    assert ahead.template_code(aid_text.TEMPLATE, source, aid_text.environment_kind()) is not None
    assert ahead.template_code(aid_text.TEMPLATE, source, "jinja2-9.9.9-" + "0" * 12) is None     # another Jinja
    assert ahead.template_code("other.md.j2", source, aid_text.environment_kind()) is None
    compiled = _compiles(monkeypatch)
    (templates / aid_text.TEMPLATE).write_text(source.replace("{{ _(\"The procedure\") }}", "Edited procedure", 1),
                                               encoding="utf-8")
    aid_text._environment.cache_clear()
    aid_text.compiled_template(templates)
    assert compiled == [aid_text.TEMPLATE]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_first_build_reads_no_catalogue_and_compiles_no_template(tmp_path, lang):
    # A new user's first build (an empty cache): neither Babel's reader nor Jinja's compiler runs.
    code = ("import sys, runpy, jinja2; sys.argv = ['bailout', 'build', '--only', 'aid', '--paper', 'a4',\n"
            f"    '--lang', '{lang}', '--quiet', '--out', sys.argv[1]]\n"
            "jinja2.Environment.compile = lambda *a, **k: sys.exit('compiled')\n"
            "try:\n    runpy.run_module('generator', run_name='__main__')\nexcept SystemExit as e:\n"
            "    assert not e.code, e.code\n"
            "print('babel.messages.pofile' in sys.modules)")
    env = {"BAILOUT_JOBS": "1", "PATH": "/usr/bin:/bin", cache.CACHE: str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]
    assert (tmp_path / "out" / "player-aid-a4.pdf").is_file()
