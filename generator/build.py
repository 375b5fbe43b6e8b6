"""`bailout build`: all or nothing, one build at a time per output folder, in bounded memory.

1. Lock: an advisory lock (flock) on LOCK_NAME in --out.  A second build into the same folder
   stops at once with a message naming the folder (it does not wait: a build of a million rows
   takes minutes, and a silent wait looks like a hang).
2. Render: every output goes to its own file in the staging folder STAGING inside --out (one
   filesystem, so the final moves are renames), one at a time; nothing is kept in memory once
   written.  MANIFEST.txt is made last, by streaming the staged files.
3. Commit: a plan naming every file is written, then for each file the earlier one (if any) is
   moved into the staging folder and the new one renamed into place.  Any failure, Ctrl-C or
   SIGTERM before the last rename puts every earlier file back; after the last rename a `done`
   mark is written.  The staging folder is then removed.
After a SIGKILL the staging folder stays; the next build (holding the lock, so nothing else is
using it) finishes what the plan says, rolling back an unfinished commit, and removes it.
"""

import errno
import fcntl
import hashlib
import io
import os
import platform
import re
import shutil
import signal
import stat
import sys
import time
from pathlib import Path

from .data import load
from .errors import UsageError
from .odds import compute
from .options import BuildOptions, check_source_date_epoch
from .layout.paper import PAPERS
from .outputs import all_file_names, part_pdf, selected

LOCK_NAME = ".bailout.lock"
STAGING = ".bailout-staging"        # new/ (rendered files), old/ (the files replaced), plan, done
MANIFEST = "MANIFEST.txt"
# Test hook, read only in the commit phase: seconds to sleep before each rename, so a test can
# interrupt a build or start another one while it is renaming.  Never set it otherwise.
SLOW_COMMIT = "BAILOUT_TEST_SLOW_COMMIT"

_UMASK = os.umask(0)
os.umask(_UMASK)


class Terminated(KeyboardInterrupt):
    """SIGTERM during a build: unwinds like Ctrl-C, so the same clean-up runs."""

    status = 128 + signal.SIGTERM


def build(args):
    options = BuildOptions.from_args(args)
    kit = load(args.data)
    out = Path(args.out)
    progress = None if args.quiet else _progress
    earlier = []

    def make(folder):
        earlier.extend(name for name in all_file_names(PAPERS.values()) if _is_file(out / name))
        return render_files(folder, kit, options, progress=progress, earlier=earlier,
                            notice=None if args.quiet else _notice)
    made = _transaction(out, make)
    stale = [name for name in earlier if name not in made]
    if stale and not args.quiet:
        print(f"note: {out} still holds files this build did not make (see {MANIFEST}): "
              f"{', '.join(stale)}", file=sys.stderr)
    return made


def write_all(out, outputs):
    """Write {name: bytes} into `out` as a build does: under its lock, all or nothing."""
    def make(folder):
        folder.mkdir()
        for name, content in outputs.items():
            _write(folder, name, content)
        return list(outputs)
    _transaction(out, make)


def _transaction(out, make):
    """Lock `out`, let make(staging folder) fill a new folder and return the names, then commit."""
    committed = False
    try:
        with _terminate_as_interrupt(), _Lock(out):
            staging = _fresh_staging(out)
            try:
                names = make(staging / "new")
                _commit(out, staging, names)
                committed = True
            finally:
                _remove(staging)
    except KeyboardInterrupt as interrupt:
        if committed:       # too late to stop: say so, rather than that nothing changed
            raise type(interrupt)("the build had finished; the new outputs are in place") from None
        raise
    return names


def _write(folder, name, content):
    if Path(name).name != name:     # names are ours, but never let one escape the folder
        raise UsageError(f"refusing to write {name!r} outside {folder}")
    with open(folder / name, "xb") as handle:
        handle.write(content)
    os.chmod(folder / name, 0o666 & ~_UMASK)    # outputs are for sharing


# -- rendering -------------------------------------------------------------------------------

def render_all(kit, options, progress=None, earlier=()):
    """{file name: bytes} for every output the options ask for, in memory (for checks and tests)."""
    outputs = {}

    def keep(name, content):
        outputs[name] = content
    _render(kit, options, keep, lambda name: io.BytesIO(outputs[name]), progress, earlier)
    return outputs


def render_files(folder, kit, options, progress=None, earlier=(), notice=None):
    """Render every output into `folder` (made here), one file at a time; return the names."""
    folder.mkdir()
    names = []

    def write(name, content):
        _write(folder, name, content)
        names.append(name)
    _render(kit, options, write, lambda name: open(folder / name, "rb"), progress, earlier, notice)
    return names


