"""The player aid: read both PDFs back and check them against the rules text and the data files.

Expected figures come from data/*.toml (read here with tomllib) and the rule text's arithmetic,
never from generator.engine.odds.
"""

import functools
import io
import itertools
import re
import shutil
import subprocess
import tomllib
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction as F

import pypdf
import pytest
from msgspec.structs import replace

from conftest import (
    DATA,
    PRINTED_KIT,
    SLOW,
    aid_edition,
    edit,
    kit_of,
    matrix,
    page_texts,
    pdf_text,
    run_cli,
    shipped_build,
    shipped_kit,
)
from generator import __version__
from generator.content import aid_text as aid
from generator.content.aid import markdown_text
from generator.content.context import make_context
from generator.content.words import load_words
from generator.data import load
from generator.data.sources import shipped
from generator.engine.odds import compute
from generator.errors import RenderError
from generator.layout import chart as chart_geometry
from generator.layout.paper import PAPERS
from generator.make.pipeline import render_all
from generator.options import BuildOptions
from pdfpage import pages_of, words_of

WORDS = load_words()        # the kit's English

SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
AID_FILES = [f"player-aid-{paper}.pdf" for paper in SIZES]
AID_ALL = [*AID_FILES, "player-aid.html"]      # what --only aid makes
# The papers a test of what does not change with the paper (a note's wording, the same bytes
# twice) builds: README's command A4, CI (BAILOUT_SLOW_TESTS=1) both.
CHECKED_PAPERS = tuple(SIZES) if SLOW else ("a4",)
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


def build(data=DATA, **options):
    kit = kit_of(data)
    return render_all(kit, BuildOptions(parts=("aid",), **options))


@pytest.fixture(scope="module")
def pdfs(kit_files):
    """Both papers' aid, from the session's default build (the same bytes as an aid-only build)."""
    return {name: kit_files[name] for name in AID_FILES}


def readers(outputs):
    return {paper: reader_of(outputs[f"player-aid-{paper}.pdf"]) for paper in SIZES
            if f"player-aid-{paper}.pdf" in outputs}


# Reading a PDF back is most of these tests' time: each PDF is read once, by pypdf (its
# structure) and by pdfium (its text, conftest.pdf_text; its glyphs and words, tests/pdfpage.py).
@functools.lru_cache(maxsize=8)
def reader_of(pdf_bytes):
    return pypdf.PdfReader(io.BytesIO(pdf_bytes))


@functools.lru_cache(maxsize=8)
def text_of(reader):
    """The text of the PDF `reader` reads, by pdfium."""
    reader.stream.seek(0)
    return pdf_text(reader.stream.read())


def flat(text):
    return " ".join(text.split())


def rules_toml(folder=DATA):
    return tomllib.loads((folder / "rules.toml").read_text())


def rounded(p):
    """A chance as the aid prints it: percent, half up on the exact value, one place, more only
    where one place would show no significant figure (1/243 is 0.4%, as every figure beside it
    has one decimal; 1/7776 is 0.01%, never 0.0%)."""
    value = Decimal(p.numerator) * 100 / Decimal(p.denominator)
    places = 1
    while True:
        shown = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        if not value or shown.scaleb(places) >= 1:
            return f"{shown}%"
        places += 1


PAIR = re.compile(r"(\d+(?:/\d+)?)\s*\(?\s*(\d+\.\d+)%")


def test_two_pages_exact_size(pdfs):
    for paper, reader in readers(pdfs).items():
        assert 1 <= len(reader.pages) <= 2, paper
        for page in reader.pages:
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            assert (round(w, 2), round(h, 2)) == SIZES[paper]


def test_every_percentage_is_its_fraction_rounded(pdfs):
    for paper, reader in readers(pdfs).items():
        text = text_of(reader)
        pairs = PAIR.findall(text)
        assert len(pairs) == text.count("%") > 30, paper     # every percentage sits beside its fraction
        for fraction, shown in pairs:
            assert rounded(F(fraction)) == shown + "%", (paper, fraction, shown)


def test_key_figures_follow_the_rule_text(pdfs):
    t = rules_toml()
    closed, open_ = t["bail_out"]["closed"], t["bail_out"]["open"]
    w = t["weapon"]
    armed = F(len(w["armed_values"]), w["armed_column"])
    rifle = armed * F(len(w["types"]["rifle"]), w["type_column"])
    fate = t["fate"]
    alive = F(len(fate["outcomes"]["unhurt"]) + len(fate["outcomes"]["wounded"]), fate["column"])
    size = t["crew"]["size"]
    expected = {
        F(len(closed["succeed"]), closed["column"]),       # 871.1.a: 1/3, "33%"
        F(len(open_["succeed"]), open_["column"]),         # 871.1.b: 1/2, "50%"
        rifle, armed - rifle, 1 - armed,                   # 871.4: 1/12, 1/6, 3/4
        alive ** size,                                     # every man of the crew gets out
        alive ** (size - 1),                               # ... one of them saved by a Hero card
    }
    assert F(1, 3) in expected and F(1, 6) in expected and F(32, 243) in expected
    for paper, reader in readers(pdfs).items():
        shown = {F(a): b for a, b in PAIR.findall(text_of(reader))}
        for p in expected:
            assert p in shown and shown[p] + "%" == rounded(p), (paper, p)


