"""The named shop presets (drivethru, meinspiel, tgc-punchout), each measured on its own output
against the shop's numbers as docs/printing.md states them: the page boxes and PDF/X keys, each
counter's bleed and safe zone, the ink ceiling on Ghostscript's separations, the cut files'
paths against the counters (and The Game Crafter's nicks), 100% K text and 0.5 pt tinted lines;
and subset tags unique in every merged PDF.  The expected numbers are the shops' (below), not
read from the code."""

import io
import itertools
import math
import re
import subprocess
from fractions import Fraction

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import SLOW, edit, one_line, run_cli, shipped_kit
from pdfpage import pages_of
from test_print_shop import ghostscript

MM = 72 / 25.4
IN = 72.0
A4 = (210 * MM, 297 * MM)
# (bleed past the trim, counter bleed past its cut, counter safe zone, ink ceiling %, PDF/X version, header,
#  the page's trim), in points; None: the kit's own (counters cut by hand)
SHOPS = {
    "drivethru": (IN / 8, None, None, 240, "PDF/X-1a:2003", "%PDF-1.4", A4),
    "meinspiel": (3 * MM, 3 * MM, 4 * MM, 300, "PDF/X-4", "%PDF-1.6", A4),
    "tgc-punchout": (IN / 8, IN / 8, IN / 8, None, "PDF/X-1a:2003", "%PDF-1.4", (3.25 * IN, 5.25 * IN)),
}
TOL = 0.01      # points
CUT_TOL = 0.05 * MM     # docs/printing.md: every cut path within 0.05 mm of its counter's trim


def counters(builds, preset):
    return builds[preset]["counters-a4.pdf"]


@pytest.mark.parametrize("preset", SHOPS)
def test_boxes_no_marks_and_pdfx_keys(preset_builds, preset):
    bleed, _, _, _, version, header, (w, h) = SHOPS[preset]
    for name, content in preset_builds[preset].items():
        if not name.endswith(".pdf"):
            continue
        reader = PdfReader(io.BytesIO(content))
        assert reader.pdf_header == header, name
        info = reader.trailer["/Info"]
        assert info["/GTS_PDFXVersion"] == version and info["/Trapped"] == "/False", name
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/OutputConditionIdentifier"] == "FOGRA39"
        if version == "PDF/X-4":
            icc = intent["/DestOutputProfile"].get_object()
            assert icc["/N"] == 4 and icc.get_data()[36:40] == b"acsp"      # an ICC profile's signature
            xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
            assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        else:
            assert "/DestOutputProfile" not in intent
        sizes = {(round(w, 2), round(h, 2))} if preset == "tgc-punchout" or "counters" not in name else None
        for page in reader.pages:
            trim = [float(v) for v in page.trimbox]
            bleed_box, media = [float(v) for v in page.bleedbox], [float(v) for v in page.mediabox]
            assert media == bleed_box, name         # no marks: the media is the bleed box
            assert all(abs(b - t + (bleed if i < 2 else -bleed)) < TOL for i, (b, t) in
                       enumerate(zip(bleed_box, trim, strict=True))), name
            if sizes is not None and "cut" not in name:
                assert (round(trim[2] - trim[0], 2), round(trim[3] - trim[1], 2)) in sizes | {
                    (round(A4[0], 2), round(A4[1], 2))}, name


def placements(reader, page):
    """[(x, y, form name)] of every counter face a page places (a 'cm' translation, then 'Do');
    the page's footer, a form of its own, is not a face."""
    ops = ContentStream(page["/Contents"].get_object(), reader).operations
    found, at = [], None
    for args, op in ops:
        if op == b"cm":
            at = (float(args[4]), float(args[5]))
        elif op == b"Do" and at is not None and "PageFooter" not in str(args[0]):
            found.append((at, str(args[0])))
    return found


def front_pages(reader):
    """The pages of counter fronts: those that place faces, every other one from the first."""
    placing = [i for i, page in enumerate(reader.pages) if placements(reader, page)]
    return placing[::2]


