"""Work side by side in worker processes, or one lane after another: the plan that chooses,
and one call with two runners behind it.

plan(phases, cost, lanes, fixed) lays a run's work out as phases, one after the other, each of
lanes side by side: a build's parts, then the kits merged from their files (a phase of its own,
so no lane waits on another); a release's editions.  It spreads the work over the lanes only
where the costs it is given say that ends PAYS times sooner than one lane a phase, and a
worker's lane starts late by what starting a worker costs here (start_cost).  workers(lanes,
warm) then gives the runner: `Parallel` runs each phase's first lane in this process and the
others in the workers of a concurrent.futures.ProcessPoolExecutor; `Serial` runs every lane
here, in order (one lane, BAILOUT_JOBS=1, or work that is itself a lane of a larger one).  Both
give the same results, so the same bytes.  A problem in a worker (a KitError) is raised here, as
if the work had run here; a worker lost (killed, out of memory) is the run's one-line problem
too.  A worker ignores Ctrl-C (the terminal sends it to the whole process group: this process
unwinds and stops it), ends with this process however it ends, and on any way out of the `with`
block but success is stopped before the block is left, so nothing writes into a staging folder
being rolled back.  No worker outlives the block.

How a worker starts (start_method; benchmarks/bench_parallel.py measures both, the figures are
in benchmarks/README.md).  Forked, as Sphinx's parallel builds are, where that is safe: on a
POSIX system other than macOS (whose system libraries do not survive a fork), and only while
this process runs one thread, since a fork copies whatever lock another thread held.  The
command line's process is such a process when it starts its workers (before the terminal's
progress display starts its thread), and a forked worker takes the kit's modules with it: it
starts in a few milliseconds, imports what its lanes render while this process makes the
build's context, and is sent the context with its work.  Anywhere
else (Windows, macOS, a pytest-xdist worker, `bailout serve` with its server and watcher) a
worker is spawned: a new interpreter that imports the kit and parses its fonts again, which
costs most of what a second core gives the default kit, so there its plan keeps one process; a
long pre-rolled table for each paper and a release's editions gain well over PAYS either way.
Both ways run in the tests: the command line's own processes fork (tests/test_concurrency.py
starts real builds), the test workers' in-process builds spawn.  A script that runs the kit's
commands must guard them with `if __name__ == "__main__":`, as with any spawned worker (it
imports the script again).
"""

import functools
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, TypeVar

from generator.errors import LostWorker

if TYPE_CHECKING:       # the pool's modules are imported only where a pool starts: most builds run one lane
    from concurrent.futures import ProcessPoolExecutor

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


def start_method() -> str:
    """How this process starts a worker now: "fork" on a POSIX system other than macOS while it
    runs one thread (Python's own count, and the system's where /proc tells it: a library's
    thread counts too), else "spawn"."""
    import threading
    if os.name != "posix" or sys.platform == "darwin" or threading.active_count() > 1:
        return "spawn"
    try:
        return "fork" if len(os.listdir("/proc/self/task")) == 1 else "spawn"
    except OSError:         # no /proc: Python's count is all there is
        return "fork"


def start_cost(costs: Mapping[str, float] | None = None) -> float:
    """What a worker started now costs before its first piece of work: `costs` (START unless
    given) for the way start_method() says it starts."""
    return (START if costs is None else costs)[start_method()]


@contextmanager
def one_by_one() -> Iterator[None]:
    """Work started inside runs in this process, one lane at a time, as a lane's own work does:
    for work whose plan found that side by side would not pay."""
    token = _IN_A_LANE.set(True)
    try:
        yield
    finally:
        _IN_A_LANE.reset(token)


Plan = list[list[list[A]]]      # phases, one after the other, each of lanes side by side

# What a worker costs before its first piece of work, in the units of the costs planned with
# (milliseconds of one core), by how it starts: forked, this process's share of starting the
# pool (its modules, the fork) and the worker's own imports of the renderers of its lane; spawned,
# a new interpreter that imports the kit and parses its fonts, and what two busy cores take from
# each other.  Set so that the plans' expectations agree with what benchmarks/bench_parallel.py
# measures.
START = {"fork": 15.0, "spawn": 250.0}
# Lanes side by side only where they are expected to end this many times sooner than one lane:
# a worker costs a core's time, so a gain within the measurements' noise is not worth it.
PAYS = 1.25


def plan(phases: Sequence[Sequence[Sequence[A]]], cost: Callable[[Sequence[A]], float], lanes: int,
         fixed: float = 0.0, start: float | None = None) -> Plan[A]:
    """`phases` (each a list of units, each a list of items that stay in one lane) as lanes:
    spread over `lanes` lanes where that is expected to end PAYS times sooner than each phase in
    one lane, else one lane a phase.  cost(items) is a lane's expected work; `fixed` is the run's
    own, besides, the same either way; `start` what a worker costs before its work (start_cost()
    unless given)."""
    alone = [[[item for unit in units for item in unit]] for units in phases]
    if lanes < 2:
        return alone
    spread, end = _spread(phases, cost, lanes, start_cost() if start is None else start)
    one_end = sum(cost(phase[0]) for phase in alone)
    return spread if fixed + one_end >= PAYS * (fixed + end) else alone


