"""Pre-rolled bail-out tables: exact blocks, fair independent draws, PDF = CSV, reproducible.

Every expected count comes from the words of rule 871 (and the kit's stated limits), never from
the code under test: 871.1.a column 3 reads 1 (1/3), 871.1.b column 2 reads 1 (1/2); 871.3
column 3: 1 unhurt, 2 wounded, else killed; 871.4 column 4 reads 1 for a weapon (1/4), then
column 3 of that card: 1 rifle (1/3), else SMG (2/3).  The kit's words (legend, heads, cells,
the CSV header) are read from the English catalogue.
"""

import csv
import io
import itertools
import math
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction as F

import pytest
from pypdf import PdfReader

from conftest import DATA, ROOT, SLOW, edit, kit_of, page_texts, run_cli, shipped_kit
from generator.content.context import make_context
from generator.content.rows import table_for
from generator.content.words import available_languages, load_words
from generator.data.sources import shipped
from generator.engine.odds import compute
from generator.errors import RenderError
from generator.layout.paper import PAPERS
from generator.layout.table import MAX_BOOKMARKS, table_geometry
from generator.options import BuildOptions
from generator.render import csv_rows as csv_output
from generator.render.pdf import prerolled_pdf as render_mod
from pdfpage import pages_of, words_of

SEED = 871
WORDS = load_words()


def csv_header(size=5):
    """The CSV's header row in the catalogue's words: the row, each of `size` men's fate, then each
    one's weapon (871: "a crew of five")."""
    return [WORDS("prerolled.csv.row"), *(WORDS("prerolled.csv.fate", n=i) for i in range(1, size + 1)),
            *(WORDS("prerolled.csv.weapon", n=i) for i in range(1, size + 1))]


def pattern(key, **groups):
    """A regex for the catalogue's message `key`: its words as they stand, each {field} the regex
    given in `groups`, else a named group of non-spaces."""
    parts = re.split(r"\{(\w+)\}", WORDS(key))
    return "".join(re.escape(p) if i % 2 == 0 else groups.get(p, rf"(?P<{p}>\S+)") for i, p in enumerate(parts))


def printed(key, flat):
    """Every run of words of message `key` between its {fields} is in the page text `flat`."""
    return all(piece.strip() in flat for piece in re.split(r"\{\w+\}", WORDS(key)))


def rule_chances(fate_column=3, size=5):
    """One row's chances from the rule text, by the CSV's column names: each man's fate (871.3,
    read on `fate_column`: 1 unhurt, 2 wounded, else killed), each man's weapon (871.4: column 4
    reads 1 one time in 4, then column 3: 1 rifle, else SMG)."""
    unhurt = wounded = F(1, fate_column)
    fate = {"U": unhurt, "W": wounded, "K": 1 - unhurt - wounded}
    weapon = {"P": F(3, 4), "R": F(1, 4) * F(1, 3), "S": F(1, 4) * F(2, 3)}
    return {**{WORDS("prerolled.csv.fate", n=i): fate for i in range(1, size + 1)},
            **{WORDS("prerolled.csv.weapon", n=i): weapon for i in range(1, size + 1)}}


def lcm_of(chances):
    return math.lcm(*(p.denominator for d in chances.values() for p in d.values()))


def expected_counts(chances, block):
    return {col: {code: p * block for code, p in dist.items() if p} for col, dist in chances.items()}


def rules_toml(data=DATA):
    import tomllib
    return tomllib.loads((data / "rules.toml").read_text(encoding="utf-8"))


def context(data=DATA, **options):
    kit = kit_of(data)
    return make_context(kit, compute(kit), BuildOptions(parts=("prerolled",), **options), shipped("templates"))


def render_pdf(ctx, paper, **options):
    """The pre-rolled PDF of ctx's rows on `paper`."""
    return render_mod.render(ctx, paper, table_for(ctx), **options)


def render_csv(ctx):
    return csv_output.render(ctx, table_for(ctx))


def csv_rows(ctx):
    """The CSV's header and rows as a spreadsheet reads them (UTF-8 with its byte order mark)."""
    text = render_csv(ctx).decode("utf-8-sig")
    reader = list(csv.reader(io.StringIO(text, newline="")))
    return reader[0], reader[1:]


