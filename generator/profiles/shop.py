"""--print shop: every PDF as a print shop's preflight asks for it, PDF/X-1a:2003.

CMYK only; the page is the TrimBox, the BleedBox 3 mm past it (the shops' usual bleed), crop
marks in an 8 mm slug past the bleed; the counters' cut lines in a CutContour separation; the
output intent the registered characterization FOGRA39, with no ICC profile (PDF/X-1a lets a
registered condition stand without one); the die line also as files of its own.  The counters
are spaced for a die, as die-cutters ask (2 to 3 mm of each): every counter's colour runs 3 mm
past its cut (6 mm between two) and its words and art keep SAFE_MM inside it.
"""

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

SAFE_MM = 3     # inside every cut: what die-cutters ask at most

SHOP = PrintProfile(
    name="shop",
    help="CMYK PDFs with bleed, trim box and cut contour for a print shop",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.CMYK,
    duplex_hint=True,
    prepress=Prepress(bleed_mm=3, slug_mm=8, marks=True, cut_contour=True,
                      pdfx=X1A_FOGRA39,
                      shop="a print shop", cut_files=True,
                      die_cut=DieCut(bleed_mm=3, safe_mm=SAFE_MM, counter_mm=inches(1))),
    release=ReleaseWords(
        tips=("release.readme.tip.shop", "release.readme.tip.papers"),
        how_to_print={"kit": "release.print.kit.shop", "aid": "release.print.aid.shop",
                      "prerolled": "release.print.prerolled.shop", "counters": "release.print.counters.shop"},
        files={"counters": "release.file.counters.shop"},
        folder_tip="release.readme.tip.folder.shop"),
)
