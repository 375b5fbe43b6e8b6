"""What the timing scripts share (not a script of its own): a command run as a fresh process and
timed from outside, and two commands alternated A B A B ... with the median of the pair-by-pair
ratios A / B.

The machine is shared, so its seconds drift from minute to minute; a ratio to a command measured
a moment before drifts less.  Wall seconds are timed around the process here; its CPU seconds and
peak memory come from the kernel (os.wait4, POSIX only) and count the worker processes it started
and waited for (the peak is the largest that any one of them reached).  Each command writes into
a fresh temporary folder, removed after it is timed.  Each pair of commands runs once before it is
timed (the kit's cache filled), and the scripts give the kit a cache folder of their own
(private_cache) so that a run neither reads nor fills the user's.  They compile the kit's
bytecode first (compile_kit), as installing it does: where PYTHONDONTWRITEBYTECODE is set, every
process would otherwise compile the kit's modules from source, which a user's does not.
"""

import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"


class Run(NamedTuple):
    wall: float     # seconds
    cpu: float      # seconds, user and system, the workers' included
    peak: float     # MiB, the largest resident set of the process or any worker it waited for


class Command(NamedTuple):
    """A command line given a fresh output folder, run in `cwd` with `env` added to this one's."""
    argv: Callable[[Path], list[str]]
    cwd: Path = ROOT
    env: Callable[[Path], dict[str, str]] = lambda out: {}


def bailout(*args: str, cwd: Path = ROOT, env: Callable[[Path], dict[str, str]] | None = None) -> Command:
    """`bailout ARGS --quiet --out FOLDER`, run as `python -m generator` from `cwd` (another
    checkout's folder runs that checkout's code)."""
    return Command(lambda out: [sys.executable, "-m", "generator", *args, "--quiet", "--out", str(out)], cwd,
                   env or (lambda out: {}))


def script(name: str, *args: str) -> Command:
    """One of the scripts in benchmarks/."""
    return Command(lambda out: [sys.executable, str(BENCH / name), *args])


def run(command: Command) -> Run:
    """One fresh process of `command`; exits with its error output if it fails."""
    with tempfile.TemporaryDirectory(prefix="bench-") as folder, tempfile.TemporaryFile() as err:
        out = Path(folder) / "out"
        argv = command.argv(out)
        start = time.perf_counter()
        child = subprocess.Popen(argv, cwd=command.cwd, stdout=subprocess.DEVNULL, stderr=err,
                                 env={**os.environ, **command.env(out)})
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            sys.exit(f"{' '.join(argv)} exited {child.returncode}:\n{err.read().decode(errors='replace')}")
    peak = usage.ru_maxrss / (2**20 if sys.platform == "darwin" else 1024)     # bytes on macOS, KiB on Linux
    return Run(wall, usage.ru_utime + usage.ru_stime, peak)


class Pairs(NamedTuple):
    a: list[Run]
    b: list[Run]

    @property
    def ratio(self) -> float:
        """The median of the pair-by-pair ratios of wall seconds, A / B."""
        return statistics.median(x.wall / y.wall for x, y in zip(self.a, self.b, strict=True))

    @property
    def ratios(self) -> list[float]:
        return [x.wall / y.wall for x, y in zip(self.a, self.b, strict=True)]


def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(r, field) for r in runs)


def alternate(a: Command, b: Command, pairs: int, warm_up: bool = True) -> Pairs:
    """A then B, `pairs` times, each a fresh process (after one untimed run of each)."""
    if warm_up:
        run(a)
        run(b)
    timed = Pairs([], [])
    for _ in range(pairs):
        timed.a.append(run(a))
        timed.b.append(run(b))
    return timed


def load() -> str:
    """The load average over 1, 5 and 15 minutes: over about 0.5 on two cores, another program
    is taking a share of them, and the seconds (and a parallel row's ratio) say less."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def private_cache() -> Iterator[Path]:
    """BAILOUT_CACHE set to a temporary folder of this run's own for as long as the block runs."""
    before = os.environ.get("BAILOUT_CACHE")
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as folder:
        os.environ["BAILOUT_CACHE"] = folder
        try:
            yield Path(folder)
        finally:
            if before is None:
                os.environ.pop("BAILOUT_CACHE", None)
            else:
                os.environ["BAILOUT_CACHE"] = before


def compile_kit(*others: Path) -> None:
    """The bytecode of the kit's modules, here and in the `others` (checkouts), written where it is
    missing or stale."""
    for root in (ROOT, *others):
        compileall.compile_dir(root / "generator", quiet=1)


def cores() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{os.cpu_count()} cores ({usable} usable)"


if __name__ == "__main__":
    print(__doc__)