def drawn_rows(ctx):
    """The header and every row as drawn, the weapon of a killed man too (the CSV and the PDF
    leave it out): what the chances are counted over."""
    table = table_for(ctx)
    return csv_header(len(table.columns) // 2), [[str(i), *row] for i, row in enumerate(table.rows, 1)]


def blocks(rows, block):
    return [rows[i:i + block] for i in range(0, len(rows) - len(rows) % block, block)]


def column_counts(chunk, header):
    """{CSV column name: Counter of codes} for each column after the row number."""
    return {name: Counter(row[i] for row in chunk) for i, name in enumerate(header) if i}


# --- balanced -------------------------------------------------------------------------------

def test_shipped_chances_give_blocks_of_twelve():
    # 871.3: thirds; 871.4: 3/4 pistol, 1/12 rifle, 1/6 SMG: a block of 12 holds each exactly.
    chances = rule_chances()
    assert lcm_of(chances) == 12
    counts = expected_counts(chances, 12)
    assert counts[WORDS("prerolled.csv.fate", n=3)] == {"U": 4, "W": 4, "K": 4}
    assert counts[WORDS("prerolled.csv.weapon", n=3)] == {"P": 9, "R": 1, "S": 2}


def test_balanced_rows_are_whole_exact_blocks():
    header, rows = drawn_rows(context(mode="balanced"))
    assert header == csv_header()
    assert len(rows) % 12 == 0 and 190 <= len(rows) <= 210       # whole blocks, about 200
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    want = expected_counts(rule_chances(), 12)
    chunks = blocks(rows, 12)
    assert len(chunks) == len(rows) // 12
    for chunk in chunks:
        assert column_counts(chunk, header) == want
    # Shuffled: blocks differ, and the men's columns are shuffled apart from each other.
    assert len({tuple(r[1] for r in chunk) for chunk in chunks}) > len(chunks) // 2
    assert len({tuple(r[i] for r in chunks[0] + chunks[1]) for i in range(1, 6)}) == 5


def test_balanced_with_a_part_block_keeps_the_whole_blocks_exact():
    header, rows = drawn_rows(context(rows=100, mode="balanced"))
    assert len(rows) == 100
    want = expected_counts(rule_chances(), 12)
    for chunk in blocks(rows, 12):
        assert column_counts(chunk, header) == want
    tail = column_counts(rows[96:], header)
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


# README's command draws 25,000 rows (every column's fit p 0.02 or more, the uniform weapon
# column's p under 1e-300, some 8,000 killed first men); CI (BAILOUT_SLOW_TESTS=1) 100,000.
INDEPENDENT_ROWS = 100_000 if SLOW else 25_000


def test_independent_cells_fit_the_rule_chances():
    header, rows = drawn_rows(context(rows=INDEPENDENT_ROWS, seed=SEED))        # independent: the default
    assert len(rows) == INDEPENDENT_ROWS
    chances = rule_chances()
    counts = column_counts(rows, header)
    for name, dist in chances.items():
        assert set(counts[name]) <= set(dist), name
        assert chi_square_p(counts[name], dist) > 0.001, (name, counts[name])
    # The test has power: the same counts are far off a wrong (uniform) distribution.
    weapon1 = WORDS("prerolled.csv.weapon", n=1)
    assert chi_square_p(counts[weapon1], {code: F(1, 3) for code in "PRS"}) < 1e-12
    # And the mode is not balanced: some 12-row block misses the exact counts.
    want = expected_counts(chances, 12)
    assert any(column_counts(chunk, header) != want for chunk in blocks(rows[:12 * 20], 12))
    # Nor are a man's fate and his weapon tied: the armed share is the rule's among the killed too.
    fate1 = WORDS("prerolled.csv.fate", n=1)
    killed = [r for r in rows if r[header.index(fate1)] == "K"]
    armed = sum(r[header.index(weapon1)] != "P" for r in killed) / len(killed)
    assert abs(armed - 0.25) < 4 * math.sqrt(0.25 * 0.75 / len(killed))



@pytest.mark.parametrize("mode", ["independent", "balanced"])
def test_weapon_cells_read_on_across_rows_keep_the_rule_chances(mode):
    """After a voluntary bail-out (note 1, reading "none") no fate is drawn, so every man draws a
    weapon, but a row shows a weapon only for each man its fate column left alive: the legend reads
    the weapon cells left to right, passing over the dashes, on into the next rows.  The weapon
    columns are drawn apart from the fate columns, so the cells of that stream, whoever they go
    to, are 871.4's chances, in both modes."""
    header, rows = csv_rows(context(rows=12_000, seed=SEED, mode=mode))    # the cells a player reads
    weapons = [header.index(WORDS("prerolled.csv.weapon", n=man)) for man in range(1, 6)]
    stream = [row[i] for row in rows for i in weapons if row[i]]     # an empty cell: the PDF's dash
    assert len(stream) < len(rows) * len(weapons)       # rows run short: the reading needs the next row
    chances = rule_chances()[WORDS("prerolled.csv.weapon", n=1)]
    assert chi_square_p(Counter(stream), chances) > 0.001, (mode, Counter(stream))
    # The test has power: reading a dash as "pistol only" instead of passing over it is far off.
    as_pistol = Counter(row[i] or "P" for row in rows for i in weapons)
    assert chi_square_p(as_pistol, chances) < 1e-12


def test_the_default_table_is_independent_and_fills_its_pages_on_both_papers(kit_files):
    """The default gives nothing away (no blocks to count down), and its rows fill whole pages:
    the last page at least 80% full on A4 and on Letter, page 1's instructions five lines at most."""
    assert BuildOptions().mode == "independent"
    header, *rows = list(csv.reader(io.StringIO(kit_files["prerolled.csv"].decode("utf-8-sig"), newline="")))
    assert header == csv_header() and 150 <= len(rows) <= 300       # about 200: the layout's whole pages
    for paper in ("a4", "letter"):
        pdf = kit_files[f"prerolled-{paper}.pdf"]
        printed_rows, pages = pdf_rows(pdf)
        assert [int(r[0]) for r in printed_rows] == list(range(1, len(rows) + 1))
        per_page = [sum(1 for line in text.splitlines() if ROW.fullmatch(line.strip())) for text in pages]
        assert len(per_page) >= 3 and per_page[-1] >= 0.8 * max(per_page[1:]), (paper, per_page)
        assert legend_lines(pdf) <= 5, paper
        assert legend_size(pdf) >= 7.5, paper       # read at arm's length beside the cells


def _legend_band(pdf):
    """(page 1, the title line's bottom, the column heads' top): the instructions lie between."""
    page = pages_of(pdf)[0]
    title = WORDS("prerolled.heading.title", rule=rules_toml()["variant"]["number"]).split()[-1]
    fates = WORDS("prerolled.head.fates", rule=rules_toml()["fate"]["rule"]).split()[0]
    title_line = min(w["bottom"] for w in page.words if w["text"] == title)      # the rows beside it share it
    heads_top = min(w["top"] for w in page.words if w["text"] == fates)
    return page, title_line, heads_top


def legend_lines(pdf):
    """The lines of page 1 between the title and the column heads: the instructions."""
    page, title_line, heads_top = _legend_band(pdf)
    return len({round(w["bottom"]) for w in page.words if title_line + 2 < w["bottom"] < heads_top})


def legend_size(pdf):
    """The smallest type of page 1's instructions, points."""
    page, title_line, heads_top = _legend_band(pdf)
    return min(ch["size"] for ch in page.chars if title_line + 2 < ch["bottom"] < heads_top and ch["text"].strip())


# --- PDF = CSV --------------------------------------------------------------------------------

# A cell in the catalogue's words -> its code in the CSV (871.3 fate, 871.4 weapon).
FATE = {WORDS("prerolled.cell.unhurt"): "U", WORDS("prerolled.cell.wounded"): "W", WORDS("prerolled.cell.killed"): "K"}
WEAPON = {WORDS("prerolled.cell.pistol"): "P", WORDS("prerolled.cell.rifle"): "R", WORDS("prerolled.cell.smg"): "S"}
KILLED = WORDS("prerolled.cell.killed")
DASH = "\u2013"        # a killed man's weapon cell: he draws none (871.4 arms the men who get out)


def _any_of(words):
    return "|".join(re.escape(w) for w in words)


CELL = re.compile(_any_of({**FATE, **WEAPON, DASH: DASH}))
ROW = re.compile(rf"(\d+) ((?:(?:{_any_of({**FATE, **WEAPON, DASH: DASH})}) ?)+)")


def dashed(rows, size=5):
    """CSV rows as the PDF prints them: a killed man's weapon cell, empty in the CSV, a dash.  Each
    empty cell is a killed man's weapon and no other (871.4 arms the men who get out)."""
    for row in rows:
        assert [w == "" for w in row[1 + size:]] == [f == "K" for f in row[1:1 + size]], row
    return [[row[0], *row[1:1 + size], *(w or DASH for w in row[1 + size:])] for row in rows]


def pdf_rows(pdf, size=5):
    """[(row, fate codes..., weapon codes...)] and the page texts, read back from the PDF text."""
    rows, pages = [], []
    for text in page_texts(pdf):
        pages.append(text)
        for line in text.splitlines():
            m = ROW.fullmatch(line.strip())
            if not m:
                continue
            cells = CELL.findall(m.group(2))
            assert len(cells) == 2 * size, line
            fates, weapons = cells[:size], cells[size:]
            rows.append([m.group(1), *(FATE[c] for c in fates), *(WEAPON.get(c, c) for c in weapons)])
    return rows, pages


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("mode", ["balanced", "independent"])
def test_pdf_rows_equal_csv_rows_and_every_page_says_its_rows(paper, mode):
    ctx = context(rows=130, mode=mode, seed=5)
    _, csv_body = csv_rows(ctx)
    rows, pages = pdf_rows(render_pdf(ctx, PAPERS[paper]))
    assert rows == dashed(csv_body)
    assert DASH in {cell for row in rows for cell in row}
    assert len(pages) >= 2
    t = rules_toml()
    voluntary = t["interpretation"]["voluntary_casualties"]
    assert voluntary["reading"] == "none"       # the shipped reading: no casualties drawn
    said = " ".join(WORDS("prerolled.legend.voluntary.none", note=voluntary["note"]).split())    # a tie as a space
    heading = re.compile(pattern("prerolled.heading.rows"))
    for n, text in enumerate(pages, 1):
        flat = " ".join(text.split())
        # the page number once, in the footer
        assert flat.count(WORDS("page.footer.page", part=WORDS("page.footer.part.prerolled"), page=n,
                                pages=len(pages)).strip(" ·")) == 1, n
        found = heading.search(flat)
        assert found and found["rows"] == "130" and (n > 1 or found["first"] == "1"), n
        # no program marks: no seed, no mode, no stamp or version on a player's page
        assert "Seed" not in flat and mode not in flat and "edition" not in flat and "kit 0" not in flat, n
        assert ctx.kit.short_hash not in flat and ctx.stamp.short not in flat
        # the legend once, on the first page; the later pages hold rows only
        for key in ("prerolled.legend.use.text", "prerolled.legend.read.text", "prerolled.legend.hero.text",
                    "prerolled.legend.hide.text"):
            assert printed(key, flat) == (n == 1), (n, key)
        assert printed("prerolled.legend.rows.balanced", flat) == (n == 1 and mode == "balanced"), n
        assert (said in flat) == (n == 1), n


def test_plain_text_path_prints_the_same_rows():
    ctx = context(rows=80)
    fast = render_pdf(ctx, PAPERS["a4"])
    plain = render_pdf(ctx, PAPERS["a4"], fast_text=False)
    assert fast != plain        # the cells written another way ...
    assert pdf_rows(fast) == pdf_rows(plain)        # ... print the same


# --- reproducible, and a seed nobody else knows ----------------------------------------------

def test_same_seed_same_bytes_other_seed_other_rows():
    a, b = context(seed=11), context(seed=11)
    for paper in ("a4", "letter"):
        assert render_pdf(a, PAPERS[paper]) == render_pdf(b, PAPERS[paper])
    assert render_csv(a) == render_csv(b)
    other = context(seed=12)
    assert csv_rows(other)[1] != csv_rows(a)[1]
    assert render_pdf(other, PAPERS["a4"]) != render_pdf(a, PAPERS["a4"])


def _seed_printed(pdf, seed):
    """Whether `seed` shows anywhere a reader can see it: the page text or the document's metadata."""
    reader = PdfReader(io.BytesIO(pdf))
    meta = " ".join(str(v) for v in (reader.metadata or {}).values())
    text = " ".join(page_texts(pdf))
    return re.search(rf"\b{seed}\b", meta + " " + text) is not None


def test_a_shown_seed_is_in_the_documents_metadata_not_on_its_pages():
    """The seed is no player's business on the table: a program's word.  The PDF's subject keeps
    a shown one (anyone can print the same rows with it: README says so)."""
    pdf = render_pdf(context(rows=20, seed=424242), PAPERS["a4"])
    assert _seed_printed(pdf, 424242)
    assert not re.search(r"\b424242\b", " ".join(page_texts(pdf)))


def test_a_private_seed_is_printed_nowhere():
    # A printed seed lets anyone print the same rows and read ahead.
    seed = 5_551_234_567
    one = render_pdf(context(rows=20, seed=seed, seed_shown=False), PAPERS["a4"])
    assert not _seed_printed(one, seed)
    flat = " ".join(page_texts(one)[0].split())
    assert WORDS("prerolled.heading.rows", first=1, last=20, rows=20) in flat
    assert one == render_pdf(context(rows=20, seed=seed, seed_shown=False), PAPERS["a4"])


def test_seed_random_draws_a_fresh_private_table_each_time(tmp_path):
    tables, stamps = [], []
    for n in range(2):
        status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--quiet", "--rows", "30",
                                 "--seed", "random", "--out", tmp_path / str(n))
        assert status == 0, err
        tables.append((tmp_path / str(n) / "prerolled.csv").read_text("utf-8-sig"))
        stamps.append(re.search(r"^edition (\w+)", (tmp_path / str(n) / "MANIFEST.txt").read_text(), re.M)[1])
    assert tables[0] != tables[1]       # 30 rows of 10 cells alike by chance: under 1 in 10^100
    assert stamps[0] != stamps[1]       # the stamp changes with the seed it does not show


