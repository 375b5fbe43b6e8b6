"""Each edition's words as a native editor would set them: no inserted word where the sentence
would have to inflect it, weapon models in the edition's own form, one quote style, percent signs
as Babel spaces them, no reference or count split over a line, a subtitle that is no disclaimer.

Expected values come from the catalogues' own declarations (en.po's "#. words:" lines), the
glossaries, CLDR's quotation marks and Babel's percent pattern, never from the code that prints.
"""

import io
import itertools
import math
import re
import tomllib
from fractions import Fraction

import pytest
from babel.messages.pofile import read_po

from conftest import DATA, ROOT, aid_edition, edit, matrix, pdf_text, run_cli, shipped_build, shipped_kit
from generator.cli.commands import _check_catalogues
from generator.content.aid_files import aid_catalogue_file
from generator.content.faces import all_counters
from generator.content.words import Words, available_languages, catalogue_file, load_words
from generator.data import load
from generator.data.glossary import read_glossary
from generator.errors import DataError

EDITIONS = tuple(lang for lang in available_languages() if lang != "en")
TEMPLATE = ROOT / "templates" / "aid.md.j2"

# CLDR's delimiters (quotationStart/End, alternateQuotationStart/End) for each edition's language:
# what a native editor sets, outer quotes and quotes within quotes.
CLDR_QUOTES = {"en": "“”‘’", "de": "„“‚‘", "es": "«»“”", "fr": "«»“”", "it": "«»“”", "pl": "„”«»",
               "ru": "«»„“", "ja": "「」『』"}
QUOTE_MARKS = set("\"“”„‟«»‹›「」『』‚‘")      # ’ between letters is an apostrophe, elsewhere a quote


def _catalogue(path, lang):
    with open(path, "rb") as f:
        return read_po(f, locale=lang)


def _word_fields():
    """{key: (field, ...)}: en.po's messages that insert a word, as its "#. words:" lines say."""
    english = _catalogue(catalogue_file("en"), "en")
    out = {}
    for message in english:
        for comment in message.auto_comments:
            if comment.startswith("words:"):
                out[message.id] = tuple(f.strip() for f in comment.removeprefix("words:").split(","))
    return out


def _aid_word_fields():
    """The aid sentences' word placeholders, as the template's header names them."""
    line = next(line for line in TEMPLATE.read_text(encoding="utf-8").splitlines() if "Word placeholders" in line)
    return tuple(f.strip(" .") for f in line.split(":", 1)[1].split(","))


def _uninflected(message):
    """The fields a translation's "# uninflected: NAME, ..." comment marks."""
    return {f.strip() for c in message.user_comments if c.startswith("uninflected:")
            for f in c.removeprefix("uninflected:").split("(")[0].split(",")}


def _label_places(lang, field):
    """Where `field` stands as a label: in the edition's quotation marks, after a colon, or alone
    in parentheses."""
    quotes = CLDR_QUOTES[lang]
    pairs = [(quotes[0], quotes[1]), (quotes[2], quotes[3])]
    return [re.escape(a) + r"[\s\u00a0\u202f]*" + field + r"[\s\u00a0\u202f]*" + re.escape(b) for a, b in pairs] + \
        [r":[\s\u00a0\u202f]*" + field, r"\(" + field + r"\)"]


def _misplaced(lang, text, fields, marked, placeholder):
    out = []
    for name in fields:
        field = placeholder(name)
        if field not in text or name in marked:
            continue
        bare = text
        for place in _label_places(lang, re.escape(field)):
            bare = re.sub(place, "", bare)
        if field in bare:
            out.append(name)
    return out


@pytest.mark.parametrize("lang", EDITIONS)
def test_no_word_is_inserted_where_the_sentence_would_inflect_it(lang):
    """en.po marks each message whose fields insert a word; in every edition such a field stands
    as a label (quoted, after a colon, in parentheses) or where its catalogue marks it uninflected."""
    declared = _word_fields()
    assert {"release.credits"} <= set(declared)
    problems = []
    catalogue = {m.id: m for m in _catalogue(catalogue_file(lang), lang) if m.id}
    for key, fields in declared.items():
        message = catalogue[key]
        for text in (message.string if isinstance(message.string, tuple) else (message.string,)):
            problems += [(key, f) for f in _misplaced(lang, text, fields, _uninflected(message), "{{{}}}".format)]
    aid_fields = _aid_word_fields()
    assert "credit" in aid_fields
    for message in _catalogue(aid_catalogue_file(lang), lang):
        if message.id and isinstance(message.string, str):
            problems += [(message.id, f) for f in _misplaced(lang, message.string, aid_fields, _uninflected(message),
                                                             "%({})s".format)]
    assert problems == []


