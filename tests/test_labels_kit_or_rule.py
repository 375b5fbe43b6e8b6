"""Labels: what the kit prints as its own reading or aid, not as rule 871's text.

Expected words come from the English catalogue (load_words()), the rule text or the data's
numbers, never from the code under test.
"""

import io
import re
import tomllib
from pathlib import Path

import pytest

import conftest
from conftest import DATA, edit, run_cli, shipped_build, shipped_kit
from generator.content.words import load_words

RULE_FILE = conftest.ROOT.parent / "shared" / "rules" / "871-afvs-bail-out.txt"    # the variant, beside the checkout
RULE_TEXT = " ".join(RULE_FILE.read_text().split()) if RULE_FILE.is_file() else None
RULES = tomllib.loads((DATA / "rules.toml").read_text())
WORDS = load_words()
MINUS = "\u2212"


def signed(n):
    return f"{n:+d}".replace("-", MINUS)


def flat(text):
    return " ".join(text.split())


def pdf_text(content):
    return flat(conftest.pdf_text(content))


def reading(name, which=None):
    note = RULES["interpretation"][name]
    return note["readings"][which or note["reading"]]


def pistol_only_words(key="counter.key.pistol", words=WORDS):
    """The counter key's sentence on the pistol and a pistol-only man's CCV, its figures from the data."""
    w, cc = RULES["weapon"], RULES["close_combat"]
    return words(key, reach=words("counter.crew.pistol.range", range=w["pistol_relative_range"]), fp=w["pistol_fp"],
                 range=w["pistol_relative_range"], rule=w["pistol_rule"], plus=signed(cc["pistol_only_vs_unarmed"]),
                 ccv=signed(cc["ccv_modifier"]), cc_rule=cc["rule"])


def counter_faces(folder, lang="en", size="5/8in", data=DATA):
    """The counters PDF's text, built at `size` (the smallest named size) for edition `lang`: the
    shipped data's build shared with the other files' tests of the same counters (the German 5/8 in
    sheets of test_editions), an edited copy's by the command."""
    if data == DATA:
        from generator.cli.argtypes import counter_size_mm
        files = shipped_build(lang=lang, parts=("counters",), papers=("a4",), counter_mm=counter_size_mm(size))
        return pdf_text(files["counters-a4.pdf"])
    status, _, err = run_cli("build", "--data", data, "--only", "counters", "--paper", "a4", "--counter-size", size,
                             "--lang", lang, "--out", folder, "--quiet")
    assert status == 0, err
    return pdf_text((Path(folder) / "counters-a4.pdf").read_bytes())


# -- 871.5 on the crew counter --------------------------------------------------------------------

def test_the_rule_gives_a_pistol_only_man_an_unarmed_mans_ccv_plus_one():
    if RULE_TEXT is None:
        pytest.skip(f"rule 871's text, which the repository does not hold, is not at {RULE_FILE}")
    n = RULES["close_combat"]["pistol_only_vs_unarmed"]
    assert f"has the same CCV values as an unarmed man {n:+d}." in RULE_TEXT


def test_the_counter_key_says_a_pistol_only_mans_ccv_once(tmp_path):
    """Under note 3's reading in force (net_unarmed) the crew's modifier applies after it: the key
    says "an unarmed man's CCV +1, then the crew's -1", once, and no face carries a sentence."""
    assert RULES["interpretation"]["pistol_ccv"]["reading"] == "net_unarmed"
    text = counter_faces(tmp_path)
    words = pistol_only_words()
    assert text.count(words) == 1
    assert "+1" in words and "unarmed" in words
    front, back = WORDS("counter.crew.front.title"), WORDS("counter.crew.back.title")
    assert text.count(front) > 10 and back in text and "pistol only" not in text


@pytest.mark.parametrize("lang", ["de", "fr", "it", "es"])
def test_every_editions_key_says_it(lang, tmp_path):
    text = counter_faces(tmp_path, lang)
    words = pistol_only_words(words=load_words(lang))
    # a no-break space (French spacing) prints as a space
    assert flat(words.replace("\u00a0", " ").replace("\u202f", " ")) in text.replace("\u00a0", " "), lang


