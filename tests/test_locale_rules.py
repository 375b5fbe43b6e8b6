"""The locale's rules in every edition: numbers, plural forms, French spacing, the glossary's terms,
the English the web aid marks as English, the glyphs, and a release of all seven editions.

Expected values are the languages' own conventions (CLDR's, as a reader knows them) and the
catalogues' and glossaries' text, never the output of the code that applies the rules.  Each
test reads cheap parts (one aid, one counters page, the catalogues) or shares the editions
test_editions.py makes; the release of all seven runs under BAILOUT_SLOW_TESTS=1.
"""

import functools
import html.parser
import io
import re
import tomllib
import zipfile
from decimal import Decimal

import pytest

from conftest import DATA, SLOW, aid_edition, edit, kit_of, page_texts, run_cli, shipped_build, shipped_kit
from generator.content.aid_files import aid_words
from generator.content.aid_text import render_text
from generator.content.context import make_context
from generator.content.terms import holds, names, says, term_problems
from generator.content.words import Words, available_languages, french_spacing, load_words
from generator.data import load
from generator.data.glossary import read_glossary
from generator.data.sources import shipped
from generator.engine.odds import compute
from generator.errors import DataError
from generator.make.pipeline import edition_data, render_all
from generator.options import BuildOptions
from pdfpage import pages_of

COMMA = ("de", "es", "fr", "it", "pl", "ru")       # the editions whose decimal sign is a comma (CLDR)
EDITIONS = (*COMMA, "ja")
ALL = ("en", *sorted(EDITIONS))


def context(lang, data=DATA):
    kit = edition_data(kit_of(data), lang)
    return make_context(kit, compute(kit), BuildOptions(lang=lang), shipped("templates"), words=load_words(lang))


# ---- numbers ---------------------------------------------------------------------------------

# A number with a unit after it, in the English convention: what a comma locale must never print.
POINT_UNIT = re.compile(r"\d\.\d+\s?(?:mm|мм|%|KB|MB|Ko|Mo|КБ|МБ)(?!\w)")


@pytest.mark.parametrize("lang", COMMA)
def test_the_calibration_steps_lengths_have_a_decimal_comma(lang):
    """Step 4's tolerance, the counters' 1.5 mm bleed, prints as 1,5."""
    step = load_words(lang)("calibration.step.4", bleed=Decimal("1.5"))
    assert "1,5" in step and "1.5" not in step, (lang, step)


def test_the_japanese_calibration_steps_keep_the_decimal_point():
    """Japanese writes a decimal point (CLDR's ja decimal sign), as English does."""
    from babel import Locale
    point = Locale.parse("ja").number_symbols["latn"]["decimal"]
    step = load_words("ja")("calibration.step.4", bleed=Decimal("1.5"))
    assert f"1{point}5" in step, step


@pytest.mark.parametrize("lang", ("fr", "ru") if not SLOW else COMMA)
def test_the_calibration_page_prints_no_point_before_a_unit(lang):
    first = " ".join(page_texts(counters_a4(lang))[0].replace("\u00a0", " ").replace("\u202f", " ").split())
    assert re.search(r"1,5 (mm|мм)", first), lang
    assert not POINT_UNIT.findall(first), (lang, POINT_UNIT.findall(first))


@pytest.mark.parametrize(("lang", "shown"), [
    ("en", "12,345.6 MB"), ("de", "12.345,6 MB"), ("es", "12.345,6 MB"), ("fr", "12\u202f345,6 Mo"),
    ("it", "12.345,6 MB"), ("pl", "12\u00a0345,6 MB"), ("ru", "12\u00a0345,6 МБ"),
    ("ja", "12,345.6 MB")])
def test_sizes_follow_the_locales_grouping_and_decimal_sign(lang, shown):
    """release.size.mb ('{size:,.1f} MB'): the catalogue's format, the locale's signs."""
    assert load_words(lang)("release.size.mb", size=12345.6) == shown