# --- a rule change in data/ -----------------------------------------------------------------

CLOSED_3 = 'label = "Non-open-topped AFV"\ncolumn = 3'
FATE_3 = '[fate]\nrule = "871.3"\ncolumn = 3'


def test_the_table_holds_no_check_the_kill_card_decides(data_copy):
    # 871.1.a/b read "the RNC used to determine the final kill result", already face up:
    # the table replaces only the draws after it, so a change to the check leaves its rows alone.
    edit(data_copy / "rules.toml", CLOSED_3, CLOSED_3.replace("3", "4"))
    header, rows = csv_rows(context(data_copy, seed=3))
    assert header == csv_header() and (header, rows) == csv_rows(context(seed=3))
    t = rules_toml(data_copy)
    closed, open_ = t["bail_out"]["closed"], t["bail_out"]["open"]
    use = WORDS("prerolled.legend.use.text", closed=closed["rule"], open=open_["rule"])
    assert use in _first_page(context(data_copy, rows=20), "a4")


def test_fate_on_column_4_changes_its_counts(data_copy, tmp_path):
    edit(data_copy / "rules.toml", FATE_3, FATE_3.replace("column = 3", "column = 4"))
    # fate 1/4 unhurt, 1/4 wounded, 1/2 killed: the block stays 12, its fates 3, 3 and 6.
    chances = rule_chances(fate_column=4)
    want = expected_counts(chances, 12)
    assert lcm_of(chances) == 12 and want[WORDS("prerolled.csv.fate", n=1)] == {"U": 3, "W": 3, "K": 6}
    status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--quiet", "--mode", "balanced",
                             "--data", data_copy, "--out", tmp_path / "out")
    assert status == 0, err
    reader = list(csv.reader(io.StringIO((tmp_path / "out" / "prerolled.csv").read_text("utf-8-sig"), newline="")))
    header, rows = reader[0], reader[1:]
    fates = [col for col in want if col in header[1:6]]
    for chunk in blocks(rows, 12):
        assert {col: n for col, n in column_counts(chunk, header).items() if col in fates} == \
            {col: want[col] for col in fates}
    pdf = (tmp_path / "out" / "prerolled-a4.pdf").read_bytes()
    flat = " ".join(page_texts(pdf)[0].split())
    assert WORDS("prerolled.legend.rows.balanced", block=12, next=13, double=24) in flat
    assert pdf_rows(pdf)[0] == dashed(rows)


