"""Counter geometry and content, without rendering a PDF.

Expected figures come from the print brief (100 mm, 4 in, 3/4 in counters, 7 pt and 6 pt floors), the rule
text (a crew of five, pistol 1 FP at RR 5, CCV -1, Wall -1 TEM) and the data files read directly;
the kit's words from the English catalogue.
"""

import tomllib
from fractions import Fraction

import pytest

from conftest import DATA, ROOT, shipped_kit
from generator.content import faces as content
from generator.content.words import load_words
from generator.layout import face_layout as fl
from generator.layout import pictograms
from generator.layout import sheets as geo
from generator.layout.paper import PAPERS

MM = 72 / 25.4                      # points per mm
TOL = 0.001 * MM                    # well inside the 0.01 mm the print brief allows
SIZES_MM = [Fraction(5, 8) * Fraction(254, 10), Fraction(3, 4) * Fraction(254, 10),
            Fraction(254, 10), Fraction(16), Fraction(10), Fraction(40)]
WORDS = load_words()


def grids():
    for paper in PAPERS.values():
        for size in SIZES_MM:
            yield paper, size, geo.make_grid(paper.width, paper.height, size, (Fraction(3, 2), Fraction(-1, 2)))


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_grid_is_exact_centred_and_inside_the_margins(paper, size, grid):
    assert abs(grid.size - float(size) * MM) < TOL
    assert abs(grid.x0 + grid.width / 2 - paper.width / 2) < TOL
    assert abs(grid.y0 + grid.height / 2 - paper.height / 2) < TOL
    assert grid.x0 >= geo.MARGIN_SIDE_MM * MM - TOL and grid.y0 >= geo.MARGIN_END_MM * MM - TOL
    # the largest grid: one more column or row (and its gutter) would break the margins
    gutter = 2 * 1.5 * MM
    assert grid.width + gutter + grid.size > paper.width - 2 * geo.MARGIN_SIDE_MM * MM
    assert grid.height + gutter + grid.size > paper.height - 2 * geo.MARGIN_END_MM * MM


def test_a_gutter_of_twice_the_bleed_between_counters_so_no_two_share_a_cut_line():
    grid = geo.make_grid(PAPERS["a4"].width, PAPERS["a4"].height, SIZES_MM[1])
    gutter = 2 * 1.5 * MM               # the bleed: a cut 1 mm off must still land in colour
    for row in range(grid.rows):
        for col in range(grid.cols - 1):
            x, y = grid.front(col, row)
            nx, ny = grid.front(col + 1, row)
            assert abs(nx - (x + grid.size + gutter)) < TOL and ny == y
    top = grid.front(0, 0)
    below = grid.front(0, 1)
    assert abs(top[1] - (below[1] + grid.size + gutter)) < TOL
    x, y = grid.front(2, 3)
    bx, _by, bw, bh = geo.bleed_rect(x, y, grid.size)
    assert abs(x - bx - 1.5 * MM) < TOL and abs(bw - grid.size - 3 * MM) < TOL and abs(bh - bw) < TOL


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_backs_mirror_for_a_long_edge_flip_plus_offset(paper, size, grid):
    ox, oy = 1.5 * MM, -0.5 * MM
    for row in range(grid.rows):
        for col in range(grid.cols):
            fx, fy = grid.front(col, row)
            bx, by = grid.back(col, row)
            assert abs(bx - (paper.width - fx - grid.size + ox)) < TOL
            assert abs(by - (fy + oy)) < TOL
            # centres: back centre = page width - front centre (+ offset)
            assert abs((bx + grid.size / 2) - (paper.width - (fx + grid.size / 2) + ox)) < TOL


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_a_cut_tick_in_the_margin_at_every_grid_line(paper, size, grid):
    ticks = geo.cut_ticks(grid)
    assert len(ticks) == 2 * 2 * grid.cols + 2 * 2 * grid.rows      # both edges of every counter
    lines_x = [grid.front(c, 0)[0] + d for c in range(grid.cols) for d in (0, grid.size)]
    lines_y = [grid.front(0, r)[1] + d for r in range(grid.rows) for d in (0, grid.size)]
    right, top = grid.x0 + grid.width, grid.y0 + grid.height
    vertical = [t for t in ticks if t[0][0] == t[1][0]]
    horizontal = [t for t in ticks if t[0][1] == t[1][1]]
    assert len(vertical) + len(horizontal) == len(ticks)
    for x in lines_x:
        ends = [t for t in vertical if abs(t[0][0] - x) < TOL]
        assert len(ends) == 2       # one above, one below the grid
    for y in lines_y:
        assert len([t for t in horizontal if abs(t[0][1] - y) < TOL]) == 2
    for (x1, y1), (x2, y2) in ticks:
        inside_x = grid.x0 < (x1 + x2) / 2 < right
        inside_y = grid.y0 < (y1 + y2) / 2 < top
        assert not (inside_x and inside_y)
        edge = 5 * MM       # nothing within 5 mm of the paper's edge
        assert edge < min(x1, x2) and max(x1, x2) < paper.width - edge
        assert edge < min(y1, y2) and max(y1, y2) < paper.height - edge
        # clear of the bleed, so a tick never prints on a counter's colour
        for v, lo, hi in ((y1, grid.y0, top), (y2, grid.y0, top)):
            if x1 == x2:
                assert v <= lo - geo.BLEED_MM * MM or v >= hi + float(geo.BLEED_MM) * MM


