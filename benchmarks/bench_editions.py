"""The kit at the scale of editions, each row a ratio measured pair by pair.

    python benchmarks/bench_editions.py [--pairs 5] [--langs en,de,fr,it,es] [--tests]

Every measurement is a whole process started fresh (interpreter start and imports count), its
peak memory the largest single process of it (os.wait4: a build's workers included).  The
two commands of a row alternate, A B A B ..., and the row reports both medians and the median
of the pair-by-pair ratios: the machine is shared and noisy, so a ratio to a command measured a
moment before holds where absolute seconds do not.

Rows:
  bailout build (full kit, both papers) / the floor (benchmarks/bench_floor.py)   want <= 4.0x
  bailout release --lang LANGS / bailout release (English only)                   want <= 3.0x
  peak memory of that release                                                      want < 300 MiB
  serve: save a data file -> new text on the open HTML aid (benchmarks/bench_serve.py, when present)
  README's test command (--tests)                                                  want <= 60 s
"""

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_ratios import BAILOUT, FLOOR, run  # noqa: E402

Command = Callable[[Path], list[str]]


def fixed(argv: list[str]) -> Command:
    return lambda out: argv


def bailout(*args: str) -> Command:
    return lambda out: [*BAILOUT, *args, "--quiet", "--out", str(out)]


def paired(a: Command, b: Command, n: int) -> dict[str, float]:
    """Medians of A and B (seconds), the median of the pair-by-pair ratios A/B, A's peak MiB."""
    results = []
    for _ in range(n):
        with tempfile.TemporaryDirectory(prefix="bench-editions-") as folder:
            first = run(a(Path(folder) / "a"))
            second = run(b(Path(folder) / "b"))
        results.append((first, second))
    return {"a": statistics.median(x[0] for x, _ in results), "b": statistics.median(y[0] for _, y in results),
            "ratio": statistics.median(x[0] / y[0] for x, y in results), "rss": max(x[1] for x, _ in results)}


def serve_latency() -> str | None:
    """The median the serve benchmark prints, or None where it cannot run here."""
    script = ROOT / "benchmarks" / "bench_serve.py"
    if not script.exists():
        return None
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          check=False)
    found = re.search(r"median\s*[:=]?\s*([0-9.]+)\s*(ms|s)\b", done.stdout)
    if done.returncode != 0 or not found:
        return None
    return f"{float(found.group(1)) / (1000 if found.group(2) == 'ms' else 1):.3f}"


def compiled() -> None:
    """The kit's bytecode written, as installing its wheel leaves it: in a checkout under
    PYTHONDONTWRITEBYTECODE=1 (some shells and containers set it) every run would compile again
    each module edited since its last .pyc, and time that instead of the build."""
    compileall.compile_dir(ROOT / "generator", quiet=1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=5, help="pairs per row (default 5)")
    p.add_argument("--langs", default="en,de,fr,it,es", help="the languages of the many-edition release")
    p.add_argument("--tests", action="store_true", help="also time README's test command (a minute and a half or so)")
    args = p.parse_args()
    compiled()
    print(f"{args.pairs} pairs a row, fresh processes, {os.cpu_count()} cores; load average at start "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    rows = []
    build = paired(bailout("build"), fixed(FLOOR), args.pairs)
    rows.append(("bailout build (full kit, both papers)", f"{build['a']:.3f} s", f"{build['ratio']:.2f}x floor "
                 f"({build['b']:.3f} s)", "<= 4.0x floor", build["ratio"] <= 4.0))
    release = paired(bailout("release", "--lang", args.langs), bailout("release"), args.pairs)
    rows.append((f"bailout release --lang {args.langs}", f"{release['a']:.3f} s",
                 f"{release['ratio']:.2f}x release ({release['b']:.3f} s)", "<= 3.0x English-only release",
                 release["ratio"] <= 3.0))
    rows.append(("peak memory of that release", f"{release['rss']:.1f} MiB", "", "< 300 MiB", release["rss"] < 300))
    latency = serve_latency()
    rows.append(("serve: save data -> new text on the open aid", f"{latency} s" if latency else "not run",
                 "median of 5 edits", "<= 0.3 s", latency is not None and float(latency) <= 0.3))
    if args.tests:
        seconds, _ = run([sys.executable, "-m", "pytest", "-q"])
        rows.append(("README's test command (python -m pytest -q)", f"{seconds:.1f} s", "", "<= 60 s", seconds <= 60))
    print()
    print(f"{'work':46} {'median':>12}  {'ratio':34} {'want':30} met?")
    for label, value, ratio, want, ok in rows:
        print(f"{label:46} {value:>12}  {ratio:34} {want:30} {'yes' if ok else 'NO'}")
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
