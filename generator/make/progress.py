"""What a build says while it works, and the one line it ends with.

On a terminal: a live line per file (rich), its pages counted as they are drawn, a bar when
the number of pages is known ahead (a long pre-rolled table), then the file's pages, size
(aligned) and hash.  Logs and pipes get none of that: every build, terminal or not, ends with
one closing line instead (closing_line), unless --quiet.
"""

import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generator.errors import one_line

NAME_WIDTH = 20     # the longest file name a build writes (prerolled-letter.pdf) fits


def closing_line(count: int, where: Path, data: Path, templates: Path, stamp: str, *, shipped: tuple[Path, Path]) \
        -> str:
    """'wrote 11 files to output from data ./data and the kit's own templates; stamp 1a2b3c4d5e'.

    A data or template folder that is the kit's own is named so: a silent fall-back to the
    shipped data (no ./data here) is then plain to see.  `shipped` is (data, templates) shipped."""
    def folder(path: Path, own: Path, what: str) -> str:
        return f"the kit's own {what}" if _same(path, own) else f"{what} {path}"
    return one_line(f"wrote {count} file{'s' if count != 1 else ''} to {where} from {folder(data, shipped[0], 'data')} "
                    f"and {folder(templates, shipped[1], 'templates')}; stamp {stamp}")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def file_line(name: str, content: bytes, pages: int | None) -> str:
    """'  prerolled-a4.pdf        12 pages     1,234,567 bytes  sha256 0123456789ab', aligned."""
    shown = f"{pages:>6,} page{'s' if pages != 1 else ' '}" if pages is not None else " " * 12
    return one_line(f"  {name:{NAME_WIDTH}} {shown} {len(content):>13,} bytes  "
                    f"sha256 {hashlib.sha256(content).hexdigest()[:12]}")


class FileProgress:
    """The build's progress: begin(name, pages) as a file starts, then self(name, content) when
    it is written.  Shown only on a terminal; MANIFEST.txt (always last) ends the display."""

    def __init__(self) -> None:
        self.live: Any = None       # rich's Progress, made at the first file
        self.task: Any = None

    def begin(self, name: str, pages: int | None = None) -> None:
        if not sys.stderr.isatty():
            return
        from generator.render.pdf.canvas import PAGE_LISTENERS
        if self.live is None:
            self.live = _live()
            self.live.start()
            PAGE_LISTENERS.append(self._page)
        self.task = self.live.add_task(one_line(name), total=pages, size="", pages="", drawn=0)

    def _page(self) -> None:
        """A page of the file in hand has been drawn."""
        if self.live is not None and self.task is not None:
            task = self.live.tasks[-1]
            drawn = task.fields["drawn"] + 1
            shown = f"{drawn:,}/{task.total:,.0f} pages" if task.total else _pages(drawn)
            self.live.update(self.task, advance=1, drawn=drawn, pages=shown)

    def __call__(self, name: str, content: bytes) -> None:
        if not sys.stderr.isatty():
            return
        if self.live is None or self.task is None:      # a file made without begin(): its line alone
            print(file_line(name, content, getattr(content, "pages", None)), file=sys.stderr)
            return
        self._done(name, len(content), getattr(content, "pages", None))

    def written(self, name: str, size: int, pages: int | None) -> None:
        """A file written as it was made (a long table): its size and pages, its bytes never read
        back (a million rows' are some 100 MB)."""
        if sys.stderr.isatty() and self.live is not None and self.task is not None:
            self._done(name, size, pages)

    def _done(self, name: str, size: int, pages: int | None) -> None:
        self.live.update(self.task, total=pages or 1, completed=pages or 1, size=f"{size:>11,} bytes",
                         pages=_pages(pages) if pages is not None else "")
        self.task = None
        if name == "MANIFEST.txt":
            self.close()

    def close(self) -> None:
        """Stop the display (the cursor shown again) and stop hearing of pages; again is harmless."""
        if self.live is None:
            return
        from generator.render.pdf.canvas import PAGE_LISTENERS
        self.live.stop()
        if self._page in PAGE_LISTENERS:
            PAGE_LISTENERS.remove(self._page)
        self.live = self.task = None


def _live() -> Any:
    """rich's Progress on stderr: name, pages done (of how many, when known), a bar, size, time."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    columns: Iterable[Any] = (
        TextColumn(f"  {{task.description:{NAME_WIDTH}}}", markup=False),
        TextColumn("{task.fields[pages]:>19}", markup=False),
        BarColumn(bar_width=10),
        TextColumn("{task.fields[size]}", markup=False),
        TimeElapsedColumn())
    return Progress(*columns, console=Console(file=sys.stderr, highlight=False), transient=False,
                    redirect_stdout=False, redirect_stderr=False, refresh_per_second=8)


def _pages(count: int) -> str:
    return f"{count:,} page{'s' if count != 1 else ''}"


def progress(name: str, content: bytes) -> None:
    """A line per file written, on a terminal (what a caller without begin() gets)."""
    if sys.stderr.isatty():
        print(file_line(name, content, getattr(content, "pages", None)), file=sys.stderr)
