"""The look a player judges the kit by, measured from the PDFs (docs/printing.md, the kit's print rules).

- Nothing outside its box: every glyph's outline inside the page's 5 mm margin (a print shop's
  TrimBox less 5 mm), a counter's glyphs inside its cut, a pre-rolled cell's between its column
  rules, in every edition, print profile, paper and counter size (tests/inkbox.py measures).
  README's command measures the shared builds (English and German, both papers), German fold
  sheets and Spanish shop counters at 5/8 in; CI (BAILOUT_SLOW_TESTS=1) the whole matrix.
- Counter type: never under 7 pt on a 3/4 in counter or larger, nor 6 pt at 5/8 in, reversed
  text included (tests/test_safe_zones.py: every edition, profile and size, from the layout).
- Players' pages speak to players: no command-line syntax on the aid, the tables or the counters.
- The pre-rolled tables: 60 rows or more on an A4 page after the first, 55 on Letter.
- Counter sheets are vectors only; a print shop's counters open with no calibration page; no
  kit has a page with nothing on it.
"""

import functools
import io
import re
import zipfile
from fractions import Fraction

import pytest
from pypdf import PdfReader

import inkbox
from conftest import DATA, SLOW, page_texts, shipped_kit
from generator.content.words import available_languages, load_words
from generator.make.pipeline import render_all
from generator.options import BuildOptions
from pdfpage import pages_of

MM = 72 / 25.4
INCH_MM = Fraction(254, 10)
SIZES = {"5/8in": Fraction(5, 8) * INCH_MM, "3/4in": Fraction(3, 4) * INCH_MM, "1in": INCH_MM}
PROFILES = ("duplex", "fold", "drivethru", "shop")
PARTS = ("player-aid", "prerolled", "counters")
# Command-line syntax a player cannot use: an option (--back-offset) or the kit's command.
COMMAND = re.compile(r"(?<![\w-])--[a-z]|\bbailout (?:build|release|diff|check|odds|crew|simulate|serve|init)\b")


@functools.lru_cache(maxsize=4)
def counters(lang, profile, size):
    """The counters of one edition, print profile and counter size, A4 alone."""
    return render_all(shipped_kit(), BuildOptions(lang=lang, print_profile=profile, counter_mm=SIZES[size],
                                               parts=("counters",), papers=("a4",)))["counters-a4.pdf"]


@functools.lru_cache(maxsize=2)
def kit(lang, profile):
    """Every part of one edition and profile, both papers."""
    return render_all(shipped_kit(), BuildOptions(lang=lang, print_profile=profile))


@pytest.fixture(scope="module")
def german(two_editions):
    """{file name: bytes} of the German edition of the session's release of two (kit-a4.pdf ...)."""
    with zipfile.ZipFile(two_editions) as archive:
        return {name.split("/de/", 1)[1].replace("-de.", "."): archive.read(name)
                for name in archive.namelist() if "/de/" in name and name.endswith(".pdf")}


def shared(kit_files, german):
    """(edition, files) the session already built: English and German, duplex, both papers."""
    return (("en", kit_files), ("de", german))


def _rules(pdf):
    """rules(page index) for inkbox.problems: the pre-rolled table's vertical column rules."""
    pages = pages_of(pdf)

    def rules(n):
        for line in pages[n].lines:
            if abs(line["x1"] - line["x0"]) < 0.01 and line["height"] > 20:
                yield line["x0"], pages[n].height - line["bottom"], pages[n].height - line["top"]
    return rules


def overflow(files, counter_mm=SIZES["3/4in"], name="", papers=("a4", "letter")):
    """Every glyph outside its box in the player PDFs of a build (inkbox.problems)."""
    found = []
    for part in PARTS:
        for paper in papers:
            pdf = files.get(f"{part}-{paper}.pdf")
            if pdf is None:
                continue
            found += inkbox.problems(pdf, counter_pt=float(counter_mm) * MM if part == "counters" else None,
                                     rules=_rules(pdf) if part == "prerolled" else None, name=f"{name} {part}-{paper}")
    return found


# ---- nothing outside its box ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
def test_nothing_outside_its_box_in_the_shared_builds(kit_files, german, lang):
    """English on both papers, German on A4 (on Letter too in CI)."""
    files = dict(shared(kit_files, german))[lang]
    found = overflow(files, name=lang, papers=("a4", "letter") if lang == "en" or SLOW else ("a4",))
    assert not found, "\n".join(found[:10])