@pytest.mark.parametrize("paper,size,grid", list(grids()), ids=lambda v: str(getattr(v, "key", "")))
def test_bars_are_100_mm_and_4_in_and_clear_of_ticks_and_footer(paper, size, grid):
    bars = geo.bars(grid)
    assert sorted(round(b.length / MM, 6) for b in bars) == [100.0, 101.6]
    lowest_tick = min(min(y1, y2) for (x1, y1), (x2, y2) in geo.cut_ticks(grid))
    for bar in bars:
        assert bar.x >= 12 * MM and bar.x + bar.length <= paper.width - 12 * MM   # inside the side margins
        assert bar.top + MM <= lowest_tick          # graduations a millimetre clear of the cut ticks
        assert bar.y > 8 * MM                       # above the footer line
        # the longest label (62 mm) fits beside its bar, a millimetre clear of it, inside the margin
        assert 12 * MM + 62 * MM <= bar.label_right <= bar.x - MM
        assert bar.y <= bar.label_mid <= bar.top
        # labelled with its own length, in its own unit
        assert abs(bar.length / MM - bar.units * {"mm": 1, "in": 25.4}[bar.unit]) < 1e-6
    a, b = sorted(bars, key=lambda bar: -bar.y)
    assert b.top + MM <= a.y                        # stacked, a millimetre apart
    assert a.x == b.x                               # zero ends aligned


