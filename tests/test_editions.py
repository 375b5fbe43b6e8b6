"""The editions in German, Spanish, French, Italian, Polish, Russian and Japanese: every catalogue complete,
each edition passes the print checks English passes, prints the same figures, and keeps no common
English word outside the terms it keeps on purpose.

Each edition is rendered once per session (its printed parts: EDITION_PAPERS).  Expected values come from
the English catalogue and the English edition, never from the code that formats the numbers.
"""

import functools
import io
import os
import re
import shutil
import subprocess
import tomllib
from collections import Counter
from decimal import Decimal

import pytest
from babel.messages.pofile import read_po
from pypdf import PdfReader

from conftest import DATA, aid_edition, edit, matrix, pdf_text, run_cli, shipped_build, shipped_kit
from generator.content.words import (
    LOCALE,
    Words,
    available_languages,
    catalogue_file,
    load_words,
    missing_translations,
)
from generator.errors import DataError
from generator.make.pipeline import render_all
from generator.options import BuildOptions

EDITIONS = ("de", "es", "fr", "it", "pl", "ru", "ja")
# The print checks build a whole kit per edition (seconds each).  README's test command checks
# German, the longest text and the hardest to fit; CI (BAILOUT_SLOW_TESTS=1, set by .ci/run)
# checks every edition.  The catalogue checks below always cover them all.
PRINTED = EDITIONS if os.environ.get("BAILOUT_SLOW_TESTS") == "1" else ("de",)
CI = os.environ.get("CI") == "true"
MM = 72 / 25.4
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")
PRINTED_PARTS = ("aid", "prerolled", "counters")


# The papers of an edition's printed kit: README's command reads the A4 tables, counters and
# merged kit (what they print does not change with the paper but for its size); the aid on both
# papers, made alone (aid_edition), where it is checked on both.  CI reads the whole kit on both.
EDITION_PAPERS = ("a4", "letter") if os.environ.get("BAILOUT_SLOW_TESTS") == "1" else ("a4",)


@functools.lru_cache(maxsize=8)
def edition(lang):
    """{file name: bytes} of the printed kit in `lang` (aid, tables, counters and the merged kit)
    on EDITION_PAPERS: no test here reads an edition's digital tables.  English is the session's
    default build (kit_files), the same bytes: the tests that compare take it from there."""
    return render_all(shipped_kit(), BuildOptions(lang=lang, parts=PRINTED_PARTS, papers=EDITION_PAPERS))


def aid_a4(lang):
    """The A4 aid in `lang`, made alone: the tests that read no other file need no whole kit."""
    return aid_edition(lang)["player-aid-a4.pdf"]


def html_text(content):
    """The web aid's visible text: tags, the style sheet and the embedded picture dropped."""
    text = re.sub(r"<style.*?</style>|<svg.*?</svg>|<[^>]+>", " ", content.decode(), flags=re.S)
    return re.sub(r"&nbsp;|&#160;", " ", text)


# ---- the catalogues -----------------------------------------------------------------------------

def test_the_kit_has_the_editions_and_english_first():
    assert available_languages() == ("en", *sorted(EDITIONS))


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_english_key_has_a_translation_with_the_same_fields(lang):
    english = load_words()
    words = load_words(lang)
    assert set(words.messages) == set(english.messages)
    assert missing_translations(lang) == []


def test_a_key_without_a_translation_is_named_by_file_and_key(tmp_path, monkeypatch):
    """Blank one message of the German catalogue: the check names its file and key, and says why."""
    import generator.content.words as words_mod
    source = catalogue_file("de").read_text(encoding="utf-8")
    key = "counter.crew.back.title"
    english = load_words()(key)
    translated = load_words("de")(key)
    assert f'msgstr "{translated}"' in source
    (tmp_path / "en.po").write_bytes(catalogue_file("en").read_bytes())
    (tmp_path / "de.po").write_text(source.replace(f'msgstr "{translated}"', 'msgstr ""'), encoding="utf-8")
    monkeypatch.setattr(words_mod, "LOCALE", tmp_path)
    problems = missing_translations("de")
    assert problems == [f"{tmp_path / 'de.po'}: {key}: no translation (English: {english!r})"]