def test_the_other_reading_prints_the_whole_figure(data_copy, tmp_path):
    edit(data_copy / "rules.toml", 'reading = "net_unarmed"', 'reading = "plus_one"')
    text = counter_faces(tmp_path, data=data_copy)
    assert pistol_only_words("counter.key.pistol.in_all") in text
    assert pistol_only_words() not in text


# -- the interpretation notes: the kit's reading, with the words that point the other way ---------

@pytest.fixture(scope="module")
def aid_text(kit_files):
    return pdf_text(kit_files["player-aid-a4.pdf"])


def test_note_2_quotes_the_rules_words_that_point_to_one_card(aid_text):
    sentence = reading("hero_card")
    phrase = "For all the other individuals"         # 871.4, after the Hero card's sentence
    if RULE_TEXT is not None:
        assert f"{phrase} of the AFV, the player must draw" in RULE_TEXT
        assert "For any individual within the Crew" in RULE_TEXT
    assert f"“{phrase}”" in sentence and "“for any individual”" in sentence
    assert flat(sentence) in aid_text


def test_note_3_says_the_other_reading_exists(aid_text):
    sentence = reading("pistol_ccv")
    assert "other reading" in sentence.lower()
    other = RULES["close_combat"]["pistol_only_vs_unarmed"]
    assert f"unarmed {signed(other).replace(MINUS, '−')})" in sentence.replace(MINUS, "−")
    assert flat(sentence) in aid_text
    assert "other reading" in reading("pistol_ccv", "plus_one").lower()


def test_the_bailed_out_marker_is_labelled_the_kits(aid_text):
    assert "the kit's bailed-out AFV marker" in aid_text


# -- the release's README and index: the pre-rolled table is an optional aid ----------------------

def test_readme_says_the_prerolled_table_is_optional_and_the_same_in_every_copy(release_zip):
    import zipfile
    with zipfile.ZipFile(io.BytesIO(release_zip[1])) as z:
        files = {n: z.read(n) for n in z.namelist()}
    readme = next(v for n, v in files.items() if n.endswith("README.txt")).decode()
    index = next(v for n, v in files.items() if n.endswith("index.html")).decode()
    number = RULES["variant"]["number"]
    sentence = WORDS("release.readme.prerolled.text", number=number)
    assert "optional aid" in sentence and f"not part of rule {number}" in sentence and "both players agree" in sentence
    assert "same rows" in sentence
    for text in (flat(readme), flat(re.sub(r"<[^>]+>", " ", index).replace("&#x27;", "'"))):
        assert flat(sentence) in text
        assert WORDS("release.readme.prerolled.command") in text
        assert flat(WORDS("release.readme.prerolled.hide")) in text
    assert "--seed random" in WORDS("release.readme.prerolled.command")


def test_each_weapons_row_names_its_army_in_the_editions_words():
    # "whose army each row follows" prints under the name; in German as in the glossary
    import tomllib

    from generator.data.glossary import read_glossary, translated, untranslated
    kit = shipped_kit()
    for lang in ("de", "fr", "it", "es"):
        table = tomllib.loads((DATA / "glossary" / f"{lang}.toml").read_text(encoding="utf-8"))["nationalities"]
        glossary = read_glossary(kit, lang)
        assert untranslated(kit, glossary) == []
        armies = {n.key: n.army for n in translated(kit, glossary).nationalities}
        assert armies == {key: entry["army"] for key, entry in table.items()}, lang
        english = {n.key: n.army for n in kit.nationalities}
        assert all(armies[k] != english[k] for k in armies), lang
        # printed whole: the aid cuts a name cell past NAME_CHARS
        from generator.content.aid_text import NAME_CHARS
        assert all(len(a) <= NAME_CHARS for a in armies.values()), (lang, armies)
