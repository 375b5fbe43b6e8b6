"""`bailout serve`: a live preview for editing the kit.

One warm process: the imports, fonts and the compiled aid template stay loaded; watchfiles
reports a saved file (debounced), and only what is looked at is made again at once: the HTML
aid, and any PDF a page has open.  Every other output is marked stale and made when it is next
asked for (the edition stamp is in every footer, so every edit changes every file).  What is
served and watched is make/preview.py's; the pages and the server, make/serve_http.py's.  A bad
edit keeps the last good outputs served and shows its one-line problems on every open page and
the index; the next good edit recovers.

The port is taken before anything is built (a port in use is one line); with --out the folder's
lock is held for the whole preview, so no build writes into it meanwhile; SIGTERM and SIGHUP
end it as Ctrl-C does, leaving no temporary copy behind.
"""

import contextlib
import errno
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from generator.content.words import LOCALE
from generator.errors import UsageError
from generator.make.preview import Preview, Sources, change_lines, scan, watch
from generator.make.serve_http import HOST, serve_in_background, start_server
from generator.signals import ended_as_interrupt

__all__ = ["Preview", "Sources", "change_lines", "serve", "watched_paths"]


def serve(sources: Sources, port: int = 0, out: Path | None = None, open_browser: bool = False,
          announce: Callable[[str], None] | None = None) -> None:
    """Run the preview until Ctrl-C (or SIGTERM, SIGHUP): build once, serve, watch, rebuild what
    is looked at."""
    preview = Preview(sources, out)
    started = time.perf_counter()
    try:
        server, stop = start_server(preview, port)
    except OSError as error:
        taken = error.errno == errno.EADDRINUSE
        raise UsageError(f"--port {port}: {'already in use' if taken else error.strerror}; choose another "
                         f"(or leave --port out for a free one)") from None
    serving = False
    try:
        with _out_lock(out), ended_as_interrupt(command=True):
            _, seen = scan(tuple(p for p in sources.watched if p.exists()))
            preview.reload()
            for name in list(preview.files):
                preview.get(name)       # everything once: imports, fonts and the template warm
            serve_in_background(server)
            serving = True
            _announce(server.server_address[1], started, announce, open_browser)
            watch(preview, stop, seen)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        if serving:
            server.shutdown()
        server.server_close()
        preview.close()


def _announce(port: int, started: float, announce: Callable[[str], None] | None, open_browser: bool) -> None:
    url = f"http://{HOST}:{port}/"
    line = f"serving {url} (ready in {time.perf_counter() - started:.1f} s; Ctrl-C stops)"
    if announce is not None:
        announce(line)
    else:
        print(line, flush=True)     # the first line a caller waits for: not left in a pipe's buffer
    if open_browser:
        import webbrowser
        webbrowser.open(url)


@contextlib.contextmanager
def _out_lock(out: Path | None) -> Iterator[None]:
    """The folder lock on --out for the whole preview (made first, if need be), as a build holds it."""
    if out is None:
        yield
        return
    from generator.locking import folder_lock
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--out {out}: cannot create the folder ({error.strerror})") from None
    with folder_lock(out):
        yield


def watched_paths(data: Path, templates: Path, project: Path | None) -> tuple[Path, ...]:
    """The data, the templates, the catalogues and the project file."""
    return tuple(p for p in (data, templates, LOCALE, project) if p is not None)


def check_out_not_watched(out: Path, watched: tuple[Path, ...]) -> None:
    """--out inside a folder serve watches would have every write start another rebuild."""
    where = out.resolve()
    for path in watched:
        if path.is_dir() and where.is_relative_to(path.resolve()):
            raise UsageError(f"--out {out}: inside {path}, which serve watches (each write would rebuild "
                             f"the kit again); choose a folder outside it")