def test_a_value_that_is_not_a_number_is_filled_in_as_it_is():
    words = Words("de", {"k": "{rule} {seed}"})
    assert words("k", rule="871.1.a", seed=9223372036854775807) == "871.1.a 9223372036854775807"


# ---- plural forms ----------------------------------------------------------------------------

# Which msgstr[] each count takes, as each language's Plural-Forms (CLDR's plural rules) gives it:
# French, Italian and Spanish keep a form for whole millions, Polish and Russian one for 2-4.
FORM = {"en": {1: 0, 2: 1, 5: 1, 21: 1, 22: 1}, "de": {1: 0, 2: 1, 5: 1, 21: 1, 22: 1},
        "es": {1: 0, 2: 2, 5: 2, 21: 2, 22: 2, 10**6: 1}, "fr": {1: 0, 2: 2, 5: 2, 21: 2, 22: 2, 10**6: 1},
        "it": {1: 0, 2: 2, 5: 2, 21: 2, 22: 2, 10**6: 1}, "pl": {1: 0, 2: 1, 5: 2, 21: 2, 22: 1},
        "ru": {1: 0, 2: 1, 5: 2, 21: 0, 22: 1}, "ja": {1: 0, 2: 0, 5: 0, 21: 0, 22: 0, 10**6: 0}}


@pytest.mark.parametrize("lang", ALL)
def test_every_plural_message_takes_the_form_its_count_asks(lang):
    for words in (load_words(lang), aid_words(lang)):
        assert words.plurals or lang == "en", lang      # English's aid catalogue is the template itself
        for msgid, forms in words.plurals.items():
            for n, index in FORM[lang].items():
                assert words.ngettext(msgid, msgid, n) == forms[index], (lang, msgid, n)


@pytest.mark.parametrize(("lang", "one", "several"), [
    ("en", "the counters (1 change)", "the counters (2 changes)"),
    ("de", "die Marker (1 Änderung)", "die Marker (2 Änderungen)"),
    ("es", "las fichas (1 cambio)", "las fichas (2 cambios)"),
    ("fr", "les pions (1 changement)", "les pions (2 changements)"),
    ("it", "i segnalini (1 modifica)", "i segnalini (2 modifiche)"),
    ("pl", "żetony (1 zmiana)", "żetony (2 zmiany)"),
    ("ru", "фишки (1 изменение)", "фишки (2 изменения)"),
    ("ja", "カウンター（変更1件）", "カウンター（変更2件）")])
def test_one_change_and_several_read_as_the_language_counts_them(lang, one, several):
    words = load_words(lang)
    where = words("change.off_aid.counters")
    assert words.count("change.off_aid", 1, where=where) == one
    assert words.count("change.off_aid", 2, where=where) == several


@pytest.mark.parametrize(("lang", "wrong"), [("de", "alle 1 Änderungen"), ("fr", "les 1 changements"),
                                             ("en", "all 1 changes")])
def test_the_aids_list_of_one_change_is_in_the_singular(lang, wrong):
    """The box the aid prints when built --since: its last line counts the changes."""
    box = {"label": "git:HEAD", "groups": [("871", ["x"])], "count": 1, "off_aid": ""}
    one = render_text(context(lang), extra={"since": box})
    assert wrong not in one
    box["count"] = 3
    # the box's last line, in italics, counts them: "*... 3 changes in all.*"
    assert re.search(r"\*[^*\n]*(?<![\d.,])3\s\w+[^*\n]*\*", render_text(context(lang), extra={"since": box}))


# ---- French spacing --------------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "set"), [
    ("Total : 3", "Total\u00a0: 3"), ("1: indemne", "1\u00a0: indemne"), ("Pourquoi ?", "Pourquoi\u202f?"),
    ("a ; b", "a\u202f; b"), ("« AFV vide »", "«\u202fAFV vide\u202f»"), ("«x»", "«\u202fx\u202f»"),
    ("12:30, http://x, 3:1", "12:30, http://x, 3:1"), ("&amp; &lt;", "&amp; &lt;"), ("mot\\!", "mot\u202f\\!")])