def test_the_word_check_finds_a_name_after_a_preposition_that_inflects_it():
    """Polish "autorstwa {credit}" wants "Toma Cundiffa": unmarked, it is refused; as a label it is not."""
    assert _misplaced("pl", "wariant autorstwa {credit}", ("credit",), set(), "{{{}}}".format) == ["credit"]
    assert _misplaced("pl", "wariant; autor: {credit}", ("credit",), set(), "{{{}}}".format) == []
    assert _misplaced("ru", "от «{first}» до «{last}»", ("first", "last"), set(), "{{{}}}".format) == []
    assert _misplaced("ru", "от {first} до {last}", ("first", "last"), {"last"}, "{{{}}}".format) == ["first"]


def test_the_tables_legend_inserts_no_word():
    """The pre-rolled legend's sentences are whole phrases: none takes a word (a column head, a
    fate) that an edition's grammar would have to inflect, only rule numbers and note numbers."""
    declared = _word_fields()
    legend = {m.id: m.string for m in _catalogue(catalogue_file("en"), "en")
              if isinstance(m.id, str) and m.id.startswith("prerolled.legend.")}
    assert "prerolled.legend.use.text" in legend
    assert [key for key in legend if key in declared] == []
    for key, text in legend.items():
        fields = set(re.findall(r"\{(\w+)", text))
        assert fields <= {"closed", "open", "fate", "weapon", "note", "block", "next", "double", "first", "last",
                          "rows"}, (key, fields)


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_subtitle_is_the_variants_credit_and_no_disclaimer(lang):
    english = pdf_text(aid_edition("en")["player-aid-a4.pdf"]).splitlines()
    ours = pdf_text(aid_edition(lang)["player-aid-a4.pdf"]).splitlines()
    title = next(i for i, line in enumerate(english) if "player aid" in line and "·" not in line)
    subtitle = english[title + 1]
    # the same parts as the English subtitle (the variant and its author, the kit), and no more
    translated = next(line for line in ours if "Tom Cundiff" in line)
    assert len(translated.split(" · ")) == len(subtitle.split(" · ")), (lang, translated)
    assert not any("translation" in m.id for m in _catalogue(aid_catalogue_file(lang), lang) if m.id)


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_percent_sign_is_spaced_as_babel_spaces_it(lang):
    """"33,3 %" in the aid and "100 %" on the counters: one convention, the locale's (CLDR)."""
    sign = Words(lang, {}).percent_sign()
    wrong = []
    for path in (catalogue_file(lang), aid_catalogue_file(lang)):
        for message in _catalogue(path, lang):
            for text in (message.string if isinstance(message.string, tuple) else (message.string,)):
                for match in re.finditer(r"\d([\s\u00a0\u202f]*)%(?!\()", text or ""):
                    if match.group(1) + "%" != sign:
                        wrong.append((message.id, match.group(0)))
    assert wrong == []


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_one_quote_style_per_edition(lang):
    """Every quotation mark on the aid (PDF and web page) is the edition's own pair, or its pair for
    quotes within quotes (CLDR): no straight quotes, no other language's marks."""
    files = aid_edition(lang)
    html = re.sub(r"<style.*?</style>|<script.*?</script>|<[^>]+>", " ", files["player-aid.html"].decode(), flags=re.S)
    for page in (pdf_text(files["player-aid-a4.pdf"]), html):
        # apostrophes: in a word, and before a year's two digits (a counter's "’39–’41")
        text = re.sub(r"(?<=[^\W\d_])[’'](?=[^\W\d_])|’(?=\d\d)", "", page)
        used = {ch for ch in text if ch in QUOTE_MARKS or ch == "’"}
        assert used <= set(CLDR_QUOTES[lang]), (lang, used - set(CLDR_QUOTES[lang]))