def test_paginate_places_every_counter_once_each_nationality_together():
    grid = geo.make_grid(PAPERS["a4"].width, PAPERS["a4"].height, SIZES_MM[1])
    cols = grid.cols
    sizes = [cols + 1, cols, 3, 2, grid.capacity + 5, 1, 0, 2]
    pages = geo.paginate(sizes, grid)
    seen = [(s.group, s.item) for page in pages for s in page]
    assert seen == [(g, i) for g, n in enumerate(sizes) for i in range(n)]
    for page in pages:
        cells = [(s.col, s.row) for s in page]
        assert len(cells) == len(set(cells))
        assert all(0 <= c < grid.cols and 0 <= r < grid.rows for c, r in cells)
    slots = [s for page in pages for s in page]
    first = {g: next((s.col, s.row) for s in slots if s.group == g) for g in (1, 2, 3, 4, 5, 7)}
    assert first[1] == (0, 2)       # group 0's last counter ends row 1: group 1 does not fit beside it
    assert first[2] == (0, 3)
    assert first[3] == (3, 3)       # group 3 fits the rest of group 2's row: it shares it
    assert first[4] == (0, 4)       # a group longer than the sheet's rest starts a row and runs on
    assert len([s for s in pages[0] if s.group == 4]) == (grid.rows - 4) * cols
    assert [(s.col, s.row) for s in pages[1][:2]] == [(0, 0), (1, 0)]
    rest = grid.capacity + 5 - (grid.rows - 4) * cols
    assert first[5] == (rest % cols, rest // cols) and first[7] == (rest % cols + 1, rest // cols)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_full_kit_fills_every_sheet_each_nationality_in_whole_rows(paper):
    kit = shipped_kit()
    grid = geo.make_grid(PAPERS[paper].width, PAPERS[paper].height, SIZES_MM[1])
    sizes = [len(counters) for _, counters in content.all_counters(kit, 2, WORDS)]
    more = geo.row_fill(sizes, grid)
    filled = [n + m for n, m in zip(sizes, more, strict=True)]
    assert all(n % grid.cols == 0 for n in filled)
    pages = geo.paginate(filled, grid)
    assert all(len(page) == grid.capacity for page in pages)
    assert len(pages) == -(-sum(-(-n // grid.cols) for n in sizes) // grid.rows)    # no sheet more than the rows need
    for page in pages:      # every row one nationality's: none stranded among another's
        rows = {}
        for s in page:
            rows.setdefault(s.row, set()).add(s.group)
        assert all(len(groups) == 1 for groups in rows.values()), rows


def test_calibration_cross_mirrors_with_the_offset():
    paper = PAPERS["a4"]
    grid = geo.make_grid(paper.width, paper.height, SIZES_MM[1], (Fraction(2), Fraction(-1)))
    cal = geo.calibration(grid)
    assert abs(cal.back[0] - (paper.width - cal.front[0] + 2 * MM)) < TOL
    assert abs(cal.back[1] - (cal.front[1] - 1 * MM)) < TOL
    assert abs(cal.step - MM) < TOL
    # off both centre lines, so a short-edge flip or a missing mirror cannot pass unnoticed
    assert abs(cal.front[0] - paper.width / 2) > cal.scale and abs(cal.front[1] - paper.height / 2) > cal.scale


def fake_measure(text, style, size):
    """Every character 0.6 em wide (bold 0.7): enough to test fitting without a font."""
    return len(text) * size * (0.7 if style in ("title", "small") else 0.6)


def fake_ink(text, style, size):
    """Capitals' height, and an accent's where the text has one: ink without a font."""
    return (0.95 if any(ch in "ÉÀÔ" for ch in text) else 0.7) * size, -0.2 * size


def zone_of(size_mm):
    size = float(size_mm) * MM
    return fl.zones(size, max(MM, size * 0.06))


FAKE = fl.Metrics(fake_measure, fake_ink)


def _inside(placed, box):
    x, y, w, h = box
    for item in placed:
        half = fake_measure(item.text, item.style, item.size) / 2
        top, bottom = fake_ink(item.text, item.style, item.size)
        assert x - 1e-6 <= item.x - half and item.x + half <= x + w + 1e-6, item
        assert y - 1e-6 <= item.y + bottom and item.y + top <= y + h + 1e-6, item


def crew_face(label="WOUNDED", band=True):
    return content.Face("pistol", content.Line(label, "title"), (content.Numeral("1", "left", unit="FP"),
                        content.Numeral("\u22121", "right", unit="CCV")), content.Line("RR5", "title"),
                        no_smoke=True, band=band)


def weapon_face(label, model, kind="rifle", short=""):
    return content.Face(kind, content.Line(label, "title"), (content.Numeral("\u201939", "centre"),),
                        content.Line(model, short=short, single=True), across=True)


def test_faces_fit_their_boxes_at_one_size_a_role_never_under_the_floor():
    # the print brief: no counter text under 7 pt at 3/4 in and larger, under 6 pt at 5/8 in
    wounded = crew_face()
    rifle, smg = weapon_face("GE\u00adWEHR", "Kar98k"), weapon_face("MP", "MP 40", "smg")
    for size_mm, floor in ((SIZES_MM[0], 6), (SIZES_MM[1], 7), (SIZES_MM[2], 7)):
        zone = zone_of(size_mm)
        kind, fits = fl.fit_faces([wounded, rifle, smg], zone, FAKE)
        assert min(kind.title, kind.body, kind.small) >= floor
        for fit in fits.values():
            _inside(fit.label, fit.places.label)
            _inside(fit.note, fit.places.note)
            # one size a role on every face: every label at the title's size
            assert {p.size for p in fit.label} == {kind.title}
        # "MP" prints as big as "GEWEHR" (broken at its soft hyphen where it must): the title size whatever its length
        assert fits[rifle].label[0].size == fits[smg].label[0].size
        # the places stack: the emblem and the symbol over the label's line, over the numerals, all inside
        places = fits[wounded].places
        _ex, ey, e, _ = zone.emblem
        assert places.symbol[1] >= places.label[1] + places.label[3] and ey + e <= zone.top + 1e-6
        assert places.label[1] >= zone.inset + fl.CAP * kind.numeral
        bottom, top = zone.band(kind)
        assert bottom > zone.foot_top(kind) and top < places.note[1] and top < places.sign[1] - places.sign[2] / 2


def test_a_pictogram_keeps_its_place_whatever_the_words():
    zone = zone_of(SIZES_MM[1])
    short = weapon_face("SMG", "MP 40", "smg")
    long = weapon_face("SMG", "Thompson M1928A1", "smg", short="M1928A1")
    _, fits = fl.fit_faces([short, long], zone, FAKE)
    assert fits[short].places == fits[long].places
    assert [p.y for p in fits[short].note] == [p.y for p in fits[long].note]
    crew, crew_long = crew_face("CREW", False), crew_face("BESATZUNG", False)
    _, fits = fl.fit_faces([crew, crew_long], zone, FAKE)
    assert fits[crew].places == fits[crew_long].places


def test_no_piece_of_a_face_overlaps_another_or_leaves_the_inset():
    """Measured with the kit's own type (its ink, not its advance), at each named size and 40 mm."""
    from generator.render.pdf.canvas import register_fonts
    from generator.render.pdf.face_pdf import metrics
    from generator.render.theme import LATIN
    latin_type = metrics(LATIN)       # the Latin editions' counters, as the layout measures them
    register_fonts()
    aspect = {role: pic.aspect for role, pic in pictograms.pictograms().items()}
    for size_mm in (*SIZES_MM[:3], Fraction(40)):
        zone = zone_of(size_mm)
        faces = [crew_face(), crew_face("AFV CREW", False), weapon_face("RIFLE", "M1 Garand"),
                 weapon_face("SMG", "MP 40", "smg"),
                 content.Face("wreck", content.Line("BAILED OUT", "title"),
                              (content.Numeral("\u22121", "left", unit="TEM"),))]
        kind, fits = fl.fit_faces(faces, zone, latin_type)
        for face in faces:
            boxes = fl.ink_boxes(face, fits[face], zone, kind, latin_type, aspect.__getitem__)
            for what, (x, y, w, h) in boxes:
                assert x >= zone.inset - 1e-6 and x + w <= zone.size - zone.inset + 1e-6, (size_mm, what)
                assert y >= zone.inset - 1e-6 and y + h <= zone.top + 1e-6, (size_mm, what)
            for i, (one, a) in enumerate(boxes):
                for other, b in boxes[i + 1:]:
                    assert not fl.overlaps(a, b), (size_mm, face.label.text, one, other)


def test_a_model_name_prints_on_one_line_shrunk_to_the_floor_then_in_its_short_form():
    zone = zone_of(SIZES_MM[1])
    width = zone.width
    fits_at_floor = "x" * int(width / (zone.floor * 0.6))      # fits only below the body size
    line = content.Line(fits_at_floor, single=True)
    assert fl.single_line(line, width, fake_measure, zone.type.body + 1, zone.floor)[1] < zone.type.body + 1
    too_long = content.Line("x" * 200, short="No. 4 Mk I", single=True)
    assert fl.single_line(too_long, width, fake_measure, zone.type.body, zone.floor) == ("No. 4 Mk I", 7.0)
    assert fl.single_line(content.Line("x" * 200, single=True), width, fake_measure, zone.type.body, zone.floor) is None


def test_numerals_are_11_pt_at_three_quarter_inch_scaled_and_never_under_the_floor():
    # the print brief: factors big on a 3/4 in counter, scaled with the size
    at = {mm: zone_of(mm).type.numeral for mm in SIZES_MM}
    assert at[SIZES_MM[1]] >= 11
    assert at[SIZES_MM[0]] >= 6 and at[SIZES_MM[0]] < at[SIZES_MM[1]] < at[SIZES_MM[2]]


def test_text_that_cannot_fit_at_the_floor_is_reported_not_shrunk_further():
    zone = zone_of(Fraction(14))
    long = content.Line("x" * 10_000, "body", (("nationalities/german.toml", "rifle[0].model"),), single=True)
    face = content.Face("rifle", content.Line("R", "title"), (), long, across=True)
    assert fl.fit_faces([face], zone, FAKE) is None
    assert fl.culprits(face, zone, FAKE) == [long]
    wide = content.Face("pistol", content.Line("W" * 400, "title"), ())
    assert fl.fit_faces([wide], zone, FAKE) is None and fl.culprits(wide, zone, FAKE) == [wide.label]


def test_pictograms_are_path_data_inside_their_box_from_the_data_file():
    data = _toml(ROOT / "generator" / "layout" / "pictograms.toml")["pictogram"]
    assert set(data) == {"pistol", "rifle", "smg", "afv", "wreck"}
    for role, pic in pictograms.pictograms().items():
        assert [p.path for p in pic.parts] == [part["path"] for part in data[role]["part"]]
        for part in pic.parts:
            assert part.source == f"https://game-icons.net/1x1/{part.author.lower()}/{part.icon}.html"
            points = [p for sub in pictograms.fitted(pic, part, (10, 20, 40, 12)) for p in
                      (sub.start, *(q for _, pts in sub.segments for q in pts[-1:]))]
            assert len(points) >= 8
            assert all(10 - 0.5 <= x <= 50 + 0.5 and 20 - 0.5 <= y <= 32 + 0.5 for x, y in points), role


def test_svg_path_data_reads_every_command():
    # a unit square drawn with every kind of command, absolute and relative; an arc is a quarter circle
    square = pictograms.parse("M0 0h10v10H0z m20 0 l10 0 l0 10 L20 10Z")
    assert [sub.closed for sub in square] == [True, True] and square[1].start == (20.0, 0.0)
    [curve] = pictograms.parse("M0 0C0 5 5 10 10 10s10-5 10-10Q20 -10 10 -10t-10 0")
    assert [op for op, _ in curve.segments] == ["C", "C", "C", "C"] and curve.segments[-1][1][-1] == (0.0, -10.0)
    [arc] = pictograms.parse("M10 0a10 10 0 0 1-10 10")
    end = arc.segments[-1][1][-1]
    assert abs(end[0]) < 1e-9 and abs(end[1] - 10) < 1e-9
    mid = pictograms._weighted((10, 0), *arc.segments[0][1], pictograms._bernstein(0.5))
    assert abs((mid[0] ** 2 + mid[1] ** 2) ** 0.5 - 10) < 0.01       # on the circle
    with pytest.raises(pictograms.PathError):
        pictograms.parse("M0 0 L1")


# ---- what is on the counters, from the data files --------------------------------------------

def _toml(path):
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def test_counters_and_manifest_follow_the_data_files():
    kit = shipped_kit()
    rules = _toml(DATA / "rules.toml")
    for sets in (1, 2, 3):
        groups = content.all_counters(kit, sets, WORDS)
        rows = {nat.key: counts for nat, counts in content.tally(groups)}
        assert sorted(rows) == sorted(p.stem for p in (DATA / "nationalities").glob("*.toml"))
        for key, counts in rows.items():
            nat = _toml(DATA / "nationalities" / f"{key}.toml")
            assert counts == {"crew": sets * rules["crew"]["size"], "rifle": len(nat["rifle"]),
                              "smg": len(nat.get("smg", [])), "marker": sets}
    assert rules["crew"]["size"] == 5      # "a crew of five regardless of type or nationality"


def text_of(face):
    words = [face.label.text]
    words += [face.note.text] if face.note else []
    words += [f"{n.text} {n.unit}" if n.unit else n.text for n in face.numerals]
    return " ".join(words).replace("\u00a0", " ")


def face_words(key, **fields):
    """A face's words as the English catalogue has them, ties (~) read as spaces."""
    return WORDS(key, **fields).replace("~", " ")


def test_faces_say_what_the_rule_says_and_the_key_says_the_rest():
    kit = shipped_kit()
    rules = _toml(DATA / "rules.toml")
    german = next(n for n in kit.nationalities if n.key == "german")
    counters = content.counters_for(kit, german, 1, WORDS)
    crew = next(c for c in counters if c.kind == "crew")
    # 871.4: "pistols having a 1 FP at Relative Range 5", never Smoke; 871.5: final CCV reduced by 1.
    # The pistol prints as "1 FP" with "RR5" under the pistol: never "1-5", which reads "one to five".
    w = rules["weapon"]
    fp = face_words("counter.crew.pistol.unit")
    reach = face_words("counter.crew.pistol.range", range=w["pistol_relative_range"])
    # The CCV modifier is labelled on both faces, so it never reads as the marker's TEM.
    ccv = face_words("counter.crew.ccv.unit")
    assert ccv and ccv != face_words("counter.marker.unit")
    for face in (crew.front, crew.back):
        assert [(n.text, n.unit) for n in face.numerals] == [(str(w["pistol_fp"]), fp), ("\u22121", ccv)]
        assert [n.place for n in face.numerals] == ["left", "right"] and face.no_smoke
        assert face.symbol == "pistol" and face.note.text == reach and not face.across
        assert "\u2013" not in text_of(face)
    assert not crew.front.band and crew.back.band
    # a face carries a symbol, a label and its factors: no sentence (the rule is the counter key's)
    assert text_of(crew.back) == " ".join([face_words("counter.crew.back.title"), reach, f"{w['pistol_fp']} {fp}",
                                           f"\u22121 {ccv}"])
    weapons = [c for c in counters if c.kind in ("rifle", "smg")]
    rifle, smg = face_words("counter.rifle.title"), face_words("counter.smg.title")
    assert [text_of(c.front) for c in weapons] == [
        f"{rifle} Kar98k \u201939\u2013\u201945", f"{smg} MP 38 \u201939", f"{smg} MP 40 \u201940\u2013\u201945"]
    assert [c.front.symbol for c in weapons] == ["rifle", "smg", "smg"] and all(c.front.across for c in weapons)
    marker = next(c for c in counters if c.kind == "marker")
    tem = f"\u2212{-rules['after']['wreck_tem']} {face_words('counter.marker.unit')}"
    # 871: the AFV, destroyed or left by choice, gives the crew its TEM: the wreck side and the AFV side
    assert text_of(marker.front) == text_of(marker.back) == f"{face_words('counter.marker.title')} {tem}"
    assert (marker.front.symbol, marker.back.symbol) == ("wreck", "afv")
    assert not marker.front.band and not marker.back.band
    for face in (marker.front, marker.back):
        said = text_of(face).lower()
        assert "pinned" not in said and "until" not in said and "wreck" not in said
    model = weapons[2].front.note
    assert model.source == (("nationalities/german.toml", "smg[1].model"),)


def test_weapons_of_one_family_print_alike_on_the_counters():
    """One naming rule (docs/editing.md): a model too long for a counter prints its short form,
    the family name the aid prints before its designation; every model of a family has that same
    one, so no Thompson falls back to 'M1928A1' beside another printed as 'Thompson'."""
    families: dict[str, set[str]] = {}
    spans = [span for path in sorted((DATA / "nationalities").glob("*.toml"))
             for span in _toml(path).get("rifle", []) + _toml(path).get("smg", [])]
    for span in spans:
        if "short" in span:
            assert span["model"].startswith(span["short"] + " "), span     # the family, whole words
            families.setdefault(span["short"], set())
    for span in spans:
        family = span["model"].split()[0]
        if family in families:
            families[family].add(span.get("short", ""))
    assert families and all(shorts == {family} for family, shorts in families.items()), families


def test_a_numerals_unit_follows_it_on_the_same_baseline():
    zone = zone_of(SIZES_MM[1])
    kind = zone.type
    pieces, (left, right) = fl.numeral_pieces(content.Numeral("1", "left", unit="FP"), zone, kind, fake_measure)
    big, unit = pieces
    assert big.size >= 11 and unit.size >= 7 and unit.size < big.size
    assert big.y == unit.y == zone.foot(kind) >= zone.inset and left == big.x == zone.inset
    assert unit.x >= big.x + fake_measure("1", "title", big.size)
    assert abs(right - (unit.x + fake_measure("FP", "small", unit.size))) < 1e-9
    # the symbol's note sits under it, in the column beside the emblem
    places = fl.places(crew_face(), zone, kind)
    px, py, _pw, _ph = places.symbol
    nx, ny, _nw, nh = places.note
    assert py >= ny + nh and nx == px and nx >= zone.emblem[0] + zone.emblem[2]


def test_more_counters_are_whole_sets_the_last_cut_short_to_its_crew():
    kit = shipped_kit()
    size = _toml(DATA / "rules.toml")["crew"]["size"]
    assert content.extra_sets(kit, 2 * (size + 1) + 3) == (2 * size + 3, 2)
    assert content.extra_sets(kit, size + 1) == (size, 1)
    assert content.extra_sets(kit, 0) == (0, 0)
    keys = sorted(p.stem for p in (DATA / "nationalities").glob("*.toml"))
    plain = {nat.key: len(c) for nat, c in content.all_counters(kit, 2, WORDS)}
    more = {nat.key: len(c) for nat, c in content.all_counters(kit, 2, WORDS, [size + 1, 0, 3])}
    assert [more[k] - plain[k] for k in keys] == [size + 1, 0, 3] + [0] * (len(keys) - 3)


@pytest.mark.parametrize("old,new,key,words", [
    ('shape = "cross"\ncolour = "#ffffff"', 'shape = "hexagon"\ncolour = "#ffffff"', "emblem[0].shape", "not one of"),
    ('size = 86\nwidth = 30', 'size = 86\nwidth = 30\npoints = 5', "emblem[1].points", "does not take"),
    ('size = 86\nwidth = 30', 'size = 160\nwidth = 30', "emblem[1].size", "out of range"),
    ('colour = "#000000"\nsize = 86', 'colour = "black"\nsize = 86', "emblem[1].colour", "not a colour"),
])
def test_bad_emblem_data_is_one_line_naming_file_and_key(data_copy, old, new, key, words):
    from conftest import edit, run_cli
    edit(data_copy / "nationalities" / "german.toml", old, new)
    status, _, err = run_cli("check", "--data", data_copy)
    lines = [line for line in err.splitlines() if line.strip()]
    assert status == 2 and "Traceback" not in err and len(lines) == 1
    assert "nationalities/german.toml" in lines[0] and key in lines[0] and words in lines[0]


def test_every_nationality_has_an_emblem_of_its_own_shapes():
    kit = shipped_kit()
    signatures = {tuple(s.shape for s in nat.emblem) + tuple(s.size for s in nat.emblem) for nat in kit.nationalities}
    assert all(nat.emblem for nat in kit.nationalities) and len(signatures) == len(kit.nationalities)
