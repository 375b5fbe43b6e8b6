"""A release of several editions dealt out in shares (generator/make/release.py dealt): an
edition's first paper with its files of no paper, and its second paper, each whole work of its
own.  What is dealt, and that the shares make the same files as the edition made whole."""

import io
import itertools
import multiprocessing
import zipfile

import pytest

from conftest import DATA, run_cli
from generator.make import release
from generator.make.release import Share, dealt, edition_files, share_files
from generator.options import PAPER_KEYS, BuildOptions

SEVEN = ("en", "de", "fr", "it", "es", "pl", "ru")


def test_seven_editions_on_two_cores_four_here_three_and_the_second_papers_in_the_worker():
    # the worker starts an interpreter first and holds one edition fewer: it makes, besides its
    # own three editions whole, the letter files of the four this process holds
    here, worker = dealt(SEVEN, 2)
    assert here == [Share("en", ("a4",)), Share("fr", ("a4",)), Share("es", ("a4",)), Share("ru", ("a4",))]
    assert worker == [Share("de"), Share("it"), Share("pl"),
                      Share("en", ("letter",), paperless=False), Share("fr", ("letter",), paperless=False),
                      Share("es", ("letter",), paperless=False), Share("ru", ("letter",), paperless=False)]


def test_lanes_of_equal_editions_make_their_editions_whole():
    assert dealt(SEVEN[:4], 2) == [[Share("en"), Share("fr")], [Share("de"), Share("it")]]
    assert dealt(SEVEN[:3], 2) == [[Share("en"), Share("de"), Share("fr")]]     # two an edition at the least
    assert dealt(SEVEN, 1) == [[Share(lang) for lang in SEVEN]]


@pytest.mark.parametrize(("count", "jobs"), list(itertools.product(range(1, 9), range(1, 5))))
def test_every_paper_of_every_edition_is_made_once_and_its_files_of_no_paper_once(count, jobs):
    langs = SEVEN + ("ja",)
    lanes = dealt(langs[:count], jobs)
    made = [(share.lang, paper) for lane in lanes for share in lane for paper in (share.papers or PAPER_KEYS)]
    assert sorted(made) == sorted(itertools.product(langs[:count], PAPER_KEYS))
    paperless = [share.lang for lane in lanes for share in lane if share.paperless]
    assert sorted(paperless) == sorted(langs[:count])
    assert len(lanes) <= jobs
    editions = [sum(share.paperless for share in lane) for lane in lanes]
    assert editions[0] == max(editions)         # this process starts at once: never the fewer editions


def test_an_editions_two_shares_make_the_files_of_the_edition_made_whole(release_zip):
    # the shares of English made one after the other, each from products of its own as in two
    # processes, then the edition's own files over them: the release of English alone, byte for byte
    from generator.data import load
    from generator.make.pipeline import context
    from generator.make.products import Products
    kit = load(DATA)
    options = release._whole_kit(BuildOptions())
    files: dict[str, bytes] = {}
    told = None
    for share in (Share("en", PAPER_KEYS[:1]), Share("en", PAPER_KEYS[1:], paperless=False)):
        products = Products(context(kit, options))
        made = share_files(kit, products, share, None, ())
        assert not set(made) & set(files)       # no file made by both
        files |= made
        told = told or release._told(products.ctx)
    assert told is not None
    whole = edition_files(kit, options, files, told)
    name, content = release_zip
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        folder = name[:-len(".zip")]
        shipped = {info.filename[len(folder) + 1:]: archive.read(info) for info in archive.infolist()
                   if not info.is_dir()}
    assert sorted(whole) == sorted(shipped)
    assert [n for n in whole if whole[n] != shipped[n]] == []


@pytest.mark.larger_budget
def test_a_release_whose_second_papers_a_worker_makes_is_the_same_zip_as_in_one(tmp_path, two_editions,
                                                                                  monkeypatch):
    # README's command holds the shares' files to the edition made whole in one process (above);
    # this holds the same across two processes, the zip's names and MANIFEST too
    monkeypatch.setattr(release, "dealt", lambda langs, jobs: [
        [Share("en", ("a4",))], [Share("de"), Share("en", ("letter",), paperless=False)]])
    status, _, err = run_cli("release", "--quiet", "--lang", "en,de", "--rows", "8", "--out", tmp_path,
                             "--jobs", "2")
    assert status == 0, err
    [made] = sorted(tmp_path.glob("*.zip"))
    assert made.name == two_editions.name and made.read_bytes() == two_editions.read_bytes()
    assert multiprocessing.active_children() == []