def test_french_spacing_ties_each_mark_to_its_word(typed, set):
    assert french_spacing(typed) == set


def _lone_marks(pdf, pages=None):
    """(page, mark, x, y) for each : ; ! ? » that starts its line and each « that ends one: no
    glyph of its line stands right beside it on that side (the first `pages`, else all).  The
    glyphs as pdfium reads them (tests/pdfpage.py): the same marks found as pdfplumber finds."""
    found = []
    for n, page in enumerate(pages_of(pdf)[:pages], 1):
        lines: dict[int, list] = {}
        for c in page.chars:
            lines.setdefault(round(c["top"]), []).append(c)
        for c in page.chars:
            if c["text"] not in ":;!?»«":
                continue
            gap, row = 0.5 * c["size"], round(c["top"])
            line = [o for key in (row - 1, row, row + 1) for o in lines.get(key, ()) if o is not c]
            if c["text"] == "«":
                beside = any(0 <= o["x0"] - c["x1"] <= gap for o in line)
            else:
                beside = any(0 <= c["x0"] - o["x1"] <= gap for o in line)
            if not beside:
                found.append((n, c["text"], round(c["x0"]), round(c["top"])))
    return found


@functools.lru_cache(maxsize=4)
def counters_a4(lang):
    """The A4 counters in `lang`, made alone once a process."""
    return shipped_build(lang=lang, parts=("counters",), papers=("a4",))["counters-a4.pdf"]


FRENCH = [("player-aid-a4.pdf", None), ("counters-a4.pdf", 3)] + ([("prerolled-a4.pdf", None)] if SLOW else [])


@pytest.mark.parametrize(("name", "pages"), FRENCH)
def test_no_french_line_starts_with_a_mark_or_ends_with_an_opening_guillemet(name, pages):
    """The aid, the calibration page and a sheet of counters (the others repeat its faces), and
    with BAILOUT_SLOW_TESTS=1 the pre-rolled table and legend."""
    if name == "player-aid-a4.pdf":
        pdf = aid_edition("fr")[name]
    elif name == "counters-a4.pdf":
        pdf = counters_a4("fr")
    else:
        pdf = render_all(shipped_kit(), BuildOptions(lang="fr", parts=("prerolled",), papers=("a4",), rows=40))[name]
    assert _lone_marks(pdf, pages) == []


def test_the_french_pre_rolled_legend_keeps_each_mark_with_its_word():
    """Cheap, without the PDF: each legend line as the renderer sets it, at the table's width."""
    from generator.content.rows import generate
    from generator.render.pdf import prerolled_pdf
    from generator.render.pdf.canvas import register_fonts
    register_fonts()
    ctx = context("fr")
    table = generate(ctx.kit, ctx.odds, rows=8, seed=871)
    from generator.layout.paper import PAPERS
    for width in [p.width - 2 * prerolled_pdf.MARGIN for p in PAPERS.values()] + list(range(300, 560, 7)):
        _, lines = prerolled_pdf.legend_lines(ctx, table, width)
        assert not [text for _, text in lines if text.lstrip()[:1] in tuple(":;!?»")], width


def test_a_line_cut_short_keeps_its_no_break_spaces():
    """French spacing's narrow no-break space stays one where a line is fitted to its width."""
    from generator.render.pdf.canvas import LATIN, ellipsise, register_fonts
    register_fonts()
    text = "Les cases libres\u202f: elles reçoivent d'autres jeux"
    assert ellipsise(text, LATIN.body, 8, 1000) == text
    assert "\u202f" in ellipsise(text, LATIN.body, 8, 90)


