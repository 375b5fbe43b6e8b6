"""Counter sheets measured from the PDFs themselves (pdfium through tests/pdfpage.py, pypdf).

Counters are found as rectangles about the counter's size; each must then be the stated size
within 0.01 mm, and each back's centre must sit at page width minus its front's centre (plus the
back offset).  Expected counts are read from the data files, not from the code under test; the
kit's words from the English catalogue.
"""

import io
import re
import tomllib
from fractions import Fraction

import pytest
from pypdf import PdfReader

from conftest import DATA, PRINTED_KIT, SLOW, TYPOGRAPHIC_APOSTROPHE, edit, kit_of, shipped_build
from generator.content.words import available_languages, load_words
from generator.errors import RenderError
from generator.make.pipeline import render_all
from generator.options import BuildOptions
from pdfpage import pages_of

MM = 72 / 25.4
TOL = 0.01 * MM                     # the brief's 0.01 mm, in points
INCH_MM = Fraction(254, 10)
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")
COUNTER_FILES = ["counters-a4.pdf", "counters-letter.pdf"]
WORDS = load_words()


def _top_word(key):
    return WORDS(key).split()[0]


# The top word of each front title -> the top word of the same counter's back.
BACK_TITLE = {_top_word(f"counter.{front}"): _top_word(f"counter.{back}") for front, back in (
    ("crew.front.title", "crew.back.title"), ("rifle.title", "rifle.title"), ("smg.title", "smg.title"),
    ("marker.title", "marker.title"))}


def expected_counts(sets):
    """Counters per build with --no-fill, from the data files: crew size x sets + weapon spans +
    a bailed-out AFV marker per set."""
    with open(DATA / "rules.toml", "rb") as handle:
        crew = tomllib.load(handle)["crew"]["size"]
    total = 0
    for path in sorted((DATA / "nationalities").glob("*.toml")):
        with open(path, "rb") as handle:
            nat = tomllib.load(handle)
        total += crew * sets + len(nat["rifle"]) + len(nat.get("smg", [])) + sets
    return total


def build(data=DATA, **options):
    options = {"parts": ("counters",), **options}
    if data == DATA:
        return shipped_build(**options)     # the shipped data renders once per option set in this process
    return render_all(kit_of(data), BuildOptions(**options))


@pytest.fixture(scope="module")
def default_build(kit_files):
    """Both papers' counters, from the session's default build (the same bytes as a counters-only build)."""
    return {name: kit_files[name] for name in COUNTER_FILES}


def counter_rects(page, size_mm):
    side = float(size_mm) * MM
    return [r for r in page.rects if abs(r["width"] - side) < 0.5 * MM and abs(r["height"] - side) < 0.5 * MM]


def centre(r):
    return (r["x0"] + r["x1"]) / 2, (r["top"] + r["bottom"]) / 2


def _pistol_note():
    """'RR5': the pistol's Relative Range (871.4), printed small under the crew's pistol."""
    with open(DATA / "rules.toml", "rb") as handle:
        return WORDS("counter.crew.pistol.range", range=tomllib.load(handle)['weapon']['pistol_relative_range'])


def first_words(page, rects):
    """{id(rect): the top word printed inside it (past the pistol's note and the no-Smoke letter
    under the emblem, on both crew faces)}, reading the page's words once."""
    skip = {_pistol_note(), WORDS("counter.no_smoke.letter")}
    words = sorted((w for w in page.words if w["text"] not in skip), key=lambda w: (w["top"], w["x0"]))
    found = {}
    for r in rects:
        inside = (w for w in words if r["x0"] < w["x0"] and w["x1"] < r["x1"]
                  and r["top"] < w["top"] and w["bottom"] < r["bottom"])
        found[id(r)] = next(inside, {"text": None})["text"]
    return found