def test_a_bigger_crew_gets_more_columns_printed_as_codes(data_copy):
    edit(data_copy / "rules.toml", "size = 5\n", "size = 9\n")
    ctx = context(data_copy, rows=40)
    header, rows = csv_rows(ctx)
    assert header == csv_header(9)
    text = page_texts(render_pdf(ctx, PAPERS["a4"]))[0]
    printed = [line.split() for line in text.splitlines() if re.fullmatch(rf"\d+( [A-Z{DASH}]){{18}}", line.strip())]
    assert printed == dashed(rows, 9)[:len(printed)] and len(printed) >= 30
    assert WORDS("prerolled.legend.codes.text") in " ".join(text.split())


# --- the CLI ------------------------------------------------------------------------------------

def test_build_writes_both_papers_and_the_csv(tmp_path):
    status, _, err = run_cli("build", "--only", "prerolled", "--quiet", "--out", tmp_path)
    assert status == 0, err
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
    assert {"prerolled-a4.pdf", "prerolled-letter.pdf", "prerolled.csv"} <= set(names)
    rows = list(csv.reader(io.StringIO((tmp_path / "prerolled.csv").read_text("utf-8-sig"), newline="")))[1:]
    for paper in ("a4", "letter"):
        assert pdf_rows((tmp_path / f"prerolled-{paper}.pdf").read_bytes())[0] == dashed(rows)