def counter_squares(preset_builds, preset):
    """{front page: [(x, y)]}: each counter's lower-left corner on the page (media coordinates),
    where its face form is placed (the shop's own translation to the trim taken in)."""
    reader = PdfReader(io.BytesIO(counters(preset_builds, preset)))
    shift = float(reader.pages[0].trimbox[0])
    squares = {}
    for i in front_pages(reader):
        squares[i] = [(x + shift, y + shift) for (x, y), _ in placements(reader, reader.pages[i])]
    return reader, squares


@pytest.mark.parametrize("preset", ["meinspiel", "tgc-punchout"])
def test_each_counter_has_its_shops_bleed_and_its_words_inside_the_safe_zone(preset_builds, preset):
    _, bleed, safe, *_ = SHOPS[preset]
    size = 1 * IN       # the size a die-cut preset prints by default
    reader, squares = counter_squares(preset_builds, preset)
    for i, page in enumerate(reader.pages):
        if i not in squares:
            continue
        for name in {n for _, n in placements(reader, page)}:     # the face's first fill: its ground and bleed
            form = page["/Resources"]["/XObject"][name].get_object()
            first = next(args for args, op in ContentStream(form, reader).operations if op == b"re")
            assert [round(float(v), 3) for v in first] == [round(v, 3) for v in (-bleed, -bleed, size + 2 * bleed,
                                                                                 size + 2 * bleed)]
        corners = sorted(squares[i])
        xs = sorted({x for x, _ in corners})
        assert all(b - a >= size + 2 * bleed - TOL for a, b in itertools.pairwise(xs))  # bleeds never overlap
    pages = pages_of(counters(preset_builds, preset))     # the glyphs as pdfium reads them (tests/pdfpage.py)
    for i, corners in squares.items():
        for char in pages[i].chars:
            if char["text"].isspace():
                continue
            x0, x1, baseline = char["x0"], char["x1"], char["matrix"][5]
            middle = (x0 + x1) / 2
            home = [(x, y) for x, y in corners if x <= middle <= x + size and y <= baseline <= y + size]
            if not home:
                continue        # the sheet's heading and footer
            x, y = home[0]
            assert x0 >= x + safe - 0.3 and x1 <= x + size - safe + 0.3, (preset, i, char["text"], x0 - x, x1 - x)
            assert baseline >= y + safe - 0.3 and baseline + 0.73 * char["size"] <= y + size - safe + 0.3


def sheet_geometry(preset, counter_in):
    from generator.content.faces import all_counters
    from generator.content.words import load_words
    from generator.layout import sheets
    from generator.layout.paper import PAPERS
    from generator.options import BuildOptions
    options = BuildOptions(print_profile=preset, counter_mm=Fraction(counter_in) * Fraction(254, 10))
    kit = shipped_kit()
    return sheets.sheet_plan(PAPERS["a4"], options, lambda more: all_counters(kit, 2, load_words("en"), more))


@pytest.mark.parametrize("counter_in", [Fraction(5, 8), Fraction(3, 4), Fraction(1)])
@pytest.mark.parametrize("preset", ["meinspiel", "tgc-punchout"])
def test_die_cut_geometry_on_every_sheet_and_size(preset, counter_in):
    """Every sheet: two counters' bleeds never meet inside either's cut, every bleed inside the
    page less the shop's safe zone, and the face's text and art boxes inside the counter's safe zone
    (their ink: tests/test_safe_zones.py)."""
    from generator.layout import sheets
    page_bleed, bleed, safe, *_, (w, h) = SHOPS[preset]
    grid, groups, placed = sheet_geometry(preset, counter_in)
    assert grid.gutter >= 2 * bleed - TOL and abs(grid.bleed - bleed) < TOL
    zone = sheets.face_zones(grid)
    from generator.layout import face_layout as fl
    from generator.render.pdf.canvas import register_fonts
    from generator.render.pdf.face_pdf import metrics
    from generator.render.theme import LATIN
    latin_type = metrics(LATIN)       # the Latin editions' counters, as the layout measures them
    register_fonts()
    faces = {face for _, counters in groups for c in counters for face in (c.front, c.back)}
    fitted = fl.fit_faces(faces, zone, latin_type)
    assert fitted is not None or counter_in < 1      # a smaller counter is refused (the test below)
    for face in faces if fitted is not None else ():
        where = fl.places(face, zone, fitted[0])
        for bx, by, bw, bh in (zone.emblem, where.label, where.symbol, *([where.note] if where.note else [])):
            assert bx >= safe - TOL and by >= safe - TOL and bx + bw <= grid.size - safe + TOL
            assert by + bh <= grid.size - safe + TOL
    for slots in placed:
        for slot in slots:
            x, y = grid.front(slot.col, slot.row)
            assert x - bleed >= page_bleed - TOL and y - bleed >= page_bleed - TOL
            assert x + grid.size + bleed <= w - page_bleed + TOL and y + grid.size + bleed <= h - page_bleed + TOL