def test_a_translation_takes_only_the_fields_a_message_offers(locale):
    """en.po's "#. fields:" line lets a translation choose among a message's fields (ru writes a
    marker's years 1939–43, English ’39–’43); a field it does not offer, or a field dropped from a
    message that offers no choice, is still named by file and key."""
    ru = locale / "ru.po"
    assert missing_translations("ru") == []
    edit(ru, 'msgstr "{first}–{last_short}"', 'msgstr "{first}–{rule}"')
    edit(ru, 'msgstr "RR{range}"', 'msgstr "RR5"')
    problems = missing_translations("ru")
    assert [p.split(": ")[1] for p in problems] == ["counter.crew.pistol.range", "counter.years.span"], problems
    assert "any of ['first', 'first_short', 'last', 'last_short']" in problems[1]


@pytest.mark.skipif(not shutil.which("msgfmt") and not CI, reason="msgfmt (gettext) not installed")
@pytest.mark.parametrize("lang", ("en", *EDITIONS))
def test_msgfmt_check_passes_with_nothing_untranslated_or_fuzzy(lang):
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, str(LOCALE / f"{lang}.po")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "untranslated" not in done.stderr and "fuzzy" not in done.stderr, done.stderr
    with open(LOCALE / f"{lang}.po", "rb") as handle:
        count = sum(1 for m in read_po(handle) if m.id)
    assert f"{count} translated messages" in done.stderr


@pytest.mark.parametrize("text", ["Bogen {n.__class__}", "Bogen {n!r}", "Bogen {0}", "Bogen {x}", "Bogen {n",
                                  "Bogen {n:>999999999}", "Bogen {n:{n}}", "Bogen {n[0]}", "Bogen {}"])
def test_a_hostile_catalogue_field_is_one_line_naming_file_and_key(text: str) -> None:
    words = Words("de", {"counters.outline.front": text})
    with pytest.raises(DataError) as caught:
        words("counters.outline.front", n=1)
    assert "de.po: counters.outline.front" in str(caught.value)


def test_the_catalogues_own_format_specs_still_work_in_the_languages_convention() -> None:
    words = Words("de", {"k": "{size:,.1f} mm, {n}"})
    assert words("k", size=1234.56, n=3) == "1.234,6 mm, 3"       # German: point groups, comma decimals
    assert Words("en", {"k": "{size:,.1f} mm, {n}"})("k", size=1234.56, n=3) == "1,234.6 mm, 3"


# ---- print checks, as English passes them ---------------------------------------------------------

@pytest.mark.parametrize("lang", PRINTED)
def test_the_aid_is_two_pages_on_both_papers_at_the_english_type_sizes(lang, kit_files):
    from pdfpage import pages_of
    english = kit_files
    for paper in ("a4", "letter"):
        name = f"player-aid-{paper}.pdf"
        ours_pdf = aid_edition(lang, paper)[name]       # the kit's aid, made alone
        assert len(PdfReader(io.BytesIO(ours_pdf)).pages) == 2, (lang, paper)

        def sizes(content):
            return Counter(round(ch["size"], 2) for page in pages_of(content) for ch in page.chars)
        ours, theirs = sizes(ours_pdf), sizes(english[name])
        assert ours.most_common(1)[0][0] == theirs.most_common(1)[0][0], (lang, paper)    # body size
        assert min(ours) == min(theirs) and max(ours) == max(theirs), (lang, paper)


