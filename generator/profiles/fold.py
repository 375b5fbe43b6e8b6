"""--print fold: a single-sided printer's counters, fronts and their backs mirrored on one page,
folded at its centre and glued."""

from generator.profiles.print_profile import ColourModel, PrintProfile, ReleaseWords, SheetLayout

FOLD = PrintProfile(
    name="fold",
    help="single-sided: fold and glue",
    sheets=SheetLayout.FOLD_AND_GLUE,
    colour=ColourModel.RGB,
    duplex_hint=False,      # printed on one side: no duplex hint, no blank page between a kit's parts
    release=ReleaseWords(
        tips=("release.readme.tip.actual_size", "release.readme.tip.fold", "release.readme.tip.papers"),
        how_to_print={"kit": "release.print.kit.fold", "aid": "release.print.aid.fold",
                      "counters": "release.print.counters.fold"},
        files={"counters": "release.file.counters.fold"},
        folder_tip="release.readme.tip.folder.fold"),
)