def test_every_weapon_and_gap_appears(pdfs):
    period = rules_toml()["period"]
    years = range(period["first_year"], period["last_year"] + 1)
    for paper, reader in readers(pdfs).items():
        text = flat(text_of(reader))
        for path in sorted((DATA / "nationalities").glob("*.toml")):
            nat = tomllib.loads(path.read_text())
            assert nat["name"] in text
            for kind in ("rifle", "smg"):
                for span in nat.get(kind, []):
                    if span["years"][0] <= years[-1] and span["years"][1] >= years[0]:
                        assert span["model"] in text, (paper, path.name, span["model"])
        gaps = 0
        for path in sorted((DATA / "nationalities").glob("*.toml")):
            spans = tomllib.loads(path.read_text()).get("smg", [])
            missing = [y for y in years if not any(a <= y <= b for a, b in (s["years"] for s in spans))]
            gaps += sum(1 for i, y in enumerate(missing) if i == 0 or missing[i - 1] != y - 1)
        assert gaps and text.count(": none") == gaps, paper


def test_rifle_and_smg_shown_as_the_rule_states_them(pdfs):
    # 871.4: column 4 reads 1 for a weapon ("25% Chance"); then column 3 reads 1 for a rifle ("33%
    # Chance"), anything else an SMG ("66% Chance").  The aid shows the share of armed men beside
    # the chance over all men who draw.
    w = rules_toml()["weapon"]
    armed = F(len(w["armed_values"]), w["armed_column"])
    rifle = F(len(w["types"]["rifle"]), w["type_column"])
    assert (armed, rifle, 1 - rifle) == (F(1, 4), F(1, 3), F(2, 3))
    for paper, reader in readers(pdfs).items():
        text = flat(text_of(reader))
        assert f"{armed} ({rounded(armed)})" in text, paper
        for kind, share in (("rifle", rifle), ("SMG", 1 - rifle)):
            overall = armed * share
            assert f"{kind}, {share} ({rounded(share)}) of armed men, {overall} ({rounded(overall)}) of all" in text, \
                (paper, kind)
            assert f"An armed man: {kind}" in text


def test_rule_terms_on_the_aid(pdfs):
    # The rule's own terms: "main Ordnance has malfunctioned permanently"; the AFV "remains in play"
    # after a voluntary bail-out (not a wreck); an SL or ASL leads "members (all) of his own Group ID,
    # regardless of the later composition"; 871.3 speaks only of a destroyed AFV.
    for reader in readers(pdfs).values():
        text = flat(text_of(reader))
        assert "main Ordnance has malfunctioned permanently" in text and "armament" not in text
        # the counter key names the marker's wreck side for a destroyed AFV alone
        assert text.lower().count("wreck") == 1 and "wreck side for an AFV destroyed" in text
        assert "bailed-out AFV marker" in text
        assert "members (all) of his own Group ID, regardless of the later composition" in text
        assert "A destroyed AFV only (note 1)" in text
        assert "the kit's choice" in text and "of the appropriate type for the time period and nationality" in text
        assert "2 × 3 × 4 = 24 combinations" in text     # every combination of columns 2, 3, 4, each as likely
        assert "ideal deck" not in text and "the kit calls it" not in text and "the kit's data names" not in text


def _box(text, title, next_title):
    """The flat text of one flowchart box, from its title to the next box's title."""
    return text[text.index(title):text.index(next_title)]


