"""--print drivethru: a DriveThruRPG (OneBookShelf) print-on-demand book, the kit as its interior.

Which product: a print-on-demand book's interior, US Letter or A4 trim, whose pages are the
kit's pages.  OneBookShelf's card printer (DriveThruCards) prints one card a page at poker or
tarot size, which a sheet of counters is not; its card files take the same PDF/X-1a and 1/8 in
bleed.  Their published numbers for book interiors: PDF/X-1a:2003, a bleed of 1/8 in past the
trim on every side, a safe zone of 1/8 in inside it, total ink at most 240%, no printer's marks.
They print the pages and the player cuts the counters, so the counters keep the kit's own gutters
and cut ticks (no die, no cut file), and there is no spot colour: a print-on-demand press would
print a CutContour line as a colour.  docs/printing.md names the sources.
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
    help="DriveThruRPG print-on-demand book interior: PDF/X-1a, 1/8 in bleed, ink at most 240 percent, no marks",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.CMYK,
    duplex_hint=True,
    prepress=Prepress(bleed_mm=inches(Fraction(1, 8)), slug_mm=0, marks=False, cut_contour=False,
                      pdfx=X1A_FOGRA39,
                      shop="DriveThruRPG", ink_limit=240, safe_mm=inches(Fraction(1, 8))),
    release=ReleaseWords(
        tips=("release.readme.tip.drivethru", "release.readme.tip.papers"),
        how_to_print={"kit": "release.print.kit.drivethru", "aid": "release.print.part.drivethru",
                      "prerolled": "release.print.part.drivethru", "counters": "release.print.part.drivethru"},
        folder_tip="release.readme.tip.folder.drivethru"),
)
