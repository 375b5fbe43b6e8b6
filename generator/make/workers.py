"""Whole work side by side in worker processes: a build's papers (--jobs), a release's editions.

A build runs in one process unless it is asked for more: `--jobs N` (or `auto`: the cores this
process may use), as Sphinx's `-j`.  Only whole work that needs nothing of the rest is split (a
paper's files, an edition): benchmarks/bench_parallel.py measures what that gains, and the
figures in benchmarks/README.md say where it pays.

side_by_side(here, run, work) runs here() in this process and run(item) for each item of
`work` in a process of its own, as Sphinx's parallel builds do (multiprocessing.Process, the result sent back through a
pipe): a worker runs one lane and ends.  Workers are spawned (a new interpreter, on every
platform alike), start without the working folder on their import path (a project folder's
own `multiprocessing/` or `generator/` is never imported), and leave Ctrl-C to this process
(the terminal sends it to the whole process group: this process unwinds and stops them).  A
problem in a worker (a KitError) is raised here, as if the work had run here; a worker lost
(killed, out of memory) is the run's one-line problem too.

A worker makes its temporary folders inside one this process made for it and removes after,
so a worker needs no unwinding of its own: on any way out but success this process kills the
workers, waits for them, then removes that folder, before side_by_side returns (nothing writes
into a staging folder being rolled back, nothing is left in TMPDIR).  A signal that stops a
process runs Python's handler between two lines of whatever runs, a garbage collector's callback
too, where an exception is printed and lost: a worker's stop is therefore a kill, not a signal
it must handle.  A worker whose build was killed outright ends once its lane is done, when it
finds no one to send its result to.  A script that runs the kit's commands with --jobs must
guard them with `if __name__ == "__main__":`, as with any spawned worker (it imports the script
again).
"""

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from generator.errors import LostWorker

if TYPE_CHECKING:       # the modules of a worker are imported only where one starts
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

A = TypeVar("A")
T = TypeVar("T")
LOST = "a worker process ended before its work was done (killed, or out of memory?)"


def usable_cores() -> int:
    """How many processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def lanes(work: Sequence[A], jobs: int, each: int = 1) -> list[list[A]]:
    """`work` dealt out in turn over at most `jobs` lanes of at least `each` items.  The first
    lane is this process's, and never shorter than another: a worker first starts an interpreter
    and imports the kit, while this process starts on its lane at once, and what follows from the
    lanes (a release's zip) waits for the last of them whichever it is."""
    count = max(1, min(jobs, len(work) // each))
    return [list(work[i::count]) for i in range(count)]


def side_by_side(here: Callable[[], T], run: Callable[[A], T], work: Sequence[A]) -> list[T]:
    """[here(), *(run(item) for item in work)]: here() in this process while each run(item) runs
    in a worker process of its own, all at once.  `run` and the items must pickle (a module's
    function, or a functools.partial of one, and plain values)."""
    if not work:
        return [here()]
    from generator.make.temporary import temporary_folder
    with temporary_folder("bailout-workers-") as temp:
        return _with_workers(here, run, work, temp)


def _with_workers(here: Callable[[], T], run: Callable[[A], T], work: Sequence[A], temp: Path) -> list[T]:
    """side_by_side with the workers' temporary folders in `temp`."""
    started: list[tuple[BaseProcess, Connection]] = []
    try:
        with _safe_import_path():
            started = [_start(run, item, temp) for item in work]
        results = [here()]
        for process, connection in started:
            results.append(_result(connection))
            process.join()
        return results
    except BaseException:
        for process, _ in started:
            process.kill()
        for process, _ in started:
            process.join()
        raise
    finally:
        for _, connection in started:
            connection.close()


def _start(run: Callable[[A], T], item: A, temp: Path) -> "tuple[BaseProcess, Connection]":
    import multiprocessing
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(send, run, item, str(temp)), name="bailout-worker")
    process.start()
    send.close()        # the worker's end: once the worker is gone, receiving ends
    return process, receive


def _result(connection: "Connection") -> Any:
    """What a worker sent: its result, or its problem raised here; LostWorker if it sent nothing."""
    try:
        done, value = connection.recv()
    except (EOFError, OSError):
        raise LostWorker(LOST) from None
    if not done:
        raise value
    return value


def _worker(connection: "Connection", run: Callable[[A], T], item: A, temp: str) -> None:
    """A worker's whole life: run(item), its result (or its problem) sent back, and the end.
    Ctrl-C is its build's to handle (the build kills it); SIGTERM and SIGHUP end it at once, as
    they end any process that does not handle them: its build finds it gone."""
    import signal
    import tempfile
    collect_seldom()
    tempfile.tempdir = temp     # its build removes this folder, however this worker ends
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        outcome: tuple[bool, object] = (True, run(item))
    except Exception as problem:        # a KitError, or a fault of the kit's: raised in the build as it is
        outcome = (False, problem)
    with contextlib.suppress(OSError):      # the build is gone: nobody to tell
        connection.send(outcome)
    connection.close()


@contextmanager
def _safe_import_path() -> Iterator[None]:
    """PYTHONSAFEPATH for the workers started meanwhile: a spawned worker starts as `python -c`,
    which would otherwise put the working folder first on its import path."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = before


# The cyclic garbage collector's thresholds in a kit process: a pass over the youngest objects
# after 200,000 new ones (Python's default: 700), as mypy sets for the same reason.  A build keeps
# almost everything it makes to its end and leaves next to nothing in cycles, so at 700 the
# collector's many passes find next to nothing; the memory is the same within 2 MiB, and a
# streamed 1,000,000-row table still collects every 200,000 objects.
COLLECTOR_THRESHOLDS = (200_000, 30, 30)


def collect_seldom() -> None:
    """Set this process's collector thresholds (COLLECTOR_THRESHOLDS): the kit's commands and
    its workers, never a program that imports the kit."""
    import gc
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