def test_every_sentence_says_what_the_rule_says(pdfs):
    # 871: "When the crew bails out, all of the personality cards representing the crew are
    # immediately pinned": in the crew step, which every path (destroyed or voluntary) passes, never
    # after 871.4, where a Hero card "also automatically Unpins the individual" (for "any individual
    # within the Crew", not one man only).  "main Ordnance has malfunctioned permanently".
    t = rules_toml()
    notes = {name: s["note"] for name, s in t["interpretation"].items()}
    for reader in readers(pdfs).values():
        text = flat(text_of(reader))
        crew = _box(text, "The crew", "Each man's fate")
        assert f"All pinned at once ({t['after']['rule']})." in crew
        group = _box(text, "The new group", "Close combat")
        assert "pinned" not in group.lower()
        weapon = _box(text, "Each survivor's weapon", "The new group")
        assert "Hero card, for any man of the crew:" in weapon and "any one man" not in text
        assert f"he is unpinned (note {notes['hero_card']})" in weapon
        # The same-card reading is interpretation note 9, cited where it is used and printed.
        assert f"then column {t['weapon']['type_column']} of that card (note {notes['weapon_type_card']})" in weapon
        assert f"of the card that gave column {t['weapon']['armed_column']}" in text
        same_card = t["interpretation"]["weapon_type_card"]["readings"]["same_card"]
        assert f"{notes['weapon_type_card']}. {same_card}" in text
        # "voluntary: no check" is drawn beside the bypass; note 1 is cited once, where the fate box
        # says what a voluntary bail-out draws.
        assert "voluntary: no check" in text and "(no check)" in text
        assert f"(note {notes['voluntary_casualties']})" in _box(text, "Each man's fate", "Each survivor's weapon")
        voluntary = t["interpretation"]["voluntary_casualties"]["readings"]["none"]
        assert "no bail-out check" in voluntary and "malfunctioned permanently" in voluntary
        assert f"{notes['voluntary_casualties']}. {voluntary}" in text
        assert "malfunctioned)" not in text and "Ordnance out" not in text
        # One man's table, like the survivors', holds only once the crew has passed the check.
        one_man = _box(text, "One crew member, start to finish", "Code Fate Weapon")
        assert "once a destroyed AFV's crew has passed the bail-out check" in one_man


def test_the_english_aid_sets_one_apostrophe(pdfs):
    """One quote style in the English edition: the typographic apostrophe throughout (the
    catalogue's, the template's and the data's straight ones set so), beside its curly quotes."""
    from conftest import TYPOGRAPHIC_APOSTROPHE, raw_page_texts
    for paper in SIZES:
        raw = "\n".join(raw_page_texts(pdfs[f"player-aid-{paper}.pdf"]))
        assert "'" not in raw and "AFV" + TYPOGRAPHIC_APOSTROPHE + "s" in raw, paper
        assert "\u201c" in raw and '"' not in raw, paper


def test_interpretation_notes_stay_together_under_their_heading(pdfs):
    # Notes set beside the rule's text, with no heading above them, read as the rule: every note
    # on page 2 stands in a column under the notes' heading, or under it again where the notes run
    # on ("(continued)"), each note whole, in order.
    count = len(rules_toml()["interpretation"])
    again = WORDS("aid.notes.continued", heading="Interpretation notes").split()
    for paper in ("a4", "letter"):
        page = pages_of(pdfs[f"player-aid-{paper}.pdf"])[1]
        words = words_of(page.chars, extra_attrs=["fontname"])
        headings = [w for w in words if w["text"] == "Interpretation"]
        assert 1 <= len(headings) <= 2, paper
        if len(headings) == 2:      # the second is the continued one
            line = [w["text"] for w in words if abs(w["top"] - headings[1]["top"]) < 1 and w["x0"] >= headings[1]["x0"]]
            assert line[:len(again)] == again, (paper, line)
        starts = [w for w in words if re.fullmatch(r"[1-9]\d*\.", w["text"]) and w["fontname"].endswith("Bold")
                  and any(abs(w["x0"] - h["x0"]) < 1 for h in headings)]
        assert [w["text"] for w in starts] == [f"{n}." for n in range(1, count + 1)], paper
        for w in starts:
            over = [h for h in headings if abs(w["x0"] - h["x0"]) < 1]
            assert len(over) == 1 and over[0]["top"] < w["top"], (paper, w["text"])


def _flowchart(markdown):
    """(box rule numbers in order, [(from, to), ...] bypasses) from the aid's Markdown."""
    div = re.search(r'<div class="flowchart"([^>]*)>(.*?)</div>', markdown, re.S)
    pairs = re.search(r'data-bypass="([^"]*)"', div.group(1)).group(1)
    bypasses = [tuple(int(n) - 1 for n in p.split("-")) for p in pairs.split(",") if p.strip()]
    rules = re.findall(r"^\d+\. \*\*[^*]+\*\* \*([^*]+)\*", div.group(2), re.M)
    return [r.replace("\\", "") for r in rules], bypasses


@pytest.mark.parametrize("reading", ["none", "draw"])
def test_voluntary_path_follows_note_1(reading, data_copy):
    # Note 1 "none": after a voluntary bail-out no casualty cards are drawn, so the voluntary arrows
    # lead from the trigger to the crew (871.2) and on to the weapon draw (871.4), never into 871.3.
    edit(data_copy / "rules.toml", 'note = 1\nreading = "none"', f'note = 1\nreading = "{reading}"')
    t = rules_toml(data_copy)
    kit = load(data_copy)
    text = markdown_text(make_context(kit, compute(kit), BuildOptions(), shipped("templates")))
    rules, bypasses = _flowchart(text)
    fate, crew, weapon = rules.index(t["fate"]["rule"]), rules.index(t["crew"]["morale_rule"]), \
        rules.index(t["weapon"]["rule"])
    jumps = dict(bypasses)
    path, box = [0], 0
    while box + 1 < len(rules):
        box = jumps.get(box, box + 1)       # a voluntary bail-out takes every bypass it meets
        path.append(box)
    assert crew in path and weapon in path
    assert (fate in path) == (reading == "draw")
    assert ("A destroyed AFV only" in text) == (reading == "none")