def test_the_lone_mark_check_finds_a_colon_that_starts_a_line():
    """The check can fail: a paragraph set just wide enough for the words before its colon."""
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph, SimpleDocTemplate
    style = getSampleStyleSheet()["Normal"]
    width = stringWidth("aaaa bbbb cccc dddd", style.fontName, style.fontSize) + 2 + 12    # the frame's padding
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=(width + 20, 300), leftMargin=10, rightMargin=10).build(
        [Paragraph("aaaa bbbb cccc dddd : eeee", style)])
    assert [mark for _, mark, _, _ in _lone_marks(out.getvalue())] == [":"]


# ---- the glossary's terms --------------------------------------------------------------------

@pytest.mark.parametrize("lang", EDITIONS)
def test_every_message_says_the_glossarys_terms_and_none_it_avoids(lang):
    kit = shipped_kit()
    assert term_problems(kit, read_glossary(kit, lang)) == []


def test_the_term_matches_word_starts_and_whole_words():
    assert holds("Infanterie-Personenkarten", "Personenkarte") and not holds("Heldenkarte", "karte")
    assert names("Open-topped AFV", "open-topped") and not names("Non-open-topped AFV", "open-topped")
    assert says("pas de fumée.", "fumée") and not says("fumigènes", "fumée")
    assert holds("si~l'équipage change de~pion de~position", "pion de position")


def test_a_term_changed_in_the_glossary_fails_every_message_that_still_says_the_old_one(data_copy, monkeypatch):
    edit(data_copy / "glossary" / "fr.toml", '[terms.Smoke]\nterm = "fumigènes"\nforms = ["fumigène"]',
         '[terms.Smoke]\nterm = "écran"')
    kit = load(data_copy)
    problems = term_problems(kit, read_glossary(kit, "fr"))
    english = load_words()
    smoke = [key for key, text in english.messages.items() if names(text, "Smoke")]
    assert smoke and all(any(f"fr.po: {key}: " in p and "'écran'" in p for p in problems) for key in smoke)
    assert any("fr/aid.po" in p for p in problems)
    from generator.cli.commands import _check_catalogues
    from generator.content import words
    # over English and French, the glossary edited (the others are the shipped ones, which
    # test_bad_data's check of the shipped data reads)
    monkeypatch.setattr(words, "available_languages", lambda: ("en", "fr"))
    with pytest.raises(DataError) as caught:        # what `bailout check` reports
        _check_catalogues(kit)
    assert any("'Smoke'" in line and "écran" in line for line in caught.value.problems)


def test_an_avoided_word_is_named_with_the_term_it_stands_for(data_copy):
    edit(data_copy / "glossary" / "es.toml", 'avoid = ["inmóvil"]', 'avoid = ["inmovilizado"]')
    kit = load(data_copy)
    problems = term_problems(kit, read_glossary(kit, "es"))
    assert problems and all("'Immobilized'" in p for p in problems if "avoids" in p)


def test_a_glossary_term_of_the_wrong_kind_is_a_problem_naming_file_and_key(data_copy):
    edit(data_copy / "glossary" / "de.toml", '[terms.rifle]\nterm = "Gewehr"', '[terms.rifle]\nterm = 3')
    with pytest.raises(DataError) as caught:
        read_glossary(load(data_copy), "de")
    assert any("glossary/de.toml: terms.rifle:" in line for line in caught.value.problems)


# ---- the edition stamp -----------------------------------------------------------------------

def test_a_glossary_edit_gives_its_edition_another_stamp_and_leaves_english_alone(data_copy):
    from generator.content.stamp import edition_stamp

    def stamp(lang):
        kit = edition_data(load(data_copy), lang)
        return edition_stamp(kit, BuildOptions(lang=lang), shipped("templates")).hash
    before = {lang: stamp(lang) for lang in ("en", "de", "fr")}
    path = data_copy / "glossary" / "de.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a translator's note\n", encoding="utf-8")
    after = {lang: stamp(lang) for lang in ("en", "de", "fr")}
    assert after["de"] != before["de"] and after["en"] == before["en"] and after["fr"] == before["fr"]


# ---- English marked as English ---------------------------------------------------------------