@pytest.mark.parametrize("args", [["--rows", "0"], ["--rows", "ten"], ["--seed", "-1"], ["--seed", "x"],
                                  ["--mode", "shuffled"]])
def test_bad_options_exit_2(args, tmp_path):
    status, _, err = run_cli("build", "--only", "prerolled", "--out", tmp_path, *args)
    assert status == 2
    assert "Traceback" not in err and args[0] in err
    assert not list(tmp_path.glob("*.pdf"))


# --- print quality ------------------------------------------------------------------------------

def _heads(page):
    """{man head text: [x centres]} of the column heads on a page (tests/pdfpage.py)."""
    out = {}
    for w in words_of(page.chars, keep_blank_chars=True, x_tolerance=1.5):
        for n in range(1, 6):
            if w["text"].strip() == WORDS("prerolled.head.man", n=n):
                out.setdefault(n, []).append((w["x0"] + w["x1"]) / 2)
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rows_are_legible_and_inside_their_columns_fates_left_of_weapons(paper):
    ctx = context(rows=60)
    pdf = render_pdf(ctx, PAPERS[paper])
    page = pages_of(pdf)[0]
    chars = page.chars
    assert all(ch["x0"] >= 0 and ch["x1"] <= page.width for ch in chars)
    body = [ch for ch in chars
            if ch["fontname"].split("+")[-1] in ("IBMPlexSansCond", "IBMPlexSansCond-Bold") and ch["size"] >= 8]
    killed = [w for w in page.words if w["text"] == KILLED]
    assert killed and all(w["bottom"] - w["top"] >= 8 for w in killed)
    tops = sorted({round(w["top"], 1) for w in killed})
    assert min(b - a for a, b in itertools.pairwise(tops)) >= 8     # row pitch
    # Every cell's text stays between its column rules (a rule: a vertical line, or a box's side).
    rules = sorted({round(x, 1) for r in page.rects for x in (r["x0"], r["x1"])}
                   | {round(ln["x0"], 1) for ln in page.lines if abs(ln["x1"] - ln["x0"]) < 0.01})
    assert len(rules) >= 12
    words = words_of(chars, keep_blank_chars=True, x_tolerance=1.5)
    for w in words:
        if CELL.fullmatch(w["text"].strip()):
            assert not any(w["x0"] < x < w["x1"] for x in rules), w
    assert len(body) > 1000
    # Each man twice, his fate left of every weapon, so a card uncovers fates first;
    # the group heads say so, fates over the left half.
    heads = _heads(page)
    assert all(len(xs) == 2 for xs in heads.values()), heads
    assert max(min(xs) for xs in heads.values()) < min(max(xs) for xs in heads.values())
    flat = " ".join(page.text.split())
    t = rules_toml()
    fates = WORDS("prerolled.head.fates", rule=t["fate"]["rule"])
    weapons = WORDS("prerolled.head.weapons", rule=t["weapon"]["rule"])
    assert fates in flat and weapons in flat and flat.index(fates) < flat.index(weapons)