def test_every_interpretation_sentence_appears(pdfs):
    settings = rules_toml()["interpretation"]
    for paper, reader in readers(pdfs).items():
        text = flat(text_of(reader))
        for name, s in settings.items():
            assert flat(s["readings"][s["reading"]]) in text, (paper, name)


def test_crew_morale_table_follows_the_data(pdfs):
    crew = rules_toml()["crew"]
    for paper in SIZES:
        # Laid out by position, so a table row reads as one line (beside the other column's text).
        lines = [flat(line) for page in pages_of(pdfs[f"player-aid-{paper}.pdf"]) for line in page.text.splitlines()]
        for morale in crew["aid_afv_morale"]:
            average = morale + crew["morale_offset"]
            row = " ".join(str(n) for n in [morale, average] + [average * s for s in crew["aid_crew_sizes"]])
            assert any(line == row or line.endswith(" " + row) or line.startswith(row + " ") for line in lines), \
                (paper, row)


def test_fonts_embedded_and_no_standard_14(pdfs):
    for paper, reader in readers(pdfs).items():
        seen = 0
        for page in reader.pages:
            for ref in page["/Resources"]["/Font"].values():
                font = ref.get_object()
                assert not any(name in str(font["/BaseFont"]) for name in STANDARD_14), font["/BaseFont"]
                if font["/Subtype"] == "/Type0":
                    font = font["/DescendantFonts"][0].get_object()
                assert "/FontFile2" in font["/FontDescriptor"], (paper, font["/BaseFont"])
                seen += 1
        assert seen


@pytest.mark.skipif(not shutil.which("pdffonts"), reason="pdffonts not installed")
def test_pdffonts_says_embedded(pdfs, tmp_path):
    path = tmp_path / "aid.pdf"
    path.write_bytes(pdfs["player-aid-letter.pdf"])
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows)


def test_type_sizes(pdfs):
    for paper in SIZES:
        sizes = Counter(round(ch["size"], 2) for page in pages_of(pdfs[f"player-aid-{paper}.pdf"])
                        for ch in page.chars)
        assert min(sizes) >= 7, (paper, min(sizes))          # tables and the footer
        body = sizes.most_common(1)[0][0]
        assert body >= 8, (paper, body)


def test_metadata_bookmarks_and_print_scaling(pdfs):
    v = rules_toml()["variant"]   # the catalogue's words, filled from the data's [variant]
    fields = {"number": v["number"], "title": v["title"], "game": v["game"], "credit": v["credit"],
              "version": __version__}
    for paper, reader in readers(pdfs).items():
        meta = reader.metadata
        assert meta.title == WORDS("aid.title", **fields) and meta.subject == WORDS("aid.subject", **fields)
        assert meta.author == WORDS("pdf.author", **fields) and v["credit"] in meta.author
        assert meta.creator == meta.producer == WORDS("pdf.creator", **fields)
        assert meta["/Keywords"] == WORDS("pdf.keywords", **fields)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        titles = [o.title for o in reader.outline]
        # (close combat is the flowchart's last box and the counter key's: no section of its own)
        for heading in ("The procedure", "Odds", "Survivors", "Crew morale", "Weapons", "Interpretation notes"):
            assert any(t.startswith(heading) for t in titles), (paper, heading)


def test_title_block(pdfs):
    t = rules_toml()
    kit = shipped_kit()
    for paper in SIZES:
        first = flat(page_texts(pdfs[f"player-aid-{paper}.pdf"])[0])
        for needed in (t["variant"]["title"], t["variant"]["credit"], PAPERS[paper].label):
            assert needed in first, (paper, needed)
        # no program marks on page 1: the edition stamp and the kit's version are the colophon's,
        # on the last page; the data's own hash is an editor's figure
        last = flat(page_texts(pdfs[f"player-aid-{paper}.pdf"])[-1])
        assert not re.search(r"[0-9a-f]{8}", first) and "0.1.0" not in first and kit.short_hash not in first, paper
        assert re.search(r"edition [0-9a-f]{10}\b", last) and kit.short_hash not in last, paper


def test_flowchart_boxes_carry_rule_numbers(pdfs):
    t = rules_toml()
    numbers = [t["triggers"]["rule"], t["bail_out"]["closed"]["rule"], t["bail_out"]["open"]["rule"],
               t["crew"]["morale_rule"], t["fate"]["rule"], t["weapon"]["rule"], t["after"]["rule"],
               t["close_combat"]["rule"]]
    page = pages_of(pdfs["player-aid-a4.pdf"])[0]
    # The tabs are white bold text on the chart's boxes.
    tabs = [w["text"] for w in words_of(page.chars, extra_attrs=["fontname", "fill_rgb"])
            if "Bold" in w["fontname"] and w["fill_rgb"] == (255, 255, 255)]
    for number in numbers:
        assert number in tabs, (number, tabs)


