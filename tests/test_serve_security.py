"""`bailout serve` on a machine other people and other pages share: it answers only requests
addressed to itself, bounds its event streams, carries the pages' Content Security Policy,
writes --out as a build does (staged, never through a planted link, under the folder's lock,
MANIFEST.txt true), refuses an --out it watches, takes its port before it builds, watches no
link out of the data folder, ends on SIGTERM and SIGHUP leaving nothing behind, and gives way to
the save that fixes a template that never ends."""

import base64
import hashlib
import http.client
import os
import re
import shutil
import signal
import socket
import sys
import time

import pytest
from msgspec.structs import replace

from conftest import DATA, ROOT, one_line, run_cli
from generator.content import template_sandbox
from generator.data import load
from generator.make.pipeline import context
from generator.make.preview import Preview, Sources, scan
from generator.make.serve_http import MAX_STREAMS, start_server
from generator.make.serve_http import serve_in_background as serving
from generator.options import BuildOptions
from generator.render.html.safe_html import PAGE_POLICY
from serving import wait_for

ONE = BuildOptions(papers=("a4",), parts=("aid",))


def _preview(templates, out=None):
    kit = load(DATA)
    preview = Preview(Sources((), lambda: context(kit, ONE, templates)), out)
    preview.reload()
    return preview


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A preview of the aid on a free port, shared by the tests that only ask it things."""
    templates = tmp_path_factory.mktemp("served") / "templates"
    shutil.copytree(ROOT / "templates", templates)
    preview = _preview(templates)
    http_server, stop = start_server(preview, 0)
    serving(http_server)
    yield preview, http_server.server_address[1]
    stop.set()
    http_server.shutdown()
    http_server.server_close()
    preview.close()


def _get(port, path, host=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.putrequest("GET", path, skip_host=True)
    if host is not None:
        connection.putheader("Host", host)
    connection.endheaders()
    response = connection.getresponse()
    return response, connection


def test_only_requests_addressed_to_the_preview_are_answered(server):
    _, port = server
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"127.0.0.2:{port}", None):
        response, connection = _get(port, "/player-aid.html", host)
        assert response.status == 421 and b"Bail" not in response.read(), host
        connection.close()
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        response, connection = _get(port, "/player-aid.html", host)
        assert response.status == 200 and b"Bail" in response.read(), host
        connection.close()


def test_each_page_s_policy_allows_its_own_script_alone(server):
    _, port = server
    for path in ("/player-aid.html", "/", "/view/player-aid-a4.pdf"):
        response, connection = _get(port, path, f"127.0.0.1:{port}")
        page = response.read().decode()
        connection.close()
        header = response.getheader("Content-Security-Policy")
        [script] = re.findall(r"<script>(.*?)</script>", page, re.S)
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert header.startswith(PAGE_POLICY) and f"script-src 'sha256-{digest}'" in header, path
        [meta] = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
        assert header.startswith(meta.replace("&quot;", '"')), path


def test_event_streams_are_bounded_and_keep_no_unknown_name(server):
    preview, port = server
    for n in range(20):
        response, connection = _get(port, f"/__events?file=name-{n}", f"127.0.0.1:{port}")
        assert response.status == 404
        connection.close()
    assert not any(name.startswith("name-") for name in preview.viewers)
    open_ = []
    for _ in range(MAX_STREAMS):
        response, connection = _get(port, "/__events?file=player-aid.html", f"127.0.0.1:{port}")
        assert response.status == 200
        open_.append(connection)
    response, connection = _get(port, "/__events?file=player-aid.html", f"127.0.0.1:{port}")
    assert response.status == 503
    connection.close()
    for connection in open_:
        connection.close()


def test_out_is_written_as_a_build_writes_never_through_a_planted_link(templates, tmp_path):
    out, victim = tmp_path / "shared", tmp_path / "someone-elses.txt"
    out.mkdir()
    victim.write_text("theirs")
    for planted in (".player-aid.html.serving", "player-aid.html", ".bailout-staging-planted"):
        (out / planted).symlink_to(victim)
    kit, saves = load(DATA), iter(range(100))
    preview = Preview(Sources((), lambda: context(kit, replace(ONE, label=f"save {next(saves)}"), templates)), out)
    try:
        preview.reload()
        for name in list(preview.files):
            preview.get(name)
        assert victim.read_text() == "theirs"
        # the planted links stay (a staging folder of someone else's is never read, nor removed)
        kept = sorted([".bailout-staging-planted", ".player-aid.html.serving", "MANIFEST.txt", *preview.files])
        assert sorted(p.name for p in out.iterdir()) == kept
        for name in preview.files:
            assert not (out / name).is_symlink()
            assert _listed(out, name) == hashlib.sha256((out / name).read_bytes()).hexdigest(), name
        preview.reload()        # a save: the HTML aid made again at once, the PDF when next asked for
        assert _listed(out, "player-aid.html") == hashlib.sha256((out / "player-aid.html").read_bytes()).hexdigest()
        listing = (out / "MANIFEST.txt").read_text()
        assert "Not made by this build" in listing and "save 1" in listing and _listed(out, "player-aid-a4.pdf") is None
    finally:
        preview.close()


def _listed(out, name):
    """The SHA-256 MANIFEST.txt gives `name`, or None when it lists it as not made."""
    for line in (out / "MANIFEST.txt").read_text().splitlines():
        if line.startswith(name + " "):
            return line.split()[-1]
    return None


def test_a_build_into_the_folder_serve_writes_is_refused(tmp_path):
    """Serve holds --out's lock while it runs; a port in use is one line, before anything is built."""
    out = tmp_path / "out"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        status, _, err = run_cli("serve", "--port", port, "--out", out)
        one_line(status, err, f"--port {port}", "in use")
        assert time.monotonic() - started < 2 and not out.exists()
    from generator.make.serve import _out_lock
    with _out_lock(out):
        status, _, err = run_cli("build", "--only", "aid", "--paper", "a4", "--out", out)
    one_line(status, err, str(out), "another build is writing")


