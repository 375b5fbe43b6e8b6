"""A print shop's files as a prepress desk reads them, measured on the built files: the output
profile the kit ships (no characterization data in it, its licence beside it), the design's
colours through that profile (each within a stated ΔE76 of its proof), 100% K text and lines
overprinting, small reversed type out of one ink, die-cut print files holding the punchboard
sides alone, and no page naming a file its preset does not write.

The expected numbers are the sources' (docs/printing.md, the data's colours, the ICC
specification's tag table), and a colour's inks are the test's own littleCMS conversion
(test_print_shop.press_inks), not read from the code."""

import functools
import io
import math
import re
import struct
import tomllib

import pytest
from pypdf import PdfReader

from conftest import ROOT, page_texts, shipped_build, shipped_kit
from generator.make.pipeline import render_all
from generator.options import BuildOptions, default_counter_mm
from test_print_shop import PROFILE, press_inks, proofed, shop_build

DATA_TAGS = {b"targ", b"DevD", b"CIED"}     # where colprof copies the measurement data
DELTA_E = 5.0       # docs/printing.md: every design colour prints within this of its screen colour (ΔE76)
BLACK = (0.0, 0.0, 0.0, 1.0)


def icc_tags(profile):
    """{signature: (offset, size)} of an ICC profile's tag table (ICC.1:2001-04, 6.2)."""
    count = struct.unpack_from(">I", profile, 128)[0]
    return {sig: (off, size) for sig, off, size in (struct.unpack_from(">4sII", profile, 132 + 12 * i)
                                                   for i in range(count))}


def test_the_shipped_profile_holds_no_characterization_data_and_its_licence_ships_beside_it():
    from PIL import ImageCms
    profile = (ROOT / PROFILE).read_bytes()
    tags = icc_tags(profile)
    assert not DATA_TAGS & set(tags), set(tags)
    assert b"CTI3" not in profile and b"BEGIN_DATA" not in profile     # no .ti3 text anywhere in it
    assert {b"A2B0", b"A2B1", b"B2A0", b"B2A1", b"wtpt", b"desc", b"cprt"} <= set(tags)
    assert struct.unpack_from(">I", profile, 0)[0] == len(profile) and profile[36:40] == b"acsp"
    assert "no characterization data" in ImageCms.getProfileCopyright(ImageCms.getOpenProfile(io.BytesIO(profile)))
    licence = (ROOT / PROFILE).with_name("LICENSE").read_text()
    assert "Permission is granted to anyone to use this software for any purpose" in licence
    assert "This notice may not be removed or altered from any source" in licence
    assert "Fogra" in licence and "icc-profiles-free" in licence
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert {"icc/*.icc", "icc/LICENSE", "icc/README.md"} <= set(data["generator.render.pdf"])


def test_a_pdf_x4_file_embeds_that_profile_as_it_ships(preset_builds):
    reader = PdfReader(io.BytesIO(preset_builds["meinspiel"]["counters-a4.pdf"]))
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    embedded = intent["/DestOutputProfile"].get_object().get_data()
    assert embedded == (ROOT / PROFILE).read_bytes() and not DATA_TAGS & set(icc_tags(embedded))


# ---- colour -------------------------------------------------------------------------------------

def lab(hex_colour):
    """CIE L*a*b* (D65) of an sRGB colour, by IEC 61966-2-1 and CIE 15."""
    linear = [(v / 12.92) if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
              for v in (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    xyz = [sum(m * v for m, v in zip(row, linear, strict=True)) for row in
           ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))]
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
         for t in (v / w for v, w in zip(xyz, (0.95047, 1.0, 1.08883), strict=True))]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def fills(content, strokes=False):
    """Every CMYK fill colour (C, M, Y, K in whole percent) set in the PDF's streams, pages and
    forms; with `strokes`, every stroke colour too."""
    reader = PdfReader(io.BytesIO(content))
    streams = [page.get_contents().get_data() for page in reader.pages]
    streams += [form.get_object().get_data() for page in reader.pages
                for form in ((page["/Resources"].get("/XObject") or {}).values())]
    operator = rb"[kK]" if strokes else rb"k"
    found = set()
    for data in streams:
        for c, m, y, k in re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) " + operator + rb"\b", data):
            found.add(tuple(round(float(v) * 100) for v in (c, m, y, k)))
    return found


def design_colours():
    """{'#rrggbb': where} of every colour in the data: each nationality's ground and emblem."""
    colours = {}
    for nat in shipped_kit().nationalities:
        colours[nat.colour] = f"{nat.key}.colour"
        for shape in nat.emblem:
            colours.update(dict.fromkeys(shape.colours, f"{nat.key}.emblem"))
    return colours


