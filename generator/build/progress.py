"""Progress lines on a terminal: one per file written."""

import hashlib
import sys


def progress(name: str, content: bytes) -> None:
    if sys.stderr.isatty():     # a line per file on a terminal; logs and pipes stay quiet
        print(f"  {name}  {len(content):>9,} bytes  sha256 {hashlib.sha256(content).hexdigest()[:12]}",
              file=sys.stderr)