@pytest.mark.parametrize("lang,profile,size", [("de", "fold", "3/4in"), ("es", "drivethru", "5/8in")])
def test_nothing_outside_its_box_on_the_hardest_sheets(lang, profile, size):
    """German fold sheets had the longest heading; Spanish the longest words on the smallest counter."""
    found = inkbox.problems(counters(lang, profile, size), counter_pt=float(SIZES[size]) * MM,
                            name=f"{lang} {profile} {size}")
    assert not found, "\n".join(found[:10])


# a shop that die-cuts (shop) holds its faces inside its safe zone at 1 in alone: smaller is refused
MATRIX = [(lang, profile, size) for lang in available_languages() for profile in PROFILES for size in SIZES
          if profile != "shop" or size == "1in"] if SLOW else []


@pytest.mark.skipif(not SLOW, reason="the whole matrix is CI's (BAILOUT_SLOW_TESTS=1): seconds a build")
@pytest.mark.parametrize("lang,profile,size", MATRIX)
def test_nothing_outside_its_box_in_any_edition_profile_or_size(lang, profile, size):
    files = kit(lang, profile) if size == "3/4in" else {"counters-a4.pdf": counters(lang, profile, size)}
    found = overflow(files, SIZES[size], name=f"{lang} {profile} {size}")
    assert not found, "\n".join(found[:10])


def test_the_measure_sees_a_glyph_outside_its_box():
    """The measure itself: text run past a page's margin and past a counter's cut is found."""
    from reportlab.pdfgen import canvas
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(200, 200))
    c.rect(50, 50, 54, 54, fill=1, stroke=0)        # a 3/4 in counter's fill
    c.drawString(60, 60, "fits")
    c.drawString(90, 80, "runs over its cut")
    c.drawString(2, 100, "at the edge")
    c.save()
    found = inkbox.problems(buffer.getvalue(), counter_pt=54)
    assert any("outside its counter's cut" in p for p in found)
    assert any("outside the page's 5 mm margin" in p for p in found)
    assert not any("'f'" in p for p in found)       # "fits" stays inside


# ---- counter type ------------------------------------------------------------------------------

@pytest.mark.parametrize("size,floor", [("3/4in", 7), ("5/8in", 6)])
def test_no_counter_text_under_the_floor_reversed_text_included(kit_files, size, floor):
    pdf = kit_files["counters-a4.pdf"] if size == "3/4in" else counters("es", "drivethru", size)
    sizes = inkbox.sizes(pdf, float(SIZES[size]) * MM)
    assert len(sizes) > 2000            # every face's words, on the fronts and the reversed backs
    assert min(s for s, _ in sizes) >= floor - 0.01, sorted(sizes)[:5]


def test_a_counter_names_a_weapon_by_its_short_form_and_the_aid_by_the_whole(kit_files):
    """One naming rule (docs/editing.md): a counter prints the short form the data gives (the
    designation alone), the aid the whole name; a model with none prints whole on both."""
    import tomllib
    british = tomllib.loads((DATA / "nationalities" / "british.toml").read_text())
    counters = " ".join(page_texts(kit_files["counters-a4.pdf"])[2:])
    aid = " ".join(" ".join(page_texts(kit_files["player-aid-a4.pdf"])).split())
    spans = british["rifle"] + british["smg"]
    assert any("short" in span for span in spans) and any("short" not in span for span in spans)
    for span in spans:
        assert span["model"] in aid
        if "short" in span:
            assert span["short"] in counters and span["model"] not in counters, span
        else:
            assert span["model"] in counters, span


# ---- players' words --------------------------------------------------------------------------------

def test_no_command_line_text_on_any_players_page(kit_files, german):
    for lang, files in shared(kit_files, german):
        for part in PARTS:
            for n, text in enumerate(page_texts(files[f"{part}-a4.pdf"]), 1):
                assert not COMMAND.search(text), (lang, part, n, COMMAND.search(text)[0])


PLAYERS = ("counter.", "counters.", "calibration.", "fold.", "cover.", "colophon.", "prerolled.", "page.", "aid.")


