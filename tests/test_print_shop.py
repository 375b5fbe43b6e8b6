"""--print shop: every page of every PDF read back with pypdf, and Ghostscript's view.

The print shop's brief (docs/printing.md): TrimBox = the A4 or Letter page, BleedBox =
trim + 3 mm on every side, MediaBox = the bleed and a slug (the bleed itself with --no-marks),
nested; CMYK only (no RGB or grey operator, colour space or image); no transparency; a PDF/X
output intent with a registered condition and the info keys a preflight reads; every font
embedded; the counter cut lines in a `CutContour` separation, overprinted.  Ghostscript renders
each file without a word, and its inkcov device finds no C, M or Y on a text-only page.
"""

import functools
import io
import os
import re
import shutil
import subprocess
from fractions import Fraction

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject

from conftest import DATA, SLOW, shipped_kit
from generator.data import load
from generator.make.pipeline import render_all
from generator.options import BuildOptions

MM = 72 / 25.4
BLEED = 3 * MM          # the brief's bleed
TOL = 0.01              # points
PAPER_PT = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}     # ISO 216; 8.5 x 11 in
NOT_CMYK = {"/DeviceRGB", "/CalRGB", "/DefaultRGB", "/DeviceGray", "/CalGray", "/DefaultGray", "/Lab"}
RGB_OPS = {b"rg", b"RG", b"g", b"G"}
IN_CI = os.environ.get("CI") == "true"
SHOP_COUNTER = Fraction(254, 10)    # 1 in: what a die-cut shop prints without --counter-size (docs/printing.md)


def shop_build(marks=True):
    return _shop_build(bool(marks))     # one cache key for shop_build() and shop_build(True)


@functools.lru_cache(maxsize=2)
def _shop_build(marks):
    """Every part with marks; without, the counters.  Both on both papers under
    BAILOUT_SLOW_TESTS=1; in README's command the build with marks on A4 and the one without on
    Letter (each paper's boxes and sheets, each with marks and without, read between them: most of
    this file's time is reading these files)."""
    parts = ("aid", "prerolled", "counters") if marks else ("counters",)
    papers = ("a4", "letter") if SLOW else ("a4",) if marks else ("letter",)
    return render_all(shipped_kit(), BuildOptions(parts=parts, papers=papers, print_profile="shop", marks=marks,
                                               counter_mm=SHOP_COUNTER))


def pdfs(outputs):
    return {name: content for name, content in outputs.items() if name.endswith(".pdf")}


def paper_of(name):
    return "a4" if name.endswith("-a4.pdf") else "letter"


def box(page, key):
    return [float(v) for v in page[key]]


def walk(obj, seen):
    """Every object reachable from `obj`, each indirect object once."""
    if isinstance(obj, IndirectObject):
        if obj.idnum in seen:
            return
        seen.add(obj.idnum)
        obj = obj.get_object()
    yield obj
    values = obj.values() if isinstance(obj, DictionaryObject) else obj if isinstance(obj, ArrayObject) else ()
    for value in values:
        yield from walk(value, seen)


def content_operators(reader):
    """The operator of every operation in every page's content and every form XObject's."""
    for obj in walk(reader.trailer["/Root"], set()):
        if isinstance(obj, DictionaryObject) and obj.get("/Type") == "/Page":
            yield from stream_operators(obj["/Contents"].get_object(), reader)
        elif isinstance(obj, DictionaryObject) and obj.get("/Subtype") == "/Form":
            yield from stream_operators(obj, reader)


# A content stream's tokens (PDF 32000-1, 7.2 and 7.8.2): strings (brackets nested once),
# dictionary brackets, hex strings, names, comments, array brackets, and bare words: a number or
# an operator.  Read by a regular expression: pypdf's ContentStream parse would be most of the
# time these tests take.  A stream it cannot read whole (or an inline image) goes to pypdf.
TOKEN = re.compile(rb"""\s*(?:(\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\))|(<<|>>|<[0-9A-Fa-f\s]*>)
                       |(/[^\s()<>\[\]{}/%]*)|(%[^\r\n]*)|([\[\]{}])|([^\s()<>\[\]{}/%]+))\s*""", re.X | re.S)
NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)")


