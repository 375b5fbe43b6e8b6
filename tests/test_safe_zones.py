"""Every word and every piece of art of a counter inside its safe area, measured on ink, and no
piece of a face over another, in every edition, print profile and counter size.

The safe area is the counter's cut square less its inset on every side: the kit's own (6% of
the side, never under 1 mm: docs/printing.md) or, wider, a die-cutting shop's published safe
zone (meinspiel.de's 4 mm, The Game Crafter's 1/8 in: the profile's DieCut).  Two measures:

- the layout's own ink boxes (face_layout.ink_boxes: each glyph's outline from the font, each
  pictogram's and the emblem's outline), for every edition, profile and size: inside the inset,
  and no two pieces overlapping;
- the built PDF's ink (tests/inkbox.py: pdfium's glyph outlines, and every path but the
  counter's ground, bleed and band, curves by where they turn): inside the safe area, and no
  two parts of a face over each other (a glyph over another line's, over a shape of art, across
  the wounded band; art across the band), on the shared builds and the die-cut presets here, on
  the whole matrix in CI (BAILOUT_SLOW_TESTS=1).
"""

import functools
from fractions import Fraction

import pytest

import inkbox
from conftest import SLOW, shipped_kit
from generator.content.faces import build_counters
from generator.content.words import available_languages
from generator.errors import RenderError
from generator.layout import face_layout as fl
from generator.layout import pictograms
from generator.layout.paper import PAPERS
from generator.layout.sheets import face_zones, sheet_plan
from generator.make.pipeline import context, render_all
from generator.options import BuildOptions
from generator.profiles import registry

MM = 72 / 25.4
INCH_MM = Fraction(254, 10)
SIZES = {"5/8in": Fraction(5, 8) * INCH_MM, "3/4in": Fraction(3, 4) * INCH_MM, "1in": INCH_MM}
FLOORS = {"5/8in": 6, "3/4in": 7, "1in": 7}     # no face text under these (the print brief)
PROFILES = registry.names()
EMBLEM_CLEAR_MM = 1     # a word beside the emblem keeps this clear of it (the print brief)
OWN_INSET, OWN_INSET_MM = 0.06, 1       # the kit's own: 6% of the side, never under 1 mm


def safe_inset(profile: str, size: str) -> float:
    """The counter's safe inset in points, from the profile's published numbers and the kit's own rule."""
    prepress = registry.profile(profile).prepress
    die = prepress.die_cut if prepress is not None else None
    side = float(SIZES[size]) * MM
    return max(side * OWN_INSET, OWN_INSET_MM * MM, float(die.safe_mm) * MM if die is not None else 0.0)


@functools.lru_cache(maxsize=1)
def edition(lang: str):
    """The build context of an edition: its words and data (the counters it prints)."""
    return context(shipped_kit(), BuildOptions(lang=lang, papers=("a4",)))


def laid_out(lang: str, profile: str, size: str):
    """(zone, type, {face: fit}) as the counters of one edition, profile and size are laid out on
    A4; None where the profile refuses the size (a die-cut shop's safe zone leaves no room)."""
    from generator.render.pdf.canvas import register_fonts
    from generator.render.pdf.face_pdf import fit_faces
    register_fonts()
    options = BuildOptions(lang=lang, print_profile=profile, counter_mm=SIZES[size], papers=("a4",))
    ctx = edition(lang)
    grid, groups, _ = sheet_plan(PAPERS["a4"], options, lambda more: build_counters(ctx, more))
    zone = face_zones(grid)
    try:
        kind, fits = fit_faces(groups, zone, options.counter_mm, shipped_kit(), ctx.words)
    except RenderError:
        prepress = registry.profile(profile).prepress
        assert prepress is not None and prepress.die_cut is not None, (lang, profile, size)
        return None
    return zone, kind, fits


MATRIX = [(lang, profile, size) for lang in available_languages() for profile in PROFILES for size in SIZES]


def laid_out_here(lang: str) -> list[tuple[str, str]]:
    """(profile, size) the layout test lays out for `lang`: under BAILOUT_SLOW_TESTS=1 every pair;
    in README's command each profile at the size it prints by default and at one more size, which
    turns with the edition, so that the eight editions between them lay out every pair."""
    from generator.options import default_counter_mm
    if SLOW:
        return [(profile, size) for profile in PROFILES for size in SIZES]
    names, turn = list(SIZES), available_languages().index(lang)
    own = {(profile, size) for profile in PROFILES for size in SIZES
           if SIZES[size] == default_counter_mm((profile,))}
    return sorted(own | {(profile, names[(i + turn) % len(names)]) for i, profile in enumerate(PROFILES)})


