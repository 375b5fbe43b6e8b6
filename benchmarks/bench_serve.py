"""From saving a data file to the new text on the open HTML aid, in real Chromium.

Starts `bailout serve` on a free port in a project folder copied from the kit, opens
/player-aid.html in headless Debian Chromium, then saves data/rules.toml five times, each time
with a new variant credit.  Each latency runs from just before the save to the moment the
reloaded page's document was parsed (performance.timing.domInteractive, the page's own clock,
so the polling that finds the text adds nothing).  Prints each and the median; exits 1 when the
median is over 0.3 s.

    python benchmarks/bench_serve.py [--edits N] [--limit SECONDS]
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import Served, chromium, shown, wait_for


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--edits", type=int, default=5)
    p.add_argument("--limit", type=float, default=0.3)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as temp:
        served = Served(Path(temp) / "kit")
        driver = chromium(Path(temp) / "profile")
        try:
            driver.get(served.url + "player-aid.html")
            wait_for(lambda: shown(driver, "Tom Cundiff"))
            time.sleep(1.0)             # the page's event stream is open
            latencies = []
            for n in range(1, args.edits + 1):
                text = f"Benchmark editor {n}"
                saved = time.time()
                served.set_credit(text)
                wait_for(lambda text=text: shown(driver, text), step=0.005)
                parsed = driver.execute_script("return performance.timing.domInteractive") / 1000
                latencies.append(parsed - saved)
                print(f"edit {n}: {latencies[-1] * 1000:.0f} ms")
                time.sleep(0.6)         # the next save is a new batch, as an editor's would be
        finally:
            driver.quit()
            served.stop()
    median = statistics.median(latencies)
    print(f"median {median * 1000:.0f} ms over {len(latencies)} edits (limit {args.limit * 1000:.0f} ms)")
    return 0 if median <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
