"""`bailout serve`: a real process on a free port, edited as an editor would."""

import html
import io
import re
import zipfile
from contextlib import redirect_stderr

import pytest

from conftest import SLOW
from generator.content.words import load_words
from serving import Served, wait_for

WORDS = load_words()


@pytest.fixture
def served(tmp_path):
    """`bailout serve` of every part under BAILOUT_SLOW_TESTS=1; README's command serves the printed
    parts and the kit they make (the digital tables, made once at the start, are four fifths of a
    build's time, and this test reads none of them: test_tts.py and test_vassal.py read the build's)."""
    s = Served(tmp_path / "kit", *(() if SLOW else ("--only", "aid,prerolled,counters")))
    yield s
    if s.process.poll() is None:
        s.stop()


@pytest.fixture
def served_aid(tmp_path):
    """`bailout serve --only aid`: each save makes the aid alone, what a test of the open aid and
    its PDF reads (test_serve_rebuilds_keeps_the_last_good_and_recovers serves more)."""
    s = Served(tmp_path / "kit", "--only", "aid")
    yield s
    if s.process.poll() is None:
        s.stop()


def _style(page):
    return re.search(r"<style>(.*?)</style>", page, re.S)[1]


def test_serve_rebuilds_keeps_the_last_good_and_recovers(served, tmp_path, release_zip):
    status, page = served.get("/player-aid.html")
    assert status == 200 and b"Tom Cundiff" in page and b"EventSource" in page
    index = served.get("/")[1].decode()
    assert all(f'"{href}"' in index for href in ("/player-aid.html", "/view/player-aid-a4.pdf", "/view/kit-a4.pdf"))
    # styled as the release's index, each file said as it says it
    archive = zipfile.ZipFile(io.BytesIO(release_zip[1]))
    release = archive.read(next(n for n in archive.namelist() if n.endswith("/index.html"))).decode()
    assert _style(index) == _style(release) and '<ul class="files">' in index
    assert html.escape(WORDS("release.file.csv")) in index and html.escape(WORDS("release.file.csv")) in release
    served.set_credit("An Editor")
    wait_for(lambda: b"An Editor" in served.get("/player-aid.html")[1])
    assert "An Editor" in served.get("/")[1].decode()          # the change list names the edit
    good_pdf = served.get("/player-aid-a4.pdf")
    assert good_pdf[0] == 200 and good_pdf[1].startswith(b"%PDF")
    served.break_data()
    problem = "data/rules.toml: variant.credit: expected a string, got an integer"
    wait_for(lambda: problem in html.unescape(served.get("/")[1].decode()))
    assert problem in html.unescape(served.get("/player-aid.html")[1].decode())
    assert b"An Editor" in served.get("/player-aid.html")[1]      # the last good aid, still served
    assert served.get("/player-aid-a4.pdf") == good_pdf
    served.set_credit("Fixed Again")
    wait_for(lambda: b"Fixed Again" in served.get("/player-aid.html")[1])
    assert problem not in html.unescape(served.get("/").__getitem__(1).decode())
    assert served.get("/nothing.pdf")[0] == 404
    old, new = "Every man who gets out has a pistol.", "Every man who bails out has a pistol."
    template = served.folder / "templates" / "aid.md.j2"
    template.write_text(template.read_text().replace(old, new))
    wait_for(lambda: new.encode() in served.get("/player-aid.html")[1])
    index = html.unescape(served.get("/")[1].decode())
    assert f"{old} → {new}" in index                 # the change list names the template sentence
    status, err = served.stop()
    assert status == 0 and "Traceback" not in err, err
    assert sorted(p.name for p in served.folder.iterdir()) == ["data", "templates"]     # nothing written


@pytest.fixture
def browser(chromium_driver):
    """The run's Chromium (conftest's, test_browser.py's too), left on a blank page: the served
    page, its server gone, would try again and again to reach it."""
    chromium_driver.set_page_load_timeout(30)
    yield chromium_driver
    chromium_driver.get("about:blank")


# Edits in a row the open page follows: README's command makes two (the page reloads, and its
# reloaded self follows the next), BAILOUT_SLOW_TESTS=1 five.
EDITS = 5 if SLOW else 2


def test_open_page_follows_edits_a_broken_one_and_the_fix(browser, served_aid):
    from serving import has_problems, shown
    served = served_aid
    browser.get(served.url + "player-aid.html")
    assert shown(browser, "Tom Cundiff")
    for n in range(1, EDITS + 1):
        served.set_credit(f"Editor number {n}")
        wait_for(lambda n=n: shown(browser, f"Editor number {n}"))      # no refresh: the page reloads itself
    pdf = served.get("/player-aid-a4.pdf")
    served.break_data()
    wait_for(lambda: has_problems(browser))
    assert shown(browser, "variant.credit") and shown(browser, f"Editor number {EDITS}")
    assert served.get("/player-aid-a4.pdf") == pdf and pdf[1].startswith(b"%PDF")
    served.set_credit("Fixed")
    wait_for(lambda: shown(browser, "Fixed") and not has_problems(browser))
    browser.get(served.url + "view/player-aid-a4.pdf")       # a PDF in the page that reloads it
    src = browser.execute_script("return document.querySelector('iframe').src")
    served.set_credit("Fixed twice")
    frame = "var f=document.querySelector('iframe');return f&&f.src"
    wait_for(lambda: browser.execute_script(frame) not in (src, None))


def test_a_client_gone_mid_request_prints_no_traceback() -> None:
    from generator.make.serve_http import _Handler, _Server
    server = _Server(("127.0.0.1", 0), _Handler)
    port = server.server_address[1]
    err = io.StringIO()
    with redirect_stderr(err):
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            server.handle_error(None, ("127.0.0.1", port))
    server.server_close()
    assert err.getvalue() == ""
