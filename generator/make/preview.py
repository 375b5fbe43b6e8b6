"""What `bailout serve` serves and watches: the last good outputs, the problems, the files saved.

Outputs live in memory, swapped whole under a lock, so no request ever sees a half-made file.
With --out each is also written as a build writes (make/transaction.py: staged in the folder,
renamed into place, never through a link planted there), with a MANIFEST.txt true to the
folder, under the folder's lock, which serve holds while it runs.  The watcher sees the data,
the templates, the catalogues and the project file, each folder watched without following a
symbolic link out of it (watchfiles follows links; each real folder is watched on its own).
"""

import io
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from generator.content.context import BuildContext
from generator.content.words import Words, load_words
from generator.errors import KitError, RenderError, UsageError
from generator.layout.paper import PAPERS, Paper
from generator.make.outputs import Output
from generator.make.products import Products
from generator.options import BuildOptions

HTML_AID = "player-aid.html"
INDEX = "__index"           # the index page's name in its event stream
# What the watcher waits for: `step` ms of quiet after a change, `debounce` ms at most.
STEP_MS, DEBOUNCE_MS = 15, 400
CHECK_MS = 500      # how often, without events, the files are compared by size and time


class Sources(Struct, frozen=True):
    """What a preview reads: folders and files to watch, and how to make a context from them."""
    watched: tuple[Path, ...]
    make_context: Callable[[], BuildContext]     # loads the data and options afresh; KitError if bad


@dataclass
class _File:
    content: bytes = b""        # a Pdf (bytes that know their page count) for a PDF
    generation: int = 0     # bumped each time new bytes are served
    stale: bool = True