def _split_pairs(pdf_lines, html):
    """Each place a line of the PDF ends where the aid's source holds a word and a number together
    ("note 8", "5 men"): the last word of one line and the first of the next, when the web page
    (whose text nodes are the same paragraphs) has them side by side."""
    segments = [" ".join(s.replace("\u00a0", " ").split()) for s in re.split(r"<[^>]+>", html)]
    source = "\n".join(segments)
    out = []
    for a, b in itertools.pairwise(pdf_lines):
        if not a.split() or not b.split():
            continue
        last, first = a.split()[-1], b.split()[0]
        # ... but not the first factor of a product ("give / 2 × 3 × 4"): no reference's number
        number_after_word = re.search(r"[^\W\d_]\.?$", last) and re.match(r"\d", first) and b.split()[1:2] != ["×"]
        # the word before the number, past a list of numbers ("columns 2, 3, 4" is a reference)
        before = next((w for w in reversed(a.split()[:-1]) if not re.fullmatch(r"\d+,", w)), "")
        # a count ("5 men"); a reference's number ("column 3") may end a line
        word_after_number = re.search(r"\d$", last) and re.match(r"[^\W\d_]", first) and \
            not re.search(r"[^\W\d_]\.?$", before)
        if (number_after_word or word_after_number) and f"{last} {first}" in source:
            out.append(f"{last} / {first}")
    return out


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_no_reference_or_count_is_split_over_a_line(lang):
    files = aid_edition(lang)
    lines = pdf_text(files["player-aid-a4.pdf"]).splitlines()
    assert _split_pairs(lines, files["player-aid.html"].decode()) == []


def test_the_split_check_sees_a_reference_broken_over_two_lines():
    html = "<p>each draws a card (note 8), pinned (871). 5 men</p><td>M1 Garand</td><td>1942</td>"
    assert _split_pairs(["each draws a card (note", "8), pinned (871). 5", "men"], html) == ["(note / 8),", "5 / men"]
    assert _split_pairs(["M1 Garand", "1942"], html) == []
    assert _split_pairs(["columns 2, 3, 4 give", "2 × 3 × 4 = 24 combinations"], "columns 2, 3, 4 give 2 × 3 × 4") == []


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_a_product_holds_together_but_not_to_the_word_before_it(lang):
    """"columns 2, 3, 4 give 2 × 3 × 4 = 24 combinations": the product and its count never part
    over a line, but the verb before them may end one, so the line above does not stop short."""
    html = aid_edition(lang)["player-aid.html"].decode()
    found = re.search(r"([ \u00a0]?)(\d+(?:\u00a0×\u00a0\d+)+)\u00a0=\u00a0(\d+)", html)
    assert found, lang
    before, factors, count = found.groups()
    assert math.prod(int(n) for n in factors.split("\u00a0×\u00a0")) == int(count)
    assert before != "\u00a0", (lang, html[found.start() - 20:found.end()])


def _glossary(lang):
    return tomllib.loads((DATA / "glossary" / f"{lang}.toml").read_text(encoding="utf-8"))


def _model_forms(lang):
    """{English model: (the edition's form, its short form)}, as the glossary gives them."""
    models = _glossary(lang).get("models", {})
    return {k: (v, "") if isinstance(v, str) else (v["model"], v.get("short", "")) for k, v in models.items()}


@pytest.mark.parametrize("lang", EDITIONS)
def test_no_english_model_name_where_the_glossary_gives_the_editions_form(lang):
    forms = _model_forms(lang)
    assert forms, f"data/glossary/{lang}.toml gives no [models]"
    text = " ".join(pdf_text(aid_edition(lang)["player-aid-a4.pdf"]).split())
    for ours, _ in forms.values():
        assert ours in text, (lang, ours)
    for ours, _ in sorted(forms.values(), key=lambda form: -len(form[0])):
        text = text.replace(ours, " ")
    for english in forms:
        assert not re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", text), (lang, english)
    # the descriptors the English data writes in English, wherever the glossary translates them
    for word in ("grease gun", "carbine", "Carbine"):
        if any(word in english for english in forms):
            assert word not in text, (lang, word)