@pytest.mark.parametrize("preset", ["meinspiel", "tgc-punchout"])
def test_a_counter_size_the_safe_zone_leaves_no_room_for_is_refused_in_one_line(preset, tmp_path):
    status, _, err = run_cli("build", "--print", preset, "--counter-size", "3/4in", "--only", "counters",
                             "--paper", "a4", "--out", tmp_path, "--quiet")
    one_line(status, err, f"--print {preset}", "safe zone", "--counter-size")


def cut_svg_paths(svg):
    """[[polyline, ...] a counter] of the SVG's die line, in mm from its top left."""
    paths = []
    for d in re.findall(r'<path id="counter-\d+" d="([^"]+)"', svg):
        lines = []
        for part in re.findall(r"M ([^MZ]+)", d):
            lines.append([tuple(map(float, p.split(","))) for p in part.replace("L", " ").split()])
        paths.append(lines)
    return paths


@pytest.mark.parametrize("preset", ["meinspiel", "tgc-punchout"])
def test_cut_file_paths_lie_on_their_counters_trim(preset_builds, preset):
    reader, squares = counter_squares(preset_builds, preset)
    media_h = float(reader.pages[0].mediabox[3])
    size = 1 * IN
    first = squares[min(squares)]
    svg = preset_builds[preset]["cut-a4.svg"].decode()
    paths = cut_svg_paths(svg)
    assert len(paths) == len(first)
    nicked = preset == "tgc-punchout"
    for x, y in first:          # each counter's trim square has its path, every point of it on the square
        left, top = x / MM, (media_h - y - size) / MM
        match = [ls for ls in paths if abs(min(p[0] for line in ls for p in line) - left) < 1
                 and abs(min(p[1] for line in ls for p in line) - top) < 1]
        assert len(match) == 1, (x, y)
        for line in match[0]:
            for px, py in line:
                on_edge = min(abs(px - left), abs(px - left - size / MM), abs(py - top), abs(py - top - size / MM))
                assert on_edge <= CUT_TOL / MM and left - 0.05 <= px <= left + size / MM + 0.05
        if nicked:
            gaps = nicks(match[0], size / MM)
            assert len(gaps) >= 3 and all(abs(g - 0.254) < 0.01 for g, _ in gaps)       # 0.01 in
            centres = sorted(c for _, c in gaps)
            apart = [b - a for a, b in itertools.pairwise(centres)] + [4 * size / MM - centres[-1] + centres[0]]
            assert min(apart) >= 25.4 / 8
    pdf_reader = PdfReader(io.BytesIO(preset_builds[preset]["cut-a4.pdf"]))
    assert len(pdf_reader.pages) == len(squares)        # a page a counter sheet, on the counters' page
    assert [float(v) for v in pdf_reader.pages[0].mediabox] == [float(v) for v in reader.pages[0].mediabox]


