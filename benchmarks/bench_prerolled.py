"""Time the pre-rolled tables at 1k, 10k and 100k rows: PDF for one paper + CSV, in memory.

    python benchmarks/bench_prerolled.py [--runs 5] [--paper a4] [--mode balanced] [--sizes 1000,10000,100000]

Each size runs in a fresh process, so its peak RSS is its own.  Reported per size: median,
min and max wall time over --runs builds (rows generated, PDF rendered, CSV written), rows
per second, seconds per 1,000 rows (flat = linear), peak RSS, and the peak of Python
allocations in one extra build under tracemalloc (kept out of the timed runs: it slows them).
This is the in-process view, for finding where rows cost time and memory (flat seconds per
1,000 rows: the table is linear); benchmarks/bench_speed.py times whole processes (its rows and
million rows).
"""

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build_once(kit, odds, rows, paper, mode):
    from generator.content.context import make_context
    from generator.content.rows import table_for
    from generator.data.sources import shipped
    from generator.layout.paper import PAPERS
    from generator.options import BuildOptions
    from generator.render import csv_rows
    from generator.render.pdf import prerolled_pdf as prerolled
    ctx = make_context(kit, odds, BuildOptions(papers=(paper,), parts=("prerolled",), rows=rows, mode=mode),
                       shipped("templates"))
    table = table_for(ctx)
    pdf = prerolled.render(ctx, PAPERS[paper], table)
    csv = csv_rows.render(ctx, table)
    return len(pdf), len(csv)


def one_size(rows, runs, paper, mode):
    """Runs in the child process: print one JSON line of figures."""
    from generator.data import load
    from generator.engine.odds import compute
    kit = load(ROOT / "data")
    odds = compute(kit)
    build_once(kit, odds, 100, paper, mode)          # warm: fonts registered, modules imported
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pdf_bytes, csv_bytes = build_once(kit, odds, rows, paper, mode)
        times.append(time.perf_counter() - start)
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss   # Linux: kilobytes
    tracemalloc.start()
    build_once(kit, odds, rows, paper, mode)
    traced_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(json.dumps({"rows": rows, "times": times, "rss_kb": rss_kb, "traced_peak": traced_peak,
                      "pdf_bytes": pdf_bytes, "csv_bytes": csv_bytes}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("--mode", choices=("balanced", "independent"), default="balanced")
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        return one_size(args.one, args.runs, args.paper, args.mode)
    print(f"pre-rolled tables, {args.paper}, {args.mode}, PDF + CSV in memory, median of {args.runs} runs")
    print(f"{'rows':>8} {'median s':>9} {'min':>7} {'max':>7} {'rows/s':>9} {'s/1k rows':>10} "
          f"{'peak RSS':>10} {'py peak':>9} {'PDF':>9}")
    for rows in (int(s) for s in args.sizes.split(",")):
        done = subprocess.run([sys.executable, __file__, "--one", str(rows), "--runs", str(args.runs),
                               "--paper", args.paper, "--mode", args.mode],
                              capture_output=True, text=True, check=True)
        r = json.loads(done.stdout)
        med = statistics.median(r["times"])
        print(f"{rows:>8} {med:9.3f} {min(r['times']):7.3f} {max(r['times']):7.3f} {rows / med:9.0f} "
              f"{med / rows * 1000:10.4f} {r['rss_kb'] / 1024:8.1f}MB {r['traced_peak'] / 2**20:7.1f}MB "
              f"{r['pdf_bytes'] / 2**20:7.1f}MB")


if __name__ == "__main__":
    main()