def test_soviet_weapons_print_in_cyrillic_in_the_russian_edition():
    soviet = tomllib.loads((DATA / "nationalities" / "soviet.toml").read_text(encoding="utf-8"))
    models = [span["model"] for kind in ("rifle", "smg") for span in soviet[kind]]
    forms = _model_forms("ru")
    assert set(models) <= set(forms)
    for english in models:
        ours, short = forms[english]
        for form in (ours, short or ours):
            assert re.search("[А-Яа-яЁё]", form), form
            assert not re.search("[A-Za-z]", form), form
    text = " ".join(pdf_text(aid_edition("ru")["player-aid-a4.pdf"]).split())
    assert "ППШ-41" in text and "винтовка Мосина обр. 1891/30 гг." in text
    assert not re.search(r"PP[DSh]|Mosin", text)


def test_a_glossary_model_no_nationality_names_is_named_by_file_and_key(data_copy, monkeypatch):
    from generator.content import words
    edit(data_copy / "glossary" / "ru.toml", '"PPSh-41" = "ППШ-41"', '"PPSh-42" = "ППШ-42"')
    # check's catalogue and glossary checks alone (the command, its render of every part and
    # its one line a problem: test_check_names_the_file_and_key_of_an_army_the_aid_would_cut),
    # over English and Russian, the glossary edited (the others are the shipped ones, which
    # test_bad_data's check of the shipped data reads)
    monkeypatch.setattr(words, "available_languages", lambda: ("en", "ru"))
    with pytest.raises(DataError) as caught:
        _check_catalogues(load(data_copy))
    assert any("glossary/ru.toml: models.PPSh-42: not a model" in line for line in caught.value.problems), \
        caught.value.problems


def test_read_glossary_takes_the_models_in_the_editions_form():
    glossary = read_glossary(shipped_kit(), "ru")
    assert glossary.models["PPSh-41"] == ("ППШ-41", "")


def _printed_names():
    """(file, key, text) of every nationality name and army an edition prints in the aid's weapons
    table: the English data's (nationalities/*.toml) and each glossary's [nationalities]."""
    out = []
    for path in sorted((DATA / "nationalities").glob("*.toml")):
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        out += [(f"nationalities/{path.name}", key, table[key]) for key in ("name", "army") if key in table]
    for lang in EDITIONS:
        for nation, entry in _glossary(lang).get("nationalities", {}).items():
            out += [(f"glossary/{lang}.toml", f"nationalities.{nation}.{key}", entry[key])
                    for key in ("name", "army") if key in entry]
    return out


def test_every_editions_nationality_names_fit_the_aids_name_cell():
    # the aid's weapons table prints a name or army of at most NAME_CHARS characters whole and cuts a
    # longer one ("Brytyjczycy i Wspólnota Nar…"): every one the data and the glossaries give fits
    from generator.content.aid_text import NAME_CHARS
    names = _printed_names()
    assert {file for file, _, _ in names} >= {f"glossary/{lang}.toml" for lang in EDITIONS}
    cut = [f"data/{file}: {key}: {text!r} is {len(text)} characters" for file, key, text in names
           if len(" ".join(text.split())) > NAME_CHARS]
    assert cut == [], f"longer than the aid's name cell ({NAME_CHARS} characters): {cut}"


def test_check_names_the_file_and_key_of_an_army_the_aid_would_cut(data_copy, check_after_its_render,
                                                                  monkeypatch):
    from generator.content import words
    # over English and Polish, the glossary edited (the others are the shipped ones, which
    # test_bad_data's check of the shipped data reads)
    monkeypatch.setattr(words, "available_languages", lambda: ("en", "pl"))
    army = "Brytyjczycy i Brytyjska Wspólnota Narodów"      # 41 characters: more than a name cell holds
    from generator.content.aid_text import NAME_CHARS
    assert len(army) > NAME_CHARS
    edit(data_copy / "glossary" / "pl.toml", 'army = "Wojska Imperium Brytyjskiego"', f'army = "{army}"')
    status, _, err = run_cli("check", "--data", data_copy)
    assert status == 2 and "Traceback" not in err, err
    line = next((line for line in err.splitlines() if "nationalities.british.army" in line), "")
    assert "glossary/pl.toml: nationalities.british.army:" in line and repr(army) in line, err
    assert f"{len(army)} characters" in line, line


