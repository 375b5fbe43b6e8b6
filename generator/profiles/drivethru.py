"""--print drivethru: DriveThruCards' (and DriveThruRPG's print-on-demand) upload, PDF/X-1a.

Their published numbers: PDF/X-1a, a bleed of 1/8 in past the trim on every side, a safe zone
of 1/8 in inside it, total ink at most 240%, no printer's marks.  They print the pages and the
player cuts the counters, so the counters keep the kit's own gutters (no die), and there is no
spot colour: a print-on-demand press would print a CutContour line as a colour.  The upload is
one interior file: the kit PDF, pages in the kit's order.
"""

from fractions import Fraction

from generator.profiles.print_profile import (
    X1A_FOGRA39,
    ColourModel,
    Prepress,
    PrintProfile,
    ReleaseWords,
    SheetLayout,
    inches,
)

DRIVETHRU = PrintProfile(
    name="drivethru",
    help="DriveThruCards print on demand: PDF/X-1a, 1/8 in bleed, ink at most 240 percent, no marks",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.CMYK,
    duplex_hint=True,
    prepress=Prepress(bleed_mm=inches(Fraction(1, 8)), slug_mm=0, marks=False, cut_contour=False,
                      pdfx=X1A_FOGRA39,
                      shop="DriveThruCards", ink_limit=240, safe_mm=inches(Fraction(1, 8))),
    release=ReleaseWords(
        tips=("release.readme.tip.drivethru", "release.readme.tip.papers"),
        how_to_print={"kit": "release.print.kit.drivethru", "aid": "release.print.part.drivethru",
                      "prerolled": "release.print.part.drivethru", "counters": "release.print.part.drivethru"},
        folder_tip="release.readme.tip.folder.drivethru"),
)
