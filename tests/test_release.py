"""`bailout release`: one reproducible zip holding every file, each link of index.html a file in it,
counter faces at cut size cropped from the right place.

Expected names, counts and colours come from the data files (tomllib), not from the code.
"""

import hashlib
import html
import io
import re
import stat
import tomllib
import zipfile
from html.parser import HTMLParser

import pypdf
import pytest
from PIL import Image

from conftest import DATA, run_cli
from generator import __version__
from generator.content.words import load_words
from generator.layout.paper import PAPERS as PAPERS_BY_KEY
from generator.profiles.registry import DEFAULT as _DEFAULT
from generator.profiles.registry import PROFILES as _PROFILES

DEFAULT_PROFILE = _PROFILES[_DEFAULT]       # what a build without --print makes

WORDS = load_words()        # the kit's English
RULES = tomllib.loads((DATA / "rules.toml").read_text())

PAPERS = ("a4", "letter")


def nationalities():
    return {p.stem: tomllib.loads(p.read_text()) for p in sorted((DATA / "nationalities").glob("*.toml"))}


@pytest.fixture(scope="module")
def release(release_zip):
    name, content = release_zip
    archive = zipfile.ZipFile(io.BytesIO(content))
    folder = name[:-len(".zip")]
    files = {info.filename[len(folder) + 1:]: archive.read(info) for info in archive.infolist()}
    return name, content, archive, files


def test_name_and_reproducible(release):
    name, _content, _, files = release
    match = re.fullmatch(rf"bailout-kit-{re.escape(__version__)}-([0-9a-f]{{10}})\.zip", name)
    assert match
    edition = next(line for line in files["MANIFEST.txt"].decode().splitlines() if line.startswith("edition "))
    assert edition.startswith(f"edition {match.group(1)}")     # the zip is named by the edition stamp


# A second whole release (seconds). README's command holds its pieces with lighter tests: the
# command writes the zip alone into its folder (test_release_neutral.py
# test_a_release_folder_holds_the_zip_alone), the printed files are the same bytes when made again
# (test_build.py test_two_builds_are_byte_identical) and the same files zip to the same bytes
# (test_archive.py test_plain_names_are_kept_sorted_dated_and_the_same_bytes_each_time).
@pytest.mark.larger_budget
def test_cli_writes_the_same_zip_again(release, tmp_path):
    name, content, _, _ = release
    code, out, err = run_cli("release", "--out", tmp_path / "dist", "--quiet")
    assert code == 0, err
    assert [p.name for p in (tmp_path / "dist").iterdir()] == [name]      # the zip alone
    assert str(tmp_path / "dist" / name) in out
    assert (tmp_path / "dist" / name).read_bytes() == content, "byte-identical for the same data and options"


def test_fixed_dates_order_and_permissions(release):
    _, _, archive, _ = release
    infos = archive.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names)
    assert len({n.split("/")[0] for n in names}) == 1, "everything under one folder"
    for info in infos:
        assert info.date_time == (2000, 1, 1, 0, 0, 0)
        assert stat.S_IMODE(info.external_attr >> 16) == 0o644


def test_holds_every_file(release):
    _, _, _, files = release
    from generator.make.outputs import all_file_names
    # every file the Output registry declares for both papers, and the release's own pages
    expected = {*all_file_names((PAPERS_BY_KEY[p] for p in PAPERS), DEFAULT_PROFILE), "MANIFEST.txt", "README.txt",
                "index.html"}
    assert {"kit-a4.pdf", "player-aid-letter.pdf", "prerolled.csv", "player-aid.html"} <= expected
    assert expected <= set(files)
    thumbs = {n for n in files if n.startswith("thumbs/")}
    assert {f"thumbs/{n[:-4]}.png" for n in expected if n.endswith(".pdf")} == thumbs
    for name in files:
        if name.endswith(".pdf"):
            assert files[name].startswith(b"%PDF-")
    manifest = files["MANIFEST.txt"].decode()
    for name, content in files.items():
        if name != "MANIFEST.txt":
            digest = hashlib.sha256(content).hexdigest()
            assert re.search(rf"^{re.escape(name)}\s+\S+\s+{digest}$", manifest, re.M), name


