"""The player aid: read both PDFs back and check them against the rules text and the data files.

Expected figures come from data/*.toml (read here with tomllib) and the rule text's arithmetic,
never from generator.odds.
"""

import functools
import io
import re
import shutil
import subprocess
import tomllib
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction as F

import pdfplumber
import pypdf
import pytest

from conftest import DATA, edit, run_cli
from generator.build import render_all
from generator.data import load
from generator.errors import RenderError
from generator.layout.paper import PAPERS
from generator.odds import compute
from generator.options import BuildOptions
from generator.render import aid
from generator.render.common import BuildContext

SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
AID_FILES = [f"player-aid-{paper}.pdf" for paper in SIZES]
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


def build(data=DATA, **options):
    kit = load(data)
    return render_all(kit, BuildOptions(parts=("aid",), **options))


@pytest.fixture(scope="module")
def pdfs(kit_files):
    """Both papers' aid, from the session's default build (the same bytes as an aid-only build)."""
    return {name: kit_files[name] for name in AID_FILES}


def readers(outputs):
    return {paper: reader_of(outputs[f"player-aid-{paper}.pdf"]) for paper in SIZES
            if f"player-aid-{paper}.pdf" in outputs}


# Reading a PDF back is most of these tests' time: each PDF is read once, by pypdf and by pdfplumber.
@functools.lru_cache(maxsize=8)
def reader_of(pdf_bytes):
    return pypdf.PdfReader(io.BytesIO(pdf_bytes))


@functools.lru_cache(maxsize=8)
def plumbed(pdf_bytes):
    """pdfplumber's view of a PDF; its pages keep what they have parsed."""
    return pdfplumber.open(io.BytesIO(pdf_bytes))


@functools.lru_cache(maxsize=8)
def text_of(reader):
    return "\n".join(page.extract_text() for page in reader.pages)


def flat(text):
    return " ".join(text.split())


def rules_toml(folder=DATA):
    return tomllib.loads((folder / "rules.toml").read_text())


def rounded(p):
    """A chance as the aid prints it: percent, one place, half up on the exact value."""
    value = Decimal(p.numerator) * 100 / Decimal(p.denominator)
    return f"{value.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


PAIR = re.compile(r"(\d+(?:/\d+)?)\s*\(?\s*(\d+\.\d)%")


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


def test_every_interpretation_sentence_appears(pdfs):
    settings = rules_toml()["interpretation"]
    for paper, reader in readers(pdfs).items():
        text = flat(text_of(reader))
        for name, s in settings.items():
            assert flat(s["readings"][s["reading"]]) in text, (paper, name)


def test_crew_morale_table_follows_the_data(pdfs):
    crew = rules_toml()["crew"]
    for paper in SIZES:
        pdf = plumbed(pdfs[f"player-aid-{paper}.pdf"])
        # Laid out by position, so a table row reads as one line (beside the other column's text).
        lines = [flat(line) for page in pdf.pages for line in page.extract_text().splitlines()]
        for morale in crew["aid_afv_morale"]:
            average = morale + crew["morale_offset"]
            row = " ".join(str(n) for n in [morale, average] + [average * s for s in crew["aid_crew_sizes"]])
            assert any(line == row or line.endswith(" " + row) or line.startswith(row + " ") for line in lines), \
                (paper, row)


def test_fonts_embedded_and_no_standard_14(pdfs):
    for paper, reader in readers(pdfs).items():
        seen = 0
        for page in reader.pages:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
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
        sizes = Counter(round(ch["size"], 2) for page in plumbed(pdfs[f"player-aid-{paper}.pdf"]).pages
                        for ch in page.chars)
        assert min(sizes) >= 7, (paper, min(sizes))          # tables and the footer
        body = sizes.most_common(1)[0][0]
        assert body >= 8, (paper, body)


def test_metadata_bookmarks_and_print_scaling(pdfs):
    for paper, reader in readers(pdfs).items():
        meta = reader.metadata
        assert "player aid" in meta.title and meta.subject and meta.author and meta.creator
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        titles = [o.title for o in reader.outline]
        for heading in ("The procedure", "Odds", "Survivors", "Crew morale", "Weapons", "Close combat",
                        "Interpretation notes"):
            assert any(t.startswith(heading) for t in titles), (paper, heading)


def test_title_block(pdfs):
    t = rules_toml()
    kit = load(DATA)
    for paper, reader in readers(pdfs).items():
        first = flat(reader.pages[0].extract_text())
        for needed in (t["variant"]["title"], t["variant"]["credit"], kit.short_hash, PAPERS[paper].label):
            assert needed in first, (paper, needed)


