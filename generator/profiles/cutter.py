"""--print cutter: the home duplex sheets for a cutting machine's print-then-cut (Silhouette
Cameo, Portrait; Cricut and Brother ScanNCut read the same kind of marks): Silhouette's type 1
registration marks on every sheet of fronts, the cut ticks left off (the machine cuts), and
the die line as cut files whose marks stand where the printed ones do."""

from generator.profiles.print_profile import ColourModel, PrintProfile, ReleaseWords, SheetLayout

CUTTER = PrintProfile(
    name="cutter",
    help="both sides, calibrated, with a cutting machine's registration marks and cut files",
    sheets=SheetLayout.DUPLEX_PAIRS,
    colour=ColourModel.RGB,
    duplex_hint=True,
    release=ReleaseWords(tips=("release.readme.tip.actual_size", "release.readme.tip.duplex",
                               "release.readme.tip.calibration", "release.readme.tip.cutter",
                               "release.readme.tip.papers"),
                         folder_tip="release.readme.tip.folder.cutter"),
    home_cutter=True,
)