def cut_dxf_paths(content):
    """[[polyline, ...] a counter] of a cut DXF as ezdxf reads it back, in mm, y up from the page's
    lower left; each counter's polylines are those whose points lie on one square (grouped by the
    corner nearest the origin of their bounding box, within 1 mm)."""
    import ezdxf
    doc = ezdxf.read(io.StringIO(content.decode("ascii")))
    assert doc.header["$INSUNITS"] == 4         # millimetres
    entities = list(doc.modelspace())
    assert entities and all(e.dxftype() == "LWPOLYLINE" and e.dxf.layer == "CUT" for e in entities)
    lines = []
    for e in entities:
        points = [(float(x), float(y)) for x, y in e.get_points("xy")]
        lines.append(points + points[:1] if e.closed else points)
    return lines


@pytest.mark.parametrize("preset", ["meinspiel", "tgc-punchout"])
def test_the_cut_dxf_reads_back_with_every_path_on_its_counters_trim(preset_builds, preset):
    """ezdxf reads cut-a4.dxf; every point of every cut path lies on its counter's trim square (from
    the counters PDF), every counter of the first sheet has its path, and the nicks are the SVG's."""
    _, squares = counter_squares(preset_builds, preset)
    size = 1 * IN / MM
    first = squares[min(squares)]
    lines = cut_dxf_paths(preset_builds[preset]["cut-a4.dxf"])
    for x, y in first:
        left, bottom = x / MM, y / MM
        mine = [ln for ln in lines if all(left - 0.05 <= px <= left + size + 0.05
                                          and bottom - 0.05 <= py <= bottom + size + 0.05 for px, py in ln)]
        assert mine, (x, y)
        for line in mine:
            for px, py in line:
                on_edge = min(abs(px - left), abs(px - left - size), abs(py - bottom), abs(py - bottom - size))
                assert on_edge <= CUT_TOL / MM
        # the whole square is cut but for the nicks: the lines' lengths add up to its perimeter
        length = sum(math.dist(a, b) for ln in mine for a, b in itertools.pairwise(ln))
        gaps = 4 * 0.254 if preset == "tgc-punchout" else 0
        assert abs(length + gaps - 4 * size) < 0.01, (length, gaps)
    assert sum(1 for ln in lines if len(ln) == 5) == (0 if preset == "tgc-punchout" else len(first))


def nicks(lines, side):
    """[(gap length, its centre along the perimeter)] between the polylines of one counter's path (mm)."""
    left = min(p[0] for line in lines for p in line)
    top = min(p[1] for line in lines for p in line)

    def along(p):
        x, y = p[0] - left, p[1] - top
        if abs(y - side) < 1e-3:
            return x
        if abs(x - side) < 1e-3:
            return side + (side - y)
        if abs(y) < 1e-3:
            return 2 * side + (side - x)
        return 3 * side + y
    ends = sorted(along(p) for line in lines for p in (line[0], line[-1]))
    pairs = zip(ends, [*ends[1:], ends[0] + 4 * side], strict=True)
    return [(b - a, (a + b) / 2) for a, b in pairs if b - a < 1]


def separations(gs, pdf_path, page, tmp_path):
    """{plate: image} of Ghostscript's tiffsep separations of one page at 20 dpi."""
    from PIL import Image
    out = tmp_path / "sep.tif"
    subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=tiffsep", "-r20", f"-dFirstPage={page}",
                    f"-dLastPage={page}", f"-sOutputFile={out}", str(pdf_path)], check=True, capture_output=True,
                   timeout=120)
    return {p.name[len("sep("):-len(").tif")]: Image.open(p) for p in tmp_path.glob("sep(*).tif")}


@pytest.mark.parametrize("preset", ["drivethru", "meinspiel"])
def test_ink_on_the_rendered_separations_stays_under_the_ceiling(preset_builds, preset, tmp_path):
    gs = ghostscript()
    ceiling = SHOPS[preset][3]
    path = tmp_path / "counters.pdf"
    path.write_bytes(counters(preset_builds, preset))
    plates = separations(gs, path, 3, tmp_path)
    inks = [plates[name] for name in ("Cyan", "Magenta", "Yellow", "Black")]
    peak = max(sum(255 - v for v in pixel) * 100 / 255 for pixel in zip(*(p.tobytes() for p in inks), strict=True))
    assert 100 < peak <= ceiling + 2, peak      # 2%: a plate's 8-bit rounding, four times