def test_faces_one_per_distinct_face_at_cut_size(release):
    _, _, _, files = release
    faces = {n for n in files if n.startswith("faces/")}
    expected = set()
    for key, nat in nationalities().items():
        for kind in ("crew", "bailed-out-afv"):
            expected |= {f"faces/{key}-{kind}-{side}.png" for side in ("front", "back")}
        for kind in ("rifle", "smg"):
            spans = nat.get(kind, [])
            for first, last in (s["years"] for s in spans):
                years = f"-{first}" + (f"-{str(last)[2:]}" if last != first else "") if len(spans) > 1 else ""
                expected |= {f"faces/{key}-{kind}{years}-{side}.png" for side in ("front", "back")}
    assert faces == expected
    for name in faces:
        image = Image.open(io.BytesIO(files[name]))
        assert image.size == (225, 225), name        # 3/4 in at 300 dpi
        assert round(image.info["dpi"][0]) == 300


def test_faces_are_cropped_from_their_own_counter(release):
    """A face's corners show its nationality's colour; a wounded face carries a band of the text
    colour across it, its left edge crossing the band.  So the crop is the counter, not a
    neighbour, the margin or a mirrored position."""
    _, _, _, files = release
    for key, nat in nationalities().items():
        colour = tuple(int(nat["colour"][i:i + 2], 16) for i in (1, 3, 5))
        ink = tuple(int(nat["text_colour"][i:i + 2], 16) for i in (1, 3, 5))
        bands = {}
        for side in ("front", "back"):
            image = Image.open(io.BytesIO(files[f"faces/{key}-crew-{side}.png"])).convert("RGB")
            for corner in ((3, 3), (221, 3), (3, 221), (221, 221)):
                got = image.getpixel(corner)
                assert all(abs(a - b) <= 2 for a, b in zip(got, colour, strict=True)), (key, side, corner)
            # pdfium shows the K-only ink as a warm near-black: compare as grey
            bands[side] = sum(abs(sum(image.getpixel((1, y))) / 3 - sum(ink) / 3) <= 40 for y in range(225))
        assert bands["front"] == 0 and bands["back"] >= 225 // 6, (key, bands)
    front = Image.open(io.BytesIO(files["faces/german-crew-front.png"])).convert("L")
    back = Image.open(io.BytesIO(files["faces/german-crew-back.png"])).convert("L")
    assert front.tobytes() != back.tobytes(), "the wounded side differs"