def stream_operators(stream, reader):
    data, at, found = stream.get_data(), 0, []
    while at < len(data):
        match = TOKEN.match(data, at)
        if match is None or match.end() == at:
            return [op for _, op in ContentStream(stream, reader).operations]
        word = match.group(6)
        if word is not None and not NUMBER.fullmatch(word) and word not in (b"true", b"false", b"null"):
            if word == b"BI":       # an inline image's data is not tokens
                return [op for _, op in ContentStream(stream, reader).operations]
            found.append(word)
        at = match.end()
    return found


@pytest.mark.parametrize("marks", [True, False], ids=["marks", "no-marks"])
def test_every_page_has_its_trim_bleed_and_media_boxes(marks):
    for name, content in pdfs(shop_build(marks)).items():
        width, height = PAPER_PT[paper_of(name)]
        for number, page in enumerate(PdfReader(io.BytesIO(content)).pages, 1):
            trim, bleed, media = box(page, "/TrimBox"), box(page, "/BleedBox"), box(page, "/MediaBox")
            where = (name, number)
            assert abs(trim[2] - trim[0] - width) < TOL and abs(trim[3] - trim[1] - height) < TOL, where
            assert all(abs(b - (t - BLEED if i < 2 else t + BLEED)) < TOL
                       for i, (b, t) in enumerate(zip(bleed, trim, strict=True))), where
            if marks:       # a slug holds the crop marks: the media is larger than the bleed all round
                assert media[0] < bleed[0] - 3 * MM and media[1] < bleed[1] - 3 * MM, where
                assert media[2] > bleed[2] + 3 * MM and media[3] > bleed[3] + 3 * MM, where
            else:
                assert all(abs(m - b) < TOL for m, b in zip(media, bleed, strict=True)), where
            assert "/CropBox" not in page \
                or all(abs(c - m) < TOL for c, m in zip(box(page, "/CropBox"), media, strict=True))


def test_no_rgb_or_grey_no_transparency_and_every_font_embedded():
    for name, content in pdfs(shop_build()).items():
        reader = PdfReader(io.BytesIO(content))
        for obj in walk(reader.trailer["/Root"], set()):
            if isinstance(obj, ArrayObject):
                assert not NOT_CMYK & {str(v) for v in obj}, (name, obj)
            if not isinstance(obj, DictionaryObject):
                continue
            assert not NOT_CMYK & {str(v) for v in obj.values()}, (name, obj)
            assert "/SMask" not in obj and obj.get("/S") != "/Transparency", (name, obj)
            assert float(obj.get("/CA", 1)) == 1 and float(obj.get("/ca", 1)) == 1, (name, obj)
            assert obj.get("/BM", "/Normal") in ("/Normal", "/Compatible"), (name, obj)
            if obj.get("/Subtype") == "/Image":
                assert obj.get("/ColorSpace") == "/DeviceCMYK", (name, obj)
            if obj.get("/Subtype") == "/Link" or "/Annots" in obj:
                assert "/C" not in obj or len(obj["/C"]) != 3, (name, obj)
            if obj.get("/Type") == "/Font" and obj.get("/Subtype") != "/Type0":
                descriptor = obj["/FontDescriptor"].get_object()
                assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), (name, obj.get("/BaseFont"))
        ops = set(content_operators(reader))
        assert not ops & RGB_OPS, (name, ops & RGB_OPS)
        assert b"k" in ops or name.startswith("cut-")      # a cut file is strokes alone


