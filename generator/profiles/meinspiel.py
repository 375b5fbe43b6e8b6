"""--print meinspiel: meinspiel.de's upload, PDF/X-4 with an embedded output profile.

Their published numbers: PDF/X-4, 3 mm bleed, 4 mm safe zone, no marks, total ink at most 300%.
They die-cut the counters: each counter's colour runs 3 mm past its own cut (6 mm between two
counters, the punchboard factories' rule) and its words and art stay 4 mm inside it.  The die
line goes as a file of its own (cut-*.pdf, cut-*.svg), not as a spot colour in the print.  The
output profile is built from Fogra's FOGRA39L data with a 300% ink limit (render/pdf/icc/).
"""

from msgspec.structs import replace

from generator.profiles.print_profile import (
    X1A_FOGRA39,
    ColourModel,
    DieCut,
    Prepress,
    PrintProfile,
    ReleaseWords,
    SheetLayout,
    inches,
)

MEINSPIEL = PrintProfile(
    name="meinspiel",
    help="meinspiel.de die-cut counters: PDF/X-4, 3 mm bleed, 4 mm safe zone, ink at most 300 percent, no marks",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.CMYK,
    duplex_hint=True,
    prepress=Prepress(bleed_mm=3, slug_mm=0, marks=False, cut_contour=False,
                      pdfx=replace(X1A_FOGRA39, version="PDF/X-4", header="%PDF-1.6", icc="FOGRA39L-300.icc"),
                      shop="meinspiel.de", ink_limit=300, safe_mm=4,
                      die_cut=DieCut(bleed_mm=3, safe_mm=4, counter_mm=inches(1)), cut_files=True),
    release=ReleaseWords(
        tips=("release.readme.tip.meinspiel", "release.readme.tip.papers"),
        how_to_print={"kit": "release.print.kit.meinspiel", "aid": "release.print.part.meinspiel",
                      "prerolled": "release.print.part.meinspiel", "counters": "release.print.counters.meinspiel"},
        files={"counters": "release.file.counters.diecut"},
        folder_tip="release.readme.tip.folder.meinspiel"),
)
