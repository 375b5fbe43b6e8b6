"""Run a build's independent pieces of work side by side, one forked process each.

A build's outputs split by paper (every A4 file, and the kit merged from them, needs nothing
of the Letter ones), and a release's editions split by language: each such lane runs in a
child forked after the imports and the shared work (odds, the deck, the aid's text, the
pre-rolled rows) are done, so the children share them without copying.  The parent runs the
first lane itself.  Results come back pickled through a pipe; a problem in a child (a
KitError) comes back and is raised in the parent, as if the work had run there.  If the parent
is interrupted (Ctrl-C, SIGTERM) it kills the children before unwinding, so nothing writes
into a staging folder that is being rolled back.

Where there is no fork (Windows), one core, other threads in the process (forking them is
unsafe: a test runner's, say), or BAILOUT_JOBS=1, the lanes run one after the other: the same
results, the same bytes.
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


def run_lanes(lanes: Sequence[Callable[[], T]]) -> list[T]:
    """Each lane's result, in order; as many at once as jobs() allows."""
    width = min(jobs(), len(lanes))
    if width < 2 or not can_fork():
        return [lane() for lane in lanes]
    results: list[T] = []
    for start in range(0, len(lanes), width):
        results += _side_by_side(lanes[start:start + width])
    return results


def _side_by_side(lanes: Sequence[Callable[[], T]]) -> list[T]:
    children = [_fork(lane) for lane in lanes[1:]]
    try:
        first = lanes[0]()
        rest: list[T] = [_collect(pid, fd) for pid, fd in children]
    except BaseException:
        for pid, fd in children:
            _stop(pid, fd)
        raise
    return [first, *rest]


def _fork(lane: Callable[[], T]) -> tuple[int, int]:
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:            # the child: do the lane, send its result or its problem, leave at once
        global _IN_A_LANE
        _IN_A_LANE = True
        os.close(read)
        status = 0
        try:
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