def _render(kit, options, sink, opener, progress=None, earlier=(), notice=None):
    """Each output to `sink(name, bytes)` in a fixed order; `opener(name)` reopens one made.

    With every part asked for, the per-paper kits are added (their parts reopened, not kept);
    MANIFEST.txt always, naming any of the `earlier` files (already in the output folder) that
    this build leaves as they were.
    """
    from .render.common import BuildContext
    from .render.glyphs import check_printable
    check_source_date_epoch()
    check_printable(kit)        # before any part: no PDF may print an empty box for a name
    ctx = BuildContext(kit, compute(kit), options)
    if options.since is not None:
        ctx = BuildContext(kit, ctx.odds, options, changes=since_base(kit, options))
    papers = [PAPERS[p] for p in options.papers]
    if notice and "prerolled" in options.parts:
        notice(ctx, papers)
    progress = progress or (lambda name, content: None)
    made, pages = [], {}
    for output in selected(options.parts):
        render = output.load()
        for paper in (papers if output.per_paper else [None]):
            name = output.file_name(paper)
            if output.merges:
                sources = [(o.title, opener(o.file_name(paper))) for o in map(part_pdf, output.merges)]
                try:
                    content = render(ctx, paper, sources)
                finally:
                    for _, source in sources:
                        source.close()
            else:
                content = render(ctx, paper)
            sink(name, content)
            made.append(name)
            pages[name] = getattr(content, "pages", None)      # renderers of PDFs count their pages
            progress(name, content)
            del content             # a 200,000-row table is some 18 MB a paper: not kept
    content = manifest(kit, made, options, [n for n in earlier if n not in made], opener, ctx.changes, pages)
    sink(MANIFEST, content)
    progress(MANIFEST, content)


ROWS_NOTICE = 20_000        # --rows above this says how many pages it will make before it starts


def _notice(ctx, papers):
    if (ctx.options.rows or 0) <= ROWS_NOTICE:
        return
    from .render.prerolled import page_count
    pages = ", ".join(f"{page_count(ctx, paper):,} pages on {paper.label}" for paper in papers)
    print(f"note: --rows {ctx.options.rows:,} makes pre-rolled tables of {pages}; this takes a while",
          file=sys.stderr)


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


# What else decides the bytes: same data, options and these versions give the same files.
LIBRARIES = ("reportlab", "pypdf", "Jinja2", "Markdown")


def manifest(kit, names, options, not_rebuilt=(), opener=None, since=None, pages=None):
    """Each file of this build with its SHA-256 and page count, the data hash, the kit version,
    the versions of Python and of each library that shapes the output, and the --since base.

    `names` is {name: bytes}, or names whose files `opener(name)` opens: a build reads its
    staged files back in chunks, so no PDF is held in memory whole.  `pages` gives the page
    counts the renderers reported; a PDF without one is counted by reading it.
    """
    if opener is None:
        opener = lambda name: io.BytesIO(names[name])   # noqa: E731
        pages = {name: getattr(content, "pages", None) for name, content in names.items()}
    pages = pages or {}
    from . import __version__
    lines = [f"871 Bail-Out print kit {__version__}", f"data {kit.hash}",
             f"parts {', '.join(options.parts)}; papers {', '.join(options.papers)}",
             *(f"{name} {version}" for name, version in library_versions())]
    if since is not None:
        count = sum(len(changes) for _, changes in since.groups)
        lines.append(f"since {since.spec}: {f'commit {since.commit}, ' if since.commit else ''}data {since.data_hash}; "
                     f"{count} printed change{'s' if count != 1 else ''} marked on the player aid")
    lines += ["", f"{'file':24} {'pages':>5}  sha256"]
    for name in sorted(names):
        with opener(name) as handle:
            digest = hashlib.sha256()
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
            count = (pages.get(name) or _page_count(handle)) if name.endswith(".pdf") else "-"
        lines.append(f"{name:24} {count:>5}  {digest.hexdigest()}")
    if not_rebuilt:
        lines += ["", "Not made by this build (left from an earlier one, maybe from other data or options):"]
        lines += [f"  {name}" for name in not_rebuilt]
    return ("\n".join(lines) + "\n").encode()


def _page_count(handle):
    from pypdf import PdfReader     # only for a PDF whose renderer did not count (imports cost)
    return len(PdfReader(handle).pages)


