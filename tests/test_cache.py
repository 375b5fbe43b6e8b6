"""The caches kept between runs (generator/cache.py): an entry is named by what it was made
from, so an edited catalogue or template is read afresh, and a damaged or unwritable cache
costs only the reading it would have saved."""

import json
import subprocess
import sys

import pytest

from conftest import ROOT
from generator import cache
from generator.content.words import po_messages

PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a.key"\nmsgstr "{text}"\n'


def test_a_catalogue_is_read_once_and_again_when_it_changes(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    po = tmp_path / "xx.po"
    po.write_text(PO.format(text="Erste"), encoding="utf-8")
    assert po_messages(po, "de") == {"a.key": "Erste"}
    entries = list((tmp_path / "cache" / "catalogues").iterdir())
    assert len(entries) == 1 and json.loads(cache.read("catalogues", entries[0].name))["messages"] == {"a.key": "Erste"}
    from babel.messages import pofile
    monkeypatch.setattr(pofile, "read_po", lambda *a, **k: pytest.fail("read again"))
    assert po_messages(po, "de") == {"a.key": "Erste"}        # from the cache: Babel not asked
    monkeypatch.undo()
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    po.write_text(PO.format(text="Zweite"), encoding="utf-8")
    assert po_messages(po, "de") == {"a.key": "Zweite"}       # another file, another entry
    assert len(list((tmp_path / "cache" / "catalogues").iterdir())) == 2


def test_a_damaged_or_unwritable_cache_only_costs_the_reading(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    po = tmp_path / "xx.po"
    po.write_text(PO.format(text="Text"), encoding="utf-8")
    po_messages(po, "fr")
    (entry,) = (tmp_path / "cache" / "catalogues").iterdir()
    entry.write_bytes(b"\xff{not json")
    assert po_messages(po, "fr") == {"a.key": "Text"}
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv(cache.CACHE, str(blocked))          # a file where the folder would be
    assert po_messages(po, "fr") == {"a.key": "Text"}
    monkeypatch.setenv(cache.CACHE, "off")
    assert cache.cache_folder("catalogues") is None and po_messages(po, "fr") == {"a.key": "Text"}


def test_an_edited_template_is_compiled_afresh_and_a_damaged_entry_is_compiled_again(tmp_path, monkeypatch):
    from generator.content import aid_text
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "aid.md.j2").write_text("first {{ 1 + 1 }}\n")

    def render():
        """The template as a fresh process compiles it: this process's compiled copy forgotten first."""
        aid_text._environment.cache_clear()
        try:
            return aid_text.compiled_template(folder).render().strip()
        finally:
            aid_text._environment.cache_clear()
    assert render() == "first 2"
    (entry,) = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    kept = entry.read_bytes(), entry.stat().st_mtime_ns
    assert render() == "first 2"
    assert (entry.read_bytes(), entry.stat().st_mtime_ns) == kept     # read back, not compiled and kept again
    (folder / "aid.md.j2").write_text("second {{ 2 + 2 }}\n")
    assert render() == "second 4"                  # Jinja's checksum of the source: compiled again
    assert entry.read_bytes() != kept[0]
    for path in (tmp_path / "cache").rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes()[:20])
    assert render() == "second 4"


def test_a_list_of_names_is_babels_kept_by_babel_and_read_again_when_damaged(tmp_path, monkeypatch):
    from babel.lists import format_list

    from generator.content import words
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    names = ["Kommandant", "Fahrer", "Schütze"]
    expected = format_list(names, style="or", locale="de")
    words._listed.cache_clear()
    assert words.Words("de", {}).either(names) == expected
    (entry,) = (tmp_path / "cache" / "lists").iterdir()
    words._listed.cache_clear()
    import babel.lists
    monkeypatch.setattr(babel.lists, "format_list", lambda *a, **k: pytest.fail("Babel asked again"))
    assert words.Words("de", {}).either(names) == expected      # from the cache
    monkeypatch.undo()
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    assert words.Words("de", {}).either(names[:2]) == format_list(names[:2], style="or", locale="de")
    assert len(list(entry.parent.iterdir())) == 2                 # another list, another entry
    entry.write_bytes(b"\xff damaged")
    words._listed.cache_clear()
    assert words.Words("de", {}).either(names) == expected


@pytest.mark.larger_budget
def test_a_warm_english_build_loads_no_babel(tmp_path):
    # English numbers are the kit's own and its catalogue and lists are kept: Babel's CLDR data
    # (a whole locale file for a list's pattern) is read by the first build only.
    code = ("import sys, runpy; sys.argv = ['bailout', 'build', '--only', 'aid', '--paper', 'a4', '--quiet',\n"
            "    '--out', sys.argv[1]]\n"
            "try:\n    runpy.run_module('generator', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'babel'))")
    env = {"PATH": "/usr/bin:/bin", cache.CACHE: str(tmp_path / "cache")}
    seen = []
    for run in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-c", code, str(tmp_path / run)], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        seen.append(done.stdout.split("\n")[-2])
    assert seen[0] != "[]" and seen[1] == "[]", seen


def test_a_fonts_cut_is_made_once_and_again_for_other_characters_or_a_damaged_entry(tmp_path, monkeypatch):
    # The web aid's fonts: Brotli's densest setting is most of a cut's time, so a cut is kept.
    from generator.render.html import web_fonts
    monkeypatch.setenv(cache.CACHE, str(tmp_path / "cache"))
    made = []
    cut = web_fonts._cut
    monkeypatch.setattr(web_fonts, "_cut", lambda *args: made.append(args) or cut(*args))
    first = web_fonts._woff2.__wrapped__("IBMPlexSans-Regular.ttf", "Bail-Out 871")
    again = web_fonts._woff2.__wrapped__("IBMPlexSans-Regular.ttf", "Bail-Out 871")
    assert again == first and len(made) == 1                 # the second from the cache
    (entry,) = (tmp_path / "cache" / "webfonts").iterdir()
    kept = entry.read_bytes()
    entry.write_bytes(kept[:-1] + bytes([kept[-1] ^ 0xFF]))     # its seal no longer holds
    assert web_fonts._woff2.__wrapped__("IBMPlexSans-Regular.ttf", "Bail-Out 871") == first and len(made) == 2
    other = web_fonts._woff2.__wrapped__("IBMPlexSans-Regular.ttf", "Bail-Out 872")
    assert other != first and len(made) == 3 and len(list(entry.parent.iterdir())) == 2
    monkeypatch.setenv(cache.CACHE, "off")
    assert web_fonts._woff2.__wrapped__("IBMPlexSans-Regular.ttf", "Bail-Out 871") == first and len(made) == 4