@pytest.mark.parametrize("lang", ("en", *EDITIONS))
def test_the_longest_footer_keeps_clear_of_the_narrowest_papers_sides(lang):
    """A --label of its most characters, each a W (the widest letter), the longest part name and
    page numbers of five digits (a million pre-rolled rows): the footer line still stays EDGE_MM
    clear of both sides of the narrower paper."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.cli.argtypes import MAX_LABEL
    from generator.layout.paper import PAPERS
    from generator.make.pipeline import context
    from generator.render.pdf.canvas import EDGE_MM, edition_faces, footer_text
    ctx = context(shipped_kit(), BuildOptions(lang=lang, label="W" * MAX_LABEL))
    paper = min(PAPERS.values(), key=lambda p: p.width)
    room = paper.width - 2 * EDGE_MM * MM
    font = edition_faces(lang).body
    widest = max(stringWidth(footer_text(ctx, paper, 88888, 88888, f"page.footer.part.{part}"), font, 7)
                 for part in ("aid", "prerolled", "counters"))
    assert widest <= room, (lang, round(widest), round(room))


@pytest.mark.parametrize("lang", PRINTED)
def test_the_kits_bookmarks_name_each_part_in_the_editions_language(lang):
    from generator.content.words import catalogue_file
    with open(catalogue_file(lang), "rb") as handle:
        catalogue = {m.id: m.string for m in read_po(handle) if m.id}
    for paper in EDITION_PAPERS:
        reader = PdfReader(io.BytesIO(edition(lang)[f"kit-{paper}.pdf"]))
        top = [item.title for item in reader.outline if not isinstance(item, list)]
        # (a no-break space the language's typesetting sets is a space: "wylosowane z\u00a0góry")
        assert [" ".join(title.split()) for title in top] == \
            [" ".join(catalogue[f"kit.part.{part}"].split()) for part in ("aid", "prerolled", "counters")], \
            (lang, paper)


@pytest.mark.parametrize("lang", PRINTED)
def test_every_font_is_embedded_plex_and_no_standard_14(lang):
    for name, content in edition(lang).items():
        if not name.endswith(".pdf"):
            continue
        for page in PdfReader(io.BytesIO(content)).pages:
            for ref in page["/Resources"].get("/Font", {}).values():     # the kit's blank pages have none
                font = ref.get_object()
                assert not any(std in str(font["/BaseFont"]) for std in STANDARD_14), (lang, name)
                assert "IBMPlexSans" in str(font["/BaseFont"]), (lang, name, font["/BaseFont"])
                if font["/Subtype"] == "/Type0":
                    font = font["/DescendantFonts"][0].get_object()
                assert "/FontFile2" in font["/FontDescriptor"], (lang, name, font["/BaseFont"])


RGB = re.compile(rb"(?<![\d.])(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(rg|RG)\b")


@pytest.mark.parametrize("lang", PRINTED)
def test_no_rgb_black_or_grey_and_nothing_within_5_mm_of_an_edge(lang):
    from pdfpage import pages_of
    from test_counters_print import content_streams
    files = edition(lang)
    # Where an edition's words differ: both aid pages, the calibration page and first sheet of
    # counters, the first page of tables and legend (English's test reads every page of each).
    for name, pages in (("player-aid-a4.pdf", 2), (f"prerolled-{EDITION_PAPERS[-1]}.pdf", 1), ("counters-a4.pdf", 4)):
        greys = [m.group(0) for stream in content_streams(files[name]) for m in RGB.finditer(stream)
                 if len({float(v) for v in m.groups()[:3]}) == 1 and float(m.group(1)) < 1]
        assert not greys, (lang, name, greys[:5])
        for n, page in enumerate(pages_of(files[name])[:pages], 1):
            edge = 5 * MM - 0.01
            for obj in page.chars + page.rects + page.lines:
                assert (obj["x0"] >= edge and obj["x1"] <= page.width - edge and obj["top"] >= edge
                        and obj["bottom"] <= page.height - edge), (lang, name, n, obj.get("text"))


@pytest.mark.parametrize("lang", PRINTED)
def test_a_cut_1_mm_off_lands_in_the_counters_own_colour_at_5_8_in(lang):
    """The narrowest named size, where the longest words are likeliest to cross a cut line."""
    from test_counters_pdf import counter_rects, pages_of
    from test_counters_print import SIZES, close, image, px, sheet_pages
    pdf = shipped_build(parts=("counters",), papers=("a4",), counter_mm=SIZES["5/8in"], lang=lang)["counters-a4.pdf"]
    pages = pages_of(pdf)
    for index in sheet_pages(pdf):
        img, page = image(pdf, index), pages[index]
        rects = counter_rects(page, SIZES["5/8in"])
        assert rects
        for r in rects:
            x, y = (r["x0"] + r["x1"]) / 2, (r["top"] + r["bottom"]) / 2
            for (ox, oy), (ix, iy) in (((x, r["top"] - MM), (x, r["top"] + MM / 2)),
                                       ((r["x0"] - MM, y), (r["x0"] + MM / 2, y))):
                assert close(px(img, ox, oy), px(img, ix, iy)), (lang, index, r["x0"], r["top"])


# 5/8 in is built by the cut test above; here every edition at a larger size in README's run,
# every edition at both under BAILOUT_SLOW_TESTS=1.
@pytest.mark.parametrize("size,lang", matrix(["3/4in", "1in"], EDITIONS))
def test_counter_words_fit_every_named_size(lang, size):
    from generator.options import NAMED_SIZES
    from generator.units import MM_PER_INCH
    files = shipped_build(parts=("counters",), papers=("a4",), counter_mm=NAMED_SIZES[size] * MM_PER_INCH, lang=lang)
    assert files["counters-a4.pdf"].pages >= 3


@pytest.mark.parametrize("lang", PRINTED)
def test_the_web_aid_says_its_language(lang):
    assert f'<html lang="{lang}">'.encode() in edition(lang)["player-aid.html"]


# ---- the same figures -----------------------------------------------------------------------------

FRACTION = re.compile(r"(?<![\d/])\d+/\d+(?![\d/])")
PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s?%")


@functools.cache
def model_numbers():
    """The n/m tokens in weapon models' names (Mosin M1891/30; Polish "PPD wz. 1934/38"), read from
    the nationality files and every glossary's [models]: a model's name, never a chance."""
    names = [row["model"] for path in (DATA / "nationalities").glob("*.toml")
             for kind, rows in tomllib.loads(path.read_text(encoding="utf-8")).items() if kind in ("rifle", "smg")
             for row in rows]
    for path in (DATA / "glossary").glob("*.toml"):
        for value in tomllib.loads(path.read_text(encoding="utf-8")).get("models", {}).values():
            names += list(value.values()) if isinstance(value, dict) else [value]
    return frozenset(number for name in names for number in FRACTION.findall(name))


def figures(text):
    """(fractions, percentages as Decimals), each a Counter, read from printed text; the numbers
    in weapon models' names are left out."""
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    percents = Counter(Decimal(p.replace(",", ".")) for p in PERCENT.findall(text))
    return Counter(f for f in FRACTION.findall(text) if f not in model_numbers()), percents


