"""IBM Plex Sans JP as TrueType files, from its published release (for a Japanese edition).

IBM publishes IBM Plex Sans JP under the SIL Open Font License 1.1 (the same licence and copyright
as the kit's other Plex faces, generator/render/pdf/fonts/LICENSE) in the npm package
@ibm/plex-sans-jp, whose fonts/complete/woff/hinted/ holds each weight as WOFF.  WOFF is a wrapper
round the TrueType file: each table deflated, nothing else changed, and the header records the
TrueType file's size.  This script unwraps the Regular and Bold weights with fontTools (a tool of
this script, not a dependency of the kit): the tables come out byte for byte as IBM made them, so
the result is the published font in another container, not a Modified Version under the OFL, and it
keeps its name.  It checks that each file's size is the one the WOFF header records, and prints each
file's SHA-256: the same release gives the same bytes.

    cd "$(mktemp -d)" && npm pack @ibm/plex-sans-jp@3.0.0 && tar xzf ibm-plex-sans-jp-3.0.0.tgz
    python -m venv fonttools && fonttools/bin/pip install fonttools
    fonttools/bin/python /path/to/the/kit/docs/make_japanese_font.py package OUT_FOLDER

(3.0.0 holds version 1.004 of the faces: 23,081 glyphs each, TrueType outlines, about 5.7 MB a
weight.)  reportlab embeds a subset of the glyphs a PDF uses, as it does the other faces.
"""

import hashlib
import struct
import sys
from pathlib import Path

WEIGHTS = ("Regular", "Bold")


def unwrap(woff: Path, ttf: Path) -> str:
    """`woff` written as the TrueType file `ttf`; its SHA-256."""
    from fontTools.ttLib import TTFont  # the script's own tool: pip install fonttools
    header = woff.read_bytes()[:44]
    signature, _flavour, _length, _tables, _reserved, sfnt_size = struct.unpack(">4sIIHHI", header[:20])
    if signature != b"wOFF":
        raise SystemExit(f"{woff}: not a WOFF file")
    font = TTFont(str(woff), recalcBBoxes=False, recalcTimestamp=False, lazy=True)
    font.flavor = None
    font.save(str(ttf), reorderTables=False)
    if ttf.stat().st_size != sfnt_size:
        raise SystemExit(f"{ttf}: {ttf.stat().st_size} bytes, the WOFF header says {sfnt_size}")
    return hashlib.sha256(ttf.read_bytes()).hexdigest()


def main(package: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for weight in WEIGHTS:
        name = f"IBMPlexSansJP-{weight}"
        digest = unwrap(package / "fonts" / "complete" / "woff" / "hinted" / f"{name}.woff", out / f"{name}.ttf")
        print(f"{name}.ttf {digest}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
