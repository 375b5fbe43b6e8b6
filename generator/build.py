"""`bailout build`: render every output in memory, then write them all atomically.

Nothing touches the output folder until every file has rendered; then each is written under a
temporary name and all are renamed at the end, so a failed build leaves earlier outputs as
they were.
"""

import hashlib
import importlib
import os
import sys
import tempfile
from pathlib import Path

from .data import load
from .errors import UsageError
from .odds import compute
from .options import BuildOptions
from .layout.paper import PAPERS

# part -> (module under generator.render, file stem, title in the kit's bookmarks)
PARTS = {
    "aid": ("aid", "player-aid", "Player aid"),
    "prerolled": ("prerolled", "prerolled", "Pre-rolled bail-out tables"),
    "counters": ("counters", "counters", "Crew counters"),
}


def build(args):
    options = BuildOptions.from_args(args)
    kit = load(args.data)
    outputs = render_all(kit, options, progress=None if args.quiet else _progress)
    write_all(Path(args.out), outputs)
    return outputs


def render_all(kit, options, progress=None):
    """{file name: bytes} for every output the options ask for, in a fixed order."""
    from .render.common import BuildContext
    ctx = BuildContext(kit, compute(kit), options)
    outputs = {}
    for part in options.parts:
        module_name, stem, _ = PARTS[part]
        module = importlib.import_module(f".render.{module_name}", __package__)
        for paper in options.papers:
            name = f"{stem}-{paper}.pdf"
            outputs[name] = module.render(ctx, PAPERS[paper])
            progress and progress(name, outputs[name])
        for name, content in getattr(module, "extra_files", lambda ctx: {})(ctx).items():
            outputs[name] = content
            progress and progress(name, content)
    return outputs


def write_all(out, outputs):
    """Write each output under a temporary name in `out`, then rename them all into place."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--out {out}: cannot create the folder ({error.strerror})") from None
    temps = []
    try:
        for name, content in outputs.items():
            if Path(name).name != name:     # names are ours, but never let one escape --out
                raise UsageError(f"refusing to write {name!r} outside {out}")
            fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out)
            temps.append((temp, out / name))
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
        for temp, final in temps:
            os.replace(temp, final)
    except OSError as error:
        raise UsageError(f"--out {out}: cannot write ({error.strerror})") from None
    finally:
        for temp, _ in temps:
            if os.path.exists(temp):
                os.unlink(temp)


def _progress(name, content):
    if sys.stderr.isatty():
        print(f"  {name}  {len(content):>9,} bytes  sha256 {hashlib.sha256(content).hexdigest()[:12]}",
              file=sys.stderr)