@pytest.mark.parametrize("lang", available_languages())
def test_every_piece_of_every_face_inside_its_inset_and_apart_in_every_profile_and_size(lang):
    """The layout's ink boxes, for every face of an edition, under every profile and named size
    (README's command: a share of the pairs for each edition, every pair over the editions)."""
    from generator.render.pdf.face_pdf import metrics
    from generator.render.theme import edition_faces
    aspect = {role: pic.aspect for role, pic in pictograms.pictograms().items()}
    laid = 0
    for profile, size in laid_out_here(lang):
        found = laid_out(lang, profile, size)
        if found is None:
            continue
        zone, kind, fits = found
        laid += 1
        safe = safe_inset(profile, size)
        assert zone.inset >= safe - 1e-6, (profile, size)
        assert min(kind.title, kind.body, kind.small) >= FLOORS[size] - 0.01, (profile, size, kind)
        for face, fit in fits.items():
            boxes = fl.ink_boxes(face, fit, zone, kind, metrics(edition_faces(lang)), aspect.__getitem__)
            for what, (x, y, w, h) in boxes:
                assert safe - 1e-6 <= x and x + w <= zone.size - safe + 1e-6, (profile, size, face.label, what)
                assert safe - 1e-6 <= y and y + h <= zone.size - safe + 1e-6, (profile, size, face.label, what)
            for i, (one, a) in enumerate(boxes):
                for other, b in boxes[i + 1:]:
                    assert not fl.overlaps(a, b), (profile, size, face.label.text, one, other)
            emblem = dict(boxes)["emblem"]
            for what, box in boxes:     # every word reads apart from the emblem: a clear millimetre
                if what.startswith(("label", "note")):
                    assert _apart(box, emblem) >= EMBLEM_CLEAR_MM * MM - 1e-6, (profile, size, what,
                                                                                _apart(box, emblem) / MM)
    # every profile builds its own default size at least (a die-cut shop's: 1 in)
    assert laid >= len(PROFILES)


def _apart(a, b) -> float:
    """The clear distance between two boxes (x, y, w, h), points: 0 where they touch or overlap."""
    dx = max(b[0] - (a[0] + a[2]), a[0] - (b[0] + b[2]), 0.0)
    dy = max(b[1] - (a[1] + a[3]), a[1] - (b[1] + b[3]), 0.0)
    return (dx * dx + dy * dy) ** 0.5


# README's command measures one set of counters, unfilled: every face once (each nationality's crew
# and markers, every weapon marker), on a third fewer sheets; CI (BAILOUT_SLOW_TESTS=1) the sheets
# as a default build fills them, every face as often as it prints.
ONE_SET = {} if SLOW else {"sets": 1, "fill": False}


@functools.lru_cache(maxsize=8)
def counters_pdf(lang: str, profile: str, size: str) -> bytes:
    return render_all(shipped_kit(), BuildOptions(lang=lang, print_profile=profile, counter_mm=SIZES[size],
                                          parts=("counters",), papers=("a4",), **ONE_SET))["counters-a4.pdf"]


SHARED = [("en", "meinspiel", "1in"), ("de", "tgc-punchout", "1in"), ("es", "shop", "1in")]


def _measured(lang: str, profile: str, size: str) -> list[str]:
    """What the built counters' ink shows: any of it outside the safe area, any two parts of a face
    over each other (the wounded band included)."""
    pdf, side, name = counters_pdf(lang, profile, size), float(SIZES[size]) * MM, f"{lang} {profile} {size}"
    return (inkbox.outside_safe_area(pdf, side, safe_inset(profile, size), name)
            + inkbox.overlapping_parts(pdf, side, name))


@pytest.mark.parametrize("lang,profile,size", SHARED)
def test_the_built_counters_ink_stays_inside_the_safe_area_and_apart(lang, profile, size):
    """pdfium's glyph outlines and the paths' ink: meinspiel.de's 4 mm and The Game Crafter's
    1/8 in on their 1 in counters, a print shop's 3 mm on its own 1 in ones."""
    found = _measured(lang, profile, size)
    assert not found, "\n".join(found[:10])


def test_the_default_kits_counters_ink_stays_inside_the_safe_area_and_apart(kit_files):
    """The default kit: English, duplex, 3/4 in.  Under BAILOUT_SLOW_TESTS=1 the session's own
    build, both papers; in README's command one set of it on A4, as the shared builds above (each
    face is one drawing, placed alike on either paper's sheets)."""
    files = kit_files if SLOW else {"counters-a4.pdf": counters_pdf("en", "duplex", "3/4in")}
    for paper in ("a4", "letter") if SLOW else ("a4",):
        pdf, side = files[f"counters-{paper}.pdf"], float(SIZES["3/4in"]) * MM
        found = (inkbox.outside_safe_area(pdf, side, safe_inset("duplex", "3/4in"), f"en {paper}")
                 + inkbox.overlapping_parts(pdf, side, f"en {paper}"))
        assert not found, "\n".join(found[:10])


