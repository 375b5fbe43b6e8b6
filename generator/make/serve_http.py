"""`bailout serve`'s pages and its HTTP server, on 127.0.0.1 only.

It answers only requests addressed to itself (Host 127.0.0.1:PORT or localhost:PORT), so a page
elsewhere that has a name resolve to 127.0.0.1 (DNS rebinding) reads nothing.  Each HTML page
carries the kit's Content Security Policy (render/html/safe_html.py) as a header and a meta tag,
with the one reload script injected here allowed by its hash; pages reload themselves through
server-sent events, at most MAX_STREAMS at a time, each for a file the preview serves.
"""

import html
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from generator.content.context import BuildContext
from generator.content.words import Words
from generator.errors import one_line
from generator.layout.paper import PAPERS
from generator.make.preview import INDEX, Preview, change_lines
from generator.render.html.safe_html import HEADER_ONLY, PAGE_POLICY, policy_meta, served_policy

HOST = "127.0.0.1"          # loopback only: a preview is no public server
EVENTS = "/__events"
TYPES = {".pdf": "application/pdf", ".html": "text/html; charset=utf-8", ".csv": "text/csv; charset=utf-8"}
MAX_STREAMS = 32            # open pages reloading themselves at once; more wait for one to close


class Page:
    """An HTML page and the one script in it (its hash goes into the page's policy)."""

    def __init__(self, body: str, script: str) -> None:
        self.script = script
        self.policy = served_policy(script)
        self.body = body.replace(policy_meta(), policy_meta(self.policy), 1).encode("utf-8")


def live_script(name: str, state: str) -> str:
    """The injected script: reload when the server says `name` (or the problems) changed."""
    return (f'(function(){{var seen={state!r};var es=new EventSource("{EVENTS}?file="+'
            f'encodeURIComponent({name!r}));es.onmessage=function(e){{if(e.data&&e.data!==seen){{'
            f'es.close();location.reload();}}}};}})();')


def problems_box(words: Words, problems: list[str]) -> str:
    if not problems:
        return ""
    items = "".join(f"<li>{html.escape(p)}</li>" for p in problems)
    return (f'<div id="bailout-problems" role="alert" style="position:sticky;top:0;z-index:9;background:#fde;'
            f'color:#600;border:2px solid #a00;padding:.5em 1em;font:14px sans-serif">'
            f'<strong>{html.escape(words("serve.problems"))}</strong><ul>{items}</ul></div>')


def live_page(preview: Preview, name: str, page: bytes) -> Page:
    """An HTML output with the problems (if any) at the top of its body and the reload script."""
    text = page.decode("utf-8")
    box = problems_box(preview.words, preview.problems)
    at = text.find(">", text.find("<body")) + 1 if "<body" in text else 0
    text = text[:at] + box + text[at:]
    end = text.rfind("</body>")
    script = live_script(name, preview.state(name))
    tag = f"<script>{script}</script>"
    text = text[:end] + tag + text[end:] if end >= 0 else text + tag
    return Page(text, script)


