"""Signals that end a command end it as Ctrl-C does, so every temporary folder and staging folder
is removed on the way out.

SIGTERM (a `kill`, a service manager) and SIGHUP (the terminal closed) raise Terminated, a
KeyboardInterrupt, in the main thread: every `finally` and `with` block unwinds as for Ctrl-C.
The command line sets this for the whole of every command; a program that calls the kit's
functions keeps its own handlers (only a signal left to its default action is taken).
"""

import contextlib
import signal
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, NoReturn

# The signals that end a command; a system lacks some (Windows has no SIGHUP).
ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a command: it unwinds like Ctrl-C, and ends with the status a
    process that signal stopped gives (128 + the signal's number)."""

    def __init__(self, message: str = "", status: int = 128 + int(getattr(signal, "SIGTERM", 15))) -> None:
        super().__init__(message)
        self.status = status


def _raise(signum: int, frame: FrameType | None) -> NoReturn:
    raise Terminated(status=128 + signum)


@contextlib.contextmanager
def ended_as_interrupt(command: bool = False) -> Iterator[None]:
    """SIGTERM and SIGHUP raise Terminated for the body, where they would otherwise end the
    process at once (their handler is the default) or, for a `command` of the kit's own process,
    whatever handler they had, unless they are ignored (`nohup` ignores SIGHUP: the command runs
    on).  The handlers before are restored after.  Off the main thread, no handler can be set:
    the body runs as it is."""
    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    for signum in ENDING:
        with contextlib.suppress(ValueError):      # not the main thread
            now = signal.getsignal(signum)
            if now == signal.SIG_DFL or (command and now != signal.SIG_IGN):
                previous[signum] = signal.signal(signum, _raise)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class signals_held:
    """Ctrl-C, SIGTERM and SIGHUP wait for the body (earlier files being put back), so a second
    signal cannot stop it half done.  Where signals cannot be blocked (Windows has no
    pthread_sigmask) the handlers ignore them for that time instead (main thread only)."""

    def __enter__(self) -> None:
        self.mask: set[int | signal.Signals] | None = None
        self.previous: dict[int, Any] = {}
        wanted = [signal.SIGINT, *ENDING]
        if hasattr(signal, "pthread_sigmask"):
            self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, wanted)
            return
        for signum in wanted:
            with contextlib.suppress(ValueError):      # not the main thread
                self.previous[signum] = signal.signal(signum, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        if self.mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
