"""What the cache's Jinja bytecode saves: whether it earns its place (docs/guarantees.md, the cache).

    python benchmarks/bench_cache.py [--pairs 7]

Fresh processes, A B A B with a warm cache both ways: A with the aid template's bytecode read from
the cache, B with it compiled afresh (only the bytecode left out: the catalogues come from the
cache in both).  Rows: the template alone (load against compile, inside the process), `bailout
build --only aid --paper a4` and the default `bailout build`, each as a whole process.  Prints
the medians, the median pair-by-pair ratio B / A and the load average.
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
# The driver: the kit's command line, with the bytecode left out of the cache when asked.
DRIVER = """\
import sys, time
from generator.content import aid_text
if sys.argv[1] == "compile":
    aid_text._BytecodeCache.load_bytecode = lambda self, bucket: None
if sys.argv[2] == "template":
    from pathlib import Path
    started = time.perf_counter()
    aid_text.compiled_template(Path("templates"))
    print(time.perf_counter() - started)
else:
    from generator.cli import main
    sys.exit(main(sys.argv[3:]))
"""


def timed(how: str, what: str, args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", DRIVER, how, what, *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    return float(done.stdout) if what == "template" else wall


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--pairs", type=int, default=7)
    pairs = p.parse_args().pairs
    with tempfile.TemporaryDirectory() as temp:
        env = {**os.environ, "BAILOUT_CACHE": str(Path(temp) / "cache"), "BAILOUT_JOBS": "1"}
        out = str(Path(temp) / "out")
        aid = ["build", "--only", "aid", "--paper", "a4", "--out", out, "-q"]
        rows = [("the aid template, in process", "template", []),
                ("build --only aid --paper a4", "build", aid),
                ("build (the default kit)", "build", ["build", "--out", out, "-q"])]
        print(f"load average {os.getloadavg()[0]:.2f}; {pairs} pairs a row, A = bytecode from the cache, "
              f"B = compiled afresh")
        print(f"{'what':32} {'A median s':>10} {'B median s':>10} {'B / A':>7}")
        for label, what, args in rows:
            timed("load", what, args, env)          # warm: every entry made, the files in the page cache
            a, b = [], []
            for _ in range(pairs):
                a.append(timed("load", what, args, env))
                b.append(timed("compile", what, args, env))
            ratio = statistics.median(y / x for x, y in zip(a, b, strict=True))
            print(f"{label:32} {statistics.median(a):10.3f} {statistics.median(b):10.3f} {ratio:7.2f}")
        print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