def _spread(phases: Sequence[Sequence[Sequence[A]]], cost: Callable[[Sequence[A]], float],
            lanes: int, start: float) -> tuple[Plan[A], float]:
    """Each phase's units over `lanes` lanes, costliest first, each to the lane where it would
    end first (the longest-processing-time rule); a worker's lane starts `start` late until a
    phase has used it.  The first lane is this process's, and the first of equals.  The plan
    and its expected end."""
    result: Plan[A] = []
    end, late = 0.0, start
    for units in phases:
        starts = [0.0] + [late] * (lanes - 1)
        spread: list[list[A]] = [[] for _ in starts]
        for unit in sorted(units, key=lambda u: -cost(u)):
            best = min(range(lanes), key=lambda i: starts[i] + cost([*spread[i], *unit]))
            spread[best] += unit
        used = [i for i, lane in enumerate(spread) if lane]
        end += max(starts[i] + cost(spread[i]) for i in used)
        late = 0.0 if len(used) > 1 else late
        result.append([spread[i] for i in used])
    return result, end


class Serial:
    """Every lane in this process, in order."""

    def map(self, fn: Callable[[A], T], lanes: Sequence[A], here: Callable[[A], T] | None = None) -> list[T]:
        return [(here or fn)(lane) for lane in lanes]

    def ahead(self, fn: Callable[[], T]) -> Callable[[], T]:
        """fn's result when first asked for (here, then)."""
        return functools.cache(fn)


class Parallel:
    """The first lane in this process, the others in the pool's workers, side by side."""

    def __init__(self, pool: "ProcessPoolExecutor") -> None:
        self._pool = pool

    def ahead(self, fn: Callable[[], T]) -> Callable[[], T]:
        """fn run in a worker now, before the lanes that follow; its result when asked for (waited
        for then, and its problem raised here, as map's).  fn must be picklable."""
        future = self._pool.submit(fn)

        def result() -> T:
            from concurrent.futures.process import BrokenProcessPool
            try:
                return future.result()
            except BrokenProcessPool:
                raise LostWorker(LOST) from None
        return result

    def map(self, fn: Callable[[A], T], lanes: Sequence[A], here: Callable[[A], T] | None = None) -> list[T]:
        """fn must be picklable (a module's function, or a functools.partial of one); `here` runs
        the first lane instead, and may hold what cannot cross to a worker (the terminal's progress)."""
        from concurrent.futures.process import BrokenProcessPool
        if not lanes:
            return []
        try:
            futures = [self._pool.submit(fn, lane) for lane in lanes[1:]]
            token = _IN_A_LANE.set(True)
            try:
                first = (here or fn)(lanes[0])
            finally:
                _IN_A_LANE.reset(token)
            return [first, *(future.result() for future in futures)]
        except BrokenProcessPool:
            raise LostWorker(LOST) from None


Runner = Serial | Parallel
LOST = "a worker process ended before its work was done (killed, or out of memory?)"


@contextmanager
def workers(lanes: int, warm: Callable[[], None] | None = None) -> Iterator[Runner]:
    """A runner for `lanes` lanes at a time: Parallel with lanes - 1 workers, each started as
    start_method() says and running warm() as it starts, or Serial when lanes < 2."""
    if lanes < 2:
        yield Serial()
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    method = start_method()
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(lanes - 1, mp_context=multiprocessing.get_context(method),
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


# The cyclic garbage collector's thresholds in a kit process: a pass over the youngest objects
# after 200,000 new ones (Python's default: 700), as mypy sets for the same reason.  A build keeps
# almost everything it makes to its end and leaves next to nothing in cycles, so at 700 the
# collector's many passes found next to nothing (what they cost: docs/speed.md); the memory is
# the same within 2 MiB, and a streamed 1,000,000-row table still collects every 200,000 objects.
COLLECTOR_THRESHOLDS = (200_000, 30, 30)


def collect_seldom() -> None:
    """Set this process's collector thresholds (COLLECTOR_THRESHOLDS): the kit's commands and
    its workers, never a program that imports the kit."""
    import gc
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def _start_worker(warm: Callable[[], None] | None) -> None:
    """In a new worker: the collector passes seldom (collect_seldom), its lanes run one by one,
    Ctrl-C is the parent's to handle, SIGTERM ends it (a forked worker would have the build's
    own handler, which unwinds a build), it ends with the build's process, its exit skips the
    collector's last pass (as the command's does: cli.run), then warm()."""
    import atexit
    import gc
    import multiprocessing
    import signal
    import threading
    collect_seldom()
    _IN_A_LANE.set(True)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    atexit.register(gc.freeze)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), name="bailout-parent", daemon=True).start()
    if warm is not None:
        warm()


def _end_with(sentinel: int) -> None:
    """A worker's watch on its build: once the build's process has gone, even killed outright,
    the worker goes too, rather than write on into a staging folder the next build cleans up."""
    import multiprocessing.connection
    import signal
    multiprocessing.connection.wait([sentinel])
    os.kill(os.getpid(), signal.SIGTERM)
