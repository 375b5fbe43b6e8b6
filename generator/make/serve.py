"""`bailout serve`: a live preview for editing the kit.

One warm process: the imports, fonts and the compiled aid template stay loaded; watchfiles
reports a saved file (debounced), and only what is looked at is made again at once: the HTML
aid, and any PDF a page has open.  Every other output is marked stale and made when it is next
asked for (the edition stamp is in every footer, so every edit changes every file).  Outputs
live in memory, swapped whole under a lock, so no request ever sees a half-made file; --out
also writes each one (to a temporary name, then renamed).  A bad edit keeps the last good
outputs served and shows its one-line problems on every open page and the index; the next
good edit recovers.  Pages reload themselves through server-sent events from this server
(a few lines of script injected into each page; nothing is fetched from elsewhere).
"""

import html
import io
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from generator.content.context import BuildContext
from generator.content.words import LOCALE, Words, load_words
from generator.errors import KitError, one_line
from generator.layout.paper import PAPERS
from generator.make.outputs import Output
from generator.options import BuildOptions

HOST = "127.0.0.1"          # loopback only: a preview is no public server
HTML_AID = "player-aid.html"
EVENTS = "/__events"
INDEX = "__index"           # the index page's name in its event stream
TYPES = {".pdf": "application/pdf", ".html": "text/html; charset=utf-8", ".csv": "text/csv; charset=utf-8"}
# What the watcher waits for: `step` ms of quiet after a change, `debounce` ms at most.
STEP_MS, DEBOUNCE_MS = 15, 400
CHECK_MS = 500      # how often, without events, the files are compared by size and time


@dataclass(frozen=True)
class Sources:
    """What a preview reads: folders and files to watch, and how to make a context from them."""
    watched: tuple[Path, ...]
    make_context: Callable[[], BuildContext]     # loads the data and options afresh; KitError if bad


@dataclass
class _File:
    content: bytes = b""
    generation: int = 0     # bumped each time new bytes are served
    stale: bool = True


@dataclass
class Preview:
    """The served state: the last good outputs, the current problems, and who is watching what."""
    sources: Sources
    out: Path | None = None
    ctx: BuildContext | None = None
    problems: list[str] = field(default_factory=list)
    problems_generation: int = 0
    generation: int = 0         # bumped at each reload: the index's change list may differ
    files: dict[str, _File] = field(default_factory=dict)
    viewers: dict[str, int] = field(default_factory=dict)       # file name: open pages showing it
    changed: threading.Condition = field(default_factory=threading.Condition)
    render_lock: threading.RLock = field(default_factory=threading.RLock)
    words: Words = field(default_factory=load_words)
    first: "BuildContext | None" = None     # the edition the preview started from (the change list)
    first_templates: Path | None = None     # a copy of its templates, as they were (a temporary folder)

    def names(self) -> list[str]:
        """Every file of the current options, in build order."""
        ctx = self.ctx
        if ctx is None:
            return []
        return [o.file_name(PAPERS[p] if o.per_paper else None) for o in _outputs(ctx.options)
                for p in (ctx.options.papers if o.per_paper else [""])]

    def reload(self) -> None:
        """Read the sources again: a new context and every file stale, or the problems shown."""
        with self.render_lock:
            try:
                ctx = self.sources.make_context()
            except KitError as error:
                self._set_problems(list(error.problems))
                return
            self.ctx = ctx
            if self.first is None:
                self.first, self.first_templates = ctx, _copied(ctx.templates)
            with self.changed:
                self.generation += 1
                self.changed.notify_all()
            for name in self.names():
                self.files.setdefault(name, _File()).stale = True
            looked_at = [HTML_AID] + [n for n, count in self.viewers.items() if count and n != HTML_AID]
            if all(self.refresh(name) for name in looked_at if name in self.files):
                self._set_problems([])

    def refresh(self, name: str) -> bool:
        """Make the file again if stale; False (the problems shown, the last good kept) if that fails."""
        if not self.files[name].stale:
            return True         # served at once, even while another file is being made
        with self.render_lock:
            entry = self.files[name]
            if entry.stale and self.ctx is not None:
                try:
                    content = self._render(name)
                except KitError as error:
                    self._set_problems(list(error.problems))
                    return False
                self._store(name, entry, content)
            return True

    def get(self, name: str) -> bytes | None:
        """The file's bytes, made now if stale; the last good bytes when making it fails."""
        if name not in self.files:
            return None
        self.refresh(name)
        return self.files[name].content or None

    def _store(self, name: str, entry: _File, content: bytes) -> None:
        if self.out is not None:
            _write_atomically(self.out, name, content)
        with self.changed:
            entry.content, entry.stale = content, False
            entry.generation += 1
            self.changed.notify_all()

    def _render(self, name: str) -> bytes:
        assert self.ctx is not None
        ctx = self.ctx
        for output in _outputs(ctx.options):
            for key in (ctx.options.papers if output.per_paper else [""]):
                paper = PAPERS[key] if output.per_paper else None
                if output.file_name(paper) != name:
                    continue
                if not output.merges:
                    return bytes(output.renderer()(ctx, paper))
                parts = [(o.title, io.BytesIO(self.get(o.file_name(paper)) or b""))
                         for o in (_part(part) for part in output.merges)]
                return bytes(output.merger()(ctx, paper, parts))
        raise KeyError(name)

    def _set_problems(self, problems: list[str]) -> None:
        with self.changed:
            if problems != self.problems:
                self.problems = problems
                self.problems_generation += 1
                self.changed.notify_all()

    def state(self, name: str) -> str:
        """What a page's event stream reports: it reloads when this changes."""
        entry = self.files.get(name)
        own = self.generation if name == INDEX else entry.generation if entry else 0
        return f"{own}-{self.problems_generation}-{len(self.files)}"

    def watch_states(self, name: str, stop: threading.Event) -> Iterator[str]:
        """The page's state now, then each time it changes, until `stop` is set."""
        last = None
        while not stop.is_set():
            with self.changed:
                now = self.state(name)
                if now == last:
                    self.changed.wait(timeout=1.0)
                    now = self.state(name)
            if now != last:
                last = now
                yield now
            else:
                yield ""        # a keep-alive comment: a closed page shows as a failed write


