"""Hostile text against the kit's type (IBM Plex Sans and its condensed face): every string an
edition prints, from the data, its glossary or its catalogues, is checked against the letters
the faces hold before any PDF, by `bailout check` as by a build, and a problem names the file
and key the text came from."""

import unicodedata

import pytest

from conftest import ROOT, edit, one_line, run_cli
from generator.cli.commands import _check_catalogues
from generator.content.words import Words, load_words
from generator.data import load
from generator.errors import DataError
from generator.render.pdf.glyphs import undrawable_words

GERMAN = "nationalities/german.toml"
ARMY = 'army = "German Army (Heer)"'


@pytest.mark.parametrize("army", ["德国陆军", "Heer 🪖", "Heer \\u202e reeH"])
def test_an_army_the_font_cannot_print_is_refused_by_file_and_key(army, data_copy, tmp_path):
    """The army prints under the nationality's name on the aid, as the name does."""
    edit(data_copy / GERMAN, ARMY, f'army = "{army}"')
    status, _, err = run_cli("build", "--data", data_copy, "--only", "aid", "--paper", "a4", "--out", tmp_path / "o")
    one_line(status, err, str(data_copy / GERMAN), "army", "cannot print")
    assert not (tmp_path / "o").exists()


GLOSSARY = "glossary/fr.toml"


@pytest.mark.parametrize(("old", "new", "key"), [
    ('name = "Allemands"', 'name = "德国"', "nationalities.german.name"),
    ('army = "Armée allemande (Heer)"', 'army = "Heer 🪖"', "nationalities.german.army"),
    ('"crew.takeover" = "Un SL', '"crew.takeover" = "قائد Un SL', "text.crew.takeover"),
])
def test_glossary_text_the_font_cannot_print_names_the_glossary(old, new, key, data_copy, tmp_path):
    """A translated edition prints its glossary's names and sentences: a problem in one names
    the glossary and its key, not the English data file it replaces."""
    edit(data_copy / GLOSSARY, old, new)
    status, _, err = run_cli("build", "--data", data_copy, "--lang", "fr", "--only", "aid", "--paper", "a4",
                             "--out", tmp_path / "o")
    one_line(status, err, str(data_copy / GLOSSARY), key, "cannot print")


def _replace_msgstr(path, msgid, text):
    source = path.read_text(encoding="utf-8")
    start = source.index(f'msgid "{msgid}"\nmsgstr "')
    end = source.index("\n", source.index("msgstr", start))
    path.write_text(source[:start] + f'msgid "{msgid}"\nmsgstr "{text}"' + source[end:], encoding="utf-8")


def test_check_names_a_translated_word_the_font_cannot_print(locale):
    """What `build --lang de` refuses, `bailout check` names: every edition's words are checked
    against the font, not the English alone."""
    _replace_msgstr(locale / "de.po", "aid.html.icons", "Auf den 标记")
    with pytest.raises(DataError) as raised:
        _check_catalogues(load(ROOT / "data"))
    assert any(line.startswith(f"{locale / 'de.po'}: aid.html.icons: ") and "cannot print" in line
               for line in raised.value.problems), raised.value.problems


def test_check_names_a_glossary_name_the_font_cannot_print(data_copy):
    edit(data_copy / GLOSSARY, 'name = "Allemands"', 'name = "德国"')
    with pytest.raises(DataError) as raised:
        _check_catalogues(load(data_copy))
    assert any(line.startswith(f"{data_copy / GLOSSARY}: nationalities.german.name: ") and "cannot print" in line
               for line in raised.value.problems), raised.value.problems


@pytest.mark.parametrize("ch", ["\u200d", "\u200b", "\ufeff", "\u200e", "\u2028", "\t", "\r", "\x00"])
def test_a_catalogue_word_with_an_invisible_character_is_refused(ch):
    """Zero-width joiners and spaces, a byte-order mark, a line separator, a tab: the font maps
    some of them, but they print as nothing or break a line, and would hide a word the glossary
    avoids from its check ("carte de\u200bhéros"); the data may not hold them either."""
    words = load_words("de")
    hostile = Words("de", {**words.messages, "aid.html.icons": f"Auf den{ch}Markern"})
    [problem] = [line for line in undrawable_words(hostile) if ": aid.html.icons: " in line]
    assert "cannot print" in problem and f"U+{ord(ch):04X}" in problem


