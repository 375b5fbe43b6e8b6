"""player-aid.html and the release's index.html in a real browser (headless Chromium via Selenium),
opened from the unpacked zip at phone and desktop width: no horizontal page scroll, no console
error, no broken image or link, and no serious or critical axe-core violation.

Where Chromium, chromedriver, selenium or axe-core is missing the tests skip with the reason;
with CI=true they fail instead, so CI can never pass without running them.  .ci/run installs
Debian's chromium and chromium-driver and puts axe-core (npm) under .cache/npm.
"""

import os
import shutil
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import ROOT, SLOW, browser_unavailable

WIDTHS = (360, 1280)
HEIGHT = 900
PAGES = ("player-aid.html", "index.html")
BLOCKING = ("serious", "critical")


def axe_source():
    """axe.min.js: $AXE_CORE_JS, the npm copy .ci/run installs, or one a PyPI package bundles."""
    candidates = [os.environ.get("AXE_CORE_JS", ""),
                  ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"]
    try:
        import axe_selenium_python
        candidates.append(Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js")
    except ImportError:
        pass
    for path in candidates:
        if path and Path(path).is_file():
            return Path(path).read_text()
    browser_unavailable("axe-core not found: run `npm install --prefix .cache/npm axe-core` or set AXE_CORE_JS")


@pytest.fixture(scope="module")
def browser(chromium_driver):
    """The run's Chromium (conftest's, test_serve.py's too), its console log kept."""
    return chromium_driver


@pytest.fixture(scope="module")
def site(release_zip, tmp_path_factory):
    """The release unpacked, as a player would: {'folder': Path, 'files': set of names}."""
    name, content = release_zip
    target = tmp_path_factory.mktemp("release")
    path = target / name
    path.write_bytes(content)
    with zipfile.ZipFile(path) as archive:
        archive.extractall(target)
    folder = target / name[:-len(".zip")]
    return folder


@pytest.fixture(scope="module")
def visits(browser, site, tmp_path_factory):
    """Open each page at each width once; gather everything the tests look at."""
    axe = axe_source()
    shots = tmp_path_factory.mktemp("screenshots")
    keep = os.environ.get("BAILOUT_SCREENSHOTS")        # a folder to copy the screenshots to, to look at
    results = {}
    for page in PAGES:
        for width in WIDTHS:
            browser.set_window_size(width, HEIGHT)
            browser.get_log("browser")      # drop what earlier pages logged
            browser.get((site / page).as_uri())
            # Every image settled (loaded or failed) before it is judged: a busy machine may still
            # be decoding when the load event has fired for the page.
            browser.execute_async_script("""
                const done = arguments[arguments.length - 1];
                Promise.all([...document.images].map(i => i.complete ? null :
                    new Promise(r => { i.addEventListener('load', r); i.addEventListener('error', r); })))
                    .then(() => done());""")
            facts = browser.execute_script("""
                const d = document.documentElement;
                return {scroll: d.scrollWidth, client: d.clientWidth, height: d.scrollHeight,
                        images: [...document.images].map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]),
                        links: [...document.querySelectorAll('a[href]')].map(a => [a.getAttribute('href'), a.href]),
                        ids: [...document.querySelectorAll('[id]')].map(e => e.id)};""")
            browser.execute_script(axe)
            violations = browser.execute_async_script("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {resultTypes: ['violations']})
                   .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                                           nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))))
                   .catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));""")
            facts["axe"] = violations
            facts["log"] = browser.get_log("browser")
            # The whole page in one picture, for a person to look at (BAILOUT_SCREENSHOTS) and
            # where CI runs (BAILOUT_SLOW_TESTS=1): the window grown to the page's height for the
            # shot, seconds a page; else what the window shows.
            if keep or SLOW:
                browser.set_window_size(width, min(facts["height"] + 150, 12000))
            shot = shots / f"{page[:-5]}-{width}.png"
            browser.save_screenshot(str(shot))
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(keep) / shot.name)
            facts["shot"] = shot
            results[page, width] = facts
    return results


CASES = [(page, width) for page in PAGES for width in WIDTHS]


@pytest.mark.parametrize("page,width", CASES)
def test_no_horizontal_page_scroll(visits, page, width):
    facts = visits[page, width]
    assert facts["scroll"] <= facts["client"], \
        f"{page} at {width}px scrolls sideways: {facts['scroll']} > {facts['client']}"


@pytest.mark.parametrize("page,width", CASES)
def test_no_console_errors(visits, page, width):
    errors = [entry for entry in visits[page, width]["log"] if entry["level"] in ("SEVERE", "ERROR")]
    assert not errors, errors


@pytest.mark.parametrize("page,width", CASES)
def test_images_load_and_links_resolve(visits, site, page, width):
    facts = visits[page, width]
    for src, complete, natural in facts["images"]:
        assert complete and natural > 0, f"broken image {src} on {page}"
    for href, absolute in facts["links"]:
        url = urlparse(absolute)
        assert url.scheme == "file", f"{page} links outside the zip: {href}"
        target = Path(unquote(url.path))
        assert target.is_file() and site in target.parents, f"{page}: {href} is not a file in the zip"
        if url.fragment:
            assert target.name == page and url.fragment in facts["ids"], f"{page}: {href} points nowhere"
    if page == "index.html":
        linked = {Path(unquote(urlparse(a).path)).relative_to(site).as_posix() for _, a in facts["links"]}
        every = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()} - {"index.html"}
        assert linked == every
        assert facts["images"], "the index shows thumbnails and faces"


@pytest.mark.parametrize("page,width", CASES)
def test_axe_finds_nothing_serious(visits, page, width):
    bad = [v for v in visits[page, width]["axe"] if v["impact"] in BLOCKING]
    assert not bad, bad


def test_screenshots_taken(visits):
    for facts in visits.values():
        assert facts["shot"].stat().st_size > 10_000


def test_a_hostile_aid_runs_nothing_and_keeps_its_own_style(browser, templates, tmp_path):
    """Raw HTML with script in the template, opened as a player would: no script runs (the page's
    Content Security Policy and its escaping both hold), and the page's own style applies."""
    from generator.options import BuildOptions
    from test_html_safety import HOSTILE, _web_aid
    aid = templates / "aid.md.j2"
    aid.write_text("\n\n".join(HOSTILE) + "\n\n" + aid.read_text(encoding="utf-8"), encoding="utf-8")
    page = _web_aid(BuildOptions(), templates)
    (tmp_path / "player-aid.html").write_bytes(page)
    browser.set_window_size(1280, HEIGHT)
    browser.get((tmp_path / "player-aid.html").as_uri())
    title, width, shown = browser.execute_script(
        "return [document.title, getComputedStyle(document.querySelector('main')).maxWidth,"
        " document.body.innerText]")
    assert title != "ran" and "<script>document.title = 'ran'</script>" in shown
    assert width not in ("none", "")        # aid.css: main's max-width