# Polish and Russian typesetting's rule: a one-letter word (Polish: the conjunctions a, i, o, u; the
# prepositions w, z. Russian: the prepositions в, к, о, с, у; the conjunctions а, и; the pronoun я)
# never ends a line; it goes to the next line with the word it belongs to.
ONE_LETTER_WORDS = {"pl": {"a", "i", "o", "u", "w", "z"}, "ru": {"в", "к", "о", "с", "у", "а", "и", "я"}}


def _lines_ending_in_one_letter(pdf_lines, html, lang="pl"):
    """Each place a line of the PDF ends with a one-letter word that the aid's web page (the same
    paragraphs) sets before the next line's first word: the word and its successor, split."""
    segments = [" ".join(s.replace("\u00a0", " ").split()) for s in re.split(r"<[^>]+>", html)]
    source = "\n".join(segments)
    out = []
    for a, b in itertools.pairwise(pdf_lines):
        if not (a.split() and b.split()):
            continue
        last, first = a.split()[-1], b.split()[0]
        if last.casefold() in ONE_LETTER_WORDS[lang] and f" {last} {first}" in source:
            out.append(f"{last} / {first}")
    return out


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_no_line_of_the_aid_ends_with_a_one_letter_word(lang):
    files = aid_edition(lang)
    lines = pdf_text(files["player-aid-a4.pdf"]).splitlines()
    text = " ".join(" ".join(lines).split())
    assert any(f" {w} " in text for w in ONE_LETTER_WORDS[lang])     # the aid has such words
    assert _lines_ending_in_one_letter(lines, files["player-aid.html"].decode(), lang) == []


def test_the_one_letter_check_sees_a_preposition_ending_a_line():
    html = "<p>Załoga tworzy nową grupę z identyfikatorem grupy AFV</p><td>Lee-Enfield No. 4 Mk I</td><td>1944</td>"
    assert _lines_ending_in_one_letter(["Załoga tworzy nową grupę z", "identyfikatorem grupy AFV"], html) == \
        ["z / identyfikatorem"]
    assert _lines_ending_in_one_letter(["Lee-Enfield No. 4 Mk I", "1944"], html) == []
    html = "<p>Экипаж образует новую группу с тем же номером</p>"
    assert _lines_ending_in_one_letter(["Экипаж образует новую группу с", "тем же номером"], html, "ru") == \
        ["с / тем"]