def test_design_colours_print_through_the_output_profile_within_a_stated_delta_e(preset_builds):
    """Every colour of the data but its greys prints (DriveThruRPG's counters) as the output
    profile converts it (relative colorimetric, whole percent), and that proofs within DELTA_E of
    its screen colour; the old grey-component rule printed the olive 13.5 away."""
    printed = fills(preset_builds["drivethru"]["counters-a4.pdf"])
    worst = []
    for hex_colour, where in design_colours().items():
        inks = press_inks(hex_colour)
        if len({hex_colour[1:3], hex_colour[3:5], hex_colour[5:7]}) == 1:
            continue        # a grey prints as K alone, by the rule before the profile; white lays no ink
        assert tuple(inks) in printed, (where, hex_colour, inks)
        worst.append((math.dist(lab(hex_colour), lab(proofed(inks))), where, hex_colour))
    assert max(worst)[0] <= DELTA_E, max(worst)
    olive = "#9aa36a"       # the American ground: data/nationalities/american.toml
    assert math.dist(lab(olive), lab(proofed([6, 0, 35, 36]))) > 10     # what grey-component replacement printed


def page_colours():
    """{'#rrggbb': name} of the colours the aid and the tables print beside the data's: the
    palette's accent, head and box, the tables' band and their Killed and armed tints."""
    from generator.render import theme
    named = {name: getattr(theme.COLOUR, name) for name in ("accent", "head", "box")}
    named |= {name: getattr(theme, name) for name in ("BAND", "KILLED_TINT", "YES_TINT")}
    return {colour: name for name, colour in named.items()}


@functools.lru_cache(maxsize=1)
def drivethru_pages():
    """DriveThruRPG's aid and tables (A4)."""
    return render_all(shipped_kit(), BuildOptions(parts=("aid", "prerolled"), papers=("a4",),
                                                  print_profile="drivethru"))


def test_the_pages_own_colours_print_through_the_profile_within_the_same_delta_e():
    """The aid's and the tables' colours, as DriveThruRPG's pages print them."""
    files = drivethru_pages()
    printed = fills(files["player-aid-a4.pdf"]) | fills(files["prerolled-a4.pdf"])
    for hex_colour, name in page_colours().items():
        inks = press_inks(hex_colour)
        assert tuple(inks) in printed, (name, hex_colour, inks)
        assert math.dist(lab(hex_colour), lab(proofed(inks))) <= DELTA_E, (name, hex_colour, inks)


def test_every_ink_printed_is_one_of_the_colours_measured(preset_builds):
    """Whatever the counters, the aid and the tables fill or stroke in is a colour the two tests
    above measure (the data's, the pages' own), a grey on the black plate alone, or paper: a colour
    a new design adds is measured before it prints."""
    measured = {tuple(press_inks(c)) for c in design_colours() | page_colours()}
    pages = drivethru_pages()
    for name, content in (("counters", preset_builds["drivethru"]["counters-a4.pdf"]),
                          ("aid", pages["player-aid-a4.pdf"]), ("tables", pages["prerolled-a4.pdf"])):
        unmeasured = {inks for inks in fills(content, strokes=True) if inks not in measured and any(inks[:3])}
        assert not unmeasured, (name, unmeasured)


# ---- overprint and reversed type ----------------------------------------------------------------

def painted(reader, stream, resources):
    """(operator, fill, stroke, fill overprint, stroke overprint) of each text show, fill and stroke
    of one stream, following q/Q, colours and the ExtGStates it sets (overprint off where unset)."""
    from pypdf.generic import ContentStream
    states = {name: state.get_object() for name, state in (resources.get("/ExtGState") or {}).items()}
    fill = stroke = None
    op = OP = False
    saved, out = [], []
    for args, operator in ContentStream(stream, reader).operations:
        if operator == b"q":
            saved.append((fill, stroke, op, OP))
        elif operator == b"Q":
            fill, stroke, op, OP = saved.pop()
        elif operator in (b"k", b"K"):
            inks = tuple(float(v) for v in args)
            fill, stroke = (inks, stroke) if operator == b"k" else (fill, inks)
        elif operator == b"gs":
            state = states[str(args[0])]    # a pypdf BooleanObject compares equal to its value
            OP = state["/OP"] == True if "/OP" in state else OP     # noqa: E712
            op = state["/op"] == True if "/op" in state else OP     # noqa: E712 (an OP alone sets both)
        elif operator in (b"Tj", b"TJ", b"f", b"f*", b"S", b"s", b"B"):
            out.append((operator, fill, stroke, op, OP))
    return out


