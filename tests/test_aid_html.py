"""player-aid.html: the same figures and sentences as the PDF aid, one self-contained page,
accessible structure, nothing from data parsed as markup.

Expected sentences come from data/rules.toml (read with tomllib); expected figures from the PDF
aid's own text, so the two editions are held to each other.
"""

import base64
import io
import itertools
import re
import tomllib
from html.parser import HTMLParser

import pdfplumber
import pytest

import conftest
from conftest import DATA, PRINTED_KIT, aid_edition, edit, kit_of, shipped_build
from generator.content.words import load_words
from generator.make.pipeline import render_all
from generator.options import BuildOptions

WORDS = load_words()        # the kit's English
FRACTION = re.compile(r"(?<![\w/.])\d+/\d+(?![\w/])")
PERCENT = re.compile(r"\d+\.\d%")


def build(data=DATA, **options):
    return render_all(kit_of(data), BuildOptions(parts=("aid",), **options))


def html_of(data=DATA, words=None, **options):
    """The web aid alone (no PDFs): what `bailout build --only aid` writes as player-aid.html."""
    from generator.content.context import make_context
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.outputs import named
    from generator.make.products import Products
    kit = kit_of(data)
    ctx = make_context(kit, compute(kit), BuildOptions(**options), shipped("templates"), words=words or WORDS)
    return Products(ctx).get(named("player-aid.html").product).decode()


@pytest.fixture(scope="module")
def outputs(kit_files):
    """The aid's files from the session's default build (the same bytes as `--only aid`'s)."""
    return {name: kit_files[name] for name in ("player-aid-a4.pdf", "player-aid-letter.pdf", "player-aid.html")}


class Page(HTMLParser):
    """The visible text (no style, no SVG), every tag with its attributes, the headings in order."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.headings, self._skip, self._heading = [], [], [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("style", "svg", "title"):
            self._skip.append(tag)
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = [int(tag[1]), ""]

    def handle_endtag(self, tag):
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()
        if self._heading and tag == f"h{self._heading[0]}":
            self.headings.append(tuple(self._heading))
            self._heading = None

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)
            if self._heading:
                self._heading[1] += data.replace("\u2019", "'")     # as plain() reads it

    def plain(self):
        """The visible text, flat, the English typographic apostrophe read as the straight one
        the catalogues and data type (printed(): as shown)."""
        return self.printed().replace("\u2019", "'")

    def printed(self):
        return " ".join(" ".join(self.text).split())


def pdf_text(content):
    """The PDF's text, flat (read by pdfium: conftest.pdf_text)."""
    return " ".join(conftest.pdf_text(content).split())


def test_same_figures_as_the_pdf(outputs):
    page = Page(outputs["player-aid.html"].decode())
    text = page.plain()
    for paper in ("a4", "letter"):
        pdf = pdf_text(outputs[f"player-aid-{paper}.pdf"])
        assert set(PERCENT.findall(text)) == set(PERCENT.findall(pdf)), paper
        assert set(FRACTION.findall(text)) == set(FRACTION.findall(pdf)), paper
    # Not vacuous: the seed's chances are there (871.1.a 1/3, 871.1.b 1/2, 871.4 1/4 then 1/3 of it).
    for figure in ("1/3", "1/2", "3/4", "1/12", "1/6", "33.3%", "50.0%", "75.0%", "8.3%", "16.7%"):
        assert figure in text


def test_rule_sentences_from_the_data_appear(outputs):
    rules = tomllib.loads((DATA / "rules.toml").read_text())
    text = Page(outputs["player-aid.html"].decode()).plain()
    notes = rules["interpretation"]
    for name, note in notes.items():
        sentence = note["readings"][note["reading"]]
        assert " ".join(sentence.split()) in text, name
    after = rules["after"]
    for key in ("group", "infiltrators"):
        assert " ".join(after[key].split()) in text, key
    assert rules["variant"]["credit"] in text and rules["triggers"]["exact_kill"] in text


def test_interpretation_reading_is_followed(data_copy):
    rules = tomllib.loads((data_copy / "rules.toml").read_text())
    other = rules["interpretation"]["hero_card"]["readings"]["single"]
    edit(data_copy / "rules.toml", 'reading = "separate"', 'reading = "single"')
    text = Page(html_of(data_copy)).plain()
    assert other in text
    assert rules["interpretation"]["hero_card"]["readings"]["separate"] not in text


