"""`bailout build`: render every output in memory, then write them all atomically.

Nothing touches the output folder until every file has rendered; then each is written under a
temporary name and all are renamed at the end, so a failed build leaves earlier outputs as
they were.
"""

import hashlib
import os
import sys
import tempfile
from pathlib import Path

from .data import load
from .errors import UsageError
from .odds import compute
from .options import BuildOptions
from .layout.paper import PAPERS
from .outputs import all_file_names, part_pdf, selected


def build(args):
    options = BuildOptions.from_args(args)
    kit = load(args.data)
    out = Path(args.out)
    earlier = sorted(name for name in all_file_names(PAPERS.values()) if (out / name).is_file())
    outputs = render_all(kit, options, progress=None if args.quiet else _progress, earlier=earlier)
    write_all(out, outputs)
    stale = [name for name in earlier if name not in outputs]
    if stale and not args.quiet:
        print(f"note: {out} still holds files this build did not make (see MANIFEST.txt): "
              f"{', '.join(stale)}", file=sys.stderr)
    return outputs


def render_all(kit, options, progress=None, earlier=()):
    """{file name: bytes} for every output the options ask for, in a fixed order.

    Outputs come from the registry (generator/outputs.py); MANIFEST.txt always, naming any of
    the `earlier` files (already in the output folder) that this build leaves as they were.
    """
    from .render.common import BuildContext
    from .render.glyphs import check_printable
    _check_epoch()
    check_printable(kit)        # before any part: no PDF may print an empty box for a name
    ctx = BuildContext(kit, compute(kit), options)
    if options.since is not None:
        ctx = BuildContext(kit, ctx.odds, options, changes=since_base(kit, options))
    progress = progress or (lambda name, content: None)
    outputs = {}
    for output in selected(options.parts):
        render = output.load()
        for paper in ([PAPERS[p] for p in options.papers] if output.per_paper else [None]):
            name = output.file_name(paper)
            if output.merges:
                sources = [(o.title, outputs[o.file_name(paper)]) for o in map(part_pdf, output.merges)]
                outputs[name] = render(ctx, paper, sources)
            else:
                outputs[name] = render(ctx, paper)
            progress(name, outputs[name])
    outputs["MANIFEST.txt"] = manifest(kit, outputs, options, [n for n in earlier if n not in outputs],
                                       ctx.changes)
    progress("MANIFEST.txt", outputs["MANIFEST.txt"])
    return outputs


def _check_epoch():
    """reportlab reads SOURCE_DATE_EPOCH for the embedded dates; a bad one would crash it."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not epoch.isdigit():
        raise UsageError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got {epoch!r}")


def since_base(kit, options):
    """aid_changes.Since for `--since OLD`: the old data loaded, diffed against `kit`."""
    from .aid_changes import Since
    from .render.common import BuildContext
    from .revisions import since
    compared = since(options.since, kit, options.sets)
    old_kit = compared.old_kit
    label = compared.old.label if compared.old.commit else f"data {old_kit.short_hash}"
    return Since(options.since, label, compared.groups, BuildContext(old_kit, compute(old_kit), options),
                 compared.old.commit, old_kit.hash)


def manifest(kit, outputs, options, not_rebuilt=(), since=None):
    """Each file of this build with its SHA-256 and page count, the data hash and kit version."""
    from . import __version__
    lines = [f"871 Bail-Out print kit {__version__}", f"data {kit.hash}",
             f"parts {', '.join(options.parts)}; papers {', '.join(options.papers)}"]
    if since is not None:
        count = sum(len(changes) for _, changes in since.groups)
        lines.append(f"since {since.spec}: {f'commit {since.commit}, ' if since.commit else ''}data {since.data_hash}; "
                     f"{count} printed change{'s' if count != 1 else ''} marked on the player aid")
    lines += ["", f"{'file':24} {'pages':>5}  sha256"]
    for name in sorted(outputs):
        content = outputs[name]
        pages = _page_count(content) if name.endswith(".pdf") else "-"
        lines.append(f"{name:24} {pages:>5}  {hashlib.sha256(content).hexdigest()}")
    if not_rebuilt:
        lines += ["", "Not made by this build (left from an earlier one, maybe from other data or options):"]
        lines += [f"  {name}" for name in not_rebuilt]
    return ("\n".join(lines) + "\n").encode()


def _page_count(content):
    import io
    from pypdf import PdfReader
    return len(PdfReader(io.BytesIO(content)).pages)


_UMASK = os.umask(0)
os.umask(_UMASK)


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
            os.chmod(temp, 0o666 & ~_UMASK)     # mkstemp makes 0600; outputs are for sharing
        for temp, final in temps:
            os.replace(temp, final)
    except OSError as error:
        raise UsageError(f"--out {out}: cannot write ({error.strerror})") from None
    finally:
        for temp, _ in temps:
            if os.path.exists(temp):
                os.unlink(temp)


def _progress(name, content):
    if sys.stderr.isatty():     # a line per file on a terminal; logs and pipes stay quiet
        print(f"  {name}  {len(content):>9,} bytes  sha256 {hashlib.sha256(content).hexdigest()[:12]}",
              file=sys.stderr)
