"""The kit's speed against what it is held to: each row the kit's command (A) alternated with its
reference (B), fresh processes, and the median of the pair-by-pair ratios A / B.

    python benchmarks/bench_speed.py [--pairs 7] [--only kit,digital,release,release1,rows,million] [--rows 100000]
                                     [--base FOLDER] [--test-runs 1]

Rows (--only picks some, in this order):

  kit       `bailout build --only aid,prerolled,counters` (the printed kit: the default build but
            its digital tables, one process) / the same 48 pages written by bare reportlab with the
            same fonts (bench_same_pages.py): wants at most 2x
  digital   `bailout build` (the default build, the VASSAL files and the Tabletop Simulator
            object too) / the printed kit alone: what the digital tables add, for information
  release   `bailout release --lang en,de,fr,it,es,pl,ru` (its default --jobs auto) / `bailout
            release` (one edition): wants at most 4x
  release1  the same seven editions with --jobs 1 / one edition: for information
  rows      `bailout build --only prerolled --paper a4 --rows N` / a bare canvas drawing the same
            cells a string at a time (bench_canvas_rows.py --rows N): wants at most 0.45x
  million   `bailout build --only prerolled --paper a4 --rows 1000000`, one run: its seconds and
            peak memory, which wants to stay under 200 MiB
  tests     README's test command, `python -m pytest -q`, as README runs it (none of the variables
            CI sets, the user's own cache), --test-runs times: its wall and CPU seconds and
            pytest's closing line (what passed and skipped); it wants about a minute.  Minutes a
            run, so only when asked for (--only tests), never by default

Each row prints both medians (wall seconds), A's CPU seconds (its workers' included) and peak
memory, the ratio, what it wants and the load average before and after.  --base FOLDER (a
checkout of another commit: `git worktree add /tmp/base COMMIT`) adds, for the kit, release and
tests rows asked for, the same command run here against it run from there, A B A B: now / then
(for tests, each of the --test-runs runs followed by one in FOLDER).
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
from typing import NamedTuple

from paired import (
    ROOT,
    Command,
    Pairs,
    alternate,
    bailout,
    compile_kit,
    cores,
    load,
    median,
    private_cache,
    run,
    script,
)

SEVEN = "en,de,fr,it,es,pl,ru"
PRINTED = "aid,prerolled,counters"      # the parts that print (the merged kit with them)
ROWS = ("kit", "digital", "release", "release1", "rows", "million")


def report(name: str, label: str, timed: Pairs, want: float | None, before: str) -> None:
    a, b = median(timed.a, "wall"), median(timed.b, "wall")
    verdict = "" if want is None else f"; wants <= {want}x: {'met' if timed.ratio <= want else 'NOT MET'}"
    print(f"{name:9} {label}: {a:.3f} s / {b:.3f} s = {timed.ratio:.2f}x (median of {len(timed.a)} pair ratios; "
          f"{min(timed.ratios):.2f}-{max(timed.ratios):.2f}){verdict}; A's CPU {median(timed.a, 'cpu'):.3f} s, "
          f"peak {max(r.peak for r in timed.a):.0f} MiB; load {before} -> {load()}", flush=True)


def row(name: str, label: str, a: Command, b: Command, pairs: int, want: float | None = None) -> None:
    before = load()
    report(name, label, alternate(a, b, pairs), want, before)


def million() -> None:
    table = ("build", "--only", "prerolled", "--paper", "a4", "--rows")
    run(bailout(*table, "200"))         # untimed: the bytecode written, the cache filled
    before = load()
    done = run(bailout(*table, "1000000"))
    verdict = "met" if done.peak < 200 else "NOT MET"
    print(f"million   build --only prerolled --paper a4 --rows 1000000: {done.wall:.1f} s, CPU {done.cpu:.1f} s, "
          f"peak {done.peak:.0f} MiB (wants under 200 MiB: {verdict}); load {before} -> {load()}", flush=True)


# What CI sets and a reader's shell does not: README's command runs without them
CI_VARIABLES = ("CI", "BAILOUT_SLOW_TESTS", "BAILOUT_HYPOTHESIS_PROFILE")


class SuiteRun(NamedTuple):
    wall: float         # seconds
    cpu: float          # seconds, the test workers and the processes they waited for included
    status: int
    closing: str        # pytest's closing line: what passed and skipped


def suite_run(where: Path) -> SuiteRun:
    """README's test command once, a fresh process in `where` (this repository, or another
    checkout: its tests and its code) with the environment a reader has."""
    env = {k: v for k, v in os.environ.items() if k not in CI_VARIABLES}
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "pytest", "-q"], cwd=where, stdout=out,
                                 stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        closing = " ".join(out.read().decode(errors="replace").strip().splitlines()[-1:])
    return SuiteRun(wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status), closing)


def readme_tests(runs: int, base: Path | None) -> None:
    """README's test command `runs` times: each run's wall and CPU seconds and pytest's closing
    line; with `base`, each run followed by the same command in that checkout (A B A B), and the
    medians of the pair-by-pair ratios now / then."""
    walls, cpus = [], []
    for _ in range(runs):
        now = told_suite_run("tests", ROOT)
        if base is not None:
            then = told_suite_run("tests/base", base)
            walls.append(now.wall / then.wall)
            cpus.append(now.cpu / then.cpu)
    if walls:
        print(f"tests/base now / then: wall {statistics.median(walls):.2f}x ({min(walls):.2f}-{max(walls):.2f}), "
              f"CPU {statistics.median(cpus):.2f}x ({min(cpus):.2f}-{max(cpus):.2f}), medians of {len(walls)} "
              f"pair ratios", flush=True)


def told_suite_run(name: str, where: Path) -> SuiteRun:
    """suite_run(where), printed as a row named `name` with the load before and after."""
    before = load()
    done = suite_run(where)
    print(f"{name:9} python -m pytest -q{'' if where == ROOT else f' in {where}'}: {done.wall:.1f} s, CPU "
          f"{done.cpu:.0f} s, exit {done.status}: {done.closing}; load {before} -> {load()}", flush=True)
    return done


def rows_of(args: argparse.Namespace) -> dict[str, Callable[[], None]]:
    n, table = args.pairs, ("build", "--only", "prerolled", "--paper", "a4", "--rows", str(args.rows))
    return {
        "kit": lambda: row("kit", f"build --only {PRINTED} / same pages, bare reportlab",
                           bailout("build", "--only", PRINTED), script("bench_same_pages.py"), n, 2.0),
        "digital": lambda: row("digital", f"build / build --only {PRINTED}", bailout("build"),
                               bailout("build", "--only", PRINTED), n),
        "release": lambda: row("release", f"release --lang {SEVEN} / release", bailout("release", "--lang", SEVEN),
                               bailout("release"), n, 4.0),
        "release1": lambda: row("release1", f"release --lang {SEVEN} --jobs 1 / release",
                                bailout("release", "--lang", SEVEN, "--jobs", "1"), bailout("release"), n),
        "rows": lambda: row("rows", f"{args.rows:,} rows / bare canvas, a string a cell", bailout(*table),
                            script("bench_canvas_rows.py", "--rows", str(args.rows)), n, 0.45),
        "million": million,
    }


def against_base(base: Path, pairs: int, only: list[str]) -> None:
    for name, argv in (("kit", ("build",)), ("release", ("release", "--lang", SEVEN))):
        if name in only:
            row(f"{name}/base", f"{' '.join(argv)}: now / {base}", bailout(*argv), bailout(*argv, cwd=base), pairs)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=7, help="pairs a row (default 7)")
    p.add_argument("--only", default=",".join(ROWS), help=f"comma list of rows (default {','.join(ROWS)})")
    p.add_argument("--rows", type=int, default=100_000, help="the rows row's table (default 100000)")
    p.add_argument("--base", type=Path, help="a checkout of another commit to compare with")
    p.add_argument("--test-runs", type=int, default=1, help="runs of README's test command, --only tests (default 1)")
    args = p.parse_args()
    only = args.only.split(",")
    if unknown := set(only) - {*ROWS, "tests"}:
        p.error(f"no row {', '.join(sorted(unknown))} (rows: {', '.join(ROWS)}, tests)")
    compile_kit(*[args.base] if args.base is not None else [])
    print(f"{args.pairs} pairs a row, fresh processes, {cores()}; load {load()}", flush=True)
    with private_cache():
        table = rows_of(args)
        for name in (name for name in ROWS if name in only):
            table[name]()
        if args.base is not None:
            against_base(args.base, args.pairs, only)
    if "tests" in only:         # with the reader's own cache, as README's command runs
        readme_tests(args.test_runs, args.base)


if __name__ == "__main__":
    main()