def library_versions():
    """[("Python", "3.11.7"), ("reportlab", "4.2.5"), ...]: what a byte-for-byte rebuild needs."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(name):
        try:
            return version(name)
        except PackageNotFoundError:    # imported from somewhere pip does not know
            return "unknown"
    return [("Python", platform.python_version())] + [(name, installed(name)) for name in LIBRARIES]


def _progress(name, content):
    if sys.stderr.isatty():     # a line per file on a terminal; logs and pipes stay quiet
        print(f"  {name}  {len(content):>9,} bytes  sha256 {hashlib.sha256(content).hexdigest()[:12]}",
              file=sys.stderr)


# -- one build per folder --------------------------------------------------------------------

class _Lock:
    """flock(LOCK_EX | LOCK_NB) on --out/LOCK_NAME, held for the whole build.

    The lock file stays (removing it would let a build lock a file another has just unlinked).
    """

    def __init__(self, out):
        self.out = out
        self.fd = None
        self.made = []          # folders this build made, deepest last: removed again on failure

    def __enter__(self):
        out = self.out
        try:
            missing = out
            while not os.path.lexists(missing) and missing != missing.parent:
                self.made.insert(0, missing)
                missing = missing.parent
            out.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                              0o666 & ~_UMASK)
        except OSError as error:
            raise UsageError(f"--out {out}: cannot create the folder or {LOCK_NAME} in it "
                             f"({error.strerror})") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(self.fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise UsageError(f"--out {out}: another build is writing this folder now ({LOCK_NAME} is "
                                 f"locked); run again when it has finished, or choose another --out") from None
            raise UsageError(f"--out {out}: cannot lock {LOCK_NAME} ({error.strerror})") from None
        return self

    def __exit__(self, failed, *exc):
        if failed and self.made:    # a build that made --out and failed leaves no --out behind
            _remove(self.out / LOCK_NAME)
            for folder in reversed(self.made):
                try:
                    folder.rmdir()
                except OSError:
                    break
        os.close(self.fd)       # closing the only descriptor releases the lock


def _is_file(path):
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            return False
        raise UsageError(f"--out {path.parent}: cannot look at {path.name} ({error.strerror})") from None


# -- staging, commit, roll back --------------------------------------------------------------

def _fresh_staging(out):
    """An empty staging folder, after finishing whatever a killed build left (we hold the lock)."""
    staging = out / STAGING
    try:
        if os.path.lexists(staging):
            if os.path.isdir(staging) and not os.path.islink(staging) and (staging / "plan").exists() \
                    and not (staging / "done").exists():
                _roll_back(out, staging)
            _remove(staging, strict=True)
        _remove_old_temporaries(out)
        staging.mkdir()
    except OSError as error:
        raise UsageError(f"--out {out}: cannot prepare {STAGING} ({error.strerror})") from None
    return staging


_OLD_TEMP = re.compile(r"\.(.+)\.[a-z0-9_]{8}\.tmp")


def _remove_old_temporaries(out):
    """The `.NAME.xxxxxxxx.tmp` files an interrupted build of an earlier version left behind."""
    ours = set(all_file_names(PAPERS.values())) | {MANIFEST}
    for entry in os.scandir(out):
        match = _OLD_TEMP.fullmatch(entry.name)
        if match and match.group(1) in ours and entry.is_file(follow_symlinks=False):
            os.unlink(entry.path)


def _commit(out, staging, names):
    """Rename every staged file into `out`, keeping the files replaced until the last rename."""
    new, old = staging / "new", staging / "old"
    old.mkdir()
    plan = []
    for name in names:
        if os.path.lexists(out / name) and os.path.isdir(out / name) and not os.path.islink(out / name):
            plan.append((name, "folder"))       # found again in the loop below, after renames
        else:
            plan.append((name, "had" if os.path.lexists(out / name) else "new"))
    (staging / "plan").write_text("".join(f"{how} {name}\n" for name, how in plan))
    delay = float(os.environ.get(SLOW_COMMIT, "0") or 0)
    try:
        for name, how in plan:
            if delay:
                time.sleep(delay)
            if how == "folder":
                raise UsageError(f"--out {out}: {name} is a folder; move it away and build again")
            if how == "had":
                os.rename(out / name, old / name)
            os.rename(new / name, out / name)
        (staging / "done").touch()
    except BaseException as failure:
        with _signals_held():
            _roll_back(out, staging)
        if isinstance(failure, OSError):
            raise UsageError(f"--out {out}: cannot write ({failure.strerror}); earlier outputs restored") \
                from None
        raise


def _roll_back(out, staging):
    """Undo a commit by its plan: every earlier file back in place, every new one gone."""
    new, old = staging / "new", staging / "old"
    for line in (staging / "plan").read_text().splitlines():
        how, name = line.split(" ", 1)
        if how == "had" and os.path.lexists(old / name):
            os.replace(old / name, out / name)
        elif how == "new" and not os.path.lexists(new / name) and os.path.lexists(out / name):
            os.unlink(out / name)       # ours: renamed there by this commit


def _remove(path, strict=False):
    try:
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
            os.unlink(path)
        elif os.path.lexists(path):
            shutil.rmtree(path)
    except OSError:
        if strict:
            raise               # a build leaves it for the next one; preparing must not


# -- signals ---------------------------------------------------------------------------------

class _terminate_as_interrupt:
    """SIGTERM raises Terminated during the build (main thread only; restored after)."""

    def __enter__(self):
        self.previous = None
        try:
            self.previous = signal.signal(signal.SIGTERM, self._raise)
        except ValueError:      # not the main thread: signals cannot be handled here anyway
            pass
        return self

    @staticmethod
    def _raise(signum, frame):
        raise Terminated()

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)


class _signals_held:
    """SIGINT and SIGTERM wait while earlier files are put back, so a second Ctrl-C cannot stop
    a rollback half done."""

    def __enter__(self):
        self.held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})

    def __exit__(self, *exc):
        signal.pthread_sigmask(signal.SIG_SETMASK, self.held)
