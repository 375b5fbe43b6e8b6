"""Builds and a release on every core against the same one by one (BAILOUT_JOBS=1), pair by pair.

    python benchmarks/bench_parallel.py [--pairs 7] [--langs en,de,fr] [--rows 10000] [--only KEY]

Every measurement is a whole process started fresh (interpreter start, imports and the workers'
start count), into a fresh temporary --out.  The two commands of a row alternate, A B A B ...,
and the row reports both medians (wall and CPU, the CPU counting the workers) and the median of
the pair-by-pair ratios serial / parallel: the machine may be shared, so a ratio to a command
measured a moment before holds where absolute seconds do not.  The load average is printed
before and after each row: a figure measured at a load of 2 or more on 2 cores says little
about an idle machine.

A build or release runs side by side only where its plan (make/workers.py, from the costs in
make/outputs.py and make/release.py) expects it to end workers.PAYS (1.25) times sooner; the
rows show what each plan chose against one process.  Where the command line's process forks its
worker (Linux), the default kit runs side by side; the "spawned" row is the same kit with its
worker spawned as it is where forking is not safe (macOS, Windows, a process with threads), side
by side whatever the plan expects, which is why a spawning plan keeps one process; the "one
edition" rows are a release of one language, which its plan keeps in one process, and the same
release side by side forced.  A plan that chose wrongly shows as a row under 1.25x that runs side
by side, or a forced row at 1.25x or more.

Rows (key):
  build          bailout build (full kit, both papers): side by side where the worker forks
  spawned        the same, its worker spawned, side by side forced
  rows           bailout build --rows ROWS: a long table a paper, side by side
  edition        bailout release (English alone): its plan keeps one process
  edition-forced the same, side by side forced
  release        bailout release --lang LANGS: the editions side by side
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_editions import compiled  # noqa: E402
from bench_ratios import BAILOUT, measure  # noqa: E402

WANT = 1.25
# `bailout` with the plans' threshold at 1 (side by side whatever they expect), and workers that
# start as this code says: the "spawned" and "edition-forced" rows.
def _forced(setup: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from generator.make import release, workers; workers.PAYS = 1.0; "
            f"{setup}sys.argv[0] = 'bailout'; from generator.cli import run; run()"]


SPAWNED = _forced("workers.start_method = lambda: 'spawn'; workers.START['spawn'] = 0.0; ")
FORCED = _forced("release.WORKER_START.update(fork=0.0, spawn=0.0); ")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def side_by_side(command: list[str], args: list[str], pairs: int) -> dict[str, float]:
    """COMMAND ARGS on every core, then with BAILOUT_JOBS=1, `pairs` times: medians and ratio."""
    parallel_env = {k: v for k, v in os.environ.items() if k != "BAILOUT_JOBS"}
    serial_env = {**parallel_env, "BAILOUT_JOBS": "1"}
    results = []
    for _ in range(pairs):
        with tempfile.TemporaryDirectory(prefix="bench-parallel-") as folder:
            argv = [*command, *args, "--quiet", "--out"]
            a = measure([*argv, str(Path(folder) / "a")], parallel_env)
            b = measure([*argv, str(Path(folder) / "b")], serial_env)
        results.append((a, b))
    return {"parallel": statistics.median(a[0] for a, _ in results),
            "serial": statistics.median(b[0] for _, b in results),
            "parallel_cpu": statistics.median(a[2] for a, _ in results),
            "serial_cpu": statistics.median(b[2] for _, b in results),
            "ratio": statistics.median(b[0] / a[0] for a, b in results),
            "ratios": [b[0] / a[0] for a, b in results]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=7, help="pairs per row (default 7)")
    p.add_argument("--langs", default="en,de,fr", help="the languages of the release (default en,de,fr)")
    p.add_argument("--rows", default="10000", help="the long tables' rows (default 10000)")
    p.add_argument("--only", choices=("build", "spawned", "rows", "edition", "edition-forced", "release"),
                   help="one row only")
    args = p.parse_args()
    compiled()
    rows = [("build", "bailout build (full kit, both papers)", BAILOUT, ["build"]),
            ("spawned", "  the same, its worker spawned, forced", SPAWNED, ["build"]),
            ("rows", f"bailout build --rows {args.rows}", BAILOUT, ["build", "--rows", args.rows]),
            ("edition", "bailout release (English alone)", BAILOUT, ["release"]),
            ("edition-forced", "  the same, side by side forced", FORCED, ["release"]),
            ("release", f"bailout release --lang {args.langs}", BAILOUT, ["release", "--lang", args.langs])]
    print(f"{args.pairs} pairs a row (parallel, then BAILOUT_JOBS=1), fresh processes, {os.cpu_count()} cores, "
          f"usable {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}",
          flush=True)
    table = []
    for key, label, command, arguments in rows:
        if args.only not in (None, key):
            continue
        before = load()
        s = side_by_side(command, arguments, args.pairs)
        table.append((label, s, before, load()))
        print(f"  measured: {label}: ratios {' '.join(f'{r:.2f}' for r in s['ratios'])}", flush=True)
    print()
    print(f"{'work':40} {'every core s':>12} {'one s':>7} {'one/every':>9} {'CPU every':>9} {'CPU one':>8}  "
          f"{'load before -> after':30} >= {WANT}x?")
    for label, s, before, after in table:
        print(f"{label:40} {s['parallel']:12.3f} {s['serial']:7.3f} {s['ratio']:8.2f}x {s['parallel_cpu']:9.3f} "
              f"{s['serial_cpu']:8.3f}  {before + ' -> ' + after:30} {'yes' if s['ratio'] >= WANT else 'no'}")


if __name__ == "__main__":
    main()