@pytest.mark.parametrize("lang", PRINTED)
def test_every_fraction_and_percentage_equals_the_english(lang, kit_files):
    english, files = kit_files, {**edition(lang), **aid_edition(lang, "letter")}
    for name in ("player-aid-a4.pdf", "player-aid-letter.pdf", "counters-a4.pdf"):
        ours, theirs = figures(pdf_text(files[name])), figures(pdf_text(english[name]))
        assert ours == theirs, (lang, name)
        assert "aid" not in name or sum(theirs[0].values()) > 30
    ours, theirs = figures(html_text(files["player-aid.html"])), figures(html_text(english["player-aid.html"]))
    assert ours == theirs and sum(theirs[1].values()) > 30, lang


@pytest.mark.parametrize("lang", EDITIONS)
def test_percentages_follow_the_readers_convention(lang):
    """The locale's decimal sign and, where it sets one, a space before the sign: '33,3 %' in
    German, '33,3%' in Italian and Polish, '33.3%' in Japanese (CLDR, read from Babel's data)."""
    from babel import Locale
    locale = Locale.parse(lang)
    sign = locale.number_symbols["latn"]["decimal"]
    spaced = re.search(r"[\s\u00a0\u202f]%", locale.percent_formats[None].pattern) is not None
    text = pdf_text(aid_a4(lang)).replace("\u00a0", " ").replace("\u202f", " ")
    shown = re.findall(r"\d+[.,]\d+\s?%", text)
    assert shown and all(sign in p for p in shown), (lang, shown[:5])
    assert all(p.endswith(" %") == spaced for p in shown), (lang, shown[:5])


# ---- no English left --------------------------------------------------------------------------------

# Common English words no edition's own language uses as a word of its own.
ENGLISH = {"the", "and", "with", "when", "each", "every", "from", "only", "this", "that", "which", "print",
           "sheet", "wounded", "killed", "unhurt", "rifle", "crew", "after", "before", "until", "must",
           "will", "would", "here", "there", "what", "where", "your", "their", "they", "them", "than", "then",
           "into", "over", "under", "one", "two", "all", "any", "but", "not", "have", "has", "more", "less",
           "both", "rows", "row", "man", "men", "draw", "draws", "card", "cards", "column", "reads", "chance"}
