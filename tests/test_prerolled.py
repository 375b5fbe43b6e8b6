"""Pre-rolled bail-out tables: exact blocks, fair independent draws, PDF = CSV, reproducible.

Every expected count comes from the words of rule 871 (and the issue's figures), never from
the code under test: 871.1.a column 3 reads 1 (1/3), 871.1.b column 2 reads 1 (1/2); 871.3
column 3: 1 unhurt, 2 wounded, else killed; 871.4 column 4 reads 1 for a weapon (1/4), then
column 3 of that card: 1 rifle (1/3), else SMG (2/3).  The kit's words (legend, heads, cells,
the CSV header) are read from the English catalogue.
"""

import csv
import io
import math
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction as F

import pytest
from pypdf import PdfReader

from conftest import DATA, ROOT, edit, run_cli
from generator.data import load
from generator.errors import RenderError
from generator.layout.paper import PAPERS
from generator.layout.table import MAX_BOOKMARKS, table_geometry
from generator.engine.odds import compute
from generator.options import BuildOptions
from generator.render.pdf import prerolled_pdf as render_mod
from generator.content.context import BuildContext
from generator.content.words import load_words
from generator.data.sources import shipped
from generator.render import csv_rows as csv_output

SEED = 871
WORDS = load_words()


def csv_header(size=5):
    """The CSV's header row in the catalogue's words: the row, the two checks, each of `size` men
    (871: "a crew of five")."""
    return [WORDS("prerolled.csv.row"), WORDS("prerolled.csv.closed"), WORDS("prerolled.csv.open"),
            *(WORDS("prerolled.csv.man", n=i) for i in range(1, size + 1))]


def pattern(key, **groups):
    """A regex for the catalogue's message `key`: its words as they stand, each {field} the regex
    given in `groups`, else a named group of non-spaces."""
    parts = re.split(r"\{(\w+)\}", WORDS(key))
    return "".join(re.escape(p) if i % 2 == 0 else groups.get(p, rf"(?P<{p}>\S+)") for i, p in enumerate(parts))


def printed(key, flat):
    """Every run of words of message `key` between its {fields} is in the page text `flat`."""
    return all(piece.strip() in flat for piece in re.split(r"\{\w+\}", WORDS(key)))


def note(n):
    return WORDS("prerolled.legend.note", note=n)


def checks_of(t):
    return WORDS("prerolled.legend.checks", closed=t["bail_out"]["closed"]["rule"], open=t["bail_out"]["open"]["rule"])


def rule_chances(closed_column=3, fate_column=3):
    """One row's chances from the rule text, for a closed check / fate read on `column`."""
    closed = F(1, closed_column)
    unhurt = wounded = F(1, fate_column)
    killed = 1 - unhurt - wounded
    pistol, rifle, smg = F(3, 4), F(1, 4) * F(1, 3), F(1, 4) * F(2, 3)
    man = {"K": killed, "UP": unhurt * pistol, "UR": unhurt * rifle, "US": unhurt * smg,
           "WP": wounded * pistol, "WR": wounded * rifle, "WS": wounded * smg}
    return {"closed": {"Y": closed, "N": 1 - closed}, "open": {"Y": F(1, 2), "N": F(1, 2)},
            **{f"man{i}": man for i in range(1, 6)}}


def expected_counts(chances, block):
    return {col: {code: p * block for code, p in dist.items()} for col, dist in chances.items()}


def rules_toml(data=DATA):
    import tomllib
    return tomllib.loads((data / "rules.toml").read_text(encoding="utf-8"))


def context(data=DATA, **options):
    kit = load(data)
    return BuildContext(kit, compute(kit), BuildOptions(parts=("prerolled",), **options), shipped("templates"))


def csv_rows(ctx):
    text = csv_output.render(ctx).decode()
    reader = list(csv.reader(io.StringIO(text)))
    return reader[0], reader[1:]


def blocks(rows, block):
    return [rows[i:i + block] for i in range(0, len(rows) - len(rows) % block, block)]


def column_counts(chunk, header):
    """{'closed'|'open'|'man1'..: Counter of codes}: each column after the row number, by its
    place in the header (row, the closed check, the open check, then each man)."""
    names = ["closed", "open", *(f"man{i}" for i in range(1, len(header) - 2))]
    return {name: Counter(row[i] for row in chunk) for i, name in enumerate(names, start=1)}


