"""Run a build's lanes of work side by side, or one after the other: one call, two runners.

`workers(width, warm)` gives a runner with `map(fn, lanes)`: the results of fn(lane), in order.
`Parallel` runs the first lane in this process and each other lane in a worker process of a
concurrent.futures.ProcessPoolExecutor; `Serial` runs every lane here, one after the other (one
core, BAILOUT_JOBS=1, or work that is itself a lane of a larger one).  Both give the same
results, so a build writes the same bytes either way.  A problem in a worker (a KitError) is
raised here by the future, as if the work had run here.  A worker ignores Ctrl-C (the terminal
sends it to the whole process group): this process unwinds, and on any way out but success
stops its workers before it returns, so nothing writes into a staging folder being rolled back.
No worker outlives the `with` block.

The workers are started with "spawn", on every platform: a fresh interpreter that imports what
its lanes need (`warm`) while this process loads the data and works out the odds.  Forking
instead is unsafe in a process that has threads (a pytest-xdist worker, `bailout serve`'s server
and watcher), so a fork path would be one the tests could not run; the forkserver makes the
first worker wait until its preloaded imports are done, which is the time spawn overlaps.
benchmarks/bench_parallel.py measures what this gains over BAILOUT_JOBS=1.
"""

import atexit
import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from generator.errors import LostWorker

A = TypeVar("A")
T = TypeVar("T")
JOBS = "BAILOUT_JOBS"       # the most processes a build runs at once (default: the usable cores)

# Set while this thread runs a lane (in a worker, or the first lane here): work started inside it
# (a release's edition renders its parts) runs one by one rather than starting more workers.
_IN_A_LANE: ContextVar[bool] = ContextVar("bailout_in_a_lane", default=False)


def jobs() -> int:
    """How many processes a build may run at once here."""
    given = os.environ.get(JOBS, "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def width() -> int:
    """How many lanes may run at once: jobs(), and 1 inside a lane."""
    return 1 if _IN_A_LANE.get() else jobs()


class Serial:
    """Every lane in this process, in order."""

    def map(self, fn: Callable[[A], T], lanes: Sequence[A], here: Callable[[A], T] | None = None) -> list[T]:
        return [(here or fn)(lane) for lane in lanes]


class Parallel:
    """The first lane in this process, the others in the pool's workers, side by side."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self._pool = pool

    def map(self, fn: Callable[[A], T], lanes: Sequence[A], here: Callable[[A], T] | None = None) -> list[T]:
        """fn must be picklable (a module's function, or a functools.partial of one); `here` runs
        the first lane instead, and may hold what cannot cross to a worker (the terminal's progress)."""
        if not lanes:
            return []
        futures = [self._pool.submit(fn, lane) for lane in lanes[1:]]
        token = _IN_A_LANE.set(True)
        try:
            first = (here or fn)(lanes[0])
        finally:
            _IN_A_LANE.reset(token)
        try:
            return [first, *(future.result() for future in futures)]
        except BrokenProcessPool:
            raise LostWorker("a worker process of this build ended before its work was done (killed, or out of "
                             "memory?)") from None


Runner = Serial | Parallel


@contextmanager
def workers(lanes: int, warm: Callable[[], None] | None = None) -> Iterator[Runner]:
    """A runner for `lanes` lanes at a time: Parallel with lanes - 1 workers, each running
    warm() as it starts, or Serial when lanes < 2."""
    if lanes < 2:
        yield Serial()
        return
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(lanes - 1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(warm,))
    try:
        for _ in range(lanes - 1):
            pool.submit(int)        # starts a worker now, not at the first lane: it imports meanwhile
        yield Parallel(pool)
    except BaseException:
        running = set(multiprocessing.active_children()) - before     # this pool's workers
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in running:
            worker.terminate()
        for worker in running:
            worker.join()
        raise
    pool.shutdown(wait=True)


def _start_worker(warm: Callable[[], None] | None) -> None:
    """In a new worker: its lanes run one by one, Ctrl-C is the parent's to handle, it ends
    with the build's process, its exit skips the collector's last pass (as the command's does:
    cli.run), then warm()."""
    _IN_A_LANE.set(True)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    atexit.register(gc.freeze)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), name="bailout-parent", daemon=True).start()
    if warm is not None:
        warm()


Plan = list[list[list[A]]]      # phases, one after the other, each of lanes side by side

# What a worker costs before its first lane, in the units of the costs planned with (Output.cost's
# milliseconds): a new interpreter, the kit's modules and its lanes' renderers imported.
START = 400.0


def fastest(plans: Iterable[Plan[A]], cost: Callable[[A], float]) -> Plan[A]:
    """Of `plans`, the one expected to end first (the first of equals, so list the plan of
    fewest lanes first): a phase ends with its costliest lane, and a worker's first lane waits
    START for the worker."""
    def end(plan: Plan[A]) -> float:
        total, started = 0.0, 1
        for phase in plan:
            total += max(sum(map(cost, lane)) + (START if i >= started else 0) for i, lane in enumerate(phase))
            started = max(started, len(phase))
        return total
    return min(plans, key=end)


def _end_with(sentinel: int) -> None:
    """A worker's watch on its build: once the build's process has gone, even killed outright,
    the worker goes too, rather than write on into a staging folder the next build cleans up."""
    multiprocessing.connection.wait([sentinel])
    os.kill(os.getpid(), signal.SIGTERM)


def balanced(units: Sequence[Sequence[A]], cost: Callable[[A], float], lanes: int) -> list[list[A]]:
    """The units' items as at most `lanes` lanes of about equal cost, the costliest first (it runs
    here, where nothing waits for a worker to start): each unit, costliest first, joins the lane
    that costs least so far (the longest-processing-time rule).  A unit stays in one lane."""
    loads = [0.0] * max(1, lanes)
    plan: list[list[A]] = [[] for _ in loads]
    for unit in sorted(units, key=lambda u: -sum(map(cost, u))):
        lightest = loads.index(min(loads))
        plan[lightest] += unit
        loads[lightest] += sum(map(cost, unit))
    return [lane for lane in plan if lane]
