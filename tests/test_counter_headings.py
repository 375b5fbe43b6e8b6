"""What a counter sheet's heading says it holds: each nationality's counts kept on one line with
their nationality ("German: 6 crew" never split, no "6 crew" alone on a line), the lines of
about one length, in every edition, on A4 and Letter."""


import pytest

from conftest import matrix, shipped_kit
from generator.content.faces import build_counters
from generator.content.words import available_languages
from generator.layout import sheets as geo
from generator.layout.paper import PAPERS
from generator.make.pipeline import context
from generator.options import BuildOptions
from generator.render.pdf import counters_pdf
from generator.render.pdf.canvas import register_fonts
from generator.render.theme import edition_faces
from generator.units import mm

NBSP = "\u00a0"


# Every edition and both papers in README's command, each in a case (conftest.matrix); CI
# (BAILOUT_SLOW_TESTS=1) every edition on both papers.
@pytest.mark.parametrize("lang,paper", matrix(available_languages(), ["a4", "letter"]))
def test_a_sheet_heading_breaks_only_between_counts_and_its_lines_are_balanced(lang, paper):
    options = BuildOptions(lang=lang, papers=(paper,))
    ctx = context(shipped_kit(), options)
    faces = edition_faces(lang)
    register_fonts(faces)
    _grid, groups, sheets = geo.sheet_plan(PAPERS[paper], options, lambda more: build_counters(ctx, more))
    width = PAPERS[paper].width - 2 * mm(geo.MARGIN_SIDE_MM)
    names = [nat.name for nat, _ in groups]
    for slots in sheets:
        held = counters_pdf._groups(ctx.words, groups, slots)
        text = ctx.words("counters.heading.contents", groups=held)
        size, lines = counters_pdf.block_lines(text, faces.body, counters_pdf.CONTENTS_SIZES, width, lambda _pt: 3)
        assert not lines[-1].endswith("\u2026"), (lang, paper, lines)     # all of it printed
        for line in lines[1:]:      # a line starts on a nationality or a count, never a name's half
            tail = line.replace(NBSP, " ")
            assert not any(tail.startswith(name.split(" ")[-1]) and " " in name for name in names), line
        for line in lines:
            for name in names:      # a nationality never ends a line: its counts follow it there
                assert not line.replace(NBSP, " ").rstrip().endswith(name.replace(NBSP, " ")), (lang, line)
        for before in lines[:-1]:   # each break after a count's separator
            assert before.rstrip()[-1] in ",;、；", (lang, paper, lines)
        if len(lines) > 1:
            from reportlab.pdfbase.pdfmetrics import stringWidth
            widths = [stringWidth(line, faces.body, size) for line in lines]
            assert min(widths) >= 0.5 * max(widths), (lang, paper, lines)