def test_self_contained_no_script(outputs):
    source = outputs["player-aid.html"].decode()
    page = Page(source)
    tags = {tag for tag, _ in page.tags}
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    for tag, attrs in page.tags:
        assert "src" not in attrs, tag
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
        href = attrs.get("href")
        assert href is None or href.startswith("#"), href
    assert "@import" not in source
    # the only url(...) the page holds are its own type, in the page (data:, nothing fetched)
    assert re.findall(r"url\(([a-z]+):", source) == ["data"] * source.count("url(")
    style = [t for t, _ in page.tags if t == "style"]
    assert len(style) == 1
    svg = [a for t, a in page.tags if t == "svg"]
    # the flowchart, named for a screen reader; the pictograms, each beside its words, hidden from one
    charts = [a for a in svg if a.get("class") == "chart"]
    assert len(charts) == 1 and charts[0].get("role") == "img" and charts[0].get("aria-labelledby")
    icons = [a for a in svg if a.get("class") == "icon"]
    assert len(icons) == 5 and all(a.get("aria-hidden") == "true" for a in icons) and len(svg) == 6
    assert "<title id=\"chart-title\">" in source


def _faces(source):
    """{(family, style, weights): the WOFF2 font} of the page's @font-face rules."""
    rules = re.findall(r'@font-face \{ font-family: "([^"]+)"; font-weight: ([\d ]+); font-style: (\w+);'
                       r'[^}]*url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)', source)
    return {(family, style, weight): base64.b64decode(data) for family, weight, style, data in rules}


def test_the_web_aid_reads_in_the_kits_own_type(outputs):
    """IBM Plex, from the kit's own font files, as WOFF2 in the page: each face holds every
    character the page shows, and the page's CSS asks for those families."""
    from fontTools.ttLib import TTFont
    source = outputs["player-aid.html"].decode()
    faces = _faces(source)
    assert {(f, s) for f, s, _ in faces} == {("IBM Plex Sans", "normal"), ("IBM Plex Sans", "italic"),
                                             ("IBM Plex Sans Condensed", "normal")}
    shown = {ch for ch in Page(source).printed() if not ch.isspace()}
    assert {"8", "7", "1", "/", "%", "\u2212"} & shown and len(shown) > 60
    for (family, style, weight), woff2 in faces.items():
        assert woff2[:4] == b"wOF2", family
        font = TTFont(io.BytesIO(woff2))
        name = font["name"].getDebugName(1)        # "IBM Plex Sans Cond" in the condensed files
        assert name.startswith("IBM Plex Sans") and ("Cond" in name) == ("Condensed" in family), (family, name)
        missing = {ch for ch in shown if ord(ch) not in font.getBestCmap()}
        assert not missing, (family, style, weight, sorted(missing))
        assert not {"GSUB", "GPOS", "GDEF"} & set(font.keys()), family    # the PDFs' glyphs: no features
    assert '"IBM Plex Sans"' in source and '"IBM Plex Sans Condensed"' in source     # aid.css asks for them


def test_the_cards_stand_on_the_charts_grid_with_no_lone_card():
    """On a wide screen each row of cards is full: the cards span the columns the chart's boxes
    span, and the spans of each row add up to the chart's columns."""
    page = Page(html_of())
    listing = next(a for t, a in page.tags if t == "ol" and "steps" in a.get("class", "").split())
    columns = int(re.search(r"cols-(\d+)", listing["class"])[1])
    cards = [a for t, a in page.tags if t == "li" and a.get("id", "").startswith("step-")]
    spans = [int(re.search(r"span-(\d+)", a.get("class", "span-1"))[1]) for a in cards]
    rows, filled = [], 0
    for span in spans:
        filled += span
        if filled >= columns:
            rows.append(filled)
            filled = 0
    assert len(cards) == 7 and columns > 1 and filled == 0 and set(rows) == {columns}, (columns, spans)


def test_accessible_structure(outputs):
    page = Page(outputs["player-aid.html"].decode())
    html_tag = next(a for t, a in page.tags if t == "html")
    assert html_tag.get("lang") == "en"
    assert any(t == "meta" and a.get("name") == "viewport" for t, a in page.tags)
    levels = [level for level, _ in page.headings]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), "no heading level is skipped"
    # The flowchart's steps are h3s under "The procedure", one per box of the template's list.
    template = (DATA.parent / "templates" / "aid.md.j2").read_text()
    # A box title is an English msgid: **{{ _("Trigger") }}**.
    boxes = re.findall(r'^\d+\. \*\*(?:\{\{ _\(")?(.+?)(?:"\) \}\})?\*\*', template, re.M)
    steps = [title for level, title in page.headings if level == 3]
    assert len(steps) == len(boxes) == 7
    for box, step in zip(boxes, steps, strict=True):
        assert box in step
    headers = [a for t, a in page.tags if t == "th"]
    assert headers and all(a.get("scope") in ("col", "row", "colgroup") for a in headers)
    # a fraction and its percentage under one head: the head spans both columns
    assert any(a.get("colspan") == "2" and a.get("scope") == "colgroup" for a in headers)
    tables = sum(1 for t, _ in page.tags if t == "table")
    regions = [a for t, a in page.tags if t == "div" and a.get("class") == "table-wrap"]
    assert len(regions) == tables and all(a.get("aria-labelledby") for a in regions)
    ids = [a["id"] for _, a in page.tags if "id" in a]
    assert len(ids) == len(set(ids))
    for a in regions:
        assert a["aria-labelledby"] in ids


