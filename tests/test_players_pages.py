"""A player's pages carry no program marks and point only to what lies beside them.

- No edition stamp (a run of hex digits), kit version or seed wording on any page a player
  prints: the stamp and the version are the colophon's, one line once a file (the aid's last
  page, the counters' first, the web aid's foot), at the stamp's one length; MANIFEST.txt has
  them in full.
- Footers number the pages of the file they are in: a part's own, and the kit's the kit's ("page
  10 of 24"), the padding pages between the parts left without one.
- No page names a file the build did not write beside it (a build folder holds no README).

Expected words come from the catalogue and MANIFEST.txt, never from the code under test.
"""

import re
import tomllib
import zipfile
from html.parser import HTMLParser

import pytest

from conftest import DATA, page_texts, raw_page_texts
from generator import __version__
from generator.content.words import load_words

PARTS = ("player-aid", "prerolled", "counters")
HEX = re.compile(r"\b[0-9a-f]{8,}\b")       # a stamp, a hash
FILE = re.compile(r"\b[\w.-]+\.(?:txt|pdf|csv|html|svg|png|zip|toml)\b", re.I)


@pytest.fixture(scope="module")
def german(two_editions):
    """{file name: bytes} of the German edition of the session's release of two."""
    with zipfile.ZipFile(two_editions) as archive:
        return {name.split("/de/", 1)[1].replace("-de.", "."): archive.read(name)
                for name in archive.namelist() if "/de/" in name}


def _edition(manifest: bytes) -> str:
    return re.search(rb"^edition ([0-9a-f]{64})$", manifest, re.M).group(1).decode()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _colophon(lang: str, stamp: str) -> str:
    """The colophon's line: the kit by its title, as rules.toml names it, its version and stamp."""
    rules = tomllib.loads((DATA / "rules.toml").read_text(encoding="utf-8"))["variant"]
    kit = f"{rules['number']}\u00a0{rules['title']}"
    return _flat(load_words(lang)("colophon.edition", kit=kit, version=__version__, stamp=stamp))


def test_no_stamp_version_or_seed_on_a_players_page_but_the_colophons_line(kit_files, german):
    for lang, files in (("en", kit_files), ("de", german)):
        words = load_words(lang)
        stamp = _edition(files["MANIFEST.txt"])
        colophon = _colophon(lang, stamp[:10])
        mode_words = [words(f"prerolled.mode.{m}") for m in ("independent", "balanced")]
        for part in PARTS:
            for paper in ("a4", "letter"):
                pages = [_flat(t) for t in page_texts(files[f"{part}-{paper}.pdf"])]
                # the colophon's line once a file, the stamp at its one length (ten characters)
                holding = [n for n, page in enumerate(pages) if colophon in page]
                assert len(holding) == (0 if part == "prerolled" else 1), (lang, part, paper, holding)
                for n, page in enumerate(pages, 1):
                    rest = page.replace(colophon, "")
                    assert not HEX.search(rest), (lang, part, paper, n, HEX.search(rest)[0])
                    assert __version__ not in rest, (lang, part, paper, n)
                    if part == "prerolled":     # no program vocabulary on the tables
                        assert not any(re.search(rf"\b{re.escape(m)}\b", rest) for m in mode_words), (lang, n)
                        assert not re.search(r"\bseed\b|Startwert", rest, re.I), (lang, n)
        html = files["player-aid.html"].decode()
        body = re.sub(r"<head>.*?</head>", "", html, flags=re.S)
        visible = _flat(re.sub(r"<[^>]+>", " ", body))
        assert visible.count(stamp[:10]) == 1 and colophon in visible.replace("&amp;", "&")


def test_the_stamp_has_one_length_everywhere(kit_files, two_editions):
    """Ten hex characters wherever it is printed (the colophons, the release's zip name)."""
    stamp = _edition(kit_files["MANIFEST.txt"])
    assert stamp[:10] in _flat(page_texts(kit_files["player-aid-a4.pdf"])[-1])
    assert re.fullmatch(rf"bailout-kit-{re.escape(__version__)}-[0-9a-f]{{10}}\.zip", two_editions.name)


def _footers(pdf: bytes, lang: str) -> list[str]:
    """The footer line of each page, '' where a page has none: 'PART, page N of M'."""
    words = load_words(lang)
    found = []
    for text in page_texts(pdf):
        line = next((ln for ln in text.splitlines() if re.search(words("page.footer.page", part=".*", page=r"\d+",
                                                                        pages=r"\d+").strip(" ·"), ln)), "")
        found.append(_flat(line))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_kits_footers_count_the_kits_pages_and_a_parts_its_own(kit_files, paper):
    words = load_words()
    kit = kit_files[f"kit-{paper}.pdf"]
    footers = _footers(kit, "en")
    total = len(footers)
    parts = {part: len(page_texts(kit_files[f"{part}-{paper}.pdf"])) for part in PARTS}
    names = {"player-aid": "page.footer.part.aid", "prerolled": "page.footer.part.prerolled",
             "counters": "page.footer.part.counters"}
    n = 0
    for part in PARTS:
        if n % 2:       # a part starts on a fresh sheet: a blank page, with no footer, before it
            assert footers[n] == "" and words("page.blank") in page_texts(kit)[n]
            n += 1
        own = _footers(kit_files[f"{part}-{paper}.pdf"], "en")
        for i in range(parts[part]):
            said = words("page.footer.page", part=words(names[part]), page=n + 1, pages=total).strip(" ·")
            assert said in footers[n], (n, footers[n])
            assert words("page.footer.page", part=words(names[part]), page=i + 1,
                         pages=parts[part]).strip(" ·") in own[i]
            n += 1
    assert n == total


def test_no_page_names_a_file_the_build_did_not_write(kit_files, german):
    """A build folder holds no README: no page may send a player to one (nor to any other file
    that is not there)."""
    for lang, files in (("en", kit_files), ("de", german)):
        written = set(files) | {name.split("/")[-1] for name in files}
        for name, content in files.items():
            if not name.endswith(".pdf"):
                continue
            for n, text in enumerate(page_texts(content), 1):
                for found in FILE.findall(text):
                    assert found in written, (lang, name, n, found)
                assert "README" not in text, (lang, name, n)


# A straight apostrophe as the English edition must not print it: inside a word ("crew's") or
# after a plural's s ("cards' Morale").
STRAIGHT_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])|(?<=s)'(?=[\s.,;:)]|$)")


class _VisibleText(HTMLParser):
    """The text a reader sees on a web page: no script, style or attribute."""

    def __init__(self):
        super().__init__()
        self.hidden, self.pieces = 0, []

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.pieces.append(data)


def test_the_english_edition_sets_one_apostrophe_on_every_players_page(kit_files):
    """The typographic apostrophe (\u2019) on every English page a player reads, as beside its
    curly quotes: the aid, the counters' calibration and key, the pre-rolled tables, the web aid."""
    for part in PARTS:
        for paper in ("a4", "letter"):
            for n, text in enumerate(raw_page_texts(kit_files[f"{part}-{paper}.pdf"]), 1):
                assert not STRAIGHT_APOSTROPHE.findall(text), (part, paper, n, text)
    page = _VisibleText()
    page.feed(kit_files["player-aid.html"].decode())
    text = " ".join(page.pieces)
    assert "\u2019" in text and not STRAIGHT_APOSTROPHE.findall(text), text