# --- balanced -------------------------------------------------------------------------------

def test_shipped_chances_give_the_issue_counts():
    # The issue's own figures for a block of 36, checked against the rule text's fractions.
    chances = rule_chances()
    assert math.lcm(*(p.denominator for d in chances.values() for p in d.values())) == 36
    counts = expected_counts(chances, 36)
    assert counts["closed"] == {"Y": 12, "N": 24} and counts["open"] == {"Y": 18, "N": 18}
    assert counts["man3"] == {"K": 12, "UP": 9, "UR": 1, "US": 2, "WP": 9, "WR": 1, "WS": 2}


def test_balanced_default_rows_are_whole_exact_blocks():
    header, rows = csv_rows(context())
    assert header == csv_header()
    assert len(rows) % 36 == 0 and 150 <= len(rows) <= 250       # whole blocks, about 200
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    want = expected_counts(rule_chances(), 36)
    chunks = blocks(rows, 36)
    assert len(chunks) == len(rows) // 36
    for chunk in chunks:
        assert column_counts(chunk, header) == want
    # Shuffled: blocks differ, and the man columns are shuffled apart from each other.
    assert len({tuple(r[3] for r in chunk) for chunk in chunks}) == len(chunks)
    assert len({tuple(r[i] for r in chunks[0]) for i in range(3, 8)}) == 5


def test_balanced_with_a_part_block_keeps_the_whole_blocks_exact():
    header, rows = csv_rows(context(rows=100))
    assert len(rows) == 100
    want = expected_counts(rule_chances(), 36)
    for chunk in blocks(rows, 36):
        assert column_counts(chunk, header) == want
    tail = column_counts(rows[72:], header)
    for name, counts in tail.items():
        assert all(n <= want[name][code] for code, n in counts.items())


# --- independent ----------------------------------------------------------------------------