def _copied(templates: Path) -> Path:
    """The templates as they are now, copied to a temporary folder removed at exit."""
    import atexit
    import shutil
    import tempfile
    temp = Path(tempfile.mkdtemp(prefix="bailout-serve-"))
    atexit.register(shutil.rmtree, temp, ignore_errors=True)
    shutil.copytree(templates, temp / "templates")
    return temp / "templates"


def _outputs(options: BuildOptions) -> list[Output]:
    from generator.make.outputs import selected
    return selected(options.parts, options.profile)


def _part(part: str) -> Output:
    from generator.make.outputs import part_pdf
    return part_pdf(part)


def _write_atomically(out: Path, name: str, content: bytes) -> None:
    out.mkdir(parents=True, exist_ok=True)
    temp = out / f".{name}.serving"
    temp.write_bytes(content)
    os.replace(temp, out / name)


# -- pages -----------------------------------------------------------------------------------------

def live_script(name: str, state: str) -> str:
    """The injected script: reload when the server says `name` (or the problems) changed."""
    return (f'<script>(function(){{var seen={state!r};var es=new EventSource("{EVENTS}?file="+'
            f'encodeURIComponent({name!r}));es.onmessage=function(e){{if(e.data&&e.data!==seen){{'
            f'es.close();location.reload();}}}};}})();</script>')


def problems_box(words: Words, problems: list[str]) -> str:
    if not problems:
        return ""
    items = "".join(f"<li>{html.escape(p)}</li>" for p in problems)
    return (f'<div id="bailout-problems" role="alert" style="position:sticky;top:0;z-index:9;background:#fde;'
            f'color:#600;border:2px solid #a00;padding:.5em 1em;font:14px sans-serif">'
            f'<strong>{html.escape(words("serve.problems"))}</strong><ul>{items}</ul></div>')


def live_page(preview: Preview, name: str, page: bytes) -> bytes:
    """An HTML output with the problems (if any) at the top of its body and the reload script."""
    text = page.decode("utf-8")
    box = problems_box(preview.words, preview.problems)
    at = text.find(">", text.find("<body")) + 1 if "<body" in text else 0
    text = text[:at] + box + text[at:]
    end = text.rfind("</body>")
    script = live_script(name, preview.state(name))
    text = text[:end] + script + text[end:] if end >= 0 else text + script
    return text.encode("utf-8")


def view_page(preview: Preview, name: str) -> bytes:
    """A PDF inside a page that reloads it when it changes (a browser's PDF view cannot reload itself)."""
    entry = preview.files.get(name)
    src = f"/{name}?g={entry.generation if entry else 0}"
    body = (f'<!DOCTYPE html><html lang="{preview.words.lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(name)}'
            f'</title><style>html,body{{margin:0;height:100%}}iframe{{border:0;width:100%;height:100%}}</style>'
            f'</head><body>{problems_box(preview.words, preview.problems)}<iframe src="{html.escape(src)}" '
            f'title="{html.escape(name)}"></iframe>{live_script(name, preview.state(name))}</body></html>')
    return body.encode("utf-8")


def index_page(preview: Preview) -> bytes:
    """Links to every output and the changes since the preview started."""
    w = preview.words
    links = []
    for name in preview.names():
        href = f"/view/{name}" if name.endswith(".pdf") else f"/{name}"
        links.append(f'<li><a href="{html.escape(href)}">{html.escape(name)}</a></li>')
    changes = "".join(f"<li>{html.escape(line)}</li>" for line in change_lines(preview))
    stamp = preview.ctx.stamp_words() if preview.ctx is not None else ""
    body = (f'<!DOCTYPE html><html lang="{w.lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(w("serve.title"))}</title></head><body style="font:16px sans-serif;margin:1em 2em">'
            f'{problems_box(w, preview.problems)}<h1>{html.escape(w("serve.title"))}</h1>'
            f'<p>{html.escape(w("serve.edition", stamp=stamp))}</p>'
            f'<h2>{html.escape(w("serve.outputs"))}</h2><ul>{"".join(links)}</ul>'
            f'<h2>{html.escape(w("serve.changes"))}</h2>'
            f'<ul>{changes or "<li>" + html.escape(w("serve.no_changes")) + "</li>"}</ul>'
            f'{live_script(INDEX, preview.state(INDEX))}</body></html>')
    return body.encode("utf-8")