# README's command: every edition on one paper, A4 and Letter by turns (Russian on Letter); CI
# (BAILOUT_SLOW_TESTS=1) every edition on both.  Each Letter aid is a build no other test here reads.
@pytest.mark.parametrize("lang,paper", matrix(["en", *EDITIONS], ["a4", "letter"]))
def test_the_columns_and_their_product_are_never_broken_over_a_line(lang, paper):
    # the ideal deck's size is the product of the columns' sizes, as rules.toml lists the columns:
    # "2 × 3 × 4 = 24" (and "2, 3, 4", in Japanese "2・3・4") is one expression, set on one line
    # on either paper (the Russian Letter aid once broke it after "=")
    columns = tomllib.loads((DATA / "rules.toml").read_text(encoding="utf-8"))["deck"]["columns"]
    size = math.prod(columns)
    pdf = aid_edition(lang, paper)[f"player-aid-{paper}.pdf"]
    lines = [" ".join(line.split()) for line in pdf_text(pdf).splitlines()]
    assert any(" × ".join(map(str, columns)) + f" = {size}" in line for line in lines), lang
    listed = ("・" if lang == "ja" else ", ").join(map(str, columns))
    assert any(listed in line for line in lines), lang


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_the_icons_credit_is_quoted_whole_in_english(lang):
    # the licence's credit "Icons made by AUTHOR" is quoted as English in every edition: its
    # authors (layout/pictograms.toml) joined by the English "and", never the edition's
    authors = sorted({part["author"] for parts in tomllib.loads(
        (ROOT / "generator" / "layout" / "pictograms.toml").read_text(encoding="utf-8"))["pictogram"].values()
        for part in parts["part"]})
    assert len(authors) > 1
    credit = "Icons made by " + ", ".join(authors[:-1]) + " and " + authors[-1]
    page = " ".join(aid_edition(lang)["player-aid.html"].decode().split())
    assert credit in page, lang


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_face_images_alt_text_is_the_editions_name_kind_and_side(lang):
    # 'faces/german-rifle-1939-45-back.png' (images.py names it so) says the glossary's name of the
    # Germans, the catalogue's rifle with its years (an en dash, as a span prints) and its back
    from generator.data.glossary import translated
    from generator.render.html.release_pages import _face_alt
    catalogue = {m.id: m.string for m in _catalogue(catalogue_file(lang), lang) if m.id}
    german = _glossary(lang)["nationalities"]["german"]["name"]
    kind = catalogue["counter.kind.rifle"] + " 1939\u201345"
    back = catalogue["calibration.key.back"].replace("{kind}", kind)
    kit = shipped_kit()
    edition = translated(kit, read_glossary(kit, lang))
    alt = _face_alt("faces/german-rifle-1939-45-back.png", edition, Words(lang, catalogue))
    assert alt == catalogue["release.index.face.alt"].replace("{nationality}", german).replace("{face}", back)
    assert not re.search(r"(?i)german|rifle|back", alt), alt       # the file name's English words are gone


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_the_counters_subject_writes_the_size_with_the_editions_decimal_sign(lang):
    from decimal import Decimal

    from babel.numbers import format_decimal
    from pypdf import PdfReader

    from generator.options import BuildOptions
    options = BuildOptions(lang=lang, parts=("counters",), papers=("a4",))
    size = format_decimal(Decimal(str(float(options.counter_mm))), format="0.00", locale=lang)      # CLDR: '19,05'
    files = shipped_build(lang=lang, parts=("counters",), papers=("a4",))
    subject = PdfReader(io.BytesIO(files["counters-a4.pdf"])).metadata.subject
    assert size in subject, subject
    assert "." not in subject.replace("A4", ""), subject


def _russian_texts():
    """(where, text) of every Russian message: ru.po, ru/aid.po and the glossary's [text] sentences."""
    out = []
    for path in (catalogue_file("ru"), aid_catalogue_file("ru")):
        for message in _catalogue(path, "ru"):
            if message.id:
                out += [(f"{path.name}: {message.id}", text) for text in
                        (message.string if isinstance(message.string, tuple) else (message.string,))]
    for key, value in _glossary("ru").get("text", {}).items():
        out += [(f"ru.toml: text.{key}", text) for text in (value if isinstance(value, list) else [value])]
    return out


def _misset_dashes(text):
    """Each dash of `text` Russian typesetting would not set so: an en dash outside a range of
    numbers, an em dash without a no-break space before it and a space after it."""
    in_range = re.compile(r"(?<=[\d}])\u2013(?=[\d{])")
    spaced = re.compile(r"(?<=\u00a0)\u2014(?= |$)")
    return [text[max(0, m.start() - 10):m.start() + 10] for m in re.finditer("[\u2013\u2014]", text)
            if not (in_range.match(text, m.start()) or spaced.match(text, m.start()))]


def test_the_russian_dash_is_an_em_dash_held_to_the_word_before_it():
    # Russian typesetting: тире is the em dash (—), spaced, never starting a line (a no-break space
    # before it); the en dash (–) only joins a range of numbers ("1939–40")
    texts = _russian_texts()
    assert any("\u2014" in text for _, text in texts)
    assert [(where, bad) for where, text in texts for bad in _misset_dashes(text)] == []
    assert _misset_dashes("Экипаж – 5 бойцов; 1939–40; строки {first}–{last}; лист — это") == \
        ["Экипаж – 5 бойцов", "st}; лист — это"]