def all_painted(content):
    reader = PdfReader(io.BytesIO(content))
    for page in reader.pages:
        yield from painted(reader, page.get_contents(), page["/Resources"])
        for ref in ((page["/Resources"].get("/XObject") or {}).values()):
            form = ref.get_object()
            if form.get("/Subtype") == "/Form":
                yield from painted(reader, form, form.get("/Resources") or page["/Resources"])


@pytest.mark.parametrize("preset,name,lines", [("drivethru", "counters-a4.pdf", True),
                                               ("drivethru", "prerolled-a4.pdf", True),
                                               ("meinspiel", "counters-a4.pdf", False)])
def test_black_text_and_lines_overprint_and_nothing_in_colour_does(preset_builds, preset, name, lines):
    """On PDF/X-1a (DriveThruRPG) and PDF/X-4 (meinspiel.de), the faces' forms included; `lines`:
    whether the file strokes black at all (meinspiel.de's die-cut sheets have no cut ticks and no marks)."""
    ops = list(all_painted(preset_builds[preset][name]))
    black_text = [o for o in ops if o[0] in (b"Tj", b"TJ") and o[1] == BLACK]
    black_lines = [o for o in ops if o[0] in (b"S", b"s") and o[2] == BLACK]
    assert black_text and bool(black_lines) == lines
    assert all(o[3] for o in black_text), "100% K text that knocks out"
    assert all(o[4] for o in black_lines), "a 100% K line that knocks out"
    coloured = [o for o in ops if o[0] in (b"f", b"f*", b"Tj", b"TJ") and o[1] not in (None, BLACK)]
    assert coloured and not any(o[3] for o in coloured), "a colour that overprints"


def _times(a, b):
    """The PDF matrix product a x b (a applied first)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


class _Painter:
    """What a page paints, in page space, through its forms: each filled path's box and inks in
    painting order, and each text show's inks, size and origin with the grounds painted before it."""

    PATHS = frozenset({b"m", b"l", b"c", b"re"})
    PAINTS = frozenset({b"f", b"f*", b"B", b"B*", b"n", b"S"})

    def __init__(self, reader):
        self.reader = reader
        self.parsed = {}        # a form's operators, read once however often it is placed
        self.page()

    def page(self):
        """A fresh page: nothing painted, the graphics state as a page starts it."""
        self.grounds = []       # [(x0, y0, x1, y1, inks)] of every fill so far
        self.shows = []         # [(inks, size, (x, y), the inks of the grounds under its origin, last first)]
        self.fill, self.ctm, self.size, self.tm, self.points, self.saved = None, (1, 0, 0, 1, 0, 0), 0.0, None, [], []

    def walk(self, stream, resources, key):
        from pypdf.generic import ContentStream
        if key not in self.parsed:
            self.parsed[key] = ContentStream(stream, self.reader).operations
        for args, operator in self.parsed[key]:
            if operator in self.PATHS:
                self.path(args, operator)
            elif operator in self.PAINTS:
                self.paint(operator)
            elif operator in (b"Tj", b"TJ"):
                x, y = _times(self.tm, self.ctm)[4:]
                under = [g[4] for g in reversed(self.grounds) if g[0] <= x <= g[2] and g[1] <= y <= g[3]]
                self.shows.append((self.fill, self.size, (x, y), under))
            elif operator == b"Do":
                self.place(resources, str(args[0]))
            else:
                self.state(args, operator)

    def state(self, args, operator):
        if operator == b"q":
            self.saved.append((self.fill, self.ctm))
        elif operator == b"Q":
            self.fill, self.ctm = self.saved.pop()
        elif operator == b"cm":
            self.ctm = _times(tuple(float(v) for v in args), self.ctm)
        elif operator == b"k":
            self.fill = tuple(float(v) for v in args)
        elif operator == b"Tf":
            self.size = float(args[1])
        elif operator == b"Tm":
            self.tm = tuple(float(v) for v in args)

    def path(self, args, operator):
        numbers = [float(v) for v in args]
        if operator == b"re":
            x, y, w, h = numbers
            numbers = [x, y, x + w, y + h]
        self.points += [_times((1, 0, 0, 1, x, y), self.ctm)[4:] for x, y in zip(numbers[::2], numbers[1::2],
                                                                                    strict=True)]

    def paint(self, operator):
        if operator not in (b"n", b"S") and self.points:
            xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
            self.grounds.append((min(xs), min(ys), max(xs), max(ys), self.fill))
        self.points = []

    def place(self, resources, name):
        ref = (resources.get("/XObject") or {})[name]
        form = ref.get_object()
        if form.get("/Subtype") == "/Form":
            self.saved.append((self.fill, self.ctm))
            self.walk(form, form.get("/Resources") or resources, getattr(ref, "idnum", id(form)))
            self.fill, self.ctm = self.saved.pop()