def check_sheets(pdf_bytes, size_mm, offset=(0, 0), sets=2, titles=True, fill=True):
    """Every counter the stated size; every back mirrored onto its front.  Returns the count."""
    ox, oy = (float(v) * MM for v in offset)
    side = float(size_mm) * MM
    total, most = 0, 0
    pages = pages_of(pdf_bytes)
    assert len(pages) % 2 == 0 and len(pages) >= 4
    assert not counter_rects(pages[0], size_mm) and not counter_rects(pages[1], size_mm)
    for front, back in zip(pages[2::2], pages[3::2], strict=True):
        fronts, backs = counter_rects(front, size_mm), counter_rects(back, size_mm)
        assert fronts and len(fronts) == len(backs)
        for r in fronts + backs:
            assert abs(r["width"] - side) < TOL and abs(r["height"] - side) < TOL, r
            assert r["fill"]        # colour to the cut line: the whole cell is filled
        assert min(ch["size"] for ch in front.chars + back.chars) >= 5 - 1e-6
        unmatched = list(backs)
        front_words, back_words = (first_words(front, fronts), first_words(back, backs)) if titles else ({}, {})
        for f in fronts:
            fx, fy = centre(f)
            want = (front.width - fx + ox, fy - oy)     # the reader's y runs down the page
            match = min(unmatched, key=lambda b: abs(centre(b)[0] - want[0]) + abs(centre(b)[1] - want[1]))
            bx, by = centre(match)
            assert abs(bx - want[0]) < TOL and abs(by - want[1]) < TOL, (f, match)
            unmatched.remove(match)
            if titles:  # the back printed there is this counter's own back
                assert BACK_TITLE[front_words[id(f)]] == back_words[id(match)]
        total += len(fronts)
        most = max(most, len(fronts))
    if fill:    # every sheet full: the spare cells hold more crews and markers
        assert total == most * (len(pages) - 2) // 2 and total >= expected_counts(sets)
    else:
        assert total == expected_counts(sets)
    return total


# Letter at the default size in CI (BAILOUT_SLOW_TESTS=1); README's command reads Letter's sheets
# through the same check at 1 in (test_counter_sizes_from_the_command_line_values[1in-...-letter]).
@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.larger_budget)])
def test_every_counter_is_three_quarter_inch_and_its_back_mirrored(default_build, paper):
    check_sheets(default_build[f"counters-{paper}.pdf"], Fraction(3, 4) * INCH_MM)


# Reading a sheet's rectangles and words is most of this file's time: README's command measures
# each size on one paper (both papers between them, and the default size on both above), one set
# of counters and the sheets it fills (every face, half the sheets); CI (BAILOUT_SLOW_TESTS=1)
# every size on both, at the default two sets.
@pytest.mark.parametrize("size,mm_value,paper", [("5/8in", Fraction(5, 8) * INCH_MM, "a4"), ("1in", INCH_MM, "letter"),
                                                 ("16mm", Fraction(16), "a4")])
def test_counter_sizes_from_the_command_line_values(size, mm_value, paper):
    from generator.cli.argtypes import counter_size_mm
    assert counter_size_mm(size) == mm_value
    papers, sets = (("a4", "letter"), 2) if SLOW else ((paper,), 1)
    outputs = build(counter_mm=mm_value, papers=papers, sets=sets)
    for name in papers:
        check_sheets(outputs[f"counters-{name}.pdf"], mm_value, sets=sets)


def test_back_offset_moves_every_back_and_the_calibration_cross():
    offset = (Fraction(3, 2), Fraction(-1, 2))
    sets = 2 if SLOW else 1     # one set's sheets locally, as the counter sizes above
    outputs = build(back_offset_mm=offset, papers=("a4",), sets=sets)   # mirroring is paper-independent
    check_sheets(outputs["counters-a4.pdf"], Fraction(3, 4) * INCH_MM, offset, sets=sets)
    pages = pages_of(outputs["counters-a4.pdf"])
    text = pages[0].text + pages[1].text
    (fx, fy), (bx, by) = cross_centre(pages[0]), cross_centre(pages[1])
    width = pages[0].width
    # the offset said in the players' words, with this print's reading: no command-line syntax
    assert "1.5" in text and "--" not in text
    # the back's cross sits where the front's shows through, moved by the offset
    assert abs(bx - (width - fx + 1.5 * MM)) < TOL and abs(by - (fy + 0.5 * MM)) < TOL


def cross_centre(page):
    """Where the calibration cross's two long arms meet (the reader's coordinates, y down)."""
    arms = [ln for ln in page.lines if max(abs(ln["x1"] - ln["x0"]), abs(ln["bottom"] - ln["top"])) > 20 * MM
            and min(abs(ln["x1"] - ln["x0"]), abs(ln["bottom"] - ln["top"])) < 0.01]
    across = [ln for ln in arms if abs(ln["bottom"] - ln["top"]) < 0.01]
    down = [ln for ln in arms if abs(ln["x1"] - ln["x0"]) < 0.01]
    assert len(across) == 1 and len(down) == 1, arms
    return down[0]["x0"], across[0]["top"]