def change_lines(preview: Preview) -> list[str]:
    """The printed changes from the edition the preview started with to the current one, as
    `bailout diff` and `build --since` find them (content/compare.py), in this edition's words."""
    first, now = preview.first, preview.ctx
    if first is None or now is None or first is now:
        return []
    from generator.content.compare import PrintInputs, printed_changes
    from generator.content.items import show
    before = PrintInputs(first.kit, preview.first_templates or first.templates, first.options.sets)
    after = PrintInputs(now.kit, now.templates, now.options.sets)
    try:
        groups = printed_changes(before, after, now.words)
    except KitError:        # a template that does not render (its problem is shown already): the data's changes
        groups = printed_changes(replace(before, templates=None), replace(after, templates=None), now.words)
    return [f"{rule}: {c.label}: {show(c.kind, c.old, now.words)} → {show(c.kind, c.new, now.words)}"
            for rule, changes in groups for c in changes]


# -- the server ------------------------------------------------------------------------------------

class _Handler(BaseHTTPRequestHandler):
    preview: Preview
    stop: threading.Event
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:     # quiet: the terminal is the editor's
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = url.path
        if path == EVENTS:
            return self._events(parse_qs(url.query).get("file", [""])[0])
        if path in ("/", "/index.html"):
            return self._send(200, TYPES[".html"], index_page(self.preview))
        if path.startswith("/view/") and path[len("/view/"):] in self.preview.files:
            return self._send(200, TYPES[".html"], view_page(self.preview, path[len("/view/"):]))
        name = path.lstrip("/")
        content = self.preview.get(name) if name in self.preview.files else None
        if content is None:
            return self._send(404, "text/plain; charset=utf-8", b"not found\n")
        if name.endswith(".html"):
            content = live_page(self.preview, name, content)
        self._send(200, TYPES.get(Path(name).suffix, "application/octet-stream"), content)

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _events(self, name: str) -> None:
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
    """The HTTP server on 127.0.0.1:port (0: a free one), serving in a background thread."""
    stop = threading.Event()
    handler = type("Handler", (_Handler,), {"preview": preview, "stop": stop})
    server = _Server((HOST, port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="bailout-serve", daemon=True).start()
    return server, stop


def fingerprint(paths: tuple[Path, ...]) -> tuple[tuple[str, int, int], ...]:
    """(path, size, mtime) of every file under `paths`: what a missed event would leave changed."""
    found = []
    for path in paths:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else []
        for file in files:
            try:
                info = file.stat()
            except OSError:
                continue
            found.append((str(file), info.st_size, info.st_mtime_ns))
    return tuple(found)


def watch(preview: Preview, stop: threading.Event, seen: tuple[tuple[str, int, int], ...]) -> None:
    """Reload the preview after each batch of saved files, until `stop` is set or Ctrl-C.

    Between events (every CHECK_MS) the files' sizes and times are compared with `seen`: a save
    made before the watcher started, or one a file system reports no event for, is not lost."""
    import watchfiles
    paths = tuple(p for p in preview.sources.watched if p.exists())
    for changes in watchfiles.watch(*paths, debounce=DEBOUNCE_MS, step=STEP_MS, stop_event=stop,
                                    rust_timeout=CHECK_MS, yield_on_timeout=True, raise_interrupt=True):
        now = fingerprint(paths)
        if changes or now != seen:
            seen = now
            preview.reload()


def serve(sources: Sources, port: int = 0, out: Path | None = None, open_browser: bool = False,
          announce: Callable[[str], None] | None = None) -> None:
    """Run the preview until Ctrl-C: build once, serve, watch, rebuild what is looked at."""
    preview = Preview(sources, out)
    started = time.perf_counter()
    seen = fingerprint(tuple(p for p in sources.watched if p.exists()))
    preview.reload()
    for name in list(preview.files):
        preview.get(name)       # everything once: imports, fonts and the template warm
    server, stop = start_server(preview, port)
    url = f"http://{HOST}:{server.server_address[1]}/"
    line = f"serving {url} (ready in {time.perf_counter() - started:.1f} s; Ctrl-C stops)"
    if announce is not None:
        announce(line)
    else:
        print(line, flush=True)     # the first line a caller waits for: not left in a pipe's buffer
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    try:
        watch(preview, stop, seen)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


def watched_paths(data: Path, templates: Path, project: Path | None) -> tuple[Path, ...]:
    """The data, the templates, the catalogues and the project file."""
    return tuple(p for p in (data, templates, LOCALE, project) if p is not None)
