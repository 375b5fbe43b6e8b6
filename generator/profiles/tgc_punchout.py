"""--print tgc-punchout: The Game Crafter's small punchout, counters laid out on its slug.

Their published numbers: the small punchout slug is 3.25 x 5.25 in (0.065 in board, ten slugs
a sheet); art runs at least 1/8 in past every cut line, the slug's own and each counter's; the
safe zone is 1/8 in inside a cut; a custom punchout's cut lines come as a vector file, each cut
path with at least three nicks of 0.01 in, at least 1/8 in apart.  Each page is one slug, front
then back (the back mirrored for turning the slug over), trimmed to the slug with 1/8 in of
bleed and no marks; the counters keep 1/8 in of the slug's own colour (white) round them.
"""

from fractions import Fraction

from generator.profiles.print_profile import (
    X1A_FOGRA39,
    ColourModel,
    DieCut,
    Nicks,
    Prepress,
    PrintProfile,
    Punchboard,
    ReleaseWords,
    SheetLayout,
    inches,
)

EIGHTH = inches(Fraction(1, 8))

TGC_PUNCHOUT = PrintProfile(
    name="tgc-punchout",
    help="The Game Crafter small punchout: 3.25 x 5.25 in slugs, 1/8 in bleed, a cut file with nicks",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.CMYK,
    duplex_hint=True,
    prepress=Prepress(bleed_mm=EIGHTH, slug_mm=0, marks=False, cut_contour=False,
                      pdfx=X1A_FOGRA39,
                      shop="The Game Crafter", safe_mm=EIGHTH,
                      die_cut=DieCut(bleed_mm=EIGHTH, safe_mm=EIGHTH, counter_mm=inches(1),
                                     nicks=Nicks(width_in=Fraction(1, 100), apart_in=Fraction(1, 8), per_path=3),
                                     board=Punchboard(width_in=Fraction(13, 4), height_in=Fraction(21, 4),
                                                      frame_in=Fraction(1, 8))),
                      parts=("counters",), cut_files=True),
    release=ReleaseWords(
        tips=("release.readme.tip.tgc",),
        how_to_print={"counters": "release.print.counters.tgc"},
        files={"counters": "release.file.counters.tgc"},
        folder_tip="release.readme.tip.folder.tgc"),
)