def test_black_and_white_follows_the_option(outputs):
    colour = outputs["player-aid.html"].decode()
    bw = html_of(bw=True)
    assert "#3b4722" in colour and "#3b4722" not in bw
    # Apart from the style, only the edition stamp differs (--bw is an input of it).
    def rest(page: str) -> str:
        return re.sub(r"edition [0-9a-f]{10}", "", re.sub(r"<style>.*?</style>", "", page, flags=re.S))
    assert rest(colour) == rest(bw)
    assert re.findall(r"edition [0-9a-f]{10}", colour) != re.findall(r"edition [0-9a-f]{10}", bw)


def _rgb(colour):
    """A PDF fill colour (gray, RGB or CMYK, 0..1) as '#rrggbb'."""
    if len(colour) == 1:
        colour = colour * 3
    elif len(colour) == 4:
        c, m, y, k = colour
        colour = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return "#" + "".join(f"{round(v * 255):02x}" for v in colour)


@pytest.mark.parametrize("bw", [False, True])
def test_the_page_and_the_pdf_share_one_palette(bw):
    # The title prints in the accent colour in both editions.
    # both shared: the aid alone, and the --bw printed kit test_counters_print reads
    outputs = shipped_build(bw=True, parts=PRINTED_KIT) if bw else aid_edition("en")
    accent = re.search(r"--accent: (#[0-9a-f]{6})", outputs["player-aid.html"].decode()).group(1)
    with pdfplumber.open(io.BytesIO(outputs["player-aid-a4.pdf"])) as pdf:
        chars = pdf.pages[0].chars
        title = max(chars, key=lambda ch: ch["size"])
    assert _rgb(title["non_stroking_color"]) == accent
    assert (accent == "#000000") == bw


class _Keys(dict):
    """A catalogue that knows every key and words each as the key itself, in brackets."""

    def __missing__(self, key):
        return f"[{key}]"

    def __contains__(self, key):
        return True


def test_the_pages_own_words_are_the_catalogues():
    from generator.content.words import Words
    keyed = html_of(words=Words("xx", _Keys()))
    assert '<html lang="xx">' in keyed
    page = Page(keyed)
    footer = page.plain()[page.plain().rindex("[page.footer]"):]
    # the footer and the colophon's line are the catalogue's, and nothing else
    assert footer == "[page.footer] [colophon.edition]"
    unstyled = re.sub(r"<style>.*?</style>", "", keyed, flags=re.S)
    for key, message in WORDS.messages.items():
        if key.startswith("aid.html."):
            # each phrase between its fields (a lone word may be the data's)
            for phrase in re.split(r"\{[^}]*\}", message):
                if " " in phrase.strip():
                    assert phrase not in unstyled, (key, phrase)
    assert "[aid.html.chart.title]" in keyed and "[aid.html.rule] " in keyed and "[aid.title]" in keyed


def test_reproducible(outputs):
    assert html_of().encode() == outputs["player-aid.html"]


def test_data_text_cannot_inject_markup(data_copy):
    hostile = '<script>alert(1)</script> & "x"'
    # a TOML literal string
    edit(data_copy / "nationalities" / "german.toml", 'name = "German"', f"name = '{hostile}'")
    edit(data_copy / "nationalities" / "italian.toml", 'model = "Carcano M91/38"',
         'model = "<b>bold</b> [link](http://example.com) *em*"')
    source = build(data_copy, papers=("a4",))["player-aid.html"].decode()     # the PDF must render it too
    page = Page(source)
    assert "<script" not in source.lower() and "<b>" not in source
    assert not any(t in ("script", "b", "a") for t, _ in page.tags)
    text = page.plain()
    assert "<script>alert(1)" in text       # shown as the text it is (then ellipsised to fit)
    assert "<b>bold</b> [link](http://exa" in text


def test_a_column_and_its_reading_stay_on_one_line():
    """"then 3: 1" never breaks between the column and what it reads, on a phone as in print;
    a table sets its content's width (at most its column), not the page's."""
    html = html_of()
    cells = re.findall(r"<td[^>]*>([^<]*\d:[\s\u00a0]\d[^<]*)</td>", html)
    assert cells and not [c for c in cells if re.search(r"\d: \d", c)], cells
    assert re.search(r"\.table-wrap > table \{ width: auto;", html)
