"""Catalogues are text from translators: every field in them goes through the one hardened
formatter (content/words.py), the counters' words and the aid's sentences (aid.po) alike.  A
message that breaks it is one line naming the file and the msgid, in a build and in `bailout
check`; none can reach an attribute, raise a KeyError or ask for a gigabyte."""


import pytest

from conftest import ROOT, one_line, run_cli
from generator.cli.commands import _check_catalogues
from generator.content import aid_text, faces
from generator.content.words import Words, catalogue_file, load_words, missing_translations
from generator.data import load
from generator.errors import DataError

HOSTILE = ["RR{", "RR{other}", "RR{range.__class__.__mro__}", "RR{range:>100000000}",
           "RR{range!r}", "RR{0}", "RR{range[0]}", "RR}"]
KEY = "counter.crew.pistol.range"


@pytest.fixture(scope="module")
def kit():
    return load(ROOT / "data")


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_counter_word_is_one_problem_naming_the_catalogue_and_key(text, kit):
    words = load_words("de")
    hostile = Words("de", {**words.messages, KEY: text})
    with pytest.raises(DataError) as raised:
        faces.crew_counter(kit, kit.nationalities[0], hostile)
    [problem] = raised.value.problems
    assert problem.startswith(f"{catalogue_file('de')}: {KEY}: ") and "<class" not in problem, problem


def test_counter_words_keep_their_ties_and_phrases(kit):
    words = Words("en", {**load_words().messages, KEY: "RR~{range} here"})
    face = faces.crew_counter(kit, kit.nationalities[0], words).back
    assert face.note.text == f"RR\u00a0{kit.rules.weapon.pistol_relative_range} here"


def _replace_msgstr(path, msgid, text):
    source = path.read_text(encoding="utf-8")
    start = source.index(f'msgid "{msgid}"\nmsgstr "')
    end = source.index("\n", source.index("msgstr", start))
    path.write_text(source[:start] + f'msgid "{msgid}"\nmsgstr "{text}"' + source[end:], encoding="utf-8")


@pytest.mark.parametrize("text", ["RR{", "RR{range:>100000000}"])
def test_a_build_with_a_hostile_counter_word_is_one_line(text, locale, tmp_path):
    _replace_msgstr(locale / "de.po", KEY, text)
    status, _, err = run_cli("build", "--lang", "de", "--only", "counters", "--paper", "a4", "--out", tmp_path / "o")
    one_line(status, err, "de.po", KEY)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("text", HOSTILE)
def test_check_names_a_hostile_field_by_file_and_key(text, locale, kit, monkeypatch):
    from generator.content import words
    _replace_msgstr(locale / "de.po", KEY, text)
    problems = missing_translations("de")
    assert len(problems) == 1 and problems[0].startswith(f"{locale / 'de.po'}: {KEY}: "), problems
    # The whole check, over English and the edition the field is in (the others' catalogues are
    # the shipped ones, which the check of the shipped data reads): its problems, no exception.
    monkeypatch.setattr(words, "available_languages", lambda: ("en", "de"))
    with pytest.raises(DataError) as raised:
        _check_catalogues(kit)
    assert problems[0] in raised.value.problems


AID_MSGID = "Every man who gets out has a pistol."


@pytest.mark.parametrize("text", ["Jeder %(n)999999999s", "Jeder %(x)s", "Jeder %s", "Jeder %(n)r", "Jeder 100%"])
def test_a_hostile_aid_sentence_is_one_problem_naming_aid_po_and_msgid(text, locale, kit):
    path = locale / "de" / "aid.po"
    _replace_msgstr(path, AID_MSGID, text)
    problems = aid_text.aid_catalogue_problems("de")
    assert len(problems) == 1 and problems[0].startswith(f"{path}: {AID_MSGID!r}: "), problems
    sentence = aid_text.Prose(text, (path, AID_MSGID))
    with pytest.raises(DataError) as raised:
        sentence % {"n": 1}
    assert str(raised.value).startswith(f"{path}: {AID_MSGID!r}: ")


def test_the_aid_sentences_fill_their_fields_and_escape_their_values():
    sentence = aid_text.Prose("%(n)s of %(m)s, 50%%", (None, "x"))
    assert sentence % {"n": "*3*", "m": 4} == "\\*3\\* of 4, 50%"
    assert aid_text.aid_catalogue_problems("de") == []