def test_same_bytes_twice(pdfs):
    """The aid made again, alone (`--only aid --paper P`, conftest.aid_edition, shared with the
    editions' tests): the default build's aid byte for byte."""
    for paper in CHECKED_PAPERS:
        again = aid_edition("en", paper)
        name = f"player-aid-{paper}.pdf"
        assert set(again) == {name, "player-aid.html", "MANIFEST.txt"}
        assert again[name] == pdfs[name]


def test_bw_is_grey_only_and_still_fits(pdfs):
    bw = shipped_build(bw=True, parts=PRINTED_KIT)      # the --bw kit test_counters_print reads
    assert all(bw[name] != pdfs[name] for name in AID_FILES)
    colour = re.compile(rb"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)")
    for paper, reader in readers(bw).items():
        assert len(reader.pages) <= 2
        for page in reader.pages:
            for r, g, b in colour.findall(page.get_contents().get_data()):
                assert float(r) == float(g) == float(b), (paper, r, g, b)


def test_changed_rule_changes_the_figures(pdfs, data_copy, tmp_path):
    edit(data_copy / "rules.toml", 'label = "Non-open-topped AFV"\ncolumn = 3',
         'label = "Non-open-topped AFV"\ncolumn = 4')
    status, _, err = run_cli("build", "--only", "aid", "--paper", "a4", "--quiet", "--data", data_copy,
                             "--out", tmp_path / "out")
    assert status == 0, err
    text = flat(text_of(pypdf.PdfReader(tmp_path / "out" / "player-aid-a4.pdf")))
    before = flat(text_of(readers(pdfs)["a4"]))
    assert "column 4 reads 1: 1/4 (25.0%)" in text
    assert "column 4 reads 1: 1/4" not in before and "column 3 reads 1: 1/3 (33.3%)" in before


@pytest.mark.parametrize("name", ["<&", "A" * 100, "Soviet <b>&amp; | * _ [x](y)"],
                         ids=["markup", "100-chars", "markdown"])
def test_hostile_names_print_cleanly(data_copy, name):
    """A name of 100 characters (the most the data takes) runs past its table cell: cut short."""
    edit(data_copy / "nationalities" / "soviet.toml", 'name = "Soviet"', f'name = "{name}"')
    try:
        # Letter is the shorter page; the 100-character name is tried on both.
        outputs = build(data_copy, papers=("a4", "letter") if len(name) >= 100 else ("letter",))
    except RenderError as error:         # acceptable: a clean message naming the file
        assert "aid" in str(error) or "nationalities" in str(error)
        return
    for paper, reader in readers(outputs).items():
        assert len(reader.pages) <= 2
        text = flat(text_of(reader))
        if len(name) >= 100:     # cut short with the ellipsis (the table's column may break it over lines)
            assert re.search("A{8}[A ]*\u2026", text) and "A" * 100 not in text
        else:
            assert name in text, (paper, name)


def test_template_error_names_file_and_line(tmp_path):
    (tmp_path / aid.TEMPLATE).write_text("# Aid\n\nfine {{ rules.number }}\n{{ no_such_thing }}\n")
    kit = shipped_kit()
    ctx = make_context(kit, compute(kit), BuildOptions(), shipped("templates"))
    with pytest.raises(RenderError, match=rf"{aid.TEMPLATE}:4\b"):
        markdown_text(replace(ctx, templates=tmp_path))
    (tmp_path / aid.TEMPLATE).write_text("# Aid\n{% for x in %}\n")
    with pytest.raises(RenderError, match=rf"{aid.TEMPLATE}:2\b"):
        markdown_text(replace(ctx, templates=tmp_path))
    (tmp_path / aid.TEMPLATE).write_text("{{ rules.__class__.__mro__ }}\n")
    with pytest.raises(RenderError, match=rf"{aid.TEMPLATE}:1\b"):
        markdown_text(replace(ctx, templates=tmp_path))


def test_template_types_no_rule_number():
    text = (shipped("templates") / aid.TEMPLATE).read_text()
    outside = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "", text, flags=re.S)
    numbers = rules_toml()["variant"]["number"]
    assert not re.search(rf"\b{numbers}(\.\d|\b)", outside)
    assert not re.search(r"\d+(\.\d+)?%|\b\d+/\d+\b", outside)     # no chance typed in


# -- the flowchart's geometry (no PDF) -----------------------------------------------------------