# The English terms each edition keeps on purpose beside its own (the glossary's rule): a player
# matches them to the English cards.  "man" is German ("one"); "pistol" never appears alone.
KEPT = {"de": {"man"}, "fr": set(), "it": set(), "es": set(), "pl": set(), "ru": set(), "ja": set()}
KEPT_TERMS = {"hero", "pinned", "unhurt", "wounded", "killed", "pistol", "rifle", "smg", "range", "chit"}


# The icons' licence credit, which every edition quotes in English: "Icons made by Lorc and Skoll".
LICENCE_CREDIT = re.compile(r"Icons\s+made\s+by\s+[^\u201d\u201c\u00bb\u00ab\"]+")


def english_words(text, lang):
    words = re.findall(r"[^\W\d_]+", LICENCE_CREDIT.sub("", text))        # whole words: "début" holds no "but"
    kept = KEPT[lang] | KEPT_TERMS
    return sorted({w for w in words if w.lower() in ENGLISH and w.lower() not in kept})


@pytest.mark.parametrize("lang", PRINTED)
def test_no_common_english_word_in_the_counters_tables_and_csv(lang):
    files = edition(lang)
    for name in ("counters-a4.pdf", "prerolled-a4.pdf"):
        assert english_words(pdf_text(files[name]), lang) == [], (lang, name)
    header = files["prerolled.csv"].decode().splitlines()[0]
    assert english_words(header, lang) == [], (lang, header)


@pytest.mark.parametrize("lang", PRINTED)
def test_no_common_english_word_in_the_aid(lang):
    """But the rule text's own words the aid quotes so a reader finds them in the English rules:
    the phrases the English catalogue's note quotes (the section "AFV Crew Members") and those the
    English interpretation readings quote from the rule ("any single", "for any individual")."""
    from generator.content.words import load_words
    quoted = re.findall(r"\u201c([^\u201d{}]+)\u201d", load_words()("aid.note.unnumbered"))
    readings = [text for note in shipped_kit().rules.interpretations for _, text in note.readings]
    quoted += [phrase for text in readings for phrase in re.findall(r"\u201c([^\u201d]+)\u201d", text)]
    assert quoted

    def unquoted(text):
        for phrase in quoted:       # a line may break inside the phrase
            text = re.sub(r"\s+".join(map(re.escape, phrase.split())), "", text)
        return text
    files = edition(lang)
    assert english_words(unquoted(pdf_text(files["player-aid-a4.pdf"])), lang) == []
    assert english_words(unquoted(html_text(files["player-aid.html"])), lang) == []


def test_an_english_catalogue_would_fail_the_english_word_check(kit_files):
    """The check can fail: the English counters are full of the words it looks for."""
    assert len(english_words(pdf_text(kit_files["counters-a4.pdf"]), "de")) > 10


def test_build_lang_records_the_language_in_the_manifest(tmp_path):
    status, _, err = run_cli("build", "--lang", "fr", "--only", "counters", "--paper", "a4", "--out", tmp_path,
                             "--quiet")
    assert status == 0, err
    assert "\nlanguage fr\n" in (tmp_path / "MANIFEST.txt").read_text()


def test_build_refuses_a_language_without_a_catalogue(tmp_path):
    status, _, err = run_cli("build", "--lang", "xx", "--out", tmp_path, "--quiet")
    assert status == 2 and "xx" in err and "de" in err


# ---- a release of several editions ------------------------------------------------------------------

def test_language_named_files_and_their_links():
    from generator.make.release import language_named
    files = {"kit-a4.pdf": b"%PDF", "player-aid.html": b"<html>", "prerolled.csv": b"row",
             "index.html": b'<a href="kit-a4.pdf">kit-a4.pdf</a> <a href="player-aid.html">',
             "README.txt": b"kit-a4.pdf",
             "faces/german-crew-front.png": b"png", "thumbs/kit-a4.png": b"png", "MANIFEST.txt": b"m"}
    out = language_named(files, "de")
    assert set(out) == {"kit-a4-de.pdf", "player-aid-de.html", "prerolled-de.csv", "index.html", "README.txt",
                        "faces/german-crew-front.png", "thumbs/kit-a4.png", "MANIFEST.txt"}
    assert out["index.html"] == b'<a href="kit-a4-de.pdf">kit-a4-de.pdf</a> <a href="player-aid-de.html">'
    assert out["README.txt"] == b"kit-a4-de.pdf"


