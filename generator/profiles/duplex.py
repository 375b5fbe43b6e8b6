"""--print duplex, the default: counter fronts and backs on the two sides of one sheet, with the
calibration pair that measures a printer's back offset."""

from generator.profiles.print_profile import ColourModel, PrintProfile, ReleaseWords, SheetLayout

DUPLEX = PrintProfile(
    name="duplex",
    help="both sides, calibrated",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.RGB,
    duplex_hint=True,
    release=ReleaseWords(tips=("release.readme.tip.actual_size", "release.readme.tip.duplex",
                               "release.readme.tip.calibration", "release.readme.tip.papers")),
    in_manifest=False,
)
