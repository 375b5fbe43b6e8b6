"""What a second process gains: each command with --jobs 2 against the same with --jobs 1, pair by pair.

    python benchmarks/bench_parallel.py [--pairs 7] [--only build,rows,release,release7] [--rows 100000]
                                        [--langs en,de,fr]

Every measurement is a whole process started fresh (the interpreter, the imports and a worker's
start count), A (--jobs 1) then B (--jobs 2), --pairs times.  Each row reports both medians of
wall seconds and of CPU seconds (the worker's counted), the median of the pair-by-pair ratios
--jobs 1 / --jobs 2 (how many times sooner two processes end), and the load average before and
after.  The kit uses a second process only where this shows at least 1.25x on two idle cores;
a row measured at a load of 1 or more on two cores says little about an idle machine.

Rows (--only picks some, in this order):

  build     `bailout build`: the default kit, each paper's files in a process of their own
  rows      `bailout build --rows N`: the default kit with a long table on each paper
  release   `bailout release --lang LANGS` (default en,de,fr): those editions over two processes
  release7  `bailout release --lang en,de,fr,it,es,pl,ru`: seven editions over two processes
"""

import argparse

from paired import alternate, bailout, compile_kit, cores, load, median, private_cache

WANT = 1.25
ROWS = ("build", "rows", "release", "release7")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=7, help="pairs a row (default 7)")
    p.add_argument("--only", default=",".join(ROWS), help=f"comma list of rows (default {','.join(ROWS)})")
    p.add_argument("--rows", default="100000", help="the rows row's table (default 100000)")
    p.add_argument("--langs", default="en,de,fr", help="the release row's languages (default en,de,fr)")
    args = p.parse_args()
    only = args.only.split(",")
    if unknown := set(only) - set(ROWS):
        p.error(f"no row {', '.join(sorted(unknown))} (rows: {', '.join(ROWS)})")
    commands = {"build": ("build",), "rows": ("build", "--rows", args.rows),
                "release": ("release", "--lang", args.langs), "release7": ("release", "--lang", "en,de,fr,it,es,pl,ru")}
    compile_kit()
    print(f"{args.pairs} pairs a row (--jobs 1, then --jobs 2), fresh processes, {cores()}; load {load()}",
          flush=True)
    table = []
    with private_cache():
        for name in (name for name in ROWS if name in only):
            before = load()
            timed = alternate(bailout(*commands[name], "--jobs", "1"), bailout(*commands[name], "--jobs", "2"),
                              args.pairs)
            table.append((" ".join(commands[name]), timed, before, load()))
            print(f"  {table[-1][0]}: ratios {' '.join(f'{r:.2f}' for r in timed.ratios)}", flush=True)
    print(f"\n{'command':45} {'--jobs 1':>8} {'--jobs 2':>8} {'1 / 2':>6} {'CPU 1':>7} {'CPU 2':>7}  "
          f"{'load before -> after':31} >= {WANT}x?")
    for command, timed, before, after in table:
        ratio = timed.ratio     # --jobs 1 / --jobs 2: how many times sooner two processes end
        print(f"{command:45} {median(timed.a, 'wall'):7.3f}s {median(timed.b, 'wall'):7.3f}s {ratio:5.2f}x "
              f"{median(timed.a, 'cpu'):6.3f}s {median(timed.b, 'cpu'):6.3f}s  {before + ' -> ' + after:31} "
              f"{'yes' if ratio >= WANT else 'no'}")


if __name__ == "__main__":
    main()