def test_output_intent_info_keys_and_pdf_version():
    for name, content in pdfs(shop_build()).items():
        reader = PdfReader(io.BytesIO(content))
        intents = reader.trailer["/Root"]["/OutputIntents"]
        assert len(intents) == 1, name
        intent = intents[0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
        assert intent["/RegistryName"] == "http://www.color.org"
        info = reader.trailer["/Info"].get_object()
        assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003" and info["/Trapped"] == "/False", name
        assert info["/Title"] and info["/CreationDate"] and info["/ModDate"], name
        assert reader.pdf_header == "%PDF-1.4", name
        assert len(reader.trailer["/ID"]) == 2, name      # PDF/X wants a file identifier


def cut_contour(reader, page):
    """(names of the page's CutContour colour spaces, overprinting ExtGStates) from its resources."""
    res = page["/Resources"]
    spaces = {key for key, cs in (res.get("/ColorSpace") or {}).items()
              if cs.get_object()[0] == "/Separation" and cs.get_object()[1] == "/CutContour"}
    overprint = {key for key, gs in (res.get("/ExtGState") or {}).items() if gs.get_object().get("/OP") == True}  # noqa: E712 (a pypdf BooleanObject)
    return spaces, overprint


def each_paper(name):
    """(paper, bytes) of the shop's file `name` (counters, counters-cover) on each paper the two
    shop builds hold, with marks first."""
    for files in (shop_build(), shop_build(False)):
        for paper in ("a4", "letter"):
            if f"{name}-{paper}.pdf" in files:
                yield paper, files[f"{name}-{paper}.pdf"]


def test_counter_cut_lines_are_the_cutcontour_separation_overprinted():
    for paper, content in each_paper("counters"):
        reader = PdfReader(io.BytesIO(content))
        fronts = reader.pages[0::2]     # the die-cut sheets alone: each front, then its back
        assert fronts
        for number, page in enumerate(fronts, 1):
            spaces, overprint = cut_contour(reader, page)
            assert spaces and overprint, (paper, number)
            ops = ContentStream(page["/Contents"].get_object(), reader).operations
            # one form a counter face (the footer is a form of its own)
            placed = sum(1 for args, op in ops if op == b"Do" and "PageFooter" not in str(args[0]))
            start = next(i for i, (args, op) in enumerate(ops) if op == b"CS" and str(args[0]) in spaces)
            begin = max(i for i, (_, op) in enumerate(ops[:start]) if op == b"q")     # the cut lines' own state
            end = next(i for i, (_, op) in enumerate(ops[start:], start) if op == b"Q")
            cut = ops[begin:end]
            first_stroke = next(i for i, (_, op) in enumerate(cut) if op == b"S")
            assert any(op == b"gs" and str(args[0]) in overprint for args, op in cut[:first_stroke]), (paper, number)
            assert sum(1 for _, op in cut if op == b"re") == placed and any(op == b"S" for _, op in cut)
        for page in reader.pages[1::2]:     # the backs carry no cut line
            assert not cut_contour(reader, page)[0]


PROFILE = "generator/render/pdf/icc/FOGRA39L-300.icc"     # the shop presets' output profile


@functools.cache
def _profile_transforms():
    """(sRGB to the press, the press to sRGB): built once a process (each build reads the
    profile's tables, some 30 ms, and the colour tests convert a hundred colours)."""
    from PIL import ImageCms
    press, screen = ImageCms.getOpenProfile(str(DATA.parent / PROFILE)), ImageCms.createProfile("sRGB")
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    return (ImageCms.buildTransform(screen, press, "RGB", "CMYK", intent),
            ImageCms.buildTransform(press, screen, "CMYK", "RGB", intent))


def press_inks(hex_colour):
    """[C, M, Y, K] in whole percent, as docs/printing.md states a shop prints a colour: a grey as K
    alone (1 - its level), any other colour through the FOGRA39 output profile, relative colorimetric."""
    from PIL import Image, ImageCms
    rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    if len(set(rgb)) == 1:
        return [0, 0, 0, round(100 - rgb[0] * 100 / 255)]
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _profile_transforms()[0]).getpixel((0, 0))
    return [round(v * 100 / 255) for v in pixel]


def proofed(cmyk):
    """Inks in whole percent as they print, '#rrggbb' through the same profile and intent."""
    from PIL import Image, ImageCms
    image = Image.new("CMYK", (1, 1), tuple(round(v * 255 / 100) for v in cmyk))
    return "#" + "".join(f"{v:02x}" for v in ImageCms.applyTransform(image, _profile_transforms()[1]).getpixel((0, 0)))


def inks(hex_colour):
    """How a shop prints the colour, proofed back to sRGB."""
    return proofed(press_inks(hex_colour))