class _Texts(html.parser.HTMLParser):
    """The page's text, each piece with the language it is in (the nearest lang= around it)."""
    VOID = frozenset({"meta", "br", "img", "hr", "link", "input"})

    def __init__(self):
        super().__init__()
        self.stack, self.pieces = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(dict(attrs).get("lang") or (self.stack[-1] if self.stack else None))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        self.pieces.append((self.stack[-1] if self.stack else None, data))


def english_quotes():
    """The rule's words the English edition quotes: in its catalogue's note (the section "AFV
    Crew Members", "rule {crew} above" with the rule number in) and in the interpretation readings."""
    kit = shipped_kit()
    note = load_words()("aid.note.unnumbered", crew=kit.rules.crew.morale_rule, fate=kit.rules.fate.rule)
    quoted = re.findall(r"\u201c([^\u201d]+)\u201d", note)
    quoted += [q for i in kit.rules.interpretations for _, text in i.readings
               for q in re.findall(r"\u201c([^\u201d]+)\u201d", text)]
    return sorted(set(quoted))


@pytest.mark.parametrize("lang", EDITIONS)
def test_the_english_rule_words_on_the_web_aid_are_marked_english(lang):
    page = aid_edition(lang)["player-aid.html"]
    parser = _Texts()
    parser.feed(page.decode())
    assert parser.stack == [] or parser.stack[0] == lang
    quotes = english_quotes()
    assert len(quotes) >= 5
    marked = [text for lang_of, text in parser.pieces if lang_of == "en"]
    unmarked = " ".join(text for lang_of, text in parser.pieces if lang_of != "en")
    shown = [q for q in quotes if q in " ".join(marked) or q in unmarked]
    assert len(shown) >= 5, (lang, shown)
    for quote in shown:
        assert quote not in unmarked, (lang, quote)
    glossary = read_glossary(shipped_kit(), lang)
    for term in glossary.terms:
        if term.kept:
            assert f"({term.kept})" not in unmarked and f"（{term.kept}）" not in unmarked, (lang, term.kept)


# ---- glyphs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ALL)
def test_every_glyph_of_every_edition_prints_in_the_kits_fonts(lang):
    from generator.render.pdf.glyphs import check_printable
    check_printable(edition_data(shipped_kit(), lang), load_words(lang))


def test_a_word_the_fonts_lack_is_named_by_catalogue_and_key():
    """Korean: no face of the kit draws Hangul (the Japanese faces draw kanji, not Hangul)."""
    from generator.render.pdf.glyphs import undrawable_words
    problems = undrawable_words(Words("ko", {"counter.crew.front.title": "승무원"}, {"change.off_aid": ("변경",)}))
    assert len(problems) == 2 and "ko.po: counter.crew.front.title:" in problems[1] and "U+C2B9" in problems[1]
    assert "ko.po: change.off_aid:" in problems[0]


def test_japanese_prints_in_the_japanese_faces_and_latin_editions_cannot_print_it():
    from generator.render.pdf.glyphs import undrawable_words
    words = {"counter.crew.front.title": "乗員"}
    assert undrawable_words(Words("ja", words)) == []
    [problem] = undrawable_words(Words("de", words))
    assert "de.po: counter.crew.front.title:" in problem and "U+4E57" in problem


# ---- words that break --------------------------------------------------------------------------