def test_a_catalogue_word_keeps_its_line_breaks_and_soft_hyphens():
    words = load_words("de")
    fine = Words("de", {**words.messages, "aid.html.icons": "Auf den\nMar\u00adkern\u00a0und\u202fso"})
    assert not [line for line in undrawable_words(fine) if ": aid.html.icons: " in line]


@pytest.mark.parametrize("mark", ["\u0301", "\u0308", "\u0327"])
def test_a_combining_mark_is_refused_with_the_letter_to_write(mark, data_copy, tmp_path):
    """The faces map the combining accents, but reportlab sets each at its own advance, with no
    mark positioning: 'Ka\u0301r98k' printed its acute between the a and the r.  The letter
    whole (á) prints right."""
    edit(data_copy / GERMAN, 'model = "Kar98k"', f'model = "Ka{mark}r98k"')
    status, _, err = run_cli("build", "--data", data_copy, "--only", "aid", "--paper", "a4", "--out", tmp_path / "o")
    one_line(status, err, str(data_copy / GERMAN), "rifle[0].model", f"U+{ord(mark):04X}")
    whole = unicodedata.normalize("NFC", f"Ka{mark}r98k")
    if not any(unicodedata.combining(ch) for ch in whole):      # a letter it makes whole: say which
        assert f"write {whole!r}, each letter whole" in err
    else:                                                       # a with a cedilla has no letter of its own
        assert "each letter whole" not in err


def test_a_combining_mark_in_a_catalogue_or_a_label_is_refused():
    words = load_words("de")
    hostile = Words("de", {**words.messages, "aid.html.icons": "Auf den Ma\u0308rkern"})
    assert [line for line in undrawable_words(hostile) if ": aid.html.icons: " in line and "U+0308" in line]
    status, _, err = run_cli("build", "--label", "Erra\u0301ta", "--out", "/nonexistent/o")
    assert status == 2 and "U+0301" in err


def test_a_letter_with_its_accent_whole_prints(data_copy, tmp_path):
    edit(data_copy / GERMAN, 'model = "Kar98k"', 'model = "Kár98k"')
    status, _, err = run_cli("build", "--data", data_copy, "--only", "aid", "--paper", "a4", "--out", tmp_path / "o",
                             "-q")
    assert status == 0, err


UNPRINTABLE = ["德国", "🎲", "no\u0301tes", "ex\u200btra"]


def _unprintable_template(templates, text):
    """The aid's template with a line of `text` added: (its file, that line's number)."""
    aid = templates / "aid.md.j2"
    lines = aid.read_text(encoding="utf-8").split("\n")
    aid.write_text("\n".join([*lines, "", f"Extra {text} notes.", ""]), encoding="utf-8")
    return aid, len(lines) + 2


@pytest.mark.parametrize("text", UNPRINTABLE)
def test_template_text_the_font_cannot_print_is_refused_by_file_and_line(text, templates, tmp_path):
    """A data folder's template is text from anyone: its own words printed as empty boxes (or
    nothing) on the aid, and neither build nor check said so."""
    aid, line = _unprintable_template(templates, text)
    status, _, err = run_cli("build", "--templates", templates, "--only", "aid", "--paper", "a4",
                             "--out", tmp_path / "o")
    one_line(status, err, f"{aid}:{line}: ", "cannot print")


# check renders every part of both papers (about 2 s a run): README's command checks the first
# kind of text (a script the faces lack), BAILOUT_SLOW_TESTS=1 every kind; the build above
# refuses every kind in both.
@pytest.mark.parametrize("text", [UNPRINTABLE[0], *(pytest.param(t, marks=pytest.mark.larger_budget)
                                                    for t in UNPRINTABLE[1:])])
def test_check_names_template_text_the_font_cannot_print_by_file_and_line(text, templates):
    aid, line = _unprintable_template(templates, text)
    status, _, err = run_cli("check", "--templates", templates)
    assert status == 2 and f"{aid}:{line}: " in err
