"""prerolled.csv as a spreadsheet reads it: UTF-8 with a byte order mark, CRLF, every field quoted,
a killed man's weapon cell empty (as the PDF's dash), and nothing a spreadsheet would run as a
formula, whatever a catalogue says (tests/test_prerolled.py holds its rows to the PDF's)."""

import csv
import io

import pytest

from conftest import SLOW, run_cli, shipped_kit
from generator.cli.commands import _check_catalogues
from generator.content.words import load_words
from generator.errors import DataError

WORDS = load_words()
CREW = 5        # 871: "Each AFV is considered to have a crew of five"


def header(words=WORDS, size=CREW):
    return [words("prerolled.csv.row"), *(words("prerolled.csv.fate", n=i) for i in range(1, size + 1)),
            *(words("prerolled.csv.weapon", n=i) for i in range(1, size + 1))]


def read(content):
    """(header, rows) as a spreadsheet's CSV import reads the bytes."""
    assert content.startswith("\ufeff".encode())        # Excel reads UTF-8 only after a byte order mark
    records = list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))
    return records[0], records[1:]


def test_every_field_is_quoted_and_every_line_ends_in_crlf(kit_files):
    content = kit_files["prerolled.csv"]
    text = content.decode("utf-8-sig")
    lines = text.split("\r\n")
    assert lines[-1] == "" and all("\n" not in line and "\r" not in line for line in lines)
    for line in lines[:-1]:
        fields = line.split(",")
        assert all(f.startswith('"') and f.endswith('"') and len(f) >= 2 for f in fields), line
    head, rows = read(content)
    assert head == header()
    assert [row[0] for row in rows] == [str(n) for n in range(1, len(rows) + 1)]


def test_a_killed_man_s_weapon_cell_is_empty_and_no_other(kit_files):
    # 871.4: the men who exit the vehicle are armed; a killed man (871.3) draws no weapon
    _, rows = read(kit_files["prerolled.csv"])
    killed = 0
    for row in rows:
        fates, weapons = row[1:1 + CREW], row[1 + CREW:]
        assert set(fates) <= {"U", "W", "K"} and set(weapons) <= {"P", "R", "S", ""}, row
        assert [w == "" for w in weapons] == [f == "K" for f in fates], row
        killed += fates.count("K")
    assert killed > 100         # a third of 1,000 men, give or take


def _set(path, msgid, text):
    """The msgstr of `msgid` in the catalogue `path` replaced by `text` (a PO string, escapes as written)."""
    source = path.read_text(encoding="utf-8")
    start = source.index(f'msgid "{msgid}"\nmsgstr "')
    end = source.index("\n", source.index("msgstr", start))
    path.write_text(source[:start] + f'msgid "{msgid}"\nmsgstr "{text}"' + source[end:], encoding="utf-8")


HOSTILE = {"prerolled.csv.row": r'=HYPERLINK(\"http://example.invalid/\",\"a,b\")',
           "prerolled.csv.fate": r"+fate,{n}", "prerolled.csv.weapon": r"@weapon {n}; -1"}


def test_a_catalogue_word_is_never_a_formula_nor_an_extra_column(locale, tmp_path):
    for key, text in HOSTILE.items():
        _set(locale / "en.po", key, text)
    status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--rows", "12", "--quiet",
                             "--out", tmp_path / "out")
    assert status == 0, err
    head, rows = read((tmp_path / "out" / "prerolled.csv").read_bytes())
    # as many columns as the rows, each header cell the word with an apostrophe before it
    assert len(head) == len(rows[0]) == 1 + 2 * CREW and len(rows) == 12
    assert head[0] == "'" + '=HYPERLINK("http://example.invalid/","a,b")'
    assert head[1:1 + CREW] == [f"'+fate,{n}" for n in range(1, CREW + 1)]
    assert head[1 + CREW:] == [f"'@weapon {n}; -1" for n in range(1, CREW + 1)]
    assert not any(field.startswith(("=", "+", "-", "@", "\t", "\r")) for row in [head, *rows] for field in row)


def test_check_names_a_catalogue_word_a_spreadsheet_reads_as_a_formula(locale, monkeypatch):
    from generator.content import words
    _set(locale / "en.po", "prerolled.csv.row", HOSTILE["prerolled.csv.row"])
    _set(locale / "de.po", "prerolled.csv.weapon", r"Waffe{n}\nzwei")
    # check's catalogue checks alone: the render of every part check runs first, and how check
    # reports a DataError, are test_bad_data.py's and test_edition_words.py's; over English and
    # German, the catalogues edited (the others are the shipped ones, which
    # test_bad_data's check of the shipped data reads)
    monkeypatch.setattr(words, "available_languages", lambda: ("en", "de"))
    with pytest.raises(DataError) as caught:
        _check_catalogues(shipped_kit())
    lines = caught.value.problems
    assert any("en.po: prerolled.csv.row:" in line and "formula" in line for line in lines), lines
    assert any("de.po: prerolled.csv.weapon:" in line and "line break" in line for line in lines), lines


def test_the_header_is_the_edition_s_words(tmp_path):
    status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--rows", "3", "--lang", "ru",
                             "--quiet", "--out", tmp_path)
    assert status == 0, err
    head, _ = read((tmp_path / "prerolled.csv").read_bytes())
    assert head == header(load_words("ru"))



# README's command writes 25,000 rows (a file of some 1.2 MB, which held whole peaks over its own
# size); CI (BAILOUT_SLOW_TESTS=1) 100,000, whose writing peaks under a quarter of the file.
# Tracing every allocation is most of this test's time: it grows with the rows.
BOUND = (100_000, 4) if SLOW else (25_000, 1)


def test_the_csv_is_written_a_piece_at_a_time_never_held_whole(tmp_path):
    """A million rows make a CSV of some 50 MB: written as it is made, as the pre-rolled PDF is,
    so the tables alone keep their memory bound (docs/guarantees.md); held whole, they did not.
    The peak while writing stays under the file's size (a quarter of it at CI's 100,000 rows)."""
    import tracemalloc

    from generator.content.context import make_context
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.outputs import named
    from generator.make.pipeline import write_files
    from generator.make.products import ROWS, Products
    from generator.options import BuildOptions
    kit = shipped_kit()
    rows, share = BOUND
    ctx = make_context(kit, compute(kit), BuildOptions(parts=("prerolled",), rows=rows), shipped("templates"))
    products = Products(ctx)
    products.get(ROWS)          # the rows themselves are the build's to hold, the file's bytes not
    tracemalloc.start()
    try:
        write_files(products, tmp_path, [(named("prerolled.csv"), None)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = (tmp_path / "prerolled.csv").stat().st_size
    assert size > rows * 40 and peak < size / share, f"peak {peak:,} bytes for a file of {size:,}"
