"""--print cutter: the home duplex sheets for a cutting machine's print-then-cut (Silhouette
Cameo, Portrait; Cricut and Brother ScanNCut read the same kind of marks): Silhouette's type 1
registration marks on every sheet of fronts, the cut ticks left off (the machine cuts), and
the die line as cut files whose marks stand where the printed ones do."""

from msgspec.structs import replace

from generator.profiles.duplex import DUPLEX
from generator.profiles.print_profile import ReleaseWords

# The duplex sheets, calibrated as ever, with the marks and the cut files
CUTTER = replace(
    DUPLEX,
    name="cutter",
    help="both sides, calibrated, with a cutting machine's registration marks and cut files",
    release=ReleaseWords(tips=("release.readme.tip.actual_size", "release.readme.tip.duplex",
                               "release.readme.tip.calibration", "release.readme.tip.cutter",
                               "release.readme.tip.papers"),
                         folder_tip="release.readme.tip.folder.cutter"),
    in_manifest=True,
    home_cutter=True,
)
