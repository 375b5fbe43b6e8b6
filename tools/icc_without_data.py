"""An ICC output profile rewritten without the characterization data its maker copied into it.

ArgyllCMS colprof copies the measurement file it was given (a .ti3: every patch's CMYK and its
measured colour) into the profile, as the `targ` tag and its private `DevD` and `CIED` tags (all
three point at the same bytes).  A profile needs none of them to convert colours: its lookup
tables (A2B*, B2A*, gamt) are what colour management reads.  This writes the profile with those
tags left out, its copyright tag replaced by `--copyright`, and every other tag's bytes as they
were, laid out anew (ICC.1:2001-04, 6.2: a tag table of signature, offset and size, each tag on
a 4-byte boundary; tags that shared bytes still share them).

    python tools/icc_without_data.py IN.icc OUT.icc --copyright "TEXT"

The kit's generator/render/pdf/icc/FOGRA39L-300.icc was made so (its README.md gives the whole
provenance).  Nothing here runs at build time.
"""

import argparse
import struct
from pathlib import Path

DATA_TAGS = (b"targ", b"DevD", b"CIED")     # the characterization data, as colprof embeds it
HEADER = 128


def tags(profile: bytes) -> list[tuple[bytes, int, int]]:
    """(signature, offset, size) of every tag, in the tag table's order."""
    count = struct.unpack_from(">I", profile, HEADER)[0]
    return [struct.unpack_from(">4sII", profile, HEADER + 4 + 12 * i) for i in range(count)]


def text_tag(text: str) -> bytes:
    """An ICC v2 textType: 'text', four reserved bytes, 7-bit ASCII ending in a NUL."""
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def rewritten(profile: bytes, copyright_text: str) -> bytes:
    """`profile` without DATA_TAGS, its `cprt` tag holding `copyright_text`."""
    kept = [t for t in tags(profile) if t[0] not in DATA_TAGS]
    table_end = HEADER + 4 + 12 * len(kept)
    body = bytearray()
    placed: dict[tuple[int, int], int] = {}     # the input's (offset, size) -> the output's offset
    entries = []
    for signature, offset, size in kept:
        data = text_tag(copyright_text) if signature == b"cprt" else profile[offset:offset + size]
        key = (-1, len(entries)) if signature == b"cprt" else (offset, size)
        if key not in placed:
            body += bytes(-(table_end + len(body)) % 4)      # each tag starts on a 4-byte boundary
            placed[key] = table_end + len(body)
            body += data
        entries.append(struct.pack(">4sII", signature, placed[key], len(data)))
    out = bytearray(profile[:HEADER]) + struct.pack(">I", len(kept)) + b"".join(entries) + body
    struct.pack_into(">I", out, 0, len(out))        # the header's first field: the profile's size
    out[84:100] = bytes(16)     # the profile ID: zero in a version 2 profile
    return bytes(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--copyright", required=True, help="the text of the new copyright tag (ASCII)")
    args = parser.parse_args()
    args.target.write_bytes(rewritten(args.source.read_bytes(), args.copyright))


if __name__ == "__main__":
    main()