@pytest.mark.parametrize("where", ["data/out", "templates/out", "locale"])
def test_an_out_serve_watches_is_refused(where, tmp_path):
    import generator.content.words as words_mod
    project = tmp_path / "kit"
    shutil.copytree(DATA, project / "data")
    shutil.copytree(ROOT / "templates", project / "templates")
    out = words_mod.LOCALE / "out" if where == "locale" else project / where
    status, _, err = run_cli("serve", "--data", project / "data", "--out", out)
    one_line(status, err, f"--out {out}", "serve watches")
    assert not out.exists()


@pytest.mark.parametrize("command", ["build", "release"])
@pytest.mark.parametrize("where", ["data", "templates", "/", "~"])
def test_an_out_that_is_another_folder_is_refused(command, where, tmp_path, monkeypatch):
    project = tmp_path / "kit"
    shutil.copytree(DATA, project / "data")
    shutil.copytree(ROOT / "templates", project / "templates")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    out = {"data": project / "data", "templates": project / "templates", "/": "/", "~": tmp_path / "home"}[where]
    before = sorted(os.listdir(out))
    status, _, err = run_cli(command, "--data", project / "data", "--out", out)
    one_line(status, err, f"--out {out}", "a folder of its own")
    assert sorted(os.listdir(out)) == before


def test_the_watcher_follows_no_link_out_of_the_data_folder(tmp_path):
    data, outside = tmp_path / "data", tmp_path / "outside"
    shutil.copytree(DATA, data)
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "big.toml").write_text("x = 1\n")
    (data / "elsewhere").symlink_to(outside)
    (data / "a-file.toml").symlink_to(outside / "deep" / "big.toml")
    places, found = scan((data,))
    assert str(data / "nationalities") in places and not any("elsewhere" in p or "outside" in p for p in places)
    seen = [name for name, _, _ in found]
    assert str(data / "rules.toml") in seen and not any("big.toml" in n or "a-file" in n for n in seen)


def test_a_template_that_never_ends_gives_way_to_the_save_that_fixes_it(templates, monkeypatch):
    monkeypatch.setattr(template_sandbox, "TIME_LIMIT", 0.3)
    preview = _preview(templates)
    good = preview.get("player-aid.html")
    aid = templates / "aid.md.j2"
    text = aid.read_text(encoding="utf-8")
    aid.write_text("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n" + text,
                   encoding="utf-8")
    started = time.monotonic()
    preview.reload()                # what the watcher does on the save: it ends, the lock is let go
    assert time.monotonic() - started < 5
    assert len(preview.problems) == 1 and str(aid) in preview.problems[0]
    assert preview.get("player-aid.html") == good           # the last good aid, still served
    assert preview.render_lock.acquire(timeout=1)
    preview.render_lock.release()
    aid.write_text(text.replace("Every man who gets out", "Every man who bails out"), encoding="utf-8")
    preview.reload()
    assert preview.problems == [] and b"Every man who bails out" in preview.get("player-aid.html")
    preview.close()


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this system")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_end_serve_leaving_no_temporary_copy(name, tmp_path, monkeypatch):
    import tempfile
    import threading
    signum = getattr(signal, name)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def left_to_the_test(*_):
        raise AssertionError(f"serve did not take {name}")

    def stop_once_serving():
        wait_for(lambda: "serving http" in getattr(sys.stdout, "getvalue", str)())     # run_cli's stdout
        os.kill(os.getpid(), signum)
    previous = signal.signal(signum, left_to_the_test)
    threading.Thread(target=stop_once_serving, daemon=True).start()
    try:
        status, out, err = run_cli("serve", "--only", "aid", "--paper", "a4")
    finally:
        signal.signal(signum, previous)
    assert status == 0 and "serving http" in out and "Traceback" not in err, err
    assert not list(tmp_path.glob("bailout-serve-*"))