def test_flowchart_boxes_carry_rule_numbers(pdfs):
    t = rules_toml()
    numbers = [t["triggers"]["rule"], t["bail_out"]["closed"]["rule"], t["bail_out"]["open"]["rule"],
               t["crew"]["morale_rule"], t["fate"]["rule"], t["weapon"]["rule"], t["after"]["rule"],
               t["close_combat"]["rule"]]
    page = plumbed(pdfs["player-aid-a4.pdf"]).pages[0]
    # The tabs are white bold text on the chart's boxes.
    tabs = [w["text"] for w in page.extract_words(extra_attrs=["fontname", "non_stroking_color"])
            if "Bold" in w["fontname"] and w["non_stroking_color"] in ((1, 1, 1), (1,), [1, 1, 1], [1])]
    for number in numbers:
        assert number in tabs, (number, tabs)


def test_same_bytes_twice(pdfs):
    again = build()
    assert set(again) == {*AID_FILES, "MANIFEST.txt"}
    assert {name: again[name] for name in AID_FILES} == pdfs


def test_bw_is_grey_only_and_still_fits(pdfs):
    bw = build(bw=True)
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


@pytest.mark.parametrize("name", ["<&", "A" * 10_000, "Soviet <b>&amp; | * _ [x](y)"],
                         ids=["markup", "10000-chars", "markdown"])
def test_hostile_names_print_cleanly(data_copy, name):
    edit(data_copy / "nationalities" / "soviet.toml", 'name = "Soviet"', f'name = "{name}"')
    try:
        # Letter is the shorter page; the 10,000-character name is tried on both.
        outputs = build(data_copy, papers=("a4", "letter") if len(name) > 100 else ("letter",))
    except RenderError as error:         # acceptable: a clean message naming the file
        assert "aid" in str(error) or "nationalities" in str(error)
        return
    for paper, reader in readers(outputs).items():
        assert len(reader.pages) <= 2
        text = flat(text_of(reader))
        if len(name) > 100:
            assert "A" * 20 + "\u2026" in text and "A" * 200 not in text
        else:
            assert name in text, (paper, name)


def test_template_error_names_file_and_line(tmp_path):
    (tmp_path / aid.TEMPLATE).write_text("# Aid\n\nfine {{ rules.number }}\n{{ no_such_thing }}\n")
    kit = load(DATA)
    ctx = BuildContext(kit, compute(kit), BuildOptions())
    with pytest.raises(RenderError, match=rf"{aid.TEMPLATE}:4\b"):
        aid.markdown_text(ctx, PAPERS["a4"], template_dir=tmp_path)
    (tmp_path / aid.TEMPLATE).write_text("# Aid\n{% for x in %}\n")
    with pytest.raises(RenderError, match=rf"{aid.TEMPLATE}:2\b"):
        aid.markdown_text(ctx, PAPERS["a4"], template_dir=tmp_path)
    (tmp_path / aid.TEMPLATE).write_text("{{ rules.__class__.__mro__ }}\n")
    with pytest.raises(RenderError, match=rf"{aid.TEMPLATE}:1\b"):
        aid.markdown_text(ctx, PAPERS["a4"], template_dir=tmp_path)


def test_template_types_no_rule_number():
    text = (aid.TEMPLATES / aid.TEMPLATE).read_text()
    outside = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "", text, flags=re.S)
    numbers = rules_toml()["variant"]["number"]
    assert not re.search(rf"\b{numbers}(\.\d|\b)", outside)
    assert not re.search(r"\d+(\.\d+)?%|\b\d+/\d+\b", outside)     # no chance typed in


# -- the flowchart's geometry (no PDF) -----------------------------------------------------------

from generator.layout import flowchart as chart_geometry  # noqa: E402


def test_flowchart_geometry_rows_arrows_and_bypass():
    heights = [60, 80, 70, 50, 90, 40, 30]
    chart = chart_geometry.arrange(540, heights, 4, gap_x=16, gap_y=24, bypass=(0, 2), label_height=9)
    boxes = chart.boxes
    assert len(boxes) == 7
    for i, a in enumerate(boxes):
        assert 0 <= a.x and a.right <= 540 + 1e-9 and 0 <= a.y and a.top <= chart.height + 1e-9
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


def test_flowchart_geometry_refuses_impossible_layouts():
    with pytest.raises(ValueError):
        chart_geometry.box_widths(20, 4, 4, 16)
    with pytest.raises(ValueError):
        chart_geometry.arrange(540, [10, 10, 10], 4, bypass=(0, 1))


def test_overlong_sentence_is_a_clean_error(data_copy):
    edit(data_copy / "rules.toml", 'uniform = "Odds assume', 'uniform = "' + "word " * 2500 + 'Odds assume')
    with pytest.raises(RenderError, match="rules.toml"):
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