class Links(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.targets, self.imgs = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a":
            self.targets.append(attrs["href"])
        if tag == "img":
            self.targets.append(attrs["src"])
            self.imgs.append(attrs)
        assert tag not in ("script", "link", "iframe")


def test_index_links_every_file_and_only_files_in_the_zip(release):
    _, _, _, files = release
    links = Links(files["index.html"].decode())
    targets = set(links.targets)
    assert targets <= set(files), targets - set(files)
    assert set(files) - {"index.html"} <= targets, set(files) - targets
    assert all(img.get("alt") for img in links.imgs)
    text = files["index.html"].decode()
    for name in (n for n in files if n.endswith(".pdf")):
        assert hashlib.sha256(files[name]).hexdigest() in text


def flat(text):
    return " ".join(text.split())


def test_readme_for_players(release):
    _, _, _, files = release
    readme = flat(files["README.txt"].decode())
    v = RULES["variant"]
    credits = WORDS("release.credits", number=v["number"], title=v["title"], credit=v["credit"], game=v["game"])
    tips = [WORDS("release.readme.tip.actual_size", actual_size=WORDS("release.actual_size")),
            WORDS("release.readme.tip.duplex"), WORDS("release.readme.tip.calibration")]
    for needed in (v["credit"], v["game"], flat(credits), *map(flat, tips), WORDS("release.print.counters"),
                   "player-aid.html", "prerolled.csv", "faces/", "index.html"):
        assert needed in readme, needed
    lines = files["README.txt"].decode().splitlines()
    assert max(len(line) for line in lines if not line.startswith("    ")) <= 92     # filled, but for the file notes
    assert lines[-1] == WORDS("release.readme.built", version=__version__)


def test_index_says_what_each_pdf_is_and_how_to_print_it(release):
    _, _, _, files = release
    page = html.unescape(files["index.html"].decode())
    v = RULES["variant"]
    assert f"<title>{WORDS('release.title', number=v['number'], title=v['title'], version=__version__)}</title>" in page
    for key in ("kit", "prerolled", "counters"):
        assert WORDS(f"release.file.{key}") in page and WORDS(f"release.print.{key}") in page
    assert WORDS("release.file.aid", number=v["number"]) in page
    for heading in ("pdfs", "others", "faces", "thumbs", "credits"):
        assert f"<h2>{WORDS(f'release.index.{heading}')}</h2>" in page
    assert f"<strong>{WORDS('release.actual_size')}</strong>" in page and f"<em>{v['game']}</em>" in page


def test_readme_and_index_list_every_declared_output(release):
    """The release's pages list what the Output registry declares: a new output needs no edit there."""
    _, _, _, files = release
    from generator.make.outputs import all_file_names
    readme, page = files["README.txt"].decode(), files["index.html"].decode()
    for name in all_file_names((PAPERS_BY_KEY[p] for p in PAPERS), DEFAULT_PROFILE):
        assert name in readme, name
        assert f'href="{name}"' in page, name


def test_every_pdf_names_the_kit_and_its_variant(release):
    _, _, _, files = release
    v = RULES["variant"]
    fields = {**{k: v[k] for k in ("number", "title", "game", "credit")}, "version": __version__}
    for name in (n for n in files if n.endswith(".pdf")):
        meta = pypdf.PdfReader(io.BytesIO(files[name])).metadata
        assert meta.author == WORDS("pdf.author", **fields), name
        assert meta.creator == meta.producer == WORDS("pdf.creator", **fields), name
        if name.startswith("kit-"):
            paper = next(p for p in PAPERS_BY_KEY.values() if name == f"kit-{p.key}.pdf")
            assert meta.title == WORDS("kit.title", paper=paper.label, **fields)
            assert meta.subject == WORDS("kit.subject", **fields)
        else:
            assert meta["/Keywords"] == WORDS("pdf.keywords", **fields), name


def test_cli_bad_option_writes_nothing(tmp_path):
    code, _, err = run_cli("release", "--counter-size", "3mm", "--out", tmp_path / "x")
    assert code == 2 and "counter" in err and "Traceback" not in err and not (tmp_path / "x").exists()


class _Keys(dict):
    """A catalogue that knows every key and words each as the key itself, in brackets."""

    def __missing__(self, key):
        return f"[{key}]"

    def __contains__(self, key):
        return True


def test_the_pages_words_are_the_catalogues(release):
    from generator.content.words import Words
    from generator.data import load
    from generator.make.release import listed
    from generator.options import BuildOptions
    from generator.render.html.release_pages import index_html, readme_text
    _, _, _, files = release
    keyed = Words("xx", _Keys(), _Keys())      # a message with plural forms prints its key
    kit, options = load(DATA), BuildOptions()
    pdfs, others = listed(options)
    readme = readme_text(kit, options, files, keyed, pdfs=pdfs, others=others).decode()
    page = index_html(kit, options, files, keyed, pdfs=pdfs, others=others).decode()
    assert '<html lang="xx">' in page and "[release.index.intro]" in page and "[release.readme.how]" in readme
    unstyled = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    for key, message in WORDS.messages.items():
        if key.startswith("release."):
            for phrase in re.split(r"\{[^}]*\}", message):      # each phrase between its fields
                if " " in phrase.strip():
                    assert phrase not in readme and phrase not in unstyled, (key, phrase)


def test_a_release_with_further_print_profiles_has_a_zip_name_of_its_own():
    """`release --print meinspiel` and `--print meinspiel,cutter` make different zips: written into one
    folder, neither may replace the other."""
    from generator.content.stamp import Stamp
    from generator.make.release import zip_name
    stamp = Stamp("8d48aa17" + "0" * 56, ())
    alone, cutter, fold = zip_name(stamp), zip_name(stamp, ("cutter",)), zip_name(stamp, ("fold",))
    assert alone == f"bailout-kit-{__version__}-8d48aa1700.zip"     # the edition stamp as the colophon prints it
    assert len({alone, cutter, fold}) == 3