def test_flowchart_geometry_rows_arrows_and_bypass():
    heights = [60, 80, 70, 50, 90, 40, 30]
    chart = chart_geometry.arrange(540, heights, 4, gap_x=16, gap_y=24, bypasses=[(0, 2)], label_height=9)
    boxes = chart.boxes
    assert len(boxes) == 7
    for i, a in enumerate(boxes):
        assert a.x >= 0 and a.right <= 540 + 1e-9 and a.y >= 0 and a.top <= chart.height + 1e-9
        assert a.h >= heights[i]
        assert not any(a.overlaps(b) for b in boxes[i + 1:])
    # Rows share a top and a height; row 2 starts below row 1 with the gap between.
    assert {round(b.top, 6) for b in boxes[:4]} == {round(boxes[0].top, 6)}
    assert boxes[0].h == max(heights[:4]) and boxes[4].h == max(heights[4:])
    assert abs(boxes[0].y - boxes[4].top - 24) < 1e-9
    # Six chain arrows and the bypass; each starts on one box's edge and ends on the next's.
    assert len(chart.arrows) == 7
    for i, arrow in enumerate(chart.arrows[:6]):
        (x0, y0), (x1, y1) = arrow.points[0], arrow.points[-1]
        a, b = boxes[i], boxes[i + 1]
        assert a.x <= x0 <= a.right + 1e-9 and a.y - 1e-9 <= y0 <= a.top + 1e-9
        assert b.x - 1e-9 <= x1 <= b.right and b.y - 1e-9 <= y1 <= b.top + 1e-9
    bypass = chart.arrows[-1]
    assert bypass.points[0][1] == boxes[0].top and bypass.points[-1][1] == boxes[2].top
    assert max(y for _, y in bypass.points) < chart.height and bypass.label_at[1] > boxes[1].top


def test_arrowhead_points_along_the_last_segment():
    tip, left, right = chart_geometry.Arrow(((0, 0), (10, 0))).head(length=4, half_width=2)
    assert tip == (10, 0) and left == (6, 2) and right == (6, -2)
    tip, left, right = chart_geometry.Arrow(((0, 10), (0, 0))).head(length=4, half_width=2)
    assert tip == (0, 0) and {left, right} == {(2, 4), (-2, 4)}


def test_flowchart_fitted_rows_share_the_first_rows_columns():
    """The later row's box edges land on the first row's, and none is narrower than a column: a
    box with little text beside two with much (the aid's Close combat) still gets a column."""
    text = [300, 500, 700, 450, 1500, 1400, 200]      # a box's text, as its area at one line a point

    def height_at(i, width):
        return text[i] / width * 12 + 20
    gap = 16
    widths = chart_geometry.fitted_widths(540, 7, 4, gap, height_at, 40)
    boxes = chart_geometry.arrange(540, [height_at(i, w) for i, w in enumerate(widths)], 4, gap_x=gap,
                                   widths=widths).boxes
    first, second = boxes[:4], boxes[4:]
    edges = {round(x, 6) for b in first for x in (b.x, b.right)}
    assert all(round(x, 6) in edges for b in second for x in (b.x, b.right))
    assert min(b.w for b in second) >= min(b.w for b in first) - 1e-9
    assert round(second[-1].right, 6) == round(first[-1].right, 6) == 540


def test_flowchart_geometry_refuses_impossible_layouts():
    with pytest.raises(ValueError):
        chart_geometry.box_widths(20, 4, 4, 16)
    with pytest.raises(ValueError):
        chart_geometry.arrange(540, [10, 10, 10], 4, bypasses=[(0, 1)])
    with pytest.raises(ValueError):     # into the next row, but not to its first box
        chart_geometry.arrange(540, [10] * 7, 4, bypasses=[(2, 5)])
    with pytest.raises(ValueError):     # from a row's last box: that is the chain's own elbow
        chart_geometry.arrange(540, [10] * 7, 4, bypasses=[(3, 4)])


def _touches(points, rect, pad=0.5):
    """Does the polyline through `points` meet `rect` (grown by `pad`)?  Segments are axis-parallel."""
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if (min(x0, x1) <= rect.right + pad and max(x0, x1) >= rect.x - pad
                and min(y0, y1) <= rect.top + pad and max(y0, y1) >= rect.y - pad):
            return True
    return False