def test_a_colour_over_the_ink_ceiling_is_refused_naming_its_file_and_key(data_copy, tmp_path):
    from test_print_shop import press_inks
    total = sum(press_inks("#330000"))
    assert total > 240
    german = data_copy / "nationalities" / "german.toml"
    text = german.read_text()
    edit(german, next(line for line in text.splitlines() if line.startswith("colour =")), 'colour = "#330000"')
    edit(german, next(line for line in text.splitlines() if line.startswith("text_colour =")),
         'text_colour = "#ffffff"')
    status, _, err = run_cli("build", "--data", data_copy, "--print", "drivethru", "--only", "counters",
                             "--paper", "a4", "--out", tmp_path, "--quiet")
    one_line(status, err, "nationalities/german.toml: colour:", f"{total}%", "240%")


def test_shop_text_in_full_black_and_tinted_lines_half_a_point(preset_builds):
    """DriveThruCards' tables: text drawn only in 100% K where it is grey, tinted strokes 0.5 pt or more."""
    from generator.render.pdf.ink_stream import grey_tint, screened
    reader = PdfReader(io.BytesIO(preset_builds["drivethru"]["prerolled-a4.pdf"]))
    texts = strokes = 0
    # each page's own stream, and the forms it draws (what every page repeats is one form)
    streams = [page["/Contents"].get_object() for page in reader.pages]
    forms = {id(f.get_object()): f.get_object() for page in reader.pages
             for f in ((page["/Resources"].get("/XObject") or {}).values())}
    for content in [*streams, *forms.values()]:
        fill, stroke, width, text, saved = None, None, 1.0, False, []
        for args, op in ContentStream(content, reader).operations:
            if op == b"q":
                saved.append((fill, stroke, width))
            elif op == b"Q":
                fill, stroke, width = saved.pop()
            elif op in (b"k", b"K"):
                inks = tuple(float(v) for v in args)
                fill, stroke = (inks, stroke) if op == b"k" else (fill, inks)
            elif op == b"w":
                width = float(args[0])
            elif op in (b"BT", b"ET"):
                text = op == b"BT"
            elif op in (b"Tj", b"TJ") and text:
                texts += 1
                assert not grey_tint(fill), fill
            elif op in (b"S", b"s") and screened(stroke):
                strokes += 1
                assert width >= 0.5, (stroke, width)
    assert texts and strokes


def test_every_distinct_font_subset_has_its_own_tag(kit_files):
    """Same tag, same embedded font program; a different program, another tag (each merged kit)."""
    for name in ("kit-a4.pdf", "kit-letter.pdf"):
        reader = PdfReader(io.BytesIO(kit_files[name]))
        programs = {}
        for page in reader.pages:
            for ref in (page["/Resources"].get("/Font") or {}).values():
                font = ref.get_object()
                tag = str(font["/BaseFont"])
                data = font["/FontDescriptor"]["/FontFile2"].get_object().get_data()
                assert re.fullmatch(r"/[A-Z]{6}\+[\w-]+", tag), tag
                assert programs.setdefault(tag, data) == data, (name, tag)
        assert len(programs) >= 3, programs.keys()


@pytest.mark.skipif(not SLOW, reason="every preset x counter size x paper: BAILOUT_SLOW_TESTS=1 (CI)")
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("preset", list(SHOPS))
def test_every_preset_builds_at_every_size_it_holds(preset, paper, tmp_path):
    for size in ("5/8in", "3/4in", "1in"):
        status, _, err = run_cli("build", "--print", preset, "--counter-size", size, "--only", "counters",
                                 "--paper", paper, "--out", tmp_path / size.replace("/", "-"), "--quiet")
        die_cut = preset != "drivethru"
        if die_cut and size != "1in":
            one_line(status, err, "safe zone")
        else:
            assert status == 0, err