def bars(page):
    return sorted(r["width"] for r in bar_marks(page)[0])


# Letter's sheets in CI (BAILOUT_SLOW_TESTS=1): README's command finds both bars on every Letter
# page, graduated every centimetre to 10 and every half inch to 4, in
# test_every_bar_label_stands_a_millimetre_clear_of_the_bars_and_their_ticks[ru-papers1]
# (measuring the default build's Letter sheets' paths is most of this case's time).
@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.larger_budget)])
def test_every_page_has_a_100_mm_and_a_4_in_bar_labelled(default_build, paper):
    for page in pages_of(default_build[f"counters-{paper}.pdf"]):
        widths = bars(page)
        assert len(widths) == 2
        assert abs(widths[0] - 100 * MM) < TOL and abs(widths[1] - 4 * 72) < TOL
        assert page.text.count(WORDS("counters.bar.mm", length=100)) == 1
        assert page.text.count(WORDS("counters.bar.in", length=4)) == 1


def _gap(a, b):
    """The clear distance between two boxes (pdfplumber's keys), 0 where they touch or overlap."""
    return max(a["x0"] - b["x1"], b["x0"] - a["x1"], a["top"] - b["bottom"], b["top"] - a["bottom"], 0)


def bar_marks(page):
    """Each calibration bar's rect and its graduations (the hairlines standing on its top)."""
    rects = [r for r in page.rects
             if r["fill"] and abs(r["height"] - 1.5 * MM) < 0.1 * MM and r["width"] > 90 * MM]
    ticks = [ln for ln in page.lines for r in rects if abs(ln["x1"] - ln["x0"]) < 0.01
             and r["x0"] - TOL <= ln["x0"] <= r["x1"] + TOL and abs(ln["bottom"] - r["top"]) < TOL]
    return rects, ticks


# Every edition's labels (Russian's is the longest, 62 mm): README's command two of them, English
# on A4 and Russian on Letter, the narrower paper (every page of a sheet file read: most of this
# test's time); CI (BAILOUT_SLOW_TESTS=1) every edition on both papers.
@pytest.mark.parametrize("lang,papers", [(lang, ("a4", "letter")) for lang in available_languages()] if SLOW
                         else [("en", ("a4",)), ("ru", ("letter",))])
def test_every_bar_label_stands_a_millimetre_clear_of_the_bars_and_their_ticks(lang, papers):
    outputs = build(lang=lang, papers=papers)
    for paper in papers:
        for number, page in enumerate(pages_of(outputs[f"counters-{paper}.pdf"]), 1):
            rects, ticks = bar_marks(page)
            assert len(rects) == 2 and len(ticks) == 11 + 9, (lang, paper, number)   # every cm, every half inch
            near = [c for c in page.chars if min(_gap(c, r) for r in rects) < 10 * MM]
            assert near, (lang, paper, number)          # the labels are measured, not missed
            for char in near:
                gap = min(_gap(char, mark) for mark in rects + ticks)
                assert gap >= MM - TOL, (lang, paper, number, char["text"], gap / MM)
                assert char["x0"] >= 12 * MM - TOL and char["x1"] <= page.width - 12 * MM + TOL


# Letter's sheets in CI (BAILOUT_SLOW_TESTS=1): README's command holds Letter's sheets to 5 pt in
# check_sheets (test_counter_sizes_from_the_command_line_values[1in-mm_value1-letter]); the
# fonts embedded it reads on A4 (the same faces set the same words on both papers).
@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.larger_budget)])
def test_no_text_below_5_pt_and_every_font_embedded(default_build, paper):
    data = default_build[f"counters-{paper}.pdf"]
    sizes = [c["size"] for page in pages_of(data) for c in page.chars]
    assert sizes and min(sizes) >= 5 - 1e-6
    reader = PdfReader(io.BytesIO(data))
    fonts = {}
    for page in reader.pages:
        for name, ref in page["/Resources"]["/Font"].items():
            fonts[name] = ref.get_object()
    assert fonts
    for font in fonts.values():
        base = str(font["/BaseFont"])
        assert not any(s in base for s in STANDARD_14), base
        descriptor = font["/FontDescriptor"].get_object() if "/FontDescriptor" in font else \
            font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), base