def test_voluntary_path_never_enters_the_fate_box():
    # Boxes as the aid has them: 0 trigger, 1 check, 2 crew, 3 fate (871.3), 4 weapon (871.4) ...
    heights = [90, 80, 100, 70, 110, 90, 60]
    label = 12
    chart = chart_geometry.arrange(540, heights, 4, gap_x=16, gap_y=24, bypasses=[(0, 2), (2, 4)],
                                   label_height=label)
    boxes = chart.boxes
    skip_check, skip_fate = (a for a in chart.arrows if a.bypass is not None)
    elbow = next(a for a in chart.arrows if a.bypass is None and a.points[-1][1] == boxes[4].top)
    # Into the crew box from above; out of its bottom, down onto the elbow that leads to the weapon box.
    assert skip_check.points[-1][1] == boxes[2].top and boxes[2].x <= skip_check.points[-1][0] <= boxes[2].right
    (x0, y0), (x1, y1) = skip_fate.points[0], skip_fate.points[-1]
    assert y0 == boxes[2].y and boxes[2].x <= x0 <= boxes[2].right and x1 == x0
    (ex0, ey), (ex1, ey1) = elbow.points[1], elbow.points[2]
    assert ey == ey1 == y1 and min(ex0, ex1) < x1 < max(ex0, ex1)     # it lands on the elbow's run
    assert elbow.points[0][0] == boxes[3].cx and x1 < boxes[3].x        # ... downstream of the fate box
    # Neither voluntary arrow meets the check box or the fate box.
    for arrow in (skip_check, skip_fate):
        assert not _touches(arrow.points, boxes[3]) and not _touches(arrow.points, boxes[1])
    # The drop's label sits between the crew box and the elbow, clear of both (the renderer asks
    # for label_height = its label's font size + 5, and pads the label by 1 pt).
    lx, ly = skip_fate.label_at
    assert skip_fate.label_anchor == "right" and lx < x0
    assert ey < ly - 1 and ly + (label - 5) + 1 < boxes[2].y


@pytest.mark.parametrize("label,gap_y", [(12, 24), (13.0, 24), (21, 40)])     # PDF sizes, and the web page's
def test_the_drops_label_names_the_drop_not_the_line_it_joins(label, gap_y):
    # The drop from the crew box joins the elbow the destroyed AFV's path runs along: its label
    # must sit beside the drop, wholly between the crew box and that line and clear of both, not
    # on the line, which both paths share.  Its box: 1 below its anchor to label - 5 above it.
    heights = [90, 80, 100, 70, 110, 90, 60]
    chart = chart_geometry.arrange(540, heights, 4, gap_x=16, gap_y=gap_y, bypasses=[(0, 2), (2, 4)],
                                   label_height=label)
    crew = chart.boxes[2]
    drop = next(a for a in chart.arrows if a.bypass == 1)
    (x0, top), (_, line_y) = drop.points
    lx, ly = drop.label_at
    bottom, upper = ly - 1, ly + label - 5
    assert top == crew.y and line_y < bottom and upper < top
    clear_below, clear_above = bottom - line_y, top - upper
    assert clear_below >= 4 and clear_above >= 4
    assert abs(clear_below - clear_above) < 1e-6              # centred on the drop
    assert drop.label_anchor == "right" and 0 < x0 - lx <= clear_below     # nearer the drop than the line
    # the arrowhead into the weapon box keeps room below the elbow
    elbow = next(a for a in chart.arrows if a.bypass is None and a.points[-1][1] == chart.boxes[4].top)
    assert elbow.points[1][1] == line_y and line_y - chart.boxes[4].top >= 10


def test_overlong_sentence_is_a_clean_error(data_copy):
    edit(data_copy / "rules.toml", 'uniform = "Odds assume', 'uniform = "' + "word " * 2500 + 'Odds assume')
    with pytest.raises(RenderError, match=r"rules\.toml"):
        build(data_copy, papers=("letter",))


def test_text_the_font_cannot_print_is_a_clean_error(data_copy):
    edit(data_copy / "nationalities" / "japanese.toml", 'name = "Japanese"', 'name = "\u65e5\u672c"')
    status, _, err = run_cli("build", "--only", "aid", "--paper", "a4", "--quiet", "--data", data_copy,
                             "--out", data_copy.parent / "out")
    assert status == 2 and "Traceback" not in err
    assert "japanese.toml: name:" in err and "U+65E5" in err


@pytest.mark.parametrize("reading", ["rifle", "pistol"])
def test_years_without_an_smg_say_what_the_man_takes(reading, data_copy):
    # British 1939 has no SMG in the data; interpretation 6 decides what a man who draws one carries.
    rules = data_copy / "rules.toml"
    if reading == "pistol":
        edit(rules, 'reading = "rifle"\ndefault = "rifle"', 'reading = "pistol"\ndefault = "rifle"')
    british = tomllib.loads((data_copy / "nationalities" / "british.toml").read_text())
    rifle_1939 = next(s["model"] for s in british["rifle"] if s["years"][0] <= 1939 <= s["years"][1])
    text = flat(text_of(readers(build(data_copy, papers=("a4",)))["a4"]))
    expected = rifle_1939 if reading == "rifle" else "pistol only"
    assert f"1939: none, so {expected}" in text


