"""`bailout serve` (issue 20): a real process on a free port, edited as an editor would."""

import html

import pytest

from conftest import DATA
from generator.content.words import load_words
from serving import Served, wait_for

WORDS = load_words()


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "kit")
    yield s
    if s.process.poll() is None:
        s.stop()


def test_serve_rebuilds_keeps_the_last_good_and_recovers(served, tmp_path):
    status, page = served.get("/player-aid.html")
    assert status == 200 and b"Tom Cundiff" in page and b"EventSource" in page
    index = served.get("/")[1].decode()
    assert all(f'"{href}"' in index for href in ("/player-aid.html", "/view/player-aid-a4.pdf", "/view/kit-a4.pdf"))
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
    status, err = served.stop()
    assert status == 0 and "Traceback" not in err, err
    assert sorted(p.name for p in served.folder.iterdir()) == ["data", "templates"]     # nothing written
