"""Hostile round 4: catalogue format fields, --lang with --since, serve tracebacks."""

import io
import subprocess
import sys
from contextlib import redirect_stderr

import pytest

from generator.content.words import Words
from generator.errors import DataError


@pytest.mark.parametrize("text", ["Bogen {n.__class__}", "Bogen {n!r}", "Bogen {0}", "Bogen {x}", "Bogen {n",
                                  "Bogen {n:>999999999}", "Bogen {n:{n}}", "Bogen {n[0]}", "Bogen {}"])
def test_a_hostile_catalogue_field_is_one_line_naming_file_and_key(text: str) -> None:
    words = Words("de", {"counters.outline.front": text})
    with pytest.raises(DataError) as caught:
        words("counters.outline.front", n=1)
    assert "de.po: counters.outline.front" in str(caught.value)


def test_the_catalogues_own_format_specs_still_work() -> None:
    words = Words("de", {"k": "{size:,.1f} mm, {n}"})
    assert words("k", size=1234.56, n=3) == "1,234.6 mm, 3"


@pytest.mark.parametrize("since", ["data", "git:HEAD"])
def test_a_translated_build_since_a_base_works(tmp_path, since: str) -> None:
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--lang", "de", "--since", since,
                           "--out", str(tmp_path), "--only", "aid", "--paper", "a4", "--quiet"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_client_gone_mid_request_prints_no_traceback() -> None:

    from generator.make.serve import _Handler, _Server
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