def test_a_colour_that_loses_its_contrast_as_inks_is_named(data_copy):
    """A cyan that `bailout check` passes against white text (4.51:1 in greyscale) but that the
    press prints lighter, out of its gamut (4.07:1 proofed): the shop build names its file and key."""
    from conftest import edit
    from generator.colour import grey_contrast
    from generator.errors import RenderError
    ground = "#009fdd"
    assert grey_contrast(ground, "#ffffff") >= 4.5 > grey_contrast(inks(ground), inks("#ffffff"))
    german = data_copy / "nationalities" / "german.toml"
    text = german.read_text()
    edit(german, next(line for line in text.splitlines() if line.startswith("colour =")), f'colour = "{ground}"')
    edit(german, next(line for line in text.splitlines() if line.startswith("text_colour =")),
         'text_colour = "#ffffff"')
    kit = load(data_copy)       # the data check passes it
    render_all(kit, BuildOptions(parts=("aid",), papers=("a4",)))      # and so does a duplex build
    with pytest.raises(RenderError) as err:
        render_all(kit, BuildOptions(parts=("counters",), papers=("a4",), print_profile="shop",
                                     counter_mm=SHOP_COUNTER))
    assert "nationalities/german.toml: text_colour:" in str(err.value)


def ghostscript():
    gs = shutil.which("gs")
    if gs is None:
        if IN_CI:
            pytest.fail("CI=true: Ghostscript (gs) is missing; .ci/run installs it")
        pytest.skip("Ghostscript (gs) is not installed: apt-get install ghostscript")
    return gs


def test_ghostscript_renders_every_shop_pdf_without_a_warning(tmp_path):
    gs = ghostscript()
    paths = []
    for name, content in pdfs(shop_build()).items():
        paths.append(tmp_path / name)
        paths[-1].write_bytes(content)

    def render(*files):
        return subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", *map(str, files)],
                              capture_output=True, text=True, timeout=120)
    # One Ghostscript for every file (its start-up was half the time); a word from it, and each
    # file is rendered alone to name the one that made it.
    together = render(*paths)
    if together.returncode != 0 or together.stdout.strip() or together.stderr.strip():
        for path in paths:
            run = render(path)
            assert run.returncode == 0 and not run.stdout.strip() and not run.stderr.strip(), \
                (path.name, run.stdout, run.stderr)
        pytest.fail(f"Ghostscript spoke over the files together, not over any alone: "
                    f"{together.stdout}{together.stderr}")


def test_ghostscript_inkcov_finds_only_black_on_a_text_only_page(tmp_path):
    """Page 1 of the shop's cover of its cut sheets: words and bars, all pure K."""
    gs = ghostscript()
    for paper, content in each_paper("counters-cover"):
        path = tmp_path / f"counters-cover-{paper}.pdf"
        path.write_bytes(content)
        run = subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=inkcov", "-dFirstPage=1", "-dLastPage=1",
                              "-o", "-", str(path)], capture_output=True, text=True, timeout=120, check=True)
        c, m, y, k = (float(v) for v in run.stdout.split()[:4])
        assert c == m == y == 0 and k > 0, run.stdout


# ---- the profiles on the command line, in MANIFEST.txt and in a release --------------------------

def test_print_and_no_marks_on_the_command_line():
    from generator.cli.parser import options_from_args, parser
    assert options_from_args(parser().parse_args(["build"])).print_profile == "duplex"
    opts = options_from_args(parser().parse_args(["build", "--print", "shop", "--no-marks"]))
    assert (opts.print_profile, opts.marks) == ("shop", False)
    assert options_from_args(parser().parse_args(["release", "--print", "fold,shop"])).print_profile == "fold"
    with pytest.raises(SystemExit) as stop:
        parser().parse_args(["build", "--print", "fold,shop"])      # a build makes one profile
    assert stop.value.code == 2


def test_manifest_names_the_profile_but_the_default():
    assert b"print shop\n" in shop_build()["MANIFEST.txt"]
    assert b"print shop, no marks\n" in shop_build(False)["MANIFEST.txt"]
    home = render_all(shipped_kit(), BuildOptions(parts=("prerolled",), papers=("a4",)))
    assert b"\nprint " not in home["MANIFEST.txt"]


@pytest.fixture(scope="module")
def several():
    """A release of the shop profile with fold sheets and The Game Crafter's slugs beside it."""
    import zipfile

    from generator.make.release import make_release
    from generator.options import default_counter_mm
    profiles = ("shop", "fold", "tgc-punchout")     # the counter size the command line would choose for them
    _name, content = make_release(shipped_kit(), BuildOptions(print_profile="shop", rows=8,
                                                           counter_mm=default_counter_mm(profiles)),
                                  more_profiles=profiles[1:])
    archive = zipfile.ZipFile(io.BytesIO(content))
    return archive, {n.split("/", 1)[1]: n for n in archive.namelist()}