def _years(span, message):
    """The catalogue's message for a marker's years filled from the data's span."""
    return message.format(first=span.first, last=span.last, year=span.first, first_short=f"{span.first % 100:02d}",
                          last_short=f"{span.last % 100:02d}", year_short=f"{span.first % 100:02d}")


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_a_weapon_markers_years_are_written_as_the_editions_catalogue_writes_years(lang):
    messages = {m.id: m.string for m in _catalogue(catalogue_file(lang), lang) if m.id}
    for nat, counters in all_counters(shipped_kit(), 1, load_words(lang)):
        weapons = [c for c in counters if c.kind in ("rifle", "smg")]
        for span, counter in zip([*nat.rifles, *nat.smgs], weapons, strict=True):
            key = "counter.years.one" if span.first == span.last else "counter.years.span"
            assert [n.text for n in counter.front.numerals] == [_years(span, messages[key])], (lang, nat.key)


def test_the_russian_markers_write_years_the_russian_way():
    # a Russian reader writes 1939–43, never the English ’39–’43 (soviet.toml: the Mosin 1939 to 1943)
    soviet = dict(all_counters(shipped_kit(), 1, load_words("ru")))
    texts = [n.text for nat, counters in soviet.items() if nat.key == "soviet"
             for c in counters if c.kind == "rifle" for n in c.front.numerals]
    assert texts[0] == "1939–43" and not any("’" in text for text in texts), texts
    english = [n.text for nat, counters in all_counters(shipped_kit(), 1, load_words("en")) if nat.key == "soviet"
               for c in counters if c.kind == "rifle" for n in c.front.numerals]
    assert english[0] == "’39–’43", english


def _counter_key_text(lang):
    from generator.content.context import make_context
    from generator.content.counter_key import counter_key
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.pipeline import edition_data
    from generator.options import BuildOptions
    kit = edition_data(shipped_kit(), lang)
    ctx = make_context(kit, compute(kit), BuildOptions(lang=lang), shipped("templates"), words=load_words(lang))
    return " ".join(entry.text for entry in counter_key(ctx))


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_the_counter_key_names_each_title_whole_and_holds_the_tem_to_its_unit(lang):
    # a counter title's soft hyphen (ru "ВИН\u00adТОВКА") is for a narrow counter, not the key's sentence
    # (copied or searched, it splits the word); the marker's TEM value and its unit stay on one line
    messages = {m.id: m.string for m in _catalogue(catalogue_file(lang), lang) if m.id}
    tem = tomllib.loads((DATA / "rules.toml").read_text(encoding="utf-8"))["after"]["wreck_tem"]
    text = _counter_key_text(lang)
    assert "\u00ad" not in text, lang
    for key in ("counter.rifle.title", "counter.smg.title"):
        assert messages[key].replace("\u00ad", "").replace("~", "\u00a0") in text, (lang, key)
    assert f"\u2212{-tem}\u00a0{messages['counter.marker.unit']}" in text, lang


@pytest.mark.parametrize("lang", ["en", *EDITIONS])
def test_a_weapon_markers_title_prints_whole_on_the_briefs_counters(lang):
    # the print brief's counters of 5/8 and 3/4 in: a title the catalogue lets break (ru "ВИН\u00adТОВКА")
    # still prints whole where the face has room for it, never "ВИН-" over "ТОВКА"
    from generator.layout import face_layout as fl
    from generator.layout import sheets as geo
    from generator.render.pdf.face_pdf import fit_faces
    messages = {m.id: m.string for m in _catalogue(catalogue_file(lang), lang) if m.id}
    from generator.make.pipeline import edition_data
    kit, words = edition_data(shipped_kit(), lang), load_words(lang)
    groups = all_counters(kit, 1, words)
    for inches in (Fraction(5, 8), Fraction(3, 4)):
        size = float(inches * 72)
        _, fits = fit_faces(groups, fl.zones(size, geo.own_inset(size)), inches * Fraction(254, 10), kit, words)
        for nat, counters in groups:
            for counter in (c for c in counters if c.kind in ("rifle", "smg")):
                lines = [p.text for p in fits[counter.front].label]
                title = messages[f"counter.{counter.kind}.title"]
                assert "".join(lines).replace("\u00a0", "~").replace(" ", "~") == title.replace("\u00ad", ""), \
                    (lang, inches, nat.key, lines)
