"""`bailout release`: the whole kit as one zip to post for the community.

The files come from build.render_all (every part, both papers), plus what only a release
carries: counter face images and page thumbnails (rasterised with pypdfium2 from the PDFs just
rendered), a players' README.txt, an index.html and a MANIFEST.txt of everything.  The zip is
byte-identical for the same data, options and library versions: fixed timestamps (from
SOURCE_DATE_EPOCH when set), sorted names, fixed permissions and compression.
"""

import hashlib
import io
import os
import sys
import time
import zipfile
from pathlib import Path

from . import __version__
from .build import manifest, render_all, write_all
from .data import load
from .errors import UsageError
from .layout.paper import PAPERS
from .options import PAPERS as PAPER_KEYS, BuildOptions
from .outputs import PARTS
from .render.release_pages import index_html, readme_text

DPI = 300
THUMB_PX = 240              # a thumbnail's width
FIXED_DATE = (2000, 1, 1, 0, 0, 0)      # the PDFs' own fixed date when no SOURCE_DATE_EPOCH is set
FACE_PAPER = "a4"           # counters keep their size on either paper: faces come from one


def release(args):
    options = BuildOptions.from_args(args)
    kit = load(args.data)
    name, content = make_release(kit, options, quiet=args.quiet)
    out = Path(args.out)
    write_all(out, {name: content})
    print(out / name)
    return out / name


def zip_name(kit):
    return f"bailout-kit-{__version__}-{kit.hash[:8]}.zip"


def make_release(kit, options, quiet=True):
    """(zip file name, zip bytes) for the whole kit, both papers, with the options' settings."""
    options = _whole_kit(options)
    progress = None if quiet else _progress
    files = render_all(kit, options, progress=progress)
    files.pop("MANIFEST.txt")       # remade below, over everything the zip holds
    files.update(face_images(kit, options, files[f"counters-{FACE_PAPER}.pdf"]))
    thumbs = thumbnails({n: c for n, c in files.items() if n.endswith(".pdf")})
    files.update(thumbs)
    files["README.txt"] = readme_text(kit, options, files)
    files["index.html"] = index_html(kit, options, files)
    files["MANIFEST.txt"] = manifest(kit, files, options)
    name = zip_name(kit)
    return name, zip_bytes(name[:-len(".zip")], files)


def _whole_kit(options):
    """A release always holds every part for both papers; the other options stand as given."""
    from dataclasses import replace
    return replace(options, papers=PAPER_KEYS, parts=PARTS)


def zip_bytes(folder, files):
    """A reproducible zip of {name: bytes}, every file under `folder/`, in sorted order."""
    stamp = _zip_date()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=stamp)
            info.create_system = 3                  # unix, so the permissions below are read
            info.external_attr = 0o100644 << 16     # a plain file, rw-r--r--
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def _zip_date():
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return FIXED_DATE
    if not epoch.isdigit():
        raise UsageError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got {epoch!r}")
    return max(time.gmtime(int(epoch))[:6], (1980, 1, 1, 0, 0, 0))     # zip dates start in 1980


# -- images -----------------------------------------------------------------------------------

def face_images(kit, options, counters_pdf):
    """{'faces/NAT-KIND[-YEARS]-front.png': png, ...}: every distinct counter face at cut size.

    Each face is cropped from the counters PDF at its cut rectangle, placed by the same layout
    code the renderer draws with (grid, pagination, page order, mirrored backs).
    """
    import pypdfium2 as pdfium
    from .counters import all_counters
    from .layout import counters as geo
    paper = PAPERS[FACE_PAPER]
    grid = geo.make_grid(paper.width, paper.height, options.counter_mm, options.back_offset_mm)
    groups = all_counters(kit, options.sets)
    sheets = geo.paginate([len(counters) for _, counters in groups], grid)
    px = round(float(options.counter_mm) / 25.4 * DPI)
    scale = px / grid.size
    names = face_names(groups)
    doc = pdfium.PdfDocument(counters_pdf)
    images = {}
    try:
        for n, slots in enumerate(sheets, start=1):
            for side in ("front", "back"):
                page = None
                for slot in slots:
                    counter = groups[slot.group][1][slot.item]
                    name = f"faces/{names[counter]}-{side}.png"
                    if name in images:
                        continue
                    page = page or doc[geo.sheet_page(n, side)]
                    x, y = geo.face_origin(grid, slot, side)
                    bitmap = page.render(scale=scale, crop=(x, y, paper.width - x - grid.size,
                                                            paper.height - y - grid.size))
                    image = bitmap.to_pil()
                    if image.size != (px, px):      # pdfium rounds; the face must be exact
                        image = image.resize((px, px))
                    images[name] = _png(image, dpi=DPI)
    finally:
        doc.close()
    return images


def face_names(groups):
    """{Counter: 'german-rifle-1939-45'}: nationality key, kind, and the years where a kind has
    several counters (taken from the nationality's spans when they match one to one)."""
    names = {}
    for nat, counters in groups:
        by_kind = {}
        for counter in dict.fromkeys(counters):
            by_kind.setdefault(counter.kind, []).append(counter)
        for kind, distinct in by_kind.items():
            spans = {"rifle": nat.rifles, "smg": nat.smgs}.get(kind, ())
            for i, counter in enumerate(distinct):
                name = f"{nat.key}-{kind}"
                if len(distinct) > 1:
                    if len(spans) == len(distinct):
                        span = spans[i]
                        name += f"-{span.first}" + (f"-{str(span.last)[2:]}" if span.last != span.first else "")
                    else:
                        name += f"-{i + 1}"
                names[counter] = name
    return names


def thumbnails(pdfs):
    """{'thumbs/NAME.png': png} of each PDF's first page, THUMB_PX wide."""
    import pypdfium2 as pdfium
    thumbs = {}
    for name, content in sorted(pdfs.items()):
        doc = pdfium.PdfDocument(content)
        try:
            page = doc[0]
            image = page.render(scale=THUMB_PX / page.get_width()).to_pil()
        finally:
            doc.close()
        thumbs[f"thumbs/{name[:-len('.pdf')]}.png"] = _png(image)
    return thumbs


def _png(image, dpi=None):
    out = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(out, format="PNG", optimize=True, **extra)
    return out.getvalue()


def _progress(name, content):
    if sys.stderr.isatty():
        print(f"  {name}  {len(content):>9,} bytes  sha256 {hashlib.sha256(content).hexdigest()[:12]}",
              file=sys.stderr)