def test_a_soft_hyphen_breaks_a_word_only_where_it_fits_no_size_or_place_whole():
    from generator.content.faces import Face, Line
    from generator.layout import face_layout as fl

    def measure(text, style, size):
        return len(text) * size * 0.6
    metrics = fl.Metrics(measure)
    assert fl.wrap("SUB\u00adFUSIL", 20, measure, "title", 5) == ["SUB-", "FUSIL"]
    assert fl.wrap("SUB\u00adFUSIL", 40, measure, "title", 5) == ["SUBFUSIL"]
    zone = fl.zones(54.0, 3.24)          # a 3/4 in counter: its label 8 pt down to the 7 pt floor
    width = zone.size - zone.inset - zone.beside      # a weapon's label stands beside the emblem

    def face(word):
        return Face("rifle", Line(word, "title"), (), across=True)
    # a word that fits whole at the floor but not at the largest size stays whole, the type smaller
    fits_at_floor = "W" * int(width / (7 * 0.6))
    kind, laid = fl.fit_faces([face(fits_at_floor[:4] + "\u00ad" + fits_at_floor[4:])], zone, metrics)
    assert [p.text for fit in laid.values() for p in fit.label] == [fits_at_floor] and kind.title < zone.type.title
    # a word too wide beside the emblem at the floor takes the face's middle whole, the pictogram
    # beside the emblem instead (ru "ВИНТОВКА")
    too_wide = "W" * (int(width / (7 * 0.6)) + 2)
    kind, laid = fl.fit_faces([face(too_wide[:5] + "\u00ad" + too_wide[5:])], zone, metrics)
    [fit] = laid.values()
    assert [p.text for p in fit.label] == [too_wide] and fit.places.label[2] == zone.width
    assert fit.places.symbol == (zone.beside, *zone.emblem[1:2], width, zone.emblem[3])
    # a word too wide even across the face breaks at its soft hyphen, beside the emblem
    widest = "W" * (int(zone.width / (7 * 0.6)) + 2)
    half = len(widest) // 2
    kind, laid = fl.fit_faces([face(widest[:half] + "\u00ad" + widest[half:])], zone, metrics)
    assert [p.text for fit in laid.values() for p in fit.label] == [widest[:half] + "-", widest[half:]]


# ---- a release of every edition ------------------------------------------------------------------

def test_release_takes_every_edition_the_kit_has():
    from generator.cli.argtypes import language_list
    assert available_languages() == ALL
    assert language_list(",".join(ALL)) == ALL


@pytest.mark.skipif(not SLOW, reason="a release of every edition: CI (BAILOUT_SLOW_TESTS=1)")
def test_a_release_of_every_edition(tmp_path):
    status, _, err = run_cli("release", "--lang", ",".join(ALL), "--rows", "8", "--out", tmp_path, "--quiet")
    assert status == 0, err
    [path] = tmp_path.glob("*.zip")
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        root = sorted(names)[0].split("/")[0] + "/"
        top = archive.read(f"{root}index.html").decode()
        manifest = archive.read(f"{root}MANIFEST.txt").decode()
        for lang in ALL:
            assert f'href="{lang}/index.html"' in top and f'lang="{lang}"' in top
            assert {f"{root}{lang}/kit-a4-{lang}.pdf", f"{root}{lang}/README.txt"} <= names
            readme = archive.read(f"{root}{lang}/README.txt").decode()
            assert load_words(lang)("release.readme.how") in readme, lang
        assert f"\nlanguage {','.join(ALL)}\n" in manifest


def _nesting(text):
    """The deepest parenthesis nesting in `text` (ASCII and full-width alike)."""
    depth = deepest = 0
    for char in text:
        depth += char in "(\uff08"
        depth -= char in ")\uff09"
        deepest = max(deepest, depth)
    return deepest


@pytest.mark.parametrize("lang", [lang for lang in available_languages() if lang != "en"])
def test_the_counter_keys_marker_sentence_nests_no_parentheses(lang):
    """The wreck's terrain carries the English term in parentheses ("Mauer (Wall)", data/glossary):
    the marker's key sentence must not set it inside parentheses of its own."""
    glossary = tomllib.loads((DATA / "glossary" / f"{lang}.toml").read_text(encoding="utf-8"))
    terrain = next(v for table in glossary.values() if isinstance(table, dict)
                   for k, v in table.items() if k == "after.wreck_terrain")
    said = load_words(lang)("counter.key.marker", label="X", tem="\u22121", unit="TEM", terrain=terrain, rule="871")
    assert terrain in said and _nesting(said) <= 1, said