@dataclass
class Preview:
    """The served state: the last good outputs, the current problems, and who is watching what."""
    sources: Sources
    out: Path | None = None
    ctx: BuildContext | None = None
    products: Products | None = None        # the current context's: what its files are made from
    problems: list[str] = field(default_factory=list)
    problems_generation: int = 0
    generation: int = 0         # bumped at each reload: the index's change list may differ
    files: dict[str, _File] = field(default_factory=dict)
    viewers: dict[str, int] = field(default_factory=dict)       # file name: open pages showing it
    changed: threading.Condition = field(default_factory=threading.Condition)
    render_lock: threading.RLock = field(default_factory=threading.RLock)
    words: Words = field(default_factory=load_words)
    first: "BuildContext | None" = None     # the edition the preview started from (the change list)
    first_templates: Path | None = None     # a copy of the templates its aid read, as they were (a temporary folder)

    def names(self) -> list[str]:
        """Every file of the current options, in build order."""
        return [name for name, _, _ in self.listed()]

    def listed(self) -> list[tuple[str, str, str | None]]:
        """(name, kind, paper key or None) of every file of the current options, in build order:
        what the index says of each (release.file.KIND, as the release's index does)."""
        ctx = self.ctx
        if ctx is None:
            return []
        return [(o.file_name(PAPERS[p] if o.per_paper else None), o.kind, p if o.per_paper else None)
                for o in _outputs(ctx.options) for p in (ctx.options.papers if o.per_paper else [""])]

    def reload(self) -> None:
        """Read the sources again: a new context and every file stale, or the problems shown."""
        with self.render_lock:
            try:
                ctx = self.sources.make_context()
            except KitError as error:
                self._set_problems(list(error.problems))
                return
            self.ctx, self.products = ctx, Products(ctx)
            if self.first is None:
                self.first = ctx
            with self.changed:
                self.generation += 1
                self.changed.notify_all()
            for name in self.names():
                self.files.setdefault(name, _File()).stale = True
            looked_at = [HTML_AID] + [n for n, count in self.viewers.items() if count and n != HTML_AID]
            if all(self.refresh(name) for name in looked_at if name in self.files):
                self._set_problems([])
            if self.first is ctx and self.first_templates is None:      # the web aid read them just now
                self.first_templates = _copied(ctx.templates)

    def refresh(self, name: str) -> bool:
        """Make the file again if stale; False (the problems shown, the last good kept) if that fails."""
        if not self.files[name].stale:
            return True         # served at once, even while another file is being made
        with self.render_lock:
            entry = self.files[name]
            if entry.stale and self.products is not None:
                try:
                    content = self._render(name)
                    self._store(name, entry, content)
                except KitError as error:
                    self._set_problems(list(error.problems))
                    return False
            return True

    def get(self, name: str) -> bytes | None:
        """The file's bytes, made now if stale; the last good bytes when making it fails."""
        if name not in self.files:
            return None
        self.refresh(name)
        return self.files[name].content or None

    def close(self) -> None:
        """Remove the copy of the first templates (an interrupted preview leaves nothing behind)."""
        if self.first_templates is not None:
            shutil.rmtree(self.first_templates.parent, ignore_errors=True)
            self.first_templates = None

    def _store(self, name: str, entry: _File, content: bytes) -> None:
        if self.out is not None:
            self._write_out(name, content)
        with self.changed:
            entry.content, entry.stale = content, False
            entry.generation += 1
            self.changed.notify_all()

    def _write_out(self, name: str, content: bytes) -> None:
        """`name` and a MANIFEST.txt of every file now current into --out, as a build writes them
        (serve holds the folder's lock): the manifest lists the files this edition made, and names
        those still there from an earlier one."""
        from generator.make.manifest import manifest
        from generator.make.transaction import MANIFEST, is_file, write_all
        assert self.out is not None and self.ctx is not None
        current = {n: f.content for n, f in self.files.items() if not f.stale and n != name} | {name: content}
        left = [n for n in self.names() if n not in current and is_file(self.out / n)]
        ctx = self.ctx
        listing = manifest(ctx.kit, current, ctx.options, left, since=ctx.changes, stamp=ctx.stamp)
        write_all(self.out, {name: content, MANIFEST: listing}, held=True)

    def _render(self, name: str) -> bytes:
        products = self.products
        assert products is not None
        options = products.ctx.options
        for output in _outputs(options):
            for key in (options.papers if output.per_paper else [""]):
                paper = PAPERS[key] if output.per_paper else None
                if output.file_name(paper) != name:
                    continue
                if output.product is not None:
                    return products.get(output.product, paper)
                assert output.merge is not None
                return output.merge(products.made(output.needs, paper), self._parts(output, paper))
        raise KeyError(name)

    def _parts(self, output: Output, paper: Paper | None) -> list[tuple[str, io.BytesIO]]:
        """The files `output` merges, each as it was last made; a part that has never been made
        (its problem is shown) leaves nothing to merge: that problem, for the merged file too."""
        parts = []
        for part in (_part(name) for name in output.merges):
            content = self.get(part.file_name(paper))
            if not content:
                raise RenderError(self.problems or [f"{part.file_name(paper)} could not be made"])
            parts.append((part.title, _reader(content)))
        return parts

    def _set_problems(self, problems: list[str]) -> None:
        with self.changed:
            if problems != self.problems:
                self.problems = problems
                self.problems_generation += 1
                self.changed.notify_all()

    def state(self, name: str) -> str:
        """What a page's event stream reports: it reloads when this changes."""
        entry = self.files.get(name)
        own = self.generation if name == INDEX else entry.generation if entry else 0
        return f"{own}-{self.problems_generation}-{len(self.files)}"

    def watch_states(self, name: str, stop: threading.Event) -> Iterator[str]:
        """The page's state now, then each time it changes, until `stop` is set."""
        last = None
        while not stop.is_set():
            with self.changed:
                now = self.state(name)
                if now == last:
                    self.changed.wait(timeout=1.0)
                    now = self.state(name)
            if now != last:
                last = now
                yield now
            else:
                yield ""        # a keep-alive comment: a closed page shows as a failed write


def _reader(content: bytes) -> io.BytesIO:
    return io.BytesIO(content)


def _copied(templates: Path) -> Path | None:
    """The templates the aid has read from `templates` (the aid's and what it includes), as they
    were read, written to a temporary folder, or None if it read none (Preview.close removes the
    folder; at exit too, should the preview end some other way).  Only those: nothing else in the
    folder is copied (a stray file of any size, a FIFO)."""
    import atexit

    from generator.content.aid_text import templates_read
    read = templates_read(templates)
    if not read:
        return None
    try:
        temp = Path(tempfile.mkdtemp(prefix="bailout-serve-"))
    except OSError:         # no room: the change list compares the data alone
        return None
    atexit.register(shutil.rmtree, temp, ignore_errors=True)
    try:
        for name, text in read.items():
            target = temp.joinpath("templates", *name.split("/"))     # a name Jinja split and checked
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    except OSError:
        shutil.rmtree(temp, ignore_errors=True)
        return None
    return temp / "templates"


