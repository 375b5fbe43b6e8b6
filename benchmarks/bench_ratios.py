"""The speed table: each piece of work as a ratio to the floor, measured pair by pair in one run.

    python benchmarks/bench_ratios.py [--pairs 5] [--tests] [--test-pairs 1] [--no-linearity]

Every measurement is a whole process, started fresh (interpreter start and imports count): first
the floor (benchmarks/bench_floor.py: a bare reportlab canvas, four A4 pages of 140 counters,
Vera embedded), then the work, alternating, --pairs times.  The machine is shared and noisy, so
absolute seconds do not compare between runs; a ratio to a floor measured a moment before does.
Each row shows the work's median seconds, the median of its per-pair ratios, its "want"
and whether it is met.  Each build writes into a fresh temporary --out.  Peak RSS is the child's
own (os.wait4), not the largest child so far.

The pre-rolled row also builds 10,000 and 50,000 rows: linear means the cost per 1,000 rows
from 50k to 100k is at most 25% above that from 10k to 50k (time and memory alike, give or take
5 ms and 0.1 MiB per 1,000 rows of noise).

--tests adds README's test command (`python -m pytest -q`, a minute and a half or so): its own pairs.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = [sys.executable, str(ROOT / "benchmarks" / "bench_floor.py")]
BAILOUT = [sys.executable, "-m", "generator"]
LINEAR_TOLERANCE = 0.25
SLACK = {"seconds": 0.005, "rss": 0.1}      # per 1,000 rows: noise below this is not growth


def run(argv):
    """(wall seconds, peak RSS in MiB) of one fresh process; exits with its stderr if it fails."""
    seconds, rss, _ = measure(argv)
    return seconds, rss


def measure(argv, env=None):
    """(wall seconds, peak RSS in MiB, CPU seconds) of one fresh process run with `env` (default:
    this one's); exits with its stderr if it fails.  The CPU counts the processes it waited for."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            sys.exit(f"{' '.join(map(str, argv))} exited {child.returncode}:\n{err.read().decode()}")
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime     # Linux: ru_maxrss is in KiB


def build(*options):
    """A `bailout build` command line factory: each call gets a fresh temporary --out."""
    def argv(out):
        return [*BAILOUT, "build", "--quiet", "--out", str(out), *options]
    return argv


def pairs(work, n):
    """n (floor, work) measurements, alternating; work(out) gives the command for a fresh --out."""
    results = []
    for _ in range(n):
        floor = run(FLOOR)
        with tempfile.TemporaryDirectory(prefix="bench-ratios-") as folder:
            results.append((floor, run(work(Path(folder) / "out"))))
    return results


def summary(results):
    """Median floor seconds, median work seconds, median of the per-pair ratios, largest work RSS."""
    return {"floor": statistics.median(f[0] for f, _ in results),
            "seconds": statistics.median(w[0] for _, w in results),
            "ratio": statistics.median(w[0] / f[0] for f, w in results),
            "rss": max(w[1] for _, w in results)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=5, help="floor/work pairs per row (default 5)")
    p.add_argument("--tests", action="store_true", help="also time README's test command (slow)")
    p.add_argument("--test-pairs", type=int, default=1, help="pairs for the test command (default 1)")
    p.add_argument("--no-linearity", action="store_true", help="skip the 10,000 and 50,000 row builds")
    args = p.parse_args()

    rows = [  # (label, command, want as text, test of a summary)
        ("bailout build (full kit, both papers)", build(), "<= 2.5x floor", lambda s: s["ratio"] <= 2.5),
        ("bailout build --only aid (both papers)", build("--only", "aid"), "<= 1.5x floor",
         lambda s: s["ratio"] <= 1.5),
        ("bailout build --only counters --paper a4", build("--only", "counters", "--paper", "a4"),
         "<= 1.3x floor", lambda s: s["ratio"] <= 1.3),
        ("pre-rolled 100,000 rows, A4", build("--only", "prerolled", "--paper", "a4", "--rows", "100000"),
         "< 6 s, < 200 MiB", lambda s: s["seconds"] < 6 and s["rss"] < 200),
    ]
    if args.tests:
        rows.append(("README's tests: python -m pytest -q", lambda out: [sys.executable, "-m", "pytest", "-q"],
                     "<= 60 s", lambda s: s["seconds"] <= 60))

    print(f"{args.pairs} pairs a row (floor, then work), fresh processes; load average at start "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; profile "
          f"BAILOUT_HYPOTHESIS_PROFILE={os.environ.get('BAILOUT_HYPOTHESIS_PROFILE', 'default')}", flush=True)
    table = []
    for label, work, want, met in rows:
        n = args.test_pairs if "pytest" in label else args.pairs
        s = summary(pairs(work, n))
        table.append((label, s, want, met(s)))
        print(f"  measured: {label}: {s['seconds']:.3f} s, {s['ratio']:.2f}x floor ({s['floor']:.3f} s)",
              flush=True)

    linear = None
    if not args.no_linearity:
        sizes = (10_000, 50_000, 100_000)
        by_size = {100_000: next(s for label, s, _, _ in table if label.startswith("pre-rolled"))}
        for rows_n in sizes[:2]:
            by_size[rows_n] = summary(pairs(build("--only", "prerolled", "--paper", "a4", "--rows", str(rows_n)),
                                            args.pairs))
        slopes = {}
        for key in ("seconds", "rss"):
            low = (by_size[50_000][key] - by_size[10_000][key]) / 40
            high = (by_size[100_000][key] - by_size[50_000][key]) / 50
            slopes[key] = (low, high)
        # Linear: the second stretch costs no more per row than the first (slower per row would be
        # super-linear; cheaper, such as memory that stays flat, is fine).
        linear = all(high <= (1 + LINEAR_TOLERANCE) * max(low, 0) + SLACK[key] for key, (low, high) in slopes.items())

    print()
    print(f"{'work':44} {'median s':>9} {'x floor':>8} {'peak MiB':>9}  {'want':26} met?")
    floors = [s["floor"] for _, s, _, _ in table]
    print(f"{'floor: bare canvas, 4 A4 pages x 140 counters':44} {statistics.median(floors):9.3f} {1:8.2f} "
          f"{'':>9}")
    for label, s, want, ok in table:
        with_linear = label.startswith("pre-rolled") and linear is not None
        shown, met = (want + ", linear", ok and linear) if with_linear else (want, ok)
        print(f"{label:44} {s['seconds']:9.3f} {s['ratio']:8.2f} {s['rss']:9.1f}  {shown:26} {'yes' if met else 'NO'}")
    if linear is not None:
        print()
        print("pre-rolled A4, linearity (medians):")
        print(f"{'rows':>8} {'seconds':>8} {'x floor':>8} {'peak MiB':>9}")
        for rows_n in sizes:
            s = by_size[rows_n]
            print(f"{rows_n:>8} {s['seconds']:8.3f} {s['ratio']:8.2f} {s['rss']:9.1f}")
        (t_low, t_high), (m_low, m_high) = slopes["seconds"], slopes["rss"]
        print(f"per 1,000 rows: {t_low:.3f} s then {t_high:.3f} s; {m_low:.2f} MiB then {m_high:.2f} MiB "
              f"-> {'linear' if linear else 'NOT linear'}")
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
