"""One naming rule for the weapons (docs/editing.md): a counter names its weapon as the aid's
table does, by its family or maker name and model ("Thompson M1A1", "Mosin M1891/30"); where that
is too long for the face on one line at its floor size, by the data's short form, the name
players call it by (the family name: "Thompson"), never a designation cut from its family and
never a name cut in code.  Expected names come from the data files, not from the code."""

import functools
import re
import tomllib
from fractions import Fraction

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from conftest import DATA, matrix, page_texts, shipped_kit
from generator.content.faces import build_counters
from generator.layout.paper import PAPERS
from generator.layout.sheets import face_zones, sheet_plan
from generator.make.pipeline import context
from generator.options import BuildOptions
from generator.render.pdf.canvas import register_fonts
from generator.render.pdf.face_pdf import fit_faces
from generator.render.theme import edition_faces

INCH_MM = Fraction(254, 10)
SIZES = {"5/8in": Fraction(5, 8) * INCH_MM, "3/4in": Fraction(3, 4) * INCH_MM, "1in": INCH_MM}
GENERIC = ("carbine", "grease gun", "rifle")    # descriptors after a model's name, in lower case


def _toml(path):
    return tomllib.loads(path.read_text(encoding="utf-8"))


def spans():
    """[(nationality key, kind, model, short)] as the nationality files give them."""
    out = []
    for path in sorted((DATA / "nationalities").glob("*.toml")):
        nat = _toml(path)
        out += [(path.stem, kind, span["model"], span.get("short", ""))
                for kind in ("rifle", "smg") for span in nat.get(kind, ())]
    return out


def names(lang):
    """{English model: (the edition's model, its short form)} from the data and the glossary."""
    glossary = _toml(DATA / "glossary" / f"{lang}.toml").get("models", {}) if lang != "en" else {}
    out = {}
    for _, _, model, short in spans():
        given = glossary.get(model)
        if isinstance(given, dict):
            out[model] = (given["model"], given.get("short", ""))
        elif isinstance(given, str):
            out[model] = (given, "")
        else:
            out[model] = (model, short)
    return out


def test_a_short_form_is_the_name_players_call_the_weapon_by_its_family():
    for nat, kind, model, short in spans():
        if short:   # the family (maker) name the model starts with, whole words
            assert model.startswith(short + " ") or model.startswith(short + "-"), (nat, kind, model, short)
        for word in GENERIC:    # 'M1 carbine' as 'M1944 carbine': the descriptor in lower case
            assert word.title() not in model, (nat, model)


@functools.cache
def printed(lang, size):
    """{(nationality key, English model): the model as the counter prints it}."""
    kit = shipped_kit()
    options = BuildOptions(lang=lang, counter_mm=SIZES[size], papers=("a4",))
    ctx = context(kit, options)
    register_fonts(edition_faces(lang))
    grid, groups, _ = sheet_plan(PAPERS["a4"], options, lambda more: build_counters(ctx, more))
    zone = face_zones(grid)
    _, fits = fit_faces(groups, zone, options.counter_mm, ctx.kit, ctx.words)
    out = {}
    for nat, counters in groups:
        for counter in counters:
            if counter.kind in ("rifle", "smg"):
                note = counter.front.note
                out[nat.key, note.source[0][1]] = " ".join(p.text for p in fits[counter.front].note)
    return out, zone.width, zone.floor


# Every edition and every size in README's command, each in one case (conftest.matrix); CI
# (BAILOUT_SLOW_TESTS=1) every edition at every size.
@pytest.mark.parametrize("lang,size", matrix(["en", "de", "pl", "ru", "ja"], list(SIZES)))
def test_a_counter_prints_the_aids_name_or_the_datas_short_form(lang, size):
    edition = names(lang)
    keys = {}
    for nat, kind, model, _ in spans():
        keys.setdefault((nat, kind), []).append(model)
    said, width, floor = printed(lang, size)
    font = edition_faces(lang).condensed_medium
    assert said
    for (nat, key), text in said.items():
        kind, index = re.fullmatch(r"(\w+)\[(\d+)\]\.model", key).groups()
        model = keys[nat, kind][int(index)]
        whole, short = edition[model]
        assert text in (whole, short) and text, (lang, size, nat, model, text)
        if text != whole:       # the short form only where the whole name is wider than the face
            assert stringWidth(whole, font, floor) > width, (lang, size, nat, model, text)


def test_the_aids_table_names_each_weapon_whole(kit_files):
    text = " ".join(" ".join(page_texts(kit_files["player-aid-a4.pdf"])).replace("\u00a0", " ").split())
    for _, _, model, _ in spans():
        assert model in text, model
