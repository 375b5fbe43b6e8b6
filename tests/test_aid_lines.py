"""The aid's lines as printed: no glyph drawn over another, no glyph past its box or the page's
measure, and Japanese lines broken as Japanese typesetting allows (JIS X 4051's basics).

Read from the built PDFs (pdfplumber's characters, in the order the page draws them).  README's
suite checks the Japanese aid on both papers; CI (BAILOUT_SLOW_TESTS=1) every edition.
"""

import functools
import io
import itertools
import os
import re
from collections.abc import Iterator

import pdfplumber
import pytest

from conftest import aid_edition

EDITIONS = ("en", "de", "es", "fr", "it", "pl", "ru", "ja")
CHECKED = EDITIONS if os.environ.get("BAILOUT_SLOW_TESTS") == "1" else ("ja",)
PAPERS = ("a4", "letter")
# JIS X 4051's basics, as a Japanese editor reads a page: a line never starts with a closing
# bracket, a comma, a full stop, a colon or a small kana, and never ends with an opening bracket.
NOT_AT_START = set("、。，．・：；？！）〕］｝〉》」』】ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
NOT_AT_END = set("（〔［｛〈《「『【")
BOX_PAD = 4.0       # the flowchart's boxes set their text this far inside their border
TOLERANCE = 0.05    # points: rounding in the PDF's numbers


@functools.lru_cache(maxsize=2)
def plumbed(lang: str, paper: str) -> list:
    """pdfplumber's pages of the aid in `lang` on `paper` (the aid made alone, shared with the
    other files' tests of an edition's aid), parsed once a process: every test here reads them."""
    return pdfplumber.open(io.BytesIO(aid_edition(lang, paper)[f"player-aid-{paper}.pdf"])).pages


def printed_lines(page) -> Iterator[list[dict]]:
    """The page's lines of text in the order it draws them: a line ends where the next glyph
    sits on another baseline or back to the left."""
    line: list[dict] = []
    for char in page.chars:
        if line and (abs(char["bottom"] - line[-1]["bottom"]) > 0.5 or char["x0"] < line[-1]["x0"] - 0.5):
            yield line
            line = []
        line.append(char)
    if line:
        yield line


def visible(line: list[dict]) -> list[dict]:
    return [c for c in line if c["text"].strip()]


def boxes(page) -> list[tuple[float, float, float, float]]:
    """The flowchart's boxes: the stroked outlines (x0, top, x1, bottom) wider than a tab."""
    return [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in page.curves
            if c["stroke"] and not c["fill"] and c["x1"] - c["x0"] > 60]


@pytest.fixture(scope="module", params=[(lang, paper) for lang in CHECKED for paper in PAPERS],
                ids=lambda p: f"{p[0]}-{p[1]}")
def aid_pages(request):
    lang, paper = request.param
    return lang, paper, plumbed(lang, paper)


def test_no_glyph_is_drawn_over_another(aid_pages):
    lang, paper, pages = aid_pages
    for number, page in enumerate(pages, start=1):
        baselines: dict[float, list[dict]] = {}     # by baseline, not drawing order: a glyph drawn back over
        for c in visible(list(page.chars)):
            baselines.setdefault(round(c["bottom"], 1), []).append(c)
        for line in baselines.values():
            glyphs = sorted(line, key=lambda c: c["x0"])
            for a, b in itertools.pairwise(glyphs):
                assert b["x0"] >= a["x1"] - TOLERANCE, (
                    f"{lang} {paper} p.{number}: {a['text']!r} and {b['text']!r} overlap at x={b['x0']:.1f}: "
                    + "".join(c["text"] for c in glyphs))


def test_every_glyph_inside_its_box_and_the_measure(aid_pages):
    """A flowchart box's text stays inside its padding; all text inside the page's measure (the
    margins are equal left and right)."""
    lang, paper, pages = aid_pages
    for number, page in enumerate(pages, start=1):
        chars = visible(list(page.chars))
        left = min(c["x0"] for c in chars)
        for c in chars:
            where = f"{lang} {paper} p.{number}: {c['text']!r} at x={c['x0']:.1f}"
            assert c["x1"] <= page.width - left + TOLERANCE, where
            for x0, top, x1, bottom in boxes(page):
                if x0 < (c["x0"] + c["x1"]) / 2 < x1 and top < c["top"] and c["bottom"] < bottom:
                    assert x0 + BOX_PAD - TOLERANCE <= c["x0"] and c["x1"] <= x1 - BOX_PAD + TOLERANCE, where


@pytest.mark.parametrize("paper", PAPERS)
def test_japanese_lines_break_where_japanese_allows(paper):
    # the kinsoku rules are Japanese typesetting's: the Japanese aid alone
    for number, page in enumerate(plumbed("ja", paper), start=1):
        for line in printed_lines(page):
            text = "".join(c["text"] for c in visible(line))
            assert text[0] not in NOT_AT_START, f"{paper} p.{number}: a line starts {text!r}"
            assert text[-1] not in NOT_AT_END, f"{paper} p.{number}: a line ends {text!r}"



def test_a_modifier_stays_on_the_line_of_the_word_it_modifies(aid_pages):
    """"CCV +1", "the AFV's −2": a sign alone at a line's start reads as a dash or a sum, so no
    line of prose ends with a letter and the next, in the same type, starts with a signed figure
    (Markdown escapes the plus).  A counter's label and its bigger factor are no prose."""
    lang, paper, pages = aid_pages
    for number, page in enumerate(pages, start=1):
        lines = [line for line in map(visible, printed_lines(page)) if line]
        for before, after in itertools.pairwise(lines):
            last, first = before[-1], after[0]
            text = "".join(c["text"] for c in after)
            assert not (last["text"].isascii() and last["text"].isalpha() and abs(last["size"] - first["size"]) < 0.1
                        and re.match("[+\u2212\u00b1]\\d", text)), \
                f"{lang} {paper} p.{number}: {''.join(c['text'] for c in before)!r} / {text!r}"
