"""The web pages run nothing: raw HTML in a data folder's template or in an aid.po message shows in
player-aid.html as the text it is (as the PDF prints it), never as markup, and every page carries
a Content Security Policy that forbids script while the page's own style still applies."""

import io
import zipfile
from html.parser import HTMLParser

from conftest import ROOT
from generator.options import BuildOptions
from generator.render.html.safe_html import PAGE_POLICY

HOSTILE = [
    "<script>document.title = 'ran'</script>",
    'Text <img src=x onerror="document.title = \'ran\'"> and <b onmouseover="x()">bold</b>',
    '<div class="keep" onclick="evil()" markdown="1">\ninside *it*\n</div>',
    '<iframe src="https://example.com/" markdown="1">framed</iframe>',
    '<details markdown="1" open ontoggle="x()">\nshown\n</details>',
    "[a link](javascript:alert(1)) and [another](java\tscript:alert(2))",
    '<svg><script>x()</script></svg> <style>body{display:none}</style>',
]


class _Page(HTMLParser):
    """Every element and attribute of a page, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parsed(page: bytes) -> _Page:
    parser = _Page()
    parser.feed(page.decode("utf-8"))
    return parser


def _inert(page: bytes) -> _Page:
    """The page parsed, holding no script, frame, handler, style of its own making or script link."""
    parsed = _parsed(page)
    styles = [tag for tag, _ in parsed.tags if tag == "style"]
    assert len(styles) == 1         # the page's own
    for tag, attrs in parsed.tags:
        assert tag not in ("script", "iframe", "object", "embed", "details"), (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        assert "script:" not in "".join((attrs.get("href") or "").split()).lower(), (tag, attrs)
    assert _policies(parsed) == [PAGE_POLICY]
    return parsed


def _policies(page: _Page) -> list[str | None]:
    return [a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]


def _web_aid(options, templates=None):
    """player-aid.html as a build of `options` makes it (the templates', else the kit's own)."""
    from generator.data import load
    from generator.make.outputs import named
    from generator.make.pipeline import context
    from generator.make.products import Products
    return Products(context(load(ROOT / "data"), options, templates)).get(named("player-aid.html").product)


def test_raw_html_in_the_template_is_shown_as_text(templates, tmp_path):
    text = (ROOT / "templates" / "aid.md.j2").read_text(encoding="utf-8")
    (templates / "aid.md.j2").write_text("\n\n".join(HOSTILE) + "\n\n" + text, encoding="utf-8")
    page = _inert(_web_aid(BuildOptions(), templates))      # the PDF would not fit it
    shown = "".join(page.text)
    for piece in ("<script>document.title = 'ran'</script>", "<img src=x onerror=",
                  "<style>body{display:none}</style>"):
        assert piece in shown, piece
    assert "inside" in shown and "framed" in shown


def test_raw_html_in_an_aid_catalogue_is_shown_as_text(locale, tmp_path):
    po = locale / "de" / "aid.po"
    translated = 'msgstr "Jeder Überlebende hat eine Pistole."'
    hostile = 'msgstr "Jeder <script>document.title = 1</script> hat <img src=x onerror=\\"alert(1)\\">."'
    po.write_text(po.read_text(encoding="utf-8").replace(translated, hostile), encoding="utf-8")
    page = _inert(_web_aid(BuildOptions(lang="de")))
    assert "Jeder <script>document.title = 1</script> hat <img src=x onerror=" in "".join(page.text)


def test_the_kit_s_pages_carry_the_policy(kit_files, release_zip, two_editions):
    _inert(kit_files["player-aid.html"])
    name, content = release_zip
    folder = name[:-len(".zip")]
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        index = archive.read(f"{folder}/index.html")
    with zipfile.ZipFile(two_editions) as archive:
        top = archive.read(f"{two_editions.stem}/index.html")
    for page in (index, top):
        assert _policies(_parsed(page)) == [PAGE_POLICY]


def test_the_policy_forbids_script_and_allows_only_the_page_s_own_style_and_images():
    rules = dict(part.strip().split(" ", 1) for part in PAGE_POLICY.split(";"))
    assert rules["default-src"] == "'none'" and "script-src" not in rules
    assert rules["style-src"] == "'unsafe-inline'" and rules["img-src"] == "'self' data:"
    assert rules["font-src"] == "data:"        # the web aid's own type, in the page; nothing fetched
