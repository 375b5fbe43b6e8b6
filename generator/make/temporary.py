"""A folder of the system's temporary folder (TMPDIR) that a command works in and removes after."""

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from generator.errors import UsageError


@contextlib.contextmanager
def temporary_folder(prefix: str) -> Iterator[Path]:
    """A new folder named `prefix` and a random part, removed after (on Ctrl-C, SIGTERM and SIGHUP
    too, which unwind the command); one that cannot be made is one line naming the temporary folder."""
    try:
        temp = tempfile.TemporaryDirectory(prefix=prefix)
    except OSError as error:
        raise UsageError(f"the temporary folder {tempfile.gettempdir()} (TMPDIR): cannot make a folder there "
                         f"({error.strerror}); nothing was written") from None
    with temp as path:
        yield Path(path)