def _outputs(options: BuildOptions) -> list[Output]:
    from generator.make.outputs import selected
    return selected(options.parts, options.profile)


def _part(part: str) -> Output:
    from generator.make.outputs import part_pdf
    return part_pdf(part)


def change_lines(preview: Preview) -> list[str]:
    """The printed changes from the edition the preview started with to the current one, as
    `bailout diff` and `build --since` find them (content/compare.py), in this edition's words."""
    first, now = preview.first, preview.ctx
    if first is None or now is None or first is now:
        return []
    from generator.content.compare import PrintInputs, printed_changes
    from generator.content.items import show
    before = PrintInputs(first.kit, preview.first_templates or first.templates, first.options.sets)
    after = PrintInputs(now.kit, now.templates, now.options.sets)
    try:
        groups = printed_changes(before, after, now.words)
    except KitError:        # a template that does not render (its problem is shown already): the data's changes
        groups = printed_changes(replace(before, templates=None), replace(after, templates=None), now.words)
    return [f"{rule}: {c.label}: {show(c.kind, c.old, now.words)} → {show(c.kind, c.new, now.words)}"
            for rule, changes in groups for c in changes]


# -- watching ------------------------------------------------------------------------------------

# The most files and folders serve watches in all (the data, the templates, the catalogues and the
# project file): the kit's own hold about 40.  Every one is looked at each CHECK_MS, so a folder
# of stray files would cost a core's time while nothing changes; past this, serve says so.
MAX_WATCHED = 1_000
Seen = tuple[tuple[str, int, int], ...]


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([os.path.realpath(path), root]) == root
    except ValueError:      # another drive
        return False


def scan(paths: tuple[Path, ...]) -> tuple[tuple[str, ...], Seen]:
    """(each watched file and each real folder under a watched folder, (path, size, mtime) of every
    file under them): what the watcher listens to, and what a missed event would leave changed.
    A link to a folder is not followed, and a link to a file only as far as it stays inside the
    folder it is in.  More than MAX_WATCHED files and folders in all is a UsageError naming the
    folder that holds them."""
    places: list[str] = []
    found: list[tuple[str, int, int]] = []
    for path in paths:
        if not path.is_dir():
            if path.exists():
                places.append(str(path))
                found += _stat(str(path))
            continue
        root = os.path.realpath(path)
        for folder, _, names in os.walk(path, followlinks=False):
            places.append(folder)
            for name in sorted(names):
                file = os.path.join(folder, name)
                if _inside(file, root):
                    found += _stat(file)
            if len(places) + len(found) > MAX_WATCHED:
                raise UsageError(f"serve: {path} holds more than {MAX_WATCHED:,} files and folders, more than serve "
                                 f"watches; keep there only what the kit reads, and move the rest out of it")
    return tuple(places), tuple(sorted(found))


def _stat(file: str) -> list[tuple[str, int, int]]:
    try:
        info = os.stat(file)
    except OSError:
        return []
    return [(file, info.st_size, info.st_mtime_ns)]


def watch(preview: Preview, stop: threading.Event, seen: Seen) -> None:
    """Reload the preview after each batch of saved files, until `stop` is set or Ctrl-C.

    Between events (every CHECK_MS) the files' sizes and times are compared with `seen`: a save
    made before the watcher started, or one a file system reports no event for, is not lost.
    Each folder is watched on its own (not recursively); a folder made or removed starts the
    watch again over the new set.  Past MAX_WATCHED files and folders, the preview ends with
    the UsageError that says so."""
    import watchfiles
    paths = tuple(p for p in preview.sources.watched if p.exists())
    while not stop.is_set():
        places, _ = scan(paths)
        try:
            for changes in watchfiles.watch(*places, debounce=DEBOUNCE_MS, step=STEP_MS, stop_event=stop,
                                            rust_timeout=CHECK_MS, yield_on_timeout=True, raise_interrupt=True,
                                            recursive=False):
                now_places, now = scan(paths)
                if changes or now != seen:
                    seen = now
                    preview.reload()
                if now_places != places:
                    break
        except FileNotFoundError:       # a folder removed as the watch started: look again
            stop.wait(CHECK_MS / 1000)