def upper_gamma_q(a, x):
    """Regularized upper incomplete gamma Q(a, x) (series below a+1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(log_front)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi_square_p(observed, chances):
    n = sum(observed.values())
    stat = sum((observed.get(code, 0) - n * float(p)) ** 2 / (n * float(p)) for code, p in chances.items())
    return upper_gamma_q((len(chances) - 1) / 2, stat / 2)


def test_p_value_matches_closed_forms():
    for x in (0.5, 2.0, 7.3, 30.0):
        assert upper_gamma_q(1.0, x / 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)       # 2 df
        assert upper_gamma_q(2.0, x / 2) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9)
        assert upper_gamma_q(0.5, x / 2) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
    assert upper_gamma_q(3.0, 12.5916 / 2) == pytest.approx(0.05, abs=1e-4)   # 6 df, 5% point


def test_independent_cells_fit_the_rule_chances():
    header, rows = csv_rows(context(rows=100_000, mode="independent", seed=SEED))
    assert len(rows) == 100_000
    chances = rule_chances()
    counts = column_counts(rows, header)
    for name, dist in chances.items():
        assert set(counts[name]) <= set(dist), name
        assert chi_square_p(counts[name], dist) > 0.001, (name, counts[name])
    # The test has power: the same counts are far off a wrong (uniform) distribution.
    uniform = {code: F(1, 7) for code in chances["man1"]}
    assert chi_square_p(counts["man1"], uniform) < 1e-12
    # And the mode is not balanced: some 36-row block misses the exact counts.
    want = expected_counts(chances, 36)
    assert any(column_counts(chunk, header) != want for chunk in blocks(rows[:36 * 20], 36))


# --- PDF = CSV --------------------------------------------------------------------------------

# A man's cell in the catalogue's words -> his code in the CSV (871.3 fate, 871.4 weapon).
FATE = {WORDS("prerolled.cell.unhurt"): "U", WORDS("prerolled.cell.wounded"): "W"}
WEAPON = {WORDS("prerolled.cell.pistol"): "P", WORDS("prerolled.cell.rifle"): "R", WORDS("prerolled.cell.smg"): "S"}
KILLED = WORDS("prerolled.cell.killed")


def _any_of(words):
    return "|".join(re.escape(w) for w in words)


CELL = re.compile(pattern("prerolled.cell.man", fate=f"(?P<fate>{_any_of(FATE)})", weapon=f"(?P<weapon>{_any_of(WEAPON)})")
                  + "|" + re.escape(KILLED))
ROW = re.compile(r"(\d+) ([YN]) ([YN]) (.*)")


def pdf_rows(pdf):
    """[(row, closed, open, man codes...)] and the page texts, read back from the PDF text."""
    rows, pages = [], []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        text = page.extract_text()
        pages.append(text)
        for line in text.splitlines():
            m = ROW.fullmatch(line.strip())
            if not m:
                continue
            men = [("K" if c.group(0) == KILLED else FATE[c.group("fate")] + WEAPON[c.group("weapon")])
                   for c in CELL.finditer(m.group(4))]
            assert CELL.sub("", m.group(4)).strip() == "", line      # nothing unparsed left over
            rows.append([m.group(1), m.group(2), m.group(3), *men])
    return rows, pages


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("mode", ["balanced", "independent"])
def test_pdf_rows_equal_csv_rows_and_every_page_is_stamped(paper, mode):
    ctx = context(rows=130, mode=mode, seed=5)
    _, csv_body = csv_rows(ctx)
    rows, pages = pdf_rows(render_mod.render(ctx, PAPERS[paper]))
    assert rows == csv_body
    assert len(pages) >= 3
    t = rules_toml()
    voluntary = t["interpretation"]["voluntary_casualties"]
    assert voluntary["reading"] == "none"       # the shipped reading: no casualties drawn
    said = WORDS("prerolled.legend.voluntary.text", sentence=voluntary["readings"]["none"].rstrip("."),
                 note=note(voluntary["note"]), read=WORDS("prerolled.legend.voluntary.none", checks=checks_of(t)))
    hero = f"prerolled.legend.hero.{t['interpretation']['hero_card']['reading']}"
    stamp = re.compile(pattern("prerolled.heading.stamp"))
    for n, text in enumerate(pages, 1):
        flat = " ".join(text.split())
        assert WORDS("prerolled.heading.page", page=n, pages=len(pages)) in flat
        found = stamp.search(flat)
        assert found and (found["seed"], found["mode"], found["data"]) == ("5", mode, ctx.kit.short_hash)
        for key in ("prerolled.legend.use.text", "prerolled.legend.men.text", hero, "prerolled.legend.rows.text"):
            assert printed(key, flat), (n, key)
        assert said in flat, n


def test_plain_text_path_prints_the_same_rows():
    ctx = context(rows=80)
    fast = render_mod.render(ctx, PAPERS["a4"])
    plain = render_mod.render(ctx, PAPERS["a4"], fast_text=False)
    assert fast != plain        # the cells written another way ...
    assert pdf_rows(fast) == pdf_rows(plain)        # ... print the same


# --- reproducible ----------------------------------------------------------------------------

def test_same_seed_same_bytes_other_seed_other_rows():
    a, b = context(seed=11), context(seed=11)
    for paper in ("a4", "letter"):
        assert render_mod.render(a, PAPERS[paper]) == render_mod.render(b, PAPERS[paper])
    assert csv_output.render(a) == csv_output.render(b)
    other = context(seed=12)
    assert csv_rows(other)[1] != csv_rows(a)[1]
    assert render_mod.render(other, PAPERS["a4"]) != render_mod.render(a, PAPERS["a4"])


# --- a rule change in data/ -----------------------------------------------------------------

CLOSED_3 = 'label = "Non-open-topped AFV"\ncolumn = 3'
FATE_3 = '[fate]\nrule = "871.3"\ncolumn = 3'


def test_closed_check_on_column_4_changes_its_counts(data_copy):
    edit(data_copy / "rules.toml", CLOSED_3, CLOSED_3.replace("3", "4"))
    header, rows = csv_rows(context(data_copy))
    chances = rule_chances(closed_column=4)
    # 1/4 still divides a block of 36, so the block stays; the closed column now holds 9 Y.
    assert math.lcm(*(p.denominator for d in chances.values() for p in d.values())) == 36
    want = expected_counts(chances, 36)
    assert want["closed"] == {"Y": 9, "N": 27}
    for chunk in blocks(rows, 36):
        assert column_counts(chunk, header) == want


def test_fate_on_column_4_changes_the_block_and_counts(data_copy, tmp_path):
    rules = data_copy / "rules.toml"
    edit(rules, CLOSED_3, CLOSED_3.replace("3", "4"))
    edit(rules, FATE_3, FATE_3.replace("column = 3", "column = 4"))
    # closed 1/4; fate 1/4 unhurt, 1/4 wounded, 1/2 killed; UR = 1/4 * 1/12 = 1/48: block 48.
    chances = rule_chances(closed_column=4, fate_column=4)
    want = expected_counts(chances, 48)
    assert want["closed"] == {"Y": 12, "N": 36}
    assert want["man1"] == {"K": 24, "UP": 9, "UR": 1, "US": 2, "WP": 9, "WR": 1, "WS": 2}
    status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--quiet",
                             "--data", data_copy, "--out", tmp_path / "out")
    assert status == 0, err
    text = (tmp_path / "out" / "prerolled.csv").read_text()
    reader = list(csv.reader(io.StringIO(text)))
    header, rows = reader[0], reader[1:]
    assert len(rows) % 48 == 0 and len(rows) % 36 != 0
    for chunk in blocks(rows, 48):
        assert column_counts(chunk, header) == want
    pdf = (tmp_path / "out" / "prerolled-a4.pdf").read_bytes()
    flat = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    stamp = re.search(pattern("prerolled.heading.stamp"), flat)
    assert stamp and stamp["block"] == "48"
    assert pdf_rows(pdf)[0] == rows


def test_a_bigger_crew_gets_more_columns_printed_as_codes(data_copy):
    edit(data_copy / "rules.toml", "size = 5\n", "size = 8\n")
    ctx = context(data_copy, rows=40)
    header, rows = csv_rows(ctx)
    assert header == csv_header(8)
    text = PdfReader(io.BytesIO(render_mod.render(ctx, PAPERS["a4"]))).pages[0].extract_text()
    printed = [line.split() for line in text.splitlines() if re.fullmatch(r"\d+( [A-Z]{1,2}){10}", line.strip())]
    assert printed == rows[:len(printed)] and len(printed) >= 30
    assert WORDS("prerolled.legend.codes.text") in " ".join(text.split())


# --- the CLI ------------------------------------------------------------------------------------

def test_build_writes_both_papers_and_the_csv(tmp_path):
    status, _, err = run_cli("build", "--only", "prerolled", "--quiet", "--out", tmp_path)
    assert status == 0, err
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
    assert {"prerolled-a4.pdf", "prerolled-letter.pdf", "prerolled.csv"} <= set(names)
    rows = list(csv.reader(io.StringIO((tmp_path / "prerolled.csv").read_text())))[1:]
    for paper in ("a4", "letter"):
        assert pdf_rows((tmp_path / f"prerolled-{paper}.pdf").read_bytes())[0] == rows


@pytest.mark.parametrize("args", [["--rows", "0"], ["--rows", "ten"], ["--seed", "-1"], ["--seed", "x"],
                                  ["--mode", "shuffled"]])
def test_bad_options_exit_2(args, tmp_path):
    status, _, err = run_cli("build", "--only", "prerolled", "--out", tmp_path, *args)
    assert status == 2
    assert "Traceback" not in err and args[0] in err
    assert not list(tmp_path.glob("*.pdf"))


# --- print quality ------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rows_are_legible_and_inside_their_columns(paper):
    import pdfplumber
    ctx = context(rows=60)
    pdf = render_mod.render(ctx, PAPERS[paper])
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        chars = page.chars
        assert all(0 <= ch["x0"] and ch["x1"] <= page.width for ch in chars)
        body = [ch for ch in chars if ch["fontname"].split("+")[-1] in ("DejaVuSans", "DejaVuSans-Bold") and ch["size"] >= 8]
        killed = [w for w in page.extract_words(keep_blank_chars=False) if w["text"] == KILLED]
        assert killed and all(w["bottom"] - w["top"] >= 8 for w in killed)
        tops = sorted({round(w["top"], 1) for w in killed})
        assert min(b - a for a, b in zip(tops, tops[1:])) >= 8     # row pitch
        # Every man's text stays between its column rules.
        rules = sorted({round(e["x0"], 1) for e in page.edges if e["orientation"] == "v"})
        assert len(rules) >= 8
        words = page.extract_words(keep_blank_chars=True, x_tolerance=1.5)
        for w in words:
            if CELL.fullmatch(w["text"].strip()):
                assert not any(w["x0"] < x < w["x1"] for x in rules), w
        assert len(body) > 1000


def test_fonts_embedded_and_bookmarks_per_page_group():
    pdf = render_mod.render(context(rows=400), PAPERS["letter"])
    reader = PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert "DejaVuSans" in font["/BaseFont"]
            assert "/FontFile2" in font["/FontDescriptor"].get_object()
    titles = [item["/Title"] for item in reader.outline]
    assert len(titles) == len(reader.pages)             # one group a page at this size
    spans = [tuple(map(int, re.fullmatch(pattern("prerolled.outline.rows", first=r"(\d+)", last=r"(\d+)"), t).groups()))
             for t in titles]
    assert spans[0][0] == 1 and spans[-1][1] == 400
    assert all(b[0] == a[1] + 1 for a, b in zip(spans, spans[1:]))


def test_bw_uses_no_colour():
    colour = render_mod.render(context(rows=60), PAPERS["a4"])
    bw = render_mod.render(context(rows=60, bw=True), PAPERS["a4"])

    def ops(pdf):
        return b"".join(p.get_contents().get_data() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert re.search(rb" rg\b", ops(colour))
    assert not re.search(rb" (rg|RG|k|K)\b", ops(bw))


def test_hostile_data_text_stays_on_the_page(data_copy):
    rules = data_copy / "rules.toml"
    edit(rules, 'label = "Non-open-topped AFV"', 'label = "' + "<Tiger & Panther> " * 600 + '"')
    edit(rules, 'rule = "871.1.b"', 'rule = "' + "X" * 10_000 + '"')
    ctx = context(data_copy, rows=50)
    pdf = render_mod.render(ctx, PAPERS["a4"])
    import pdfplumber
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        assert all(0 <= ch["x0"] and ch["x1"] <= page.width + 0.01 for ch in page.chars)
    rows, pages = pdf_rows(pdf)
    assert rows == csv_rows(ctx)[1]
    flat = " ".join(pages[0].split())
    for key in ("prerolled.legend.hero.separate", "prerolled.legend.voluntary.none", "prerolled.legend.rows.text"):
        assert printed(key, flat), key      # the runaway label did not push the other items out


# --- geometry, without reportlab ----------------------------------------------------------------

def test_layout_and_rows_need_no_reportlab():
    code = ("import sys, generator.layout.table, generator.content.rows; "
            "sys.exit(any(m.startswith('reportlab') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_geometry_fills_the_paper_within_margins(paper):
    p = PAPERS[paper]
    widths = [("row", 30, False), ("tick", 13, False), ("a", 40, True), ("b", 60, True)]
    geo = table_geometry(p, widths, row_height=11.5, top=120, bottom=16, margin=30)
    xs = [c.x for c in geo.columns]
    assert xs[0] == 30 and geo.right == pytest.approx(p.width - 30)
    assert all(a.right == pytest.approx(b.x) for a, b in zip(geo.columns, geo.columns[1:]))
    assert geo.columns[2].width - 40 == pytest.approx(geo.columns[3].width - 60)   # growers share
    assert geo.body_top == pytest.approx(p.height - 30 - 120)
    assert geo.row_bottom(geo.rows_per_page - 1) >= 30 + 16
    assert geo.row_bottom(geo.rows_per_page) < 30 + 16                              # no room lost
    rows = 1000
    seen = [i for page in range(1, geo.pages(rows) + 1) for i in geo.page_rows(page, rows)]
    assert seen == list(range(rows))
    groups = geo.bookmark_groups(rows)
    assert groups[0][:3] == ("prerolled-rows-1", 1, geo.rows_per_page) and groups[-1][2] == rows
    many = geo.bookmark_groups(1_000_000)
    assert len(many) <= MAX_BOOKMARKS and many[-1][2] == 1_000_000
    assert len({g[0] for g in many}) == len(many)


def test_geometry_refuses_what_cannot_fit():
    with pytest.raises(RenderError):
        table_geometry(PAPERS["a4"], [("x", 600, True)], row_height=11.5, top=10, bottom=10, margin=30)
    with pytest.raises(RenderError):
        table_geometry(PAPERS["a4"], [("x", 60, True)], row_height=11.5, top=800, bottom=10, margin=30)


def test_legend_follows_the_voluntary_reading_in_force(data_copy):
    rules = data_copy / "rules.toml"
    edit(rules, 'note = 1\nreading = "none"', 'note = 1\nreading = "draw"')
    ctx = context(data_copy, rows=20)
    sentence = next(i for i in ctx.kit.rules.interpretations if i.name == "voluntary_casualties").sentence
    assert "still draws for wounds" in sentence         # the data's own wording of the 'draw' reading
    flat = " ".join(PdfReader(io.BytesIO(render_mod.render(ctx, PAPERS["letter"]))).pages[0].extract_text().split())
    t = rules_toml(data_copy)
    checks = checks_of(t)
    read = WORDS("prerolled.legend.voluntary.other", checks=checks)
    assert WORDS("prerolled.legend.voluntary.text", sentence=sentence.rstrip("."), note=note(1), read=read) in flat
    assert WORDS("prerolled.legend.voluntary.none", checks=checks) not in flat


def test_legend_words_the_checks_and_hero_cards_as_the_rule_does():
    # 871.1.a/b read the RPC of the kill card, and only for a kill by the exact number (note 8);
    # 871.4: a Hero card may be played "for any individual within the Crew" and "also automatically
    # Unpins" him; with note 2 "separate" it is a card apart from the 871.3 one.  The table is the
    # kit's aid, not the rule: it says it replaces those card reads and draws, by agreement.
    ctx = context(rows=20)
    t = rules_toml()
    closed, open_, hero = t["bail_out"]["closed"], t["bail_out"]["open"], t["hero"]
    readings = {name: s["reading"] for name, s in t["interpretation"].items()}
    notes = {name: s["note"] for name, s in t["interpretation"].items()}
    assert readings["over_kill"] == "no_bail_out" and readings["hero_card"] == "separate"
    assert hero["weapon_choice"] == ["rifle", "smg"] and hero["unpins"]
    use = WORDS("prerolled.legend.use.text", closed=closed["rule"], open=open_["rule"], fate=t["fate"]["rule"],
                weapon=t["weapon"]["rule"])
    # the rule's terms for the checks (a kill by the exact number only), not the kit's "Closed" and "Open"
    # (those stay the CSV's keys); Y and N are the codes its columns print
    check = WORDS("prerolled.legend.check.text", checks=checks_of(t), when=WORDS("prerolled.legend.check.exact"),
                  note=note(notes["over_kill"]), closed=closed["rule"], closed_label=closed["label"],
                  closed_column=closed["column"], open=open_["rule"], open_label=open_["label"],
                  open_column=open_["column"], yes="Y", no="N")
    choice = WORDS("prerolled.legend.or", a=WORDS("prerolled.cell.rifle"), b=WORDS("prerolled.cell.smg"))
    hero_card = WORDS("prerolled.legend.hero.separate", fate_rule=hero["fate_rule"], result=hero["fate_result"],
                      weapon_rule=hero["weapon_rule"], choice=choice, unpins=WORDS("prerolled.legend.hero.unpins"),
                      note=note(notes["hero_card"]))
    for paper in ("a4", "letter"):
        flat = " ".join(PdfReader(io.BytesIO(render_mod.render(ctx, PAPERS[paper]))).pages[0].extract_text().split())
        assert use in flat and check in flat and hero_card in flat
        assert f"({note(notes['voluntary_casualties'])})" in flat
        assert "Closed" not in flat and "Open and" not in flat and "second Hero card" not in flat
        assert not re.search(r"\(note \d", flat)        # every note cited is the player aid's


def _first_page(ctx, paper):
    return " ".join(PdfReader(io.BytesIO(render_mod.render(ctx, PAPERS[paper]))).pages[0].extract_text().split())


def test_legend_has_hero_cards_and_the_crew_order_fixed_before_the_row_is_read(data_copy):
    # issue 21.  871.3: the Hero man "doesn't have to draw a RPC": the card replaces his draw, so it
    # is played, its man named, before the row is read (never put on a man whose cell says Killed);
    # 871.4 likewise.  871.2: "The personality cards must be determined before the player calculates
    # the status of those individuals": the crew, in Man 1-5 order, before the row is read.
    t = rules_toml()
    hero, crew = t["hero"], t["crew"]
    before = "before you read the row"
    for key in ("prerolled.legend.hero.separate", "prerolled.legend.hero.single", "prerolled.legend.men.text"):
        assert before in WORDS(key), key
    assert "naming its man" in WORDS("prerolled.legend.hero.separate") and "order" in WORDS("prerolled.legend.men.text")
    choice = WORDS("prerolled.legend.or", a=WORDS("prerolled.cell.rifle"), b=WORDS("prerolled.cell.smg"))
    first, last = WORDS("prerolled.head.man", n=1), WORDS("prerolled.head.man", n=crew["size"])
    men = WORDS("prerolled.legend.men.text", first=first, last=last, fate=t["fate"]["rule"], weapon=t["weapon"]["rule"],
                casualty=crew["commander_casualty_rule"], crew=crew["morale_rule"],
                none=WORDS("prerolled.legend.men.none", fates=WORDS("prerolled.cell.killed")))
    hide = WORDS("prerolled.legend.hide.text")
    fields = dict(result=hero["fate_result"], fate_rule=hero["fate_rule"], weapon_rule=hero["weapon_rule"],
                  choice=choice, unpins=WORDS("prerolled.legend.hero.unpins"),
                  note=note(t["interpretation"]["hero_card"]["note"]))
    ctx = context(rows=20)
    for paper in ("a4", "letter"):
        flat = _first_page(ctx, paper)
        assert men in flat and hide in flat and WORDS("prerolled.legend.hero.separate", **fields) in flat
    edit(data_copy / "rules.toml", 'note = 2\nreading = "separate"', 'note = 2\nreading = "single"')
    flat = _first_page(context(data_copy, rows=20), "a4")
    assert WORDS("prerolled.legend.hero.single", **fields) in flat and men in flat


def test_balanced_legend_says_what_a_block_gives_away():
    # issue 21: a balanced block holds fixed counts, so the rows used tell what is left of it.
    block = 36      # lcm of 3, 2 and 36 (871.1.a 1/3, 871.1.b 1/2, a man's joint outcome in 36ths)
    said = WORDS("prerolled.legend.rows.balanced", block=block, next=block + 1, double=2 * block)
    assert said in _first_page(context(rows=2 * block), "a4")
    assert said not in _first_page(context(rows=20, mode="independent"), "a4")


def test_legend_owns_up_to_a_part_block(tmp_path):
    # 36 rows to a block with the shipped rules (lcm of 3, 2 and 36): 40 rows = one block + 4.
    for rows, words in ((40, WORDS("prerolled.legend.rows.part", first=37, last=40)),
                        (10, WORDS("prerolled.legend.rows.short", rows=10, block=36))):
        status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--rows", rows,
                                 "--out", tmp_path / str(rows))
        assert status == 0, err
        text = " ".join(PdfReader(tmp_path / str(rows) / "prerolled-a4.pdf").pages[0].extract_text().split())
        assert words in text


def test_the_hero_figure_is_the_one_the_legend_plays():
    # issue 21: the aid's "5 + Hero" average assumes the Hero card is played, its man named, before
    # the draws (871.3: he "doesn't have to draw a RPC"), as the legend now says.  A Hero put on a
    # man whose cell is seen to say Killed would give 10/3 + P(someone killed) instead.
    alive = F(2, 3)             # 871.3: column 3 reads 1 unhurt or 2 wounded, of 3
    size = 5
    before = 1 + (size - 1) * alive
    peeking = size * alive + (1 - alive ** size)
    assert (before, peeking) == (F(11, 3), F(1021, 243))
    assert compute(load(DATA)).expected_survivors[size][True] == before