def test_viewer_hints_bookmarks_and_same_bytes_twice(default_build):
    again = build()
    assert set(again) == {*COUNTER_FILES, "MANIFEST.txt"}
    assert {name: again[name] for name in COUNTER_FILES} == default_build
    reader = PdfReader(io.BytesIO(default_build["counters-letter.pdf"]))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"

    def titles(items):
        for item in items:
            if isinstance(item, list):
                yield from titles(item)
            else:
                yield item.title
    found = list(titles(reader.outline))
    assert found[:2] == [WORDS("calibration.outline.front"), WORDS("calibration.outline.back")]
    assert WORDS("counters.outline.front", n=1) in found and WORDS("counters.outline.back", n=1) in found
    for path in (DATA / "nationalities").glob("*.toml"):
        with open(path, "rb") as handle:
            assert tomllib.load(handle)["name"] in found


def test_manifest_on_the_sheet_matches_the_data(default_build):
    text = pages_of(default_build["counters-a4.pdf"])[0].text
    assert WORDS("calibration.manifest.heading") in text
    german = next(line for line in text.splitlines() if line.startswith("German "))
    assert "German" in german


def test_no_fill_prints_the_sets_alone_and_the_manifest_says_so():
    outputs = build(fill=False, papers=("a4",))
    check_sheets(outputs["counters-a4.pdf"], Fraction(3, 4) * INCH_MM, fill=False)
    text = pages_of(outputs["counters-a4.pdf"])[0].text
    german = next(line for line in text.splitlines() if line.startswith("German "))
    # crew 2 sets x 5, Kar98k, MP 38 and MP 40, one bailed-out AFV marker per set
    assert german.split()[1:] == ["10", "1", "2", "2", "15"]
    flat = " ".join(text.split())
    with open(DATA / "rules.toml", "rb") as handle:
        size = tomllib.load(handle)["crew"]["size"]
    sets = WORDS.count("calibration.manifest.set_count", 2)
    assert WORDS.count("calibration.manifest.sets", size, sets=sets) in flat
    assert WORDS("calibration.manifest.fill") not in flat


def test_manifest_says_what_prints_and_what_the_faces_mean(default_build):
    # The table counts the sets and the extra sets that fill the last sheet; weapon markers come
    # one per model and span.  What a face means is the counter key's, said once here: 871.4 "1 FP
    # at Relative Range 5", 871.3 "rule 33 (with the exception of rule 33.11)", 871 "-1 TEM" as a
    # Wall and "once the Crew Members move to another range chit the AFV is removed from play".
    # the English typographic apostrophe the key prints, read as the catalogue's straight one
    flat = " ".join(pages_of(default_build["counters-a4.pdf"])[0].text.replace(TYPOGRAPHIC_APOSTROPHE, "'").split())
    with open(DATA / "rules.toml", "rb") as handle:
        rules = tomllib.load(handle)
    w, after, cc, fate = rules["weapon"], rules["after"], rules["close_combat"], rules["fate"]
    sets = WORDS.count("calibration.manifest.set_count", 2)
    assert WORDS.count("calibration.manifest.sets", rules["crew"]["size"], sets=sets) in flat
    assert WORDS("calibration.manifest.fill") in flat and WORDS("calibration.manifest.weapons") in flat
    assert WORDS("counter.key.heading") in flat
    minus = f"\u2212{-cc['ccv_modifier']}"
    said = [
        WORDS("counter.key.crew", front=WORDS("counter.crew.front.title"), back=WORDS("counter.crew.back.title"),
              fate=fate["rule"], rule=fate["wounded_rule"], but=fate["wounded_except"]),
        WORDS("counter.key.pistol", reach=WORDS("counter.crew.pistol.range", range=w["pistol_relative_range"]),
              fp=w["pistol_fp"], range=w["pistol_relative_range"], rule=w["pistol_rule"],
              plus=f"+{cc['pistol_only_vs_unarmed']}", ccv=minus, cc_rule=cc["rule"]),
        WORDS("counter.key.ccv.no_smoke", ccv=minus, unit=WORDS("counter.crew.ccv.unit"), rule=cc["rule"],
              letter=WORDS("counter.no_smoke.letter"), weapon_rule=w["rule"]),
        WORDS("counter.key.marker", label=WORDS("counter.marker.title"), tem=f"\u2212{-after['wreck_tem']}",
              unit=WORDS("counter.marker.unit"), terrain=after["wreck_terrain"], rule=after["rule"]),
    ]
    for sentence in said:
        assert sentence in flat, sentence
    assert fate["wounded_rule"] == "33" and fate["wounded_except"] == "33.11" and after["wreck_terrain"] == "Wall"
    assert "\u2013" + str(w["pistol_relative_range"]) not in flat and "Ordnance out" not in flat
    assert "pinned" not in flat.lower() and "one per set" not in flat