@pytest.mark.parametrize("lang", available_languages())
def test_no_command_line_text_in_any_editions_players_words(lang):
    """Every edition's words for the aid, the tables and the counters, and its aid's sentences."""
    from generator.content.aid_files import AID_DOMAIN
    from generator.content.words import LOCALE
    words = load_words(lang)
    said = [(key, text) for key, text in words.messages.items() if key.startswith(PLAYERS)]
    assert len(said) > 150
    if lang != "en":
        sentences = (LOCALE / lang / f"{AID_DOMAIN}.po").read_text(encoding="utf-8")
        said += [("aid.po", m) for m in re.findall(r'^msgstr "(.*)"$', sentences, re.M)]
    else:
        said += [("aid.md.j2", (DATA.parent / "templates" / "aid.md.j2").read_text())]
    bad = [(key, COMMAND.search(text)[0]) for key, text in said if COMMAND.search(text)]
    assert not bad, bad


# ---- the tables ----------------------------------------------------------------------------------

@pytest.mark.parametrize("paper,most", [("a4", 60), ("letter", 55)])
def test_a_tables_later_page_holds_rows_only(kit_files, paper, most):
    pages = page_texts(kit_files[f"prerolled-{paper}.pdf"])
    words = load_words()
    rows = [len(re.findall(r"^\s*\d+\s", text, re.M)) for text in pages]
    assert len(pages) >= 3 and all(n >= most for n in rows[1:-1]), rows
    legend = words("prerolled.legend.use.key")
    assert [legend in re.findall(r"^\w+", text, re.M) for text in pages] == [True] + [False] * (len(pages) - 1)


# ---- vectors, profiles, pages --------------------------------------------------------------------

def _images(pdf):
    """The raster images a PDF's pages use, their forms' included."""
    found = []

    def walk(resources):
        for ref in (resources or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found.append(obj)
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))
    for page in PdfReader(io.BytesIO(pdf)).pages:
        walk(page.get("/Resources"))
    return found


def test_counter_sheets_hold_no_raster_image(kit_files, german):
    for lang, files in shared(kit_files, german):
        for paper in ("a4", "letter"):
            assert not _images(files[f"counters-{paper}.pdf"]), (lang, paper)
    assert not _images(counters("de", "fold", "3/4in")) and not _images(counters("es", "drivethru", "5/8in"))


def test_the_shop_counters_carry_no_calibration_page():
    words = load_words("es")
    pages = page_texts(counters("es", "drivethru", "5/8in"))
    flat = [" ".join(text.split()) for text in pages]
    home = [words(key) for key in ("calibration.heading", "calibration.back.heading", "calibration.step.2")]
    assert not any(w in page for w in home for page in flat)
    assert words("cover.heading") in flat[0]
    # each cut sheet listed with its pages, and no home printer's duplex hint on any page
    assert words("cover.sheet", n=1, front=3, back=4) in flat[0]
    hint = words("counters.heading.front", n=1, sheets=2, page=2).split(": ", 1)[1]
    assert not any(hint in page for page in flat)
    # no cross to read a back offset by
    lines = [ln for page in pages_of(counters("es", "drivethru", "5/8in"))[:2] for ln in page.lines
             if ln["width"] > 20 * MM and ln["height"] < 0.01]
    assert not lines


def test_no_kit_page_is_left_unexplained(kit_files):
    for paper in ("a4", "letter"):
        for n, text in enumerate(page_texts(kit_files[f"kit-{paper}.pdf"]), 1):
            assert text.strip(), (paper, n)     # every page says something
    # a part with an odd page count is padded, on a duplex kit, by a page that says why it is blank
    from reportlab.pdfgen import canvas

    from generator.layout.paper import PAPERS
    from generator.make.pipeline import context
    from generator.render.pdf import kit_pdf
    paper = PAPERS["a4"]

    def one_page(text):
        buffer = io.BytesIO()
        c = canvas.Canvas(buffer, pagesize=(paper.width, paper.height), invariant=1)
        c.drawString(100, 100, text)
        c.save()
        return buffer.getvalue()
    ctx = context(shipped_kit(), BuildOptions(lang="fr", papers=("a4",)))
    blank = kit_pdf.blank_page(ctx, paper, "t", "s")
    merged = kit_pdf.merge([("a", one_page("a")), ("b", one_page("b"))], paper, "t", "s", kit_pdf.document_info(ctx),
                           blank=blank)
    assert [" ".join(t.split()) for t in page_texts(merged)] == ["a", load_words("fr")("page.blank"), "b"]
