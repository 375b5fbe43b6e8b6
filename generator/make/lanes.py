"""Run a build's independent pieces of work side by side, one forked process each.

A build's outputs split by paper (every A4 file, and the kit merged from them, needs nothing
of the Letter ones), and a release's editions split by language: each such lane runs in a
child forked after the imports and the shared work (odds, the deck, the aid's text, the
pre-rolled rows) are done, so the children share them without copying.  The parent runs the
first lane itself.  Results come back pickled through a pipe; a problem in a child (a
KitError) comes back and is raised in the parent, as if the work had run there.  If the parent
is interrupted (Ctrl-C, SIGTERM) it kills the children before unwinding, so nothing writes
into a staging folder that is being rolled back.

A lane may wait for a piece of the first lane's work (the kit merges the aid the parent
renders): the first lane posts each name on a Board as it finishes it, and a lane beside it
waits for a name there (a pipe from the parent to each child).

Where there is no fork (Windows), one core, other threads in the process (forking them is
unsafe: a test runner's, say), or BAILOUT_JOBS=1, the lanes run one after the other: the same
results, the same bytes (the first lane then finishes before another starts: no wait).
"""

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
JOBS = "BAILOUT_JOBS"       # the most processes a build runs at once (default: the usable cores)


def jobs() -> int:
    """How many lanes may run at once here."""
    given = os.environ.get(JOBS, "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


_IN_A_LANE = False          # set in a forked lane: its own work runs one by one (no lanes in lanes)


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1 and not _IN_A_LANE


class Board:
    """The names the first lane has finished, for the lanes beside it to wait on."""

    def __init__(self) -> None:
        self._posted: set[str] = set()
        self._pipes: list[tuple[int, int]] = []     # (read, write) per child, while forking
        self._writes: list[int] = []                # in the parent: a write end per child
        self._reading: int | None = None            # in a child: its own pipe's read end
        self._pending = b""

    def post(self, name: str) -> None:
        """The first lane has finished `name` (called in the parent)."""
        self._posted.add(name)
        line = name.encode("utf-8") + b"\n"
        for write in self._writes:
            try:
                os.write(write, line)       # a short line: one write, never split
            except BrokenPipeError:         # that child has ended: its result says how
                pass

    def wait(self, name: str) -> None:
        """Return once the first lane has posted `name`; at once when it ran before this lane."""
        while name not in self._posted and self._reading is not None:
            chunk = os.read(self._reading, 4096)
            if not chunk:
                raise RuntimeError(f"the build's first process ended before it made {name}")
            *lines, self._pending = (self._pending + chunk).split(b"\n")
            self._posted.update(line.decode("utf-8") for line in lines)

    def _open(self, children: int) -> None:
        self._pipes = [os.pipe() for _ in range(children)]

    def _in_child(self, index: int) -> None:
        """In the child forked `index`th: keep only its own pipe's read end."""
        for i, (read, write) in enumerate(self._pipes):
            os.close(write)
            if i != index:
                os.close(read)
        self._reading = self._pipes[index][0]
        self._pipes, self._writes = [], []

    def _forked(self) -> None:
        """In the parent, every child forked (or a fork failed): keep the write ends only."""
        for read, write in self._pipes:
            os.close(read)
            self._writes.append(write)
        self._pipes = []

    def _done(self) -> None:
        """The first lane has ended: a child still waiting hears the end, not silence."""
        for write in self._writes:
            os.close(write)
        self._writes = []


def run_lanes(lanes: Sequence[Callable[[], T]], board: Board | None = None) -> list[T]:
    """Each lane's result, in order; as many at once as jobs() allows.  A lane may wait on
    `board` for what the first lane posts there."""
    width = min(jobs(), len(lanes))
    if width < 2 or not can_fork():
        return [lane() for lane in lanes]
    results: list[T] = []
    for start in range(0, len(lanes), width):
        results += _side_by_side(lanes[start:start + width], board if start == 0 else None)
    return results


def _side_by_side(lanes: Sequence[Callable[[], T]], board: Board | None) -> list[T]:
    board = board if board is not None else Board()
    board._open(len(lanes) - 1)
    children: list[tuple[int, int]] = []
    try:
        children += [_fork(lane, board, i) for i, lane in enumerate(lanes[1:])]
        board._forked()
        try:
            first = lanes[0]()
        finally:
            board._done()
        rest: list[T] = [_collect(pid, fd) for pid, fd in children]
    except BaseException:
        board._forked()         # a fork that failed leaves pipes open
        board._done()
        for pid, fd in children:
            _stop(pid, fd)
        raise
    return [first, *rest]


def _fork(lane: Callable[[], T], board: Board | None = None, index: int = 0) -> tuple[int, int]:
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:            # the child: do the lane, send its result or its problem, leave at once
        global _IN_A_LANE
        _IN_A_LANE = True
        os.close(read)
        status = 0
        try:        # everything the child does is inside: no way out of it but os._exit below
            if board is not None:
                board._in_child(index)
            payload = pickle.dumps((True, lane()))
        except BaseException as problem:        # noqa: BLE001 - every way out goes back to the parent
            status = 1
            try:
                payload = pickle.dumps((False, problem))
            except Exception:
                payload = pickle.dumps((False, RuntimeError(f"{type(problem).__name__}: {problem}")))
        try:
            with os.fdopen(write, "wb") as pipe:
                pipe.write(payload)
            sys.stderr.flush()
        finally:
            os._exit(status)        # no atexit handlers, no second flush of the parent's buffers
    os.close(write)
    return pid, read


def _collect(pid: int, fd: int) -> Any:
    with os.fdopen(fd, "rb") as pipe:
        payload = pipe.read()
    os.waitpid(pid, 0)
    if not payload:
        raise RuntimeError("a build process ended without a result")
    ok, value = pickle.loads(payload)
    if not ok:
        raise value
    return value


def _stop(pid: int, fd: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.close(fd)
    except OSError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