def _head(words: Words, title: str) -> str:
    return (f'<!DOCTYPE html><html lang="{html.escape(words.tag)}"><head><meta charset="utf-8">{policy_meta()}'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>')


def view_page(preview: Preview, name: str) -> Page:
    """A PDF inside a page that reloads it when it changes (a browser's PDF view cannot reload itself)."""
    entry = preview.files.get(name)
    src = f"/{name}?g={entry.generation if entry else 0}"
    script = live_script(name, preview.state(name))
    body = (f'{_head(preview.words, name)}<style>html,body{{margin:0;height:100%}}iframe{{border:0;width:100%;'
            f'height:100%}}</style></head><body>{problems_box(preview.words, preview.problems)}'
            f'<iframe src="{html.escape(src)}" title="{html.escape(name)}"></iframe><script>{script}</script>'
            f'</body></html>')
    return Page(body, script)


def index_page(preview: Preview) -> Page:
    """Links to every output, each with what it is, and the changes since the preview started:
    the release's index page in look and words (render/html/release_pages.py)."""
    from generator.render.html.release_pages import preview_index
    w, ctx = preview.words, preview.ctx
    script = live_script(INDEX, preview.state(INDEX))
    body = preview_index(w, edition=w("serve.edition", stamp=ctx.stamp_words() if ctx is not None else ""),
                         files=_files(preview, ctx) if ctx is not None else [],
                         changes=change_lines(preview) or [w("serve.no_changes")],
                         problems=problems_box(w, preview.problems), script=script)
    return Page(body, script)


def _files(preview: Preview, ctx: BuildContext) -> list[dict[str, object]]:
    """Each file the index links: its name and link, what it is and, for a PDF, its paper and
    how to print it, in the release's words."""
    from generator.render.html.release_pages import part_words
    w, number = preview.words, ctx.kit.rules.number
    files: list[dict[str, object]] = []
    for name, kind, paper in preview.listed():
        pdf = name.endswith(".pdf")
        what = (part_words(w, kind, number, ctx.options.profile) if pdf
                else {"what": w(f"release.file.{kind}"), "how": ""})
        files.append({"name": name, "href": f"/view/{name}" if pdf else f"/{name}",
                      "paper": PAPERS[paper].label if paper else "", **what})
    return files


# -- the server ------------------------------------------------------------------------------------

class _Handler(BaseHTTPRequestHandler):
    preview: Preview
    stop: threading.Event
    streams: threading.BoundedSemaphore
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:     # quiet: the terminal is the editor's
        pass

    def do_GET(self) -> None:
        port = self.server.server_address[1]     # type: ignore[index]  # (host, port): an AF_INET server
        if self.headers.get("Host", "") not in (f"{HOST}:{port}", f"localhost:{port}"):
            return self._send(421, "text/plain; charset=utf-8", b"this preview answers only 127.0.0.1 and localhost\n")
        url = urlsplit(self.path)
        path = url.path
        if path == EVENTS:
            return self._events(parse_qs(url.query).get("file", [""])[0])
        if path in ("/", "/index.html"):
            return self._page(index_page(self.preview))
        if path.startswith("/view/") and path[len("/view/"):] in self.preview.files:
            return self._page(view_page(self.preview, path[len("/view/"):]))
        name = path.lstrip("/")
        content = self.preview.get(name) if name in self.preview.files else None
        if content is None:
            return self._send(404, "text/plain; charset=utf-8", b"not found\n")
        if name.endswith(".html"):
            return self._page(live_page(self.preview, name, content))
        self._send(200, TYPES.get(Path(name).suffix, "application/octet-stream"), content)

    def _page(self, page: Page) -> None:
        self._send(200, TYPES[".html"], page.body, policy=page.policy + HEADER_ONLY)

    def _send(self, status: int, kind: str, body: bytes, policy: str = PAGE_POLICY + HEADER_ONLY) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if kind.startswith("text/"):
            self.send_header("Content-Security-Policy", policy)
        self.end_headers()
        self.wfile.write(body)

    def _events(self, name: str) -> None:
        preview = self.preview
        if name != INDEX and name not in preview.files:     # only what is served: no name is kept for nothing
            return self._send(404, "text/plain; charset=utf-8", b"not found\n")
        if not self.streams.acquire(blocking=False):
            self.close_connection = True
            return self._send(503, "text/plain; charset=utf-8", b"too many open pages\n")
        try:
            self._stream(name)
        finally:
            self.streams.release()

    def _stream(self, name: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        preview = self.preview
        with preview.changed:
            preview.viewers[name] = preview.viewers.get(name, 0) + 1
        try:
            for state in preview.watch_states(name, self.stop):
                self.wfile.write(f"data: {state}\n\n".encode() if state else b": alive\n\n")
                self.wfile.flush()
        except OSError:
            pass            # the page was closed or reloaded
        finally:
            with preview.changed:
                preview.viewers[name] -= 1
        self.close_connection = True


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A client gone mid-request (a closed tab, a dropped socket) is no traceback on the
        editor's terminal; anything else is one line."""
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            print(f"bailout: serve: a request failed: {one_line(error)}", file=sys.stderr)


def start_server(preview: Preview, port: int) -> tuple[ThreadingHTTPServer, threading.Event]:
    """The HTTP server bound to 127.0.0.1:port (0: a free one), not yet serving (serve_in_background
    starts it): a port in use is an OSError here, before anything is built."""
    stop = threading.Event()
    handler = type("Handler", (_Handler,), {"preview": preview, "stop": stop,
                                            "streams": threading.BoundedSemaphore(MAX_STREAMS)})
    server = _Server((HOST, port), handler)
    server.daemon_threads = True
    return server, stop


def serve_in_background(server: ThreadingHTTPServer) -> None:
    """Serve in a thread of its own; it looks for the stop every tenth of a second (Ctrl-C ends at once)."""
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, name="bailout-serve",
                     daemon=True).start()
