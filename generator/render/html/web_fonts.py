"""The web aid's own type: IBM Plex, from the kit's own TTF files (the PDFs' fonts), each face
subset to the characters the page holds and embedded as WOFF2 in an @font-face rule of the page
itself (a data: URL, which the page's policy allows as a font source and nothing else).  The
page stays one file that fetches nothing, and reads in the kit's type on a phone as in print.

fontTools subsets and compresses (brotli); the subset is made at build time, never committed.
Same characters, same fontTools and Brotli (MANIFEST.txt lists them): the same bytes (the
fonts' own timestamps are kept, never the clock's).  Brotli's densest setting is most of a cut's
time, so each cut is kept in the kit's cache (generator/cache.py), named by the font file's bytes,
the characters, this module's code and the two libraries' versions: a later build of the same
page takes the same bytes from there.  What an entry holds is only ever base64-encoded into the
page, never run or parsed.
"""

import base64
import hashlib
import io
import os
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from generator import cache
from generator.render.pdf.canvas import FONT_FOLDER
from generator.render.theme import FaceSet

# By the edition's faces (theme.FaceSet.name): (family as the faces' web stack names it, weights,
# style, the kit's file).  The page sets body text, its bold and italic, and its tables in the
# condensed face (aid.css: table, th); a browser slants a condensed italic or a bold italic
# itself, rare as they are on the page.  IBM Plex Sans JP has neither condensed nor italic faces
# (its web stack names it for both roles).
FACES = {
    "IBM Plex Sans": (
        ("IBM Plex Sans", "100 500", "normal", "IBMPlexSans-Regular.ttf"),
        ("IBM Plex Sans", "600 900", "normal", "IBMPlexSans-Bold.ttf"),
        ("IBM Plex Sans", "100 900", "italic", "IBMPlexSans-Italic.ttf"),
        ("IBM Plex Sans Condensed", "100 500", "normal", "IBMPlexSansCondensed-Regular.ttf"),
        ("IBM Plex Sans Condensed", "600 900", "normal", "IBMPlexSansCondensed-Bold.ttf"),
    ),
    "IBM Plex Sans JP": (
        ("IBM Plex Sans JP", "100 500", "normal", "IBMPlexSansJP-Regular.ttf"),
        ("IBM Plex Sans JP", "600 900", "normal", "IBMPlexSansJP-Bold.ttf"),
    ),
}
# The glyphs as the PDFs set them (reportlab applies no OpenType feature), so the layout tables
# go, deleted before the subsetter reads them (reading them is most of a subset's time); and the
# fonts' "meta" table, which names their languages and which fontTools cannot subset.
UNUSED_TABLES = ("GSUB", "GPOS", "GDEF", "meta")


def font_faces(text: str, faces: FaceSet) -> str:
    """The @font-face rules of every face of the edition's `faces`, each holding the glyphs of
    `text`'s characters."""
    characters = "".join(sorted({ch for ch in text if ch.isprintable() or ch == "\u00a0"}))
    return "".join(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                   f"font-display: swap; src: url(data:font/woff2;base64,{_woff2(file, characters)}) "
                   'format("woff2"); }\n'
                   for family, weight, style, file in FACES[faces.name])


@lru_cache(maxsize=64)
def _woff2(file: str, characters: str) -> str:
    """`file` (a TTF in the kit's font folder) cut to `characters`, as base64 WOFF2."""
    path = os.path.join(FONT_FOLDER, file)
    key = _cache_key(path, characters)
    cut = cache.read(_KIND, key) if key else None
    if cut is None:
        cut = _cut(path, characters)
        if key:
            cache.write(_KIND, key, cut)
    return base64.b64encode(cut).decode("ascii")


_KIND = "webfonts"      # the cache folder's kind for cut fonts


def _cache_key(path: str, characters: str) -> str | None:
    """The name of the cut of the font at `path` to `characters` in the kit's cache, or None when
    the libraries that cut it do not say their versions."""
    try:
        libraries = f"fontTools {version('fonttools')}, Brotli {version('brotli')}"
    except PackageNotFoundError:
        return None
    own = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    return cache.digest(Path(path).read_bytes(), characters, libraries, own)


def _cut(path: str, characters: str) -> bytes:
    """The WOFF2 bytes of the font at `path` cut to `characters`."""
    # Here, not above: a page whose cuts are all in the cache never loads the subsetter.
    from fontTools import subset
    from fontTools.ttLib import TTFont
    font = TTFont(path, recalcTimestamp=False)
    for tag in UNUSED_TABLES:
        if tag in font:
            del font[tag]
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.hinting = False         # a screen's own rasteriser; a third of the size
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]    # the copyright, names, version and licence (OFL) kept
    options.notdef_outline = True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[ord(ch) for ch in characters])
    cutter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out, reorderTables=False)
    return out.getvalue()