@functools.lru_cache(maxsize=256)
def lightness(inks):
    """L* of inks (C, M, Y, K in 0..1) as they proof through the output profile."""
    return lab(proofed([round(v * 100) for v in inks]))[0]


def reversed_type(content):
    """[(text inks, size, ground inks)] of every text show set lighter than the ground it stands
    on (the last fill painted under its origin; lighter as the inks proof, L*), on every page and
    in every form it places."""
    reader = PdfReader(io.BytesIO(content))
    painter = _Painter(reader)
    found = []
    for n, page in enumerate(reader.pages):
        painter.page()
        painter.walk(page.get_contents(), page["/Resources"], ("page", n))
        for inks, size, _, under in painter.shows:
            if inks is not None and under and under[0] is not None and lightness(inks) > lightness(under[0]):
                found.append((inks, size, under[0]))
    return found


def test_small_reversed_type_stands_out_of_one_ink(preset_builds):
    """The aid's rule tabs (white at 7.5 pt) and the wounded band's label on every crew counter's
    back: type lighter than its ground is the paper itself, out of one solid ink, not out of two
    or three screened ones a hair out of register (on DriveThruRPG's PDF/X-1a and meinspiel.de's
    PDF/X-4)."""
    for name, content in (("aid", drivethru_pages()["player-aid-a4.pdf"]),
                          ("drivethru counters", preset_builds["drivethru"]["counters-a4.pdf"]),
                          ("meinspiel counters", preset_builds["meinspiel"]["counters-a4.pdf"])):
        found = reversed_type(content)
        assert found, name
        for inks, size, ground in found:
            assert inks == (0, 0, 0, 0), (name, size, inks, ground)
            assert sum(1 for v in ground if v) == 1 and max(ground) == 1, (name, size, inks, ground)


# ---- the shop's files ---------------------------------------------------------------------------

def faces_placed(reader, page):
    return b" Do" in page.get_contents().get_data()


@pytest.mark.parametrize("preset", ["shop", "meinspiel", "tgc-punchout"])
def test_a_die_cut_print_file_holds_the_punchboard_sides_alone_in_the_die_lines_order(preset_builds, preset):
    files = shop_build() if preset == "shop" else preset_builds[preset]
    reader = PdfReader(io.BytesIO(files["counters-a4.pdf"]))
    die_line = PdfReader(io.BytesIO(files["cut-a4.pdf"]))
    assert len(reader.pages) == 2 * len(die_line.pages)     # each sheet's front, then its back
    assert all(faces_placed(reader, page) for page in reader.pages)     # no cover, no manifest
    if preset != "tgc-punchout":        # the cover and manifest: a file of their own, no counter sheet in it
        cover = PdfReader(io.BytesIO(files["counters-cover-a4.pdf"]))
        assert len(cover.pages) == 2 and not any(b"counters-sheet" in p.get_contents().get_data()
                                                 for p in cover.pages)


FILE_NAME = re.compile(r"\b[\w-]+\.(?:pdf|svg|dxf|csv|html|txt)\b")


def counters_of(profile):
    """A4 counters of `profile` at its own default size, through conftest.shipped_build: the same
    options as the other files' counters of the profile (test_counters_pdf's, test_print_shop's),
    built once a process."""
    return shipped_build(parts=("counters",), papers=("a4",), print_profile=profile,
                         counter_mm=default_counter_mm((profile,)))


@pytest.mark.parametrize("profile", ["duplex", "fold", "cutter", "shop", "drivethru", "meinspiel", "tgc-punchout"])
def test_no_page_names_a_file_its_preset_does_not_write(profile, preset_builds):
    """What every page says of files (the cut file, any file by name) against what the build wrote:
    drivethru's pages once said "its die line is in the cut file", and it writes none.  The two
    presets whose session build (conftest.preset_builds) is their counters alone read that one."""
    files = preset_builds[profile] if profile in ("meinspiel", "tgc-punchout") else counters_of(profile)
    written = set(files)
    cut_file = any(name.startswith("cut-") and name.endswith(".pdf") for name in written)
    for name in (n for n in files if n.endswith(".pdf")):
        for n, text in enumerate(page_texts(files[name]), 1):
            flat = " ".join(text.split())
            assert cut_file or "cut file" not in flat, (profile, name, n)
            for found in FILE_NAME.finditer(flat):
                named = found.group()
                if flat[:found.start()].endswith("the release's "):
                    continue        # a file of the release, named as such ("the release's README.txt")
                assert named in written or named.replace("letter", "a4") in written, (profile, name, n, named)