def test_fonts_embedded_and_bookmarks_per_page_group():
    pdf = render_pdf(context(rows=400), PAPERS["letter"])
    reader = PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            assert "IBMPlexSans" in font["/BaseFont"]
            assert "/FontFile2" in font["/FontDescriptor"].get_object()
    titles = [item["/Title"] for item in reader.outline]
    assert len(titles) == len(reader.pages)             # one group a page at this size
    spans = [tuple(map(int, re.fullmatch(pattern("prerolled.outline.rows", first=r"(\d+)", last=r"(\d+)"), t).groups()))
             for t in titles]
    assert spans[0][0] == 1 and spans[-1][1] == 400
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(spans))


def test_bw_uses_no_colour():
    colour = render_pdf(context(rows=60), PAPERS["a4"])
    bw = render_pdf(context(rows=60, bw=True), PAPERS["a4"])

    def ops(pdf):
        return b"".join(p.get_contents().get_data() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert re.search(rb" rg\b", ops(colour))
    assert not re.search(rb" (rg|RG|k|K)\b", ops(bw))


def test_hostile_data_text_stays_on_the_page(data_copy):
    rules = data_copy / "rules.toml"
    edit(rules, 'label = "Non-open-topped AFV"', 'label = "' + "<Tiger & Panther> " * 600 + '"')
    edit(rules, 'rule = "871.1.b"', 'rule = "' + "X" * 10_000 + '"')
    edit(rules, FATE_3, FATE_3.replace('"871.3"', '"' + "Y" * 10_000 + '"'))
    ctx = context(data_copy, rows=50)
    pdf = render_pdf(ctx, PAPERS["a4"])
    page = pages_of(pdf)[0]
    assert page.chars and all(ch["x0"] >= 0 and ch["x1"] <= page.width + 0.01 for ch in page.chars)
    rows, pages = pdf_rows(pdf)
    assert rows == dashed(csv_rows(ctx)[1])
    flat = " ".join(pages[0].split())
    for key in ("prerolled.legend.hero.text", "prerolled.legend.voluntary.none", "prerolled.legend.hide.text"):
        assert printed(key, flat), key      # the runaway rule number did not push the other items out


# --- geometry, without reportlab ----------------------------------------------------------------

def test_layout_and_rows_need_no_reportlab():
    code = ("import sys, generator.layout.table, generator.content.rows; "
            "sys.exit(any(m.startswith('reportlab') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_geometry_fills_the_paper_within_margins(paper):
    p = PAPERS[paper]
    widths = [("row", 30, False), ("tick", 13, False), ("a", 40, True), ("b", 60, True)]
    geo = table_geometry(p, widths, row_height=11.5, top=(120, 40), bottom=16, margin=30)
    xs = [c.x for c in geo.columns]
    assert xs[0] == 30 and geo.right == pytest.approx(p.width - 30)
    assert all(a.right == pytest.approx(b.x) for a, b in itertools.pairwise(geo.columns))
    assert geo.columns[2].width - 40 == pytest.approx(geo.columns[3].width - 60)   # growers share
    assert geo.body_top(1) == pytest.approx(p.height - 30 - 120)
    assert geo.body_top(2) == pytest.approx(p.height - 30 - 40)     # a later page: its running head only
    for page, rows_here in ((1, geo.first_rows), (2, geo.rows_per_page)):
        assert geo.row_bottom(page, rows_here - 1) >= 30 + 16
        assert geo.row_bottom(page, rows_here) < 30 + 16                            # no room lost
    assert geo.rows_per_page > geo.first_rows
    rows = 1000
    seen = [i for page in range(1, geo.pages(rows) + 1) for i in geo.page_rows(page, rows)]
    assert seen == list(range(rows))
    groups = geo.bookmark_groups(rows)
    assert groups[0][:3] == ("prerolled-rows-1", 1, geo.first_rows) and groups[-1][2] == rows
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
    flat = _first_page(ctx, "letter")
    assert " ".join(WORDS("prerolled.legend.voluntary.other", note=1).split()) in flat
    assert " ".join(WORDS("prerolled.legend.voluntary.none", note=1).split()) not in flat



def test_voluntary_legend_says_where_a_short_row_runs_on():
    """Under note 1's reading "none" every man draws a weapon (871.4) and a row has a weapon cell
    only for the men its fate column did not kill: the line says to go on into the next rows,
    ticking them, until every man has one."""
    voluntary = rules_toml()["interpretation"]["voluntary_casualties"]
    assert voluntary["reading"] == "none"
    said = " ".join(WORDS("prerolled.legend.voluntary.none", note=voluntary["note"]).split())
    assert "next rows" in said and "tick" in said and "every man" in said
    ctx = context(rows=20)
    for paper in ("a4", "letter"):
        assert said in _first_page(ctx, paper), paper


def _first_page(ctx, paper):
    return " ".join(page_texts(render_pdf(ctx, PAPERS[paper]))[0].split())


def test_legend_words_the_check_hero_cards_and_the_crew_order_as_the_rule_does(data_copy):
    """871.1.a/b read the RPC of the kill card, already face up: the table replaces only the draws
    after it, by agreement.  871.3: the Hero man "doesn't have to draw a RPC", 871.4 likewise: the
    card is played before the cells it replaces are uncovered, whichever reading of note 2.  871.2:
    the crew is determined before the status of its men, so the men's columns follow its order.
    Each sentence a whole phrase: rule and note numbers its only fields."""
    t = rules_toml()
    closed, open_ = t["bail_out"]["closed"], t["bail_out"]["open"]
    notes = {name: s["note"] for name, s in t["interpretation"].items()}
    said = [WORDS("prerolled.legend.use.text", closed=closed["rule"], open=open_["rule"]),
            WORDS("prerolled.legend.read.text", fate=t["fate"]["rule"], weapon=t["weapon"]["rule"]),
            WORDS("prerolled.legend.hero.text", note=notes["hero_card"]),
            WORDS("prerolled.legend.voluntary.none", note=notes["voluntary_casualties"]),
            WORDS("prerolled.legend.hide.text")]
    said = [" ".join(sentence.split()) for sentence in said]       # a tie prints as a space
    assert "before the cells it replaces are uncovered" in said[2] and "crew's order" in said[1]
    assert "agreed before the game" in said[0]
    ctx = context(rows=20)
    for paper in ("a4", "letter"):
        flat = _first_page(ctx, paper)
        assert all(sentence in flat for sentence in said), paper
        assert "Closed" not in flat and "second Hero card" not in flat
        assert not re.search(r"\(note \d", flat)        # every note cited is the player aid's
    edit(data_copy / "rules.toml", 'note = 2\nreading = "separate"', 'note = 2\nreading = "single"')
    assert said[2] in _first_page(context(data_copy, rows=20), "a4")       # the same card, either reading


def test_balanced_legend_says_what_a_block_gives_away():
    # A balanced block holds fixed counts, so the rows used tell what is left of it.
    block = 12      # lcm of 3 (871.3's thirds) and 12 (871.4: 1/4 armed, then 1/3 rifle)
    said = WORDS("prerolled.legend.rows.balanced", block=block, next=block + 1, double=2 * block)
    assert said in _first_page(context(rows=2 * block, mode="balanced"), "a4")
    assert said not in _first_page(context(rows=20), "a4")


def test_legend_owns_up_to_a_part_block(tmp_path):
    # 12 rows to a block with the shipped rules: 16 rows = one block + 4.
    for rows, words in ((16, WORDS("prerolled.legend.rows.part", first=13, last=16)),
                        (10, WORDS("prerolled.legend.rows.short", rows=10, block=12))):
        status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--rows", rows, "--mode", "balanced",
                                 "--out", tmp_path / str(rows))
        assert status == 0, err
        text = " ".join(page_texts(tmp_path / str(rows) / "prerolled-a4.pdf")[0].split())
        assert words in text


def test_the_hero_figure_is_the_one_the_legend_plays():
    # The aid's "5 + Hero" average assumes the Hero card is played, its man named, before
    # the draws (871.3: he "doesn't have to draw a RPC"), as the legend now says.  A Hero put on a
    # man whose cell is seen to say Killed would give 10/3 + P(someone killed) instead.
    alive = F(2, 3)             # 871.3: column 3 reads 1 unhurt or 2 wounded, of 3
    size = 5
    before = 1 + (size - 1) * alive
    peeking = size * alive + (1 - alive ** size)
    assert (before, peeking) == (F(11, 3), F(1021, 243))
    assert compute(shipped_kit()).expected_survivors[size][True] == before


# Two builds an edition: README's command builds English, German (the longest words) and Russian
# (another script); every edition's legend is measured by the line count below
# (test_the_first_pages_instructions_keep_to_five_lines_in_every_edition) and CI
# (BAILOUT_SLOW_TESTS=1) builds every edition.
@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "es", "pl", "ru"] if SLOW else ["en", "de", "ru"])
def test_every_legend_sentence_prints_whole_in_five_lines_in_every_edition(lang, tmp_path):
    # The legend carries the fairness rules; a sentence cut short ("...") would drop one
    for n, args in enumerate((["--mode", "balanced"], ["--seed", "random"])):
        status, _, err = run_cli("build", "--only", "prerolled", "--quiet", "--lang", lang,
                                 "--out", tmp_path / str(n), *args)
        assert status == 0, err
        ctx = context_of(lang, args)
        table = table_for(ctx)
        for paper in ("a4", "letter"):
            pdf = (tmp_path / str(n) / f"prerolled-{paper}.pdf").read_bytes()
            text = page_texts(pdf)[0]
            assert "..." not in text and "…" not in text, (lang, paper, args)
            # five lines; balanced mode says what a block gives away on a sixth or seventh
            assert len(render_mod.legend_lines(ctx, table, PAPERS[paper].width - 2 * render_mod.MARGIN)[1]) \
                <= (5 if "random" in args else 7), (lang, paper, args)


def context_of(lang, args):
    return context(lang=lang, mode="balanced" if "balanced" in args else "independent")


@pytest.mark.parametrize("lang", available_languages())
def test_the_first_pages_instructions_keep_to_five_lines_in_every_edition(lang):
    """Each of page 1's five instructions on one line, on A4 (the narrower) and on Letter."""
    from generator.make.pipeline import context
    from generator.render.pdf import prerolled_pdf
    from generator.render.pdf.canvas import register_fonts
    from generator.render.theme import edition_faces
    ctx = context(shipped_kit(), BuildOptions(lang=lang))
    register_fonts(edition_faces(lang))
    table = table_for(ctx, 10)
    for paper in ("a4", "letter"):
        _, lines = prerolled_pdf.legend_lines(ctx, table, PAPERS[paper].width - 2 * prerolled_pdf.MARGIN)
        assert len(lines) <= 5, (lang, paper, lines)
