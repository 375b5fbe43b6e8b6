"""What a print profile holds: everything that differs between ways of printing the kit, as data.

The code asks a profile (`options.profile.fold_sheets`, `.cmyk`, `.prepress`) rather than its
name, so a new way of printing is one module beside this one and one entry in registry.py.  A
named print-shop preset is such an entry: its shop's bleed, marks and PDF/X flavour are fields
of its Prepress; numbers a preset adds (a safe zone, an ink ceiling) are fields with defaults
there, read where they take effect.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from msgspec import Struct

from generator.units import MM_PER_INCH

Mm = float | Fraction       # millimetres; a shop's numbers in inches stay exact (inches())


def inches(value: Fraction | int) -> Fraction:
    """A shop's number in inches, as exact millimetres."""
    return Fraction(value) * MM_PER_INCH


class SheetLayout(Enum):
    """How a counter's back meets its front."""
    DUPLEX_PAIRS = "duplex pairs"       # a page of fronts, then its backs mirrored: both sides of one sheet
    FOLD_AND_GLUE = "fold and glue"     # fronts and mirrored backs on one page, folded at its centre


class ColourModel(Enum):
    """The colours every PDF is written in."""
    RGB = "RGB"         # as the renderers draw: screens and home printers
    CMYK = "CMYK"       # DeviceCMYK only, black and greys as pure K: a press's inks


class PdfX(Struct, frozen=True):
    """The PDF/X flavour a shop's preflight checks: the info key, the header, the output intent."""
    version: str            # GTS_PDFXVersion
    header: str             # the file's first line, as the version asks
    condition: str          # OutputConditionIdentifier: a registered characterization
    condition_info: str     # its human-readable name (OutputCondition and Info)
    # the ICC output profile embedded as the intent's DestOutputProfile (a file in
    # render/pdf/icc/); PDF/X-4 asks for one, PDF/X-1a lets a registered condition stand alone
    icc: str | None = None

    @property
    def x4(self) -> bool:
        """PDF/X-4: an embedded output profile and XMP metadata that says the version."""
        return self.version.startswith("PDF/X-4")


# PDF/X-1a on the registered FOGRA39 condition (coated offset, ISO 12647-2): what the presses of
# the shop profile, DriveThruRPG and The Game Crafter take; meinspiel.de's X-4 is this with its profile
X1A_FOGRA39 = PdfX(version="PDF/X-1a:2003", header="%PDF-1.4", condition="FOGRA39",
                   condition_info="Coated FOGRA39 (ISO 12647-2:2004)")


class Nicks(Struct, frozen=True):
    """Ties left in a die line, so the counters stay in their board until punched out."""
    width_in: Fraction      # each nick's length along the cut
    apart_in: Fraction      # the least distance between two nicks of one path
    per_path: int           # nicks on each counter's cut path, at least


class Punchboard(Struct, frozen=True):
    """A board of fixed size the counters are laid out on, in place of the paper (a shop's
    punchout slug): its trim, and the frame it keeps round the counters."""
    width_in: Fraction
    height_in: Fraction
    frame_in: Fraction      # from the board's trim to the nearest counter's bleed


class DieCut(Struct, frozen=True):
    """Counters a shop cuts with a die: every counter's own bleed and safe zone."""
    bleed_mm: Mm            # each counter's art past its cut (two of them between counters)
    safe_mm: Mm             # each counter's text and art inside its cut by at least this
    counter_mm: Fraction    # the counter size a build prints when --counter-size is not given
    nicks: Nicks | None = None
    board: Punchboard | None = None     # None: the paper's sheets


class Prepress(Struct, frozen=True):
    """What a print shop asks of every page of every PDF: its boxes, marks and output intent."""
    bleed_mm: Mm                # the BleedBox past the TrimBox on every side
    slug_mm: float              # past the bleed: room for the crop marks
    marks: bool                 # crop marks in the slug (--no-marks takes them off: media = bleed)
    cut_contour: bool           # each counter's cut line as a spot-colour path on the fronts
    pdfx: PdfX
    shop: str = ""              # whose numbers these are, as messages name it
    ink_limit: int | None = None    # total ink (C + M + Y + K, percent) no colour may pass
    safe_mm: Mm = 5             # nothing within this of a page's trim (the kit's own edge rule: 5 mm)
    die_cut: DieCut | None = None   # None: counters cut by hand, the kit's gutters
    # the parts the shop prints: what a release's folder of this profile holds (None: every part)
    parts: tuple[str, ...] | None = None
    cut_files: bool = False     # the die line alone, as a PDF and an SVG beside the counters


@dataclass(frozen=True)
class ReleaseWords:
    """The catalogue keys a release's README.txt and index.html say this profile with."""
    tips: tuple[str, ...]       # the printing tips, in order
    # part -> "how to print it" and "what it is", where the profile's words differ from the
    # plain release.print.PART and release.file.PART
    how_to_print: Mapping[str, str] = field(default_factory=dict, hash=False)
    files: Mapping[str, str] = field(default_factory=dict, hash=False)
    # said in the README of a release that holds this profile's PDFs in a folder of its name
    folder_tip: str | None = None


class PrintProfile(Struct, frozen=True):
    """One way of printing the kit (--print NAME)."""
    name: str               # what --print, the project file and a release's folder call it
    help: str               # its line in --print's help and the project file's comment
    sheets: SheetLayout
    colour: ColourModel
    duplex_hint: bool       # the viewer hint for a long-edge duplex print; a kit pads parts to whole sheets
    release: ReleaseWords
    prepress: Prepress | None = None    # a print shop's boxes, marks and output intent
    # MANIFEST.txt names the profile on a "print NAME" line; the default's manifest has none,
    # so it keeps the bytes it had before there were profiles
    in_manifest: bool = True
    # A home cutting machine's print-then-cut: Silhouette's registration marks on every sheet
    # of fronts (and in the cut files, at the same places), no cut ticks, the cut files made
    home_cutter: bool = False

    def __post_init__(self) -> None:
        # The shop's rewrite (render/pdf/shop_pdf.py) makes the colours CMYK and sets the boxes in
        # one pass: one without the other is not a PDF the kit can make.
        if (self.colour is ColourModel.CMYK) != (self.prepress is not None):
            raise ValueError(f"print profile {self.name!r}: CMYK colours and a prepress go together")

    @property
    def fold_sheets(self) -> bool:
        return self.sheets is SheetLayout.FOLD_AND_GLUE

    @property
    def calibration(self) -> bool:
        """Whether the counters open with the duplex calibration pair: the pages that measure a
        home duplex printer's back offset, and hold the counters' manifest, on duplex pairs.  A
        print shop's press needs none: its counters open with a cover of the cut sheets instead."""
        return self.sheets is SheetLayout.DUPLEX_PAIRS and self.prepress is None

    @property
    def cut_files(self) -> bool:
        """Whether the counters come with their die line as files of its own: a shop that asks
        for them, or a home cutting machine."""
        return self.home_cutter or (self.prepress is not None and self.prepress.cut_files)

    @property
    def cmyk(self) -> bool:
        return self.colour is ColourModel.CMYK