def test_bw_prints_outlines_only():
    pdf = shipped_build(bw=True, parts=PRINTED_KIT)["counters-a4.pdf"]       # the --bw kit test_counters_print reads
    page = pages_of(pdf)[2]
    rects = counter_rects(page, Fraction(3, 4) * INCH_MM)
    assert rects
    for r in rects:
        assert r["stroke"] and r["fill_rgb"] == (255, 255, 255)
    on_counters = [c for c in page.chars if any(r["x0"] < c["x0"] < r["x1"] and r["top"] < c["top"] < r["bottom"]
                                                for r in rects)]
    assert on_counters
    # nothing but white cells and K greys (the emblems), text included: no colour at all.  Read
    # from the operators (pdfium paints CMYK K as a slightly warm RGB, so its colours cannot say):
    # every colour the page and each face it places sets is DeviceGray or CMYK K only.
    operators = colour_operators(pdf, 2)
    assert operators and all(op in (b"g", b"G") or (op in (b"k", b"K") and [float(v) for v in values[:3]] == [0] * 3)
                             for op, values in operators), sorted(set(operators))[:5]


COLOUR = re.compile(rb"((?:-?[\d.]+\s+){1,4})(k|K|rg|RG|g|G|sc|scn|SC|SCN)\b|/\w+\s+(cs|CS)\b")


def colour_operators(pdf, index):
    """[(operator, operands)] of every colour the page sets, in its content and its form XObjects."""
    page = PdfReader(io.BytesIO(pdf)).pages[index]
    streams = [page.get_contents().get_data()]
    streams += [x.get_object().get_data() for x in page["/Resources"].get("/XObject", {}).values()]
    return [(m.group(2) or m.group(3), tuple((m.group(1) or b"").split())) for stream in streams
            for m in COLOUR.finditer(stream)]


def test_odd_names_print_and_impossible_ones_fail_cleanly(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    edit(german, 'name = "German"', 'name = "Ger<man> & Co"')
    outputs = build(data_copy)
    assert "Ger<man> & Co" in pages_of(outputs["counters-a4.pdf"])[0].text
    # the name prints in the manifest and headings only (the emblem stands for it on the
    # counters): a runaway name is cut short there, never run off the page
    edit(german, 'name = "Ger<man> & Co"', f'name = "{"G" * 100}"')      # the most the data takes
    outputs = build(data_copy, papers=("a4",))
    assert "GGGG\u2026" in pages_of(outputs["counters-a4.pdf"])[0].text


def test_long_model_name_is_named_in_the_error(data_copy):
    edit(data_copy / "nationalities" / "german.toml", 'model = "MP 40"', f'model = "{"M" * 10_000}"')
    with pytest.raises(RenderError) as error:
        build(data_copy)
    assert "nationalities/german.toml: smg[1].model" in str(error.value)


def test_a_counter_too_small_for_its_text_says_so():
    # 12 mm is allowed by --counter-size, but the crew's label needs more at 6 pt
    with pytest.raises(RenderError) as error:
        build(counter_mm=Fraction(12))
    assert "--counter-size 12.00 mm" in str(error.value) and "6 pt" in str(error.value)


def test_a_pictogram_whose_outline_changed_is_drawn_anew(monkeypatch):
    """Pictogram paths are written once and drawn again from then on (face_pdf._outline_path):
    kept by the outline itself, so a part whose path changed in this process is drawn as it now
    is, and the same outline in the same box is the same operators."""
    from msgspec.structs import replace
    from reportlab.pdfgen.canvas import Canvas

    from generator.layout import pictograms
    from generator.render.pdf import face_pdf
    shipped = pictograms.pictograms()
    box = (0.0, 0.0, 20.0, 20.0)

    def drawn(table):
        monkeypatch.setattr(pictograms, "pictograms", lambda: table)
        c = Canvas(io.BytesIO(), invariant=1)
        face_pdf.draw_pictogram(c, "pistol", box, face_pdf.INK, face_pdf.INK)
        return c.getpdfdata()
    pistol = shipped["pistol"]
    square = replace(pistol.parts[0], path="M 0 0 L 512 0 L 512 512 L 0 512 Z")
    changed = {**shipped, "pistol": replace(pistol, parts=(square, *pistol.parts[1:]))}
    before, after, again = drawn(shipped), drawn(changed), drawn(shipped)
    assert before == again
    assert after != before