@pytest.mark.larger_budget
def test_a_release_holds_several_profiles(several):
    archive, files = several
    manifest = archive.read(files["MANIFEST.txt"]).decode()
    assert "print shop\n" in manifest and "also printed as fold" in manifest
    for paper in ("a4", "letter"):
        shop = PdfReader(io.BytesIO(archive.read(files[f"kit-{paper}.pdf"])))
        assert "/OutputIntents" in shop.trailer["/Root"]
        fold = PdfReader(io.BytesIO(archive.read(files[f"fold/counters-{paper}.pdf"])))
        assert "/TrimBox" not in fold.pages[1] and f"fold/counters-{paper}.pdf" in manifest


@pytest.mark.larger_budget
def test_a_release_without_a_calibration_page_says_nothing_of_reading_an_offset_off_it(several):
    """A shop's counters and fold sheets open with no calibration page (docs/printing.md), so a
    release of those alone leaves out how to rebuild with the offset read off it; a home duplex
    release keeps it (test_metadata)."""
    from generator.content.words import load_words
    words = load_words()
    archive, files = several
    readme = archive.read(files["README.txt"]).decode()
    assert words("release.readme.rebuild") not in readme and "--back-offset" not in readme
    assert words("release.readme.credits") in readme


@pytest.mark.larger_budget
def test_a_release_holds_the_game_crafters_slugs_as_images_its_upload_page_takes(several):
    """The Game Crafter's small punchout: each side of each slug a PNG of 3.5 x 5.5 in (the
    3.25 x 5.25 in slug and 1/8 in bleed) at 300 dpi, 1050 x 1650 px, a front and a back a slug."""
    from PIL import Image
    archive, files = several
    slugs = sorted(n for n in files if n.startswith("tgc-punchout/slugs/"))
    pages = len(PdfReader(io.BytesIO(archive.read(files["tgc-punchout/counters-a4.pdf"]))).pages)
    assert len(slugs) == pages and pages % 2 == 0
    assert {re.sub(r".*/slug\d+-", "", n) for n in slugs} == {"front.png", "back.png"}
    for name in slugs[:2]:
        image = Image.open(io.BytesIO(archive.read(files[name])))
        assert image.size == (1050, 1650) and round(image.info["dpi"][0]) == 300, name
    assert not [n for n in files if n.startswith("slugs/") or n.startswith("fold/slugs/")]
    # The slugs are the design's RGB (the upload takes RGB), not a picture of the CMYK PDF: the
    # American counters' olive drab (data/nationalities/american.toml) is on the first slug exactly,
    # where the CMYK page, rasterised, shows the press's conversion of it.
    import pypdfium2 as pdfium
    olive = (0x9a, 0xa3, 0x6a)
    front = Image.open(io.BytesIO(archive.read(files["tgc-punchout/slugs/slug1-front.png"]))).convert("RGB")
    assert front.getcolors(1 << 20) and {c: n for n, c in front.getcolors(1 << 20)}.get(olive, 0) > 10_000
    doc = pdfium.PdfDocument(archive.read(files["tgc-punchout/counters-a4.pdf"]))
    try:
        page = doc[0].render(scale=300 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    assert {c: n for n, c in page.getcolors(1 << 20)}.get(olive, 0) < 100


@pytest.mark.parametrize("profile,paper", [("fold", "letter"), ("shop", "a4")])
def test_same_inputs_same_bytes(profile, paper):
    """Twice the same counters; the shop's second is the whole shop build's the other tests read
    (the counters alone or beside the other parts: one file's bytes are its own inputs')."""
    opts = BuildOptions(parts=("counters",), papers=(paper,), print_profile=profile,
                        counter_mm=SHOP_COUNTER if profile == "shop" else BuildOptions().counter_mm)
    name = f"counters-{paper}.pdf"
    first = render_all(shipped_kit(), opts)[name]
    second = shop_build()[name] if profile == "shop" else render_all(shipped_kit(), opts)[name]
    assert first == second
