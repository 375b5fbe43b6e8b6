"""A build as a graph of declared products (generator/make/products.py, make/outputs.py): a new
output is an entry and a function, each product is made once a build whoever asks for it, and a
product asks only for what it declared."""

import io
import zipfile

import pytest

from conftest import SLOW, run_cli
from generator.make import outputs, products
from generator.make.products import COUNTER_SHEETS, FACE_IMAGES, Made, Product, Products, needed
from generator.options import PAPER_KEYS


def _faces_zip(made: Made) -> bytes:
    """A new output's whole function: the face images, zipped (what a digital table imports)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, png in sorted(made(FACE_IMAGES).items()):
            archive.writestr(zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0)), png)
    return buffer.getvalue()


@pytest.fixture
def faces_output(monkeypatch):
    """One entry registered: the face images as a zip, a file of the counters' part."""
    entry = outputs.Output("counters", "faces.zip", _faces_zip, (FACE_IMAGES,))
    monkeypatch.setattr(outputs, "OUTPUTS", [*outputs.OUTPUTS, entry])
    return entry


def test_an_output_made_from_the_face_images_is_an_entry_and_a_function(faces_output, tmp_path):
    out = tmp_path / "out"
    status, _, err = run_cli("build", "--quiet", "--out", out, "--only", "counters", "--paper", "letter")
    assert status == 0, err
    with zipfile.ZipFile(out / "faces.zip") as archive:
        names = archive.namelist()
        front = archive.read("faces/german-crew-front.png")
    # every distinct face, both sides, as the counters print them (a PNG each)
    assert len(names) > 40 and all(n.startswith("faces/") and n.endswith(("-front.png", "-back.png")) for n in names)
    assert front.startswith(b"\x89PNG\r\n\x1a\n")
    assert "faces.zip" in (out / "MANIFEST.txt").read_text()
    assert {p.name for p in out.iterdir()} >= {"counters-letter.pdf", "faces.zip", "MANIFEST.txt"}


def test_each_product_is_made_once_a_build_whoever_asks(monkeypatch, tmp_path):
    made = []
    get = Products.get

    def counting(self, product, paper=None):
        key = (id(self), id(product), paper.key if product.per_paper and paper is not None else "")
        before = len(self._made)
        value = get(self, product, paper)
        if len(self._made) > before:
            made.append(key)
        return value
    monkeypatch.setattr(Products, "get", counting)
    # every output (a short deck of cards: how many rows does not change what is made); README's
    # command on A4 (the paper the digital tables' faces are cut from: its sheets serve the counters'
    # PDF, cut files and faces alike), BAILOUT_SLOW_TESTS=1 on both papers
    papers = PAPER_KEYS if SLOW else ("a4",)
    status, _, err = run_cli("build", "--quiet", "--out", tmp_path / "out", "--rows", "8",
                             "--paper", "both" if SLOW else papers[0])
    assert status == 0, err
    assert len(made) == len(set(made))          # nothing made twice in the build's products
    shared = [key for key in made if key[1] == id(COUNTER_SHEETS)]
    assert len(shared) == len(papers)           # the counters' sheets: once a paper, for PDF and cut files alike


def test_a_product_asks_only_for_what_it_declared(kit_ctx):
    sneaky = Product("asks for more", lambda made: made(products.ROWS))
    with pytest.raises(AssertionError, match="not declared"):
        Products(kit_ctx).get(sneaky)
    honest = Product("asks for what it names", lambda made: len(made(products.ROWS).rows), needs=(products.ROWS,))
    assert Products(kit_ctx).get(honest) == len(Products(kit_ctx).get(products.ROWS).rows) > 0


def test_a_product_made_per_paper_must_be_told_the_paper(kit_ctx):
    with pytest.raises(AssertionError, match="per paper"):
        Products(kit_ctx).get(COUNTER_SHEETS)


def test_needed_lists_every_product_once_its_needs_first():
    order = needed((FACE_IMAGES,))
    assert order[-1] is FACE_IMAGES and len(order) == len({id(p) for p in order})
    for i, product in enumerate(order):
        assert all(any(need is seen for seen in order[:i]) for need in product.needs), product.name


@pytest.fixture(scope="module")
def kit_ctx():
    from generator.data import load
    from generator.data.sources import shipped
    from generator.make.pipeline import context
    from generator.options import BuildOptions
    return context(load(shipped("data")), BuildOptions())