def test_language_named_renames_every_declared_output():
    from generator.layout.paper import PAPERS
    from generator.make.outputs import all_file_names
    from generator.make.release import language_named
    declared = all_file_names(PAPERS.values())
    own = ["index.html", "README.txt", "MANIFEST.txt", "thumbs/kit-a4.png", "faces/german-crew-front.png"]
    out = language_named(dict.fromkeys([*declared, *own], b"x"), "fr")
    stem = {name: name.rsplit(".", 1) for name in declared}
    assert set(out) == {f"{stem[n][0]}-fr.{stem[n][1]}" for n in declared} | set(own)


def test_release_lang_puts_each_edition_in_its_folder_with_an_index(two_editions):
    import zipfile
    with zipfile.ZipFile(two_editions) as archive:
        names = set(archive.namelist())
        root = sorted(names)[0].split("/")[0] + "/"
        for lang in ("en", "de"):
            assert {f"{root}{lang}/kit-a4-{lang}.pdf", f"{root}{lang}/player-aid-{lang}.html",
                    f"{root}{lang}/prerolled-{lang}.csv", f"{root}{lang}/index.html"} <= names
            page = archive.read(f"{root}{lang}/index.html").decode()
            assert f'<html lang="{lang}">' in page
            links = set(re.findall(r'(?:href|src)="([^"#]+)"', page))
            # its own files, and the other editions' pages by the language switcher
            other = "de" if lang == "en" else "en"
            assert f"../{other}/index.html" in links, lang
            assert links and all(f"{root}{lang}/{link}".replace(f"{lang}/../", "") in names for link in links), lang
        top = archive.read(f"{root}index.html").decode()
        assert 'href="en/index.html"' in top and 'href="de/index.html"' in top
        # styled as each edition's own page, every image it shows in the zip
        assert "<style>" in top and 'class="languages"' in top
        assert all(f"{root}{src}" in names for src in re.findall(r'src="([^"]+)"', top))
        assert "\nlanguage en,de\n" in archive.read(f"{root}MANIFEST.txt").decode()


def test_the_words_format_a_third_in_each_languages_convention():
    """'33,3 %' in German, French, Spanish and Russian, '33,3%' in Italian and Polish (CLDR: no
    space), '33.3%' in Japanese; exact fractions untouched."""
    from fractions import Fraction

    from generator.content.words import Words
    shown = {lang: Words(lang, {}).percent(Fraction(1, 3)).replace("\u00a0", " ") for lang in ("en", *EDITIONS)}
    assert shown == {"en": "33.3%", "de": "33,3 %", "fr": "33,3 %", "it": "33,3%", "es": "33,3 %", "pl": "33,3%",
                     "ru": "33,3 %", "ja": "33.3%"}
    assert Words("de", {}).percent(Fraction(1, 7776)).replace("\u00a0", " ") == "0,013 %"   # two figures, as English
    assert Words("xx", {}).percent(Fraction(1, 3)) == "33.3%"     # no such locale: the kit's own figures


def test_every_face_images_alt_text_is_in_the_editions_words(two_editions):
    # each face image is named by its nationality (the glossary's name), its kind (counter.kind.*)
    # and its side (calibration.key.front/back), as the German catalogue and glossary give them
    import html
    import zipfile
    with open(catalogue_file("de"), "rb") as f:
        german = {m.id: m.string for m in read_po(f, locale="de") if m.id}
    names = [n["name"] for n in tomllib.loads((DATA / "glossary" / "de.toml").read_text(encoding="utf-8"))
             ["nationalities"].values()]
    kinds = [german[f"counter.kind.{kind}"] for kind in ("crew", "rifle", "smg", "marker")]
    sides = [german[f"calibration.key.{side}"].split("{kind}") for side in ("front", "back")]
    with zipfile.ZipFile(two_editions) as archive:
        root = sorted(archive.namelist())[0].split("/")[0]
        page = archive.read(f"{root}/de/index.html").decode()
    alts = [html.unescape(a) for a in re.findall(r'<img src="faces/[^"]+" [^>]*alt="([^"]*)"', page)]
    assert alts
    for alt in alts:
        assert any(alt.startswith(f"{name}: ") for name in names), alt
        assert any(kind in alt for kind in kinds), alt
        assert any(alt.endswith(after) and before in alt for before, after in sides), alt
