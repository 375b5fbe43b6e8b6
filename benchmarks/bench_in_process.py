"""A build's own work, imports left out: the CPU a build takes in a process that has built once
already (what every test's build and every `bailout serve` rebuild costs), now against an
earlier checkout, pair by pair.

    python benchmarks/bench_in_process.py --base FOLDER [--pairs 8] [--builds 5] [-- BUILD ARGS]

Each side of a pair is a fresh process running the checkout's own code (FOLDER, or this one):
it builds once (imports, fonts), then --builds times more into fresh folders, and reports the
median CPU seconds (time.process_time, with BAILOUT_JOBS=1: one process, so CPU time is the
build's, and less swayed by a busy machine than the clock).  Both sides read this checkout's
data/ and templates/.  Prints each side's median over the pairs and the median of the
pair-by-pair ratios now / base.  BUILD ARGS (after --) go to `bailout build` (default: none,
the full kit on both papers).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What each side runs, in a fresh interpreter whose first path is the checkout's folder.
SIDE = """
import os, statistics, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
os.environ["BAILOUT_JOBS"] = "1"
import generator
assert generator.__file__.startswith(sys.argv[1]), generator.__file__
from generator.cli import main
args = ["build", "--quiet", "--data", sys.argv[3], "--templates", sys.argv[4], *sys.argv[5:]]
main([*args, "--out", tempfile.mkdtemp()])
times = []
for _ in range(int(sys.argv[2])):
    out = tempfile.mkdtemp()
    start = time.process_time()
    status = main([*args, "--out", out])
    times.append(time.process_time() - start)
    assert status == 0, status
print(statistics.median(times))
"""


def side(folder: Path, builds: int, args: list[str]) -> float:
    done = subprocess.run([sys.executable, "-c", SIDE, str(folder), str(builds), str(ROOT / "data"),
                           str(ROOT / "templates"), *args], check=False, capture_output=True, text=True,
                          cwd=tempfile.gettempdir())
    if done.returncode != 0:
        sys.exit(f"bench_in_process: {folder}: {done.stderr.strip().splitlines()[-1:]}")
    return float(done.stdout.split()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", type=Path, required=True, help="a checkout of the commit to compare with")
    p.add_argument("--pairs", type=int, default=8)
    p.add_argument("--builds", type=int, default=5, help="builds timed in each process, after the first")
    p.add_argument("build_args", nargs="*", help="after --: arguments for bailout build")
    a = p.parse_args()
    now, base, ratios = [], [], []
    for _ in range(a.pairs):
        b = side(a.base.resolve(), a.builds, a.build_args)
        n = side(ROOT, a.builds, a.build_args)
        now.append(n)
        base.append(b)
        ratios.append(n / b)
    print(f"in-process build {' '.join(a.build_args) or '(the full kit)'}: now / {a.base}: "
          f"{statistics.median(now):.3f} s / {statistics.median(base):.3f} s CPU = "
          f"{statistics.median(ratios):.2f}x (median of {a.pairs} pair ratios; "
          f"{', '.join(f'{r:.2f}' for r in ratios)}); load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
