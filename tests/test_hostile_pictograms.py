"""Hostile pictograms: generator/layout/pictograms.toml is SVG path data read by hand, and anyone
who edits it (a new icon, a changed placement) may write what the reader cannot take.  Whatever
it holds, a build ends in one line naming the file and the key, exit status 2, never a
traceback, a PDF with 'nan' among its operators, an SVG view box of 'nan', or minutes of work."""

import math
import re

import pytest

from conftest import ROOT, one_line, run_cli
from generator.errors import DataError
from generator.layout import pictograms

SHIPPED = (ROOT / "generator" / "layout" / "pictograms.toml").read_text(encoding="utf-8")


def _first_path(text, new, role="pistol"):
    start = text.index('path = "', text.index(f"[[pictogram.{role}.part]]"))
    end = text.index('"\n', start + 8)
    return text[:start] + 'path = "' + new + text[end:]


def _with(key_line, role="pistol"):
    head = f"[[pictogram.{role}.part]]"
    return SHIPPED.replace(head, f"{head}\n{key_line}", 1)


HOSTILE = {
    "nan in the path": (_first_path(SHIPPED, "M nan 0 L 1 1 Z"), "pictogram.pistol.part[0].path"),
    "an infinite number": (_first_path(SHIPPED, "M 1e999 0 L 0 1e999 Z"), "pictogram.pistol.part[0].path"),
    "numbers past any page": (_first_path(SHIPPED, "M 1e308 1e308 L -1e308 -1e308 L 1e308 -1e308 Z"),
                              "pictogram.pistol.part[0].path"),
    "an arc of huge radii": (_first_path(SHIPPED, "M 10 10 A 1e300 1e300 0 1 1 100 100 L 10 100 Z"),
                             "pictogram.pistol.part[0].path"),
    "an arc flag of 2": (_first_path(SHIPPED, "M 10 10 A 10 10 0 2 1 100 100 Z"), "pictogram.pistol.part[0].path"),
    "no command first": (_first_path(SHIPPED, "10 10 L 20 20"), "pictogram.pistol.part[0].path"),
    "a command short of numbers": (_first_path(SHIPPED, "M 10"), "pictogram.pistol.part[0].path"),
    "an unknown command": (_first_path(SHIPPED, "M 0 0 X 5 5 Z"), "pictogram.pistol.part[0].path"),
    "markup in the path": (_first_path(SHIPPED, 'M 0 0 L 5 5\\"/><script>alert(1)</script>'),
                           "pictogram.pistol.part[0].path"),
    "an empty path": (_first_path(SHIPPED, ""), "pictogram.pistol.part[0].path"),
    "a lone point": (_first_path(SHIPPED, "M 10 10"), "pictogram.pistol.part[0].path"),
    "a flat line": (_first_path(SHIPPED, "M 0 0 L 100 0 Z"), "pictogram.pistol"),
    "a path of 200,000 points": (_first_path(SHIPPED, "M 0 0 " + " ".join(f"L {i % 500} {i * 7 % 500}"
                                                                          for i in range(200_000)) + " Z"),
                                 "pictogram.pistol.part[0].path"),
    "a turn of nan": (_with("rotate = nan"), "pictogram.pistol.part[0].rotate"),
    "a turn in words": (_with('rotate = "abc"'), "pictogram.pistol.part[0].rotate"),
    "a scale of 0": (_with("scale = 0.0"), "pictogram.pistol.part[0].scale"),
    "a scale of 1e308": (_with("scale = 1e308"), "pictogram.pistol.part[0].scale"),
    "an offset of three": (_with("offset = [1, 2, 3]"), "pictogram.pistol.part[0].offset"),
    "a knockout of nan": (_with("knockout = nan"), "pictogram.pistol.part[0].knockout"),
    "an author with an escape": (SHIPPED.replace('author = "Skoll"', 'author = "Sk\\u001b[31moll\\u202e"', 1),
                                 "pictogram.pistol.part[0].author"),
    "no author": (SHIPPED.replace('author = "Skoll"\n', "", 1), "pictogram.pistol.part[0].author"),
    "a role missing": (SHIPPED.replace("[[pictogram.afv.part]]", "[[pictogram.afv2.part]]"), "pictogram.afv"),
    "not TOML": (SHIPPED + "\n[[[\n", "not valid TOML"),
}


@pytest.mark.parametrize(("text", "key"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_pictograms_file_is_one_problem_naming_its_key(text, key):
    with pytest.raises(DataError) as raised:
        pictograms.read_pictograms(text)
    [problem] = raised.value.problems
    assert problem.startswith(f"{pictograms.SOURCE}: ") and key in problem, problem


def test_the_shipped_pictograms_read_as_before():
    read = pictograms.read_pictograms(SHIPPED)
    assert read == pictograms.pictograms()
    for pic in read.values():
        x, y, w, h = pic.bounds()
        assert all(math.isfinite(v) for v in (x, y, w, h)) and w > 0 and h > 0


@pytest.fixture
def hostile_pictograms(monkeypatch):
    def use(text):
        monkeypatch.setattr(pictograms, "_text", lambda: text)
        pictograms.pictograms.cache_clear()
        pictograms.part_authors.cache_clear()
    yield use
    pictograms.pictograms.cache_clear()
    pictograms.part_authors.cache_clear()


@pytest.mark.parametrize("case", ["an infinite number", "a flat line", "not TOML"])
def test_a_build_with_hostile_pictograms_is_one_line(case, hostile_pictograms, tmp_path):
    """1e999 printed 'nan' into the counters' PDF (poppler: Unknown operator 'nan') and the web
    aid's view box; a flat line was a ZeroDivisionError; a TOML slip a traceback."""
    text, key = HOSTILE[case]
    hostile_pictograms(text)
    status, _, err = run_cli("build", "--paper", "a4", "--out", tmp_path / "o")
    one_line(status, err, str(pictograms.SOURCE), key)
    assert not (tmp_path / "o").exists()


def test_the_web_aids_svg_holds_only_path_data(kit_files):
    """The inline SVG's d attributes are the file's path data, which the reader holds to
    commands, numbers and separators: nothing else reaches the page."""
    page = kit_files["player-aid.html"].decode("utf-8")
    paths = re.findall(r'<path[^>]* d="([^"]*)"', page)
    assert paths and all(re.fullmatch(r"[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\- \n]*", d) for d in paths)


def test_an_author_the_font_cannot_print_is_refused(hostile_pictograms, tmp_path):
    """The counters' colophon credits every icon's author ("Icons made by Lorc, Skoll and ..."):
    an author in letters the type lacks printed as nothing there."""
    hostile_pictograms(SHIPPED.replace('author = "Skoll"', 'author = "斯科尔"', 1))
    status, _, err = run_cli("build", "--paper", "a4", "--only", "counters", "--out", tmp_path / "o")
    one_line(status, err, str(pictograms.SOURCE), "pictogram.pistol.part[0].author", "cannot print")
