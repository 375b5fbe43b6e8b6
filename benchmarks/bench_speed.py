"""What the kit does against what it need not: each piece of work beside its floor, pair by pair.

    python benchmarks/bench_speed.py [--pairs 5] [--only NAME,...] [--base FOLDER] [--rows 100000] [--test-runs 1]

Every measurement is a whole process started fresh, A then B, --pairs times; each row prints
the medians of A and B, the median of the pair-by-pair ratios A/B, A's peak memory (the child's
own, os.wait4) and the load average before and after the row.  The rows (--only picks some):

  kit        `bailout build` / the same pages written by bare reportlab (bench_same_pages.py)
  floor      `bailout build` / bench_floor.py
  rows       `bailout build --only prerolled --paper a4 --rows N` / a bare canvas drawing the
             same cells one string at a time (bench_canvas_rows.py --rows N)
  million    `bailout build --only prerolled --paper a4 --rows 1000000`: its seconds and peak (one run)
  release    `bailout release --lang en,de,fr,it,es` / `bailout release`
  cold       `bailout build` with an empty cache / the same with a warm one (BAILOUT_CACHE)
  tests      README's test command, `python -m pytest -q`, as README runs it (none of the
             variables CI sets): its seconds, its CPU (the test workers and every process they
             waited for), what passed and skipped; --test-runs times (default 1: minutes each).
             Not in the default --only.

--base FOLDER (a checkout of an earlier commit, e.g. `git worktree add /tmp/base COMMIT`)
adds, for each row of the kit's own commands, the same command run from that checkout, A B
again: the ratio now / then.  The kit's bytecode is compiled first (benchmarks/bench_editions.py
says why).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
Command = Callable[[Path], tuple[list[str], Path, dict[str, str]]]      # out -> (argv, cwd, env)


def measure(command: Command, out: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of one fresh process; exits with its stderr if it fails."""
    argv, cwd, env = command(out)
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, **env})
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(f"{' '.join(argv)} failed:\n{err.read().decode()}")
    return seconds, usage.ru_maxrss / 1024


def script(name: str, *args: str) -> Command:
    return lambda out: ([sys.executable, str(BENCH / name), *args], ROOT, {})


def bailout(*args: str, root: Path = ROOT, cache: Callable[[Path], str] | None = None) -> Command:
    def command(out: Path) -> tuple[list[str], Path, dict[str, str]]:
        env = {"BAILOUT_CACHE": cache(out)} if cache is not None else {}
        return [sys.executable, "-m", "generator", *args, "--quiet", "--out", str(out)], root, env
    return command


def paired(a: Command, b: Command, n: int) -> dict[str, float]:
    """Medians of A and B, the median of the ratios A/B pair by pair, A's largest peak."""
    pairs = []
    for _ in range(n):
        with tempfile.TemporaryDirectory(prefix="bench-speed-") as folder:
            pairs.append((measure(a, Path(folder) / "a"), measure(b, Path(folder) / "b")))
    return {"a": statistics.median(x[0] for x, _ in pairs), "b": statistics.median(y[0] for _, y in pairs),
            "ratio": statistics.median(x[0] / y[0] for x, y in pairs), "rss": max(x[1] for x, _ in pairs)}


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def row(name: str, label: str, a: Command, b: Command, n: int) -> None:
    before = load()
    r = paired(a, b, n)
    print(f"{name:8} {label}: {r['a']:.3f} s / {r['b']:.3f} s = {r['ratio']:.2f}x (median of {n} pair ratios), "
          f"peak {r['rss']:.0f} MiB; load {before} -> {load()}", flush=True)


def cold_cache(out: Path) -> str:
    return str(out.parent / f"cache-{out.name}")        # a fresh folder each run: nothing kept


def readme_tests(runs: int) -> None:
    """README's test command `runs` times, each a fresh process in the repository root, with the
    environment a reader has (CI's BAILOUT_SLOW_TESTS and BAILOUT_HYPOTHESIS_PROFILE, and CI,
    left out): wall and CPU seconds, and pytest's own closing line."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BAILOUT_SLOW_TESTS", "BAILOUT_HYPOTHESIS_PROFILE")}
    for _ in range(runs):
        before = load()
        with tempfile.TemporaryFile() as out:
            start = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-m", "pytest", "-q"], cwd=ROOT,
                                     stdout=out, stderr=subprocess.STDOUT, env=env)
            _, status, usage = os.wait4(child.pid, 0)
            seconds = time.perf_counter() - start
            out.seek(0)
            closing = out.read().decode(errors="replace").strip().splitlines()[-1:]
        print(f"tests    python -m pytest -q: {seconds:.1f} s, {usage.ru_utime + usage.ru_stime:.0f} s of CPU, "
              f"exit {os.waitstatus_to_exitcode(status)}: {' '.join(closing)}; load {before} -> {load()}", flush=True)


def rows_of(args: argparse.Namespace) -> dict[str, Callable[[], None]]:
    """Each row of the table by name, run when called."""
    n, table = args.pairs, ("--only", "prerolled", "--paper", "a4", "--rows", str(args.rows))

    def million() -> None:
        with tempfile.TemporaryDirectory(prefix="bench-speed-") as folder:
            seconds, rss = measure(bailout("build", *table[:-1], "1000000"), Path(folder) / "out")
        print(f"million  1,000,000 rows, A4: {seconds:.1f} s, peak {rss:.0f} MiB; load {load()}", flush=True)

    def cold() -> None:
        warm = tempfile.mkdtemp(prefix="bench-speed-warm-")
        measure(bailout("build", cache=lambda out: warm), Path(warm) / "first")      # fills it
        row("cold", "bailout build, empty cache / warm cache", bailout("build", cache=cold_cache),
            bailout("build", cache=lambda out: warm), n)
    return {
        "kit": lambda: row("kit", "bailout build / same pages, bare reportlab", bailout("build"),
                           script("bench_same_pages.py"), n),
        "floor": lambda: row("floor", "bailout build / bench_floor.py", bailout("build"), script("bench_floor.py"), n),
        "rows": lambda: row("rows", f"{args.rows:,} rows / bare canvas, a string a cell", bailout("build", *table),
                            script("bench_canvas_rows.py", "--rows", str(args.rows)), n),
        "million": million,
        "release": lambda: row("release", "release of en,de,fr,it,es / English alone",
                               bailout("release", "--lang", "en,de,fr,it,es"), bailout("release"), n),
        "cold": cold,
        "tests": lambda: readme_tests(args.test_runs),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--only", default="kit,floor,rows,million,release,cold")
    p.add_argument("--base", type=Path, help="a checkout of the commit to compare with")
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--test-runs", type=int, default=1, help="runs of README's test command in the tests row")
    args = p.parse_args()
    only = args.only.split(",")
    import compileall
    for root in (ROOT, args.base):
        if root is not None:
            compileall.compile_dir(root / "generator", quiet=1)
    print(f"{args.pairs} pairs a row, fresh processes; load average {load()}", flush=True)
    table = rows_of(args)
    for name in only:
        table[name]()
    if args.base is None:
        return
    argvs = {"kit": ("build",), "rows": ("build", "--only", "prerolled", "--paper", "a4", "--rows", str(args.rows)),
             "release": ("release", "--lang", "en,de,fr,it,es")}
    for name in (name for name in only if name in argvs):
        row(f"{name}/base", f"{' '.join(argvs[name])}: now / {args.base}", bailout(*argvs[name]),
            bailout(*argvs[name], root=args.base), args.pairs)


if __name__ == "__main__":
    main()
