"""What the per-user cache saves: each piece of work with an empty cache against the same with a warm one.

    python benchmarks/bench_cache.py [--pairs 7] [--only template,catalogue,build,release]

The cache (generator/cache.py) keeps what a build derives from its inputs and would otherwise
make again in every process: each catalogue as Babel parsed it, the CLDR list patterns, and the
aid template's Jinja bytecode.  Fresh processes, A B A B: A with an empty cache folder of its own
(BAILOUT_CACHE, a new one each run), B with a warm one; each row prints both medians, what the
warm cache saves and the median of the pair-by-pair ratios empty / warm.  Rows (--only picks some):

  template   the aid template made ready (aid_text.compiled_template), timed inside a fresh process:
             compiled by Jinja against its bytecode read back
  catalogue  the German catalogue (words.load_words("de")), timed inside a fresh process: Babel's
             import and parse against the parsed table read back
  build      `bailout build`, the default kit, as a whole process
  release    `bailout release --lang en,de,fr`, as a whole process
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from paired import ROOT, alternate, bailout, compile_kit, cores, load, private_cache

# Run from the repository's folder: the time of one call, printed in seconds.
INSIDE = """\
import sys, time
from pathlib import Path
if sys.argv[1] == "template":
    from generator.content.aid_text import compiled_template
    start = time.perf_counter()
    compiled_template(Path("templates"))
else:
    from generator.content.words import load_words
    start = time.perf_counter()
    load_words("de")
print(time.perf_counter() - start)
"""
ROWS = ("template", "catalogue", "build", "release")


def inside(what: str, cache: Path) -> float:
    done = subprocess.run([sys.executable, "-c", INSIDE, what], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "BAILOUT_CACHE": str(cache)}, check=False)
    if done.returncode != 0:
        sys.exit(f"{what} failed:\n{done.stderr}")
    return float(done.stdout)


def inside_row(what: str, pairs: int, warm: Path) -> tuple[list[float], list[float]]:
    inside(what, warm)          # fills the warm cache
    empty, kept = [], []
    for _ in range(pairs):
        with tempfile.TemporaryDirectory(prefix="bench-cold-") as folder:
            empty.append(inside(what, Path(folder) / "cache"))
        kept.append(inside(what, warm))
    return empty, kept


def whole_row(argv: tuple[str, ...], pairs: int) -> tuple[list[float], list[float]]:
    timed = alternate(bailout(*argv, env=lambda out: {"BAILOUT_CACHE": str(out.parent / "cache")}),
                      bailout(*argv), pairs)
    return [r.wall for r in timed.a], [r.wall for r in timed.b]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=7, help="pairs a row (default 7)")
    p.add_argument("--only", default=",".join(ROWS), help=f"comma list of rows (default {','.join(ROWS)})")
    args = p.parse_args()
    only = args.only.split(",")
    if unknown := set(only) - set(ROWS):
        p.error(f"no row {', '.join(sorted(unknown))} (rows: {', '.join(ROWS)})")
    compile_kit()
    print(f"{args.pairs} pairs a row (empty cache, then warm), fresh processes, {cores()}; load {load()}",
          flush=True)
    labels = {"template": "the aid template, in process", "catalogue": "the German catalogue, in process",
              "build": "bailout build", "release": "bailout release --lang en,de,fr"}
    with private_cache() as warm:
        for name in (name for name in ROWS if name in only):
            before = load()
            if name in ("template", "catalogue"):
                empty, kept = inside_row(name, args.pairs, warm)
            else:
                empty, kept = whole_row(("build",) if name == "build" else ("release", "--lang", "en,de,fr"),
                                        args.pairs)
            ratio = statistics.median(e / k for e, k in zip(empty, kept, strict=True))
            cold, hot = statistics.median(empty), statistics.median(kept)
            print(f"{name:9} {labels[name]}: empty {cold:.3f} s, warm {hot:.3f} s, saves {cold - hot:.3f} s; "
                  f"empty / warm {ratio:.2f}x (median of {args.pairs} pair ratios); load {before} -> {load()}",
                  flush=True)


if __name__ == "__main__":
    main()