# CI's: every profile and size in English, every edition on the home duplex and on meinspiel.de's board
WIDER = [m for m in MATRIX if m not in SHARED and m != ("en", "duplex", "3/4in")
         and (m[0] == "en" or (m[1], m[2]) in (("duplex", "3/4in"), ("meinspiel", "1in")))]


@pytest.mark.skipif(not SLOW, reason="CI's wider set (BAILOUT_SLOW_TESTS=1): a build each")
@pytest.mark.parametrize("lang,profile,size", WIDER)
def test_the_built_counters_ink_stays_inside_the_safe_area_and_apart_everywhere(lang, profile, size):
    prepress = registry.profile(profile).prepress
    if prepress is not None and prepress.die_cut is not None and SIZES[size] < prepress.die_cut.counter_mm:
        pytest.skip(f"{profile} refuses a {size} counter: its safe zone leaves no room")
    found = _measured(lang, profile, size)
    assert not found, "\n".join(found[:10])


def test_the_measure_sees_art_and_words_past_the_safe_area():
    """The old meinspiel back: the emblem's tile 2.67 mm from the cut and a 'V' at 3.81 mm, both
    under the shop's 4 mm; here a square and a word drawn into a counter's 4 mm, and a stroke
    in the ground's own colour (a knockout) that lays no ink."""
    import io

    from reportlab.pdfgen import canvas
    side, safe = 72.0, 4 * MM
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(300, 300))
    c.setFillColorRGB(0.6, 0.7, 0.5)
    c.rect(100, 100, side, side, fill=1, stroke=0)          # the counter's ground
    c.setFillColorRGB(0, 0, 0)
    c.rect(100 + side - safe + 1, 150, 5, 5, fill=1, stroke=0)      # art in the safe zone
    c.drawString(100 + safe + 3, 100 + safe + 3, "inside")
    c.drawString(110, 100 + side - safe - 2, "VVV")       # its top in the safe zone
    c.setStrokeColorRGB(0.6, 0.7, 0.5)
    c.setLineWidth(20)
    c.circle(136, 136, 10, stroke=1, fill=0)      # ground on ground: no ink
    c.save()
    found = inkbox.outside_safe_area(buffer.getvalue(), side, safe)
    assert any("art at" in p for p in found) and any("'V'" in p for p in found)
    assert not any("'i'" in p or "'n'" in p for p in found) and len([p for p in found if "art" in p]) == 1


def test_the_measure_sees_parts_of_a_face_over_each_other():
    """A counter drawn as the faces are (ground, band, art, words): a word whose line runs into the
    line over it, a word over a square of art, a word and a square across the band; the band's own
    label, a letter wholly inside its ring and a kerned pair on one line are no overlap."""
    import io

    from reportlab.pdfgen import canvas
    side = 72.0
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(300, 300))
    c.setFillColorRGB(0.6, 0.7, 0.5)
    c.rect(100, 100, side, side, fill=1, stroke=0)          # the counter's ground
    c.setFillColorRGB(0, 0, 0)
    c.rect(96, 130, side + 8, 10, fill=1, stroke=0)         # the band, bleeding past both sides
    c.setFillColorRGB(1, 1, 1)
    c.setFont("Helvetica", 7)
    c.drawString(110, 132, "LBL")                           # its own label: inside it
    c.setFillColorRGB(0, 0, 0)
    c.rect(150, 136, 6, 8, fill=1, stroke=0)                # art across the band
    c.rect(140, 150, 12, 12, fill=1, stroke=0)              # a square of art...
    c.drawString(149, 155, "X")                             # ...a word half over it
    c.circle(115, 160, 6, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.drawString(113, 158, "S")                             # a letter wholly inside its ring
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica", 9)
    c.drawString(104, 104, "AV")                            # a kerned pair on one line: no overlap
    c.drawString(104, 110, "Q")                             # a line run into the one under it
    c.save()
    found = inkbox.overlapping_parts(buffer.getvalue(), side)
    assert any("'Q'" in p and "another line" in p for p in found), found
    assert any("'X'" in p and "over the art" in p for p in found), found
    assert any(p.startswith(" p1 art at") and "across the band" in p for p in found), found
    assert not any(f"'{ch}'" in p for p in found for ch in "LBS"), found
    assert not any("'A'" in p and "'V'" in p for p in found), found
