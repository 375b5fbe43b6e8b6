"""Where a build's time goes: the full default build and each part, in-process, nothing written.

    python benchmarks/bench_build.py [--runs 5]

Median of --runs after a warm-up build, so imports and font registration are left out.  Also
times `bailout --help` as a fresh process (median of --runs), which must not load reportlab,
and what parsing the kit's IBM Plex faces costs a process (each TrueType file read afresh, as
every process and worker reads them: the eight faces, and the five a build without the aid reads),
and one edition's counter face images for a release.
Whole builds as fresh processes, against the floor, are benchmarks/bench_ratios.py's job.
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.data import load  # noqa: E402
from generator.make.pipeline import render_all  # noqa: E402
from generator.options import PARTS, BuildOptions  # noqa: E402


def median_time(fn, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    runs = p.parse_args().runs
    kit = load(ROOT / "data")
    render_all(kit, BuildOptions())          # warm: fonts registered, modules imported
    rows = [("full kit, both papers", BuildOptions())]
    rows += [(f"{part}, both papers", BuildOptions(parts=(part,))) for part in PARTS]
    rows += [(f"full kit, {paper} only", BuildOptions(papers=(paper,))) for paper in ("a4", "letter")]
    print(f"{'what':28} {'median s':>9} {'min':>7} {'max':>7}   ({runs} runs)")
    results = {}
    for label, options in rows:
        med, lo, hi = median_time(lambda options=options: render_all(kit, options), runs)
        results[label] = med
        print(f"{label:28} {med:9.3f} {lo:7.3f} {hi:7.3f}")
    full = results["full kit, both papers"]
    parts = sum(results[f"{part}, both papers"] for part in PARTS)
    print(f"full kit / sum of parts = {full / parts:.2f} (merge and manifest overhead)")
    help_ = median_time(lambda: subprocess.run([sys.executable, "-m", "generator", "--help"], check=True,
                                                capture_output=True, cwd=ROOT), runs)
    print(f"{'bailout --help':28} {help_[0]:9.3f} {help_[1]:7.3f} {help_[2]:7.3f}")
    fonts = median_time(parse_faces, runs)
    print(f"{'parse the 8 IBM Plex faces':28} {fonts[0]:9.3f} {fonts[1]:7.3f} {fonts[2]:7.3f}")
    faces = median_time(face_images(kit), runs)
    print(f"{'release face images, English':28} {faces[0]:9.3f} {faces[1]:7.3f} {faces[2]:7.3f}")


def face_images(kit):
    """A release's counter face PNGs of one edition, from its A4 counters PDF made once here."""
    from generator.content.words import load_words
    from generator.render.images import FACE_PAPER
    from generator.render.images import face_images as images
    options = BuildOptions(parts=("counters",), papers=(FACE_PAPER,))
    counters = render_all(kit, options)[f"counters-{FACE_PAPER}.pdf"]
    return lambda: images(kit, options, counters, load_words(options.lang))


def parse_faces():
    from reportlab.pdfbase.ttfonts import TTFont

    from generator.render.pdf.canvas import FONT_FOLDER
    for file in sorted(Path(FONT_FOLDER).glob("*.ttf")):
        TTFont(file.stem, str(file))


if __name__ == "__main__":
    main()