def test_early_refusal_of_a_size_never_refuses_one_that_fits():
    # _may_fit may only refuse a body size that the full layout would refuse too.
    from generator.render.pdf import aid_pdf
    kit = shipped_kit()
    ctx = make_context(kit, compute(kit), BuildOptions(), shipped("templates"))
    converter = aid_pdf._converter(ctx)
    root = converter.parse(markdown_text(ctx))
    outcomes = []
    # README's command: each size once, on A4 and Letter by turns; CI (BAILOUT_SLOW_TESTS=1) every
    # size on both papers (a layout a size, twice: most of this test's time)
    for paper, size in matrix(list(PAPERS.values()), aid_pdf.BODY_SIZES):
        fits = {}
        for precheck in (False, True):
            try:
                aid_pdf._build(ctx, paper, converter.restyled(root, aid_pdf._styles(ctx, size)), precheck)
                fits[precheck] = True
            except aid_pdf._TooLong:
                fits[precheck] = False
        assert fits[True] == fits[False], (paper.key, size)
        outcomes.append(fits[True])
    assert True in outcomes     # the test saw sizes that fit (and, with today's text, ones that do not)


# -- what is the rule, what is the kit's choice --------------------------------------------------

def _flat_aid(outputs):
    """{paper: the aid's text on one line} of a build's aids."""
    return {paper: " ".join(text_of(reader).split()) for paper, reader in readers(outputs).items()}


def test_note_8_is_the_rule_and_a_reading_against_the_text_is_a_house_rule(pdfs, data_copy):
    # 871.1.a/b: "destroyed by a result equal to the exact number required": note 8 states the rule;
    # 871.4 arms each man as he "exits the vehicle", the wounded too: 'unhurt' goes against it.
    rules = tomllib.loads((DATA / "rules.toml").read_text(encoding="utf-8"))["interpretation"]
    assert rules["over_kill"]["restates"] and rules["over_kill"]["house_rules"] == ["check"]
    assert "equal to the exact number required" in rules["over_kill"]["readings"]["no_bail_out"]
    assert rules["weapons_for"]["house_rules"] == ["unhurt"]
    for flat in _flat_aid(pdfs).values():
        assert f"8. {WORDS('aid.note.rule')}" in flat and WORDS("aid.note.house_rule") not in flat
    edit(data_copy / "rules.toml", 'note = 8\nreading = "no_bail_out"', 'note = 8\nreading = "check"')
    edit(data_copy / "rules.toml", 'note = 4\nreading = "survivors"', 'note = 4\nreading = "unhurt"')
    for flat in _flat_aid(build(data_copy, papers=CHECKED_PAPERS)).values():
        assert f"8. {WORDS('aid.note.house_rule')}" in flat and f"4. {WORDS('aid.note.house_rule')}" in flat
        assert WORDS("aid.note.rule") not in flat


def test_the_aid_says_871_2_is_inferred_and_whose_army_each_weapon_row_follows(pdfs):
    rules = tomllib.loads((DATA / "rules.toml").read_text(encoding="utf-8"))
    inferred = WORDS("aid.note.unnumbered", crew=rules["crew"]["morale_rule"], fate=rules["fate"]["rule"])
    assert "AFV Crew Members" in inferred       # the rule's own heading, which has no number
    armies = [tomllib.loads(p.read_text(encoding="utf-8")).get("army") for p in (DATA / "nationalities").glob("*.toml")]
    assert all(armies)
    for flat in _flat_aid(pdfs).values():
        assert inferred in flat and WORDS("aid.weapons.army") in flat
        assert all(army in flat for army in armies)


@pytest.mark.parametrize("old,new,words", [
    ('restates = true\nhouse_rules = ["check"]', 'restates = true', ["interpretation.over_kill.house_rules", "check"]),
    ('house_rules = ["unhurt"]', 'house_rules = ["survivors"]', ["interpretation.weapons_for.default", "house_rules"]),
    ('house_rules = ["unhurt"]', 'house_rules = ["maybe"]', ["interpretation.weapons_for.house_rules[0]"]),
])
def test_house_rules_are_checked(data_copy, old, new, words):
    edit(data_copy / "rules.toml", old, new)
    status, _, err = run_cli("check", "--data", data_copy)
    assert status == 2 and "Traceback" not in err
    for word in words:
        assert word in err, err


def test_the_colophon_sits_at_the_last_pages_foot_over_the_footer(pdfs, kit_files):
    """The colophon's line (version and edition stamp) closes the last page at its foot, just
    above the footer and below every column, not wherever the text ends."""
    stamp = re.search(rb"^edition ([0-9a-f]{10})", kit_files["MANIFEST.txt"], re.M)[1].decode()
    for paper in ("a4", "letter"):
        page = pages_of(pdfs[f"player-aid-{paper}.pdf"])[-1]
        lines = sorted({round(w["top"]): w for w in words_of(page.chars)}.items())
        tops = [top for top, _ in lines]
        colophon = next(w["top"] for w in words_of(page.chars) if w["text"] == stamp)
        assert round(colophon) == tops[-2], (paper, tops[-3:])      # the footer's line is the last
        assert tops[-2] - tops[-3] > 24, (paper, tops[-3:])         # clear of the columns' text
