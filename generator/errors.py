"""One error hierarchy: anything a user can fix ends as a message and exit status 2."""

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

# Line breaks, escapes and other invisible controls: in a message they could start what looks
# like a second problem line or drive the terminal (Cc, Cf, Zl, Zp), or fail to encode (Cs).
_UNSAFE = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def one_line(text: object, *, json: bool = False) -> str:
    """`text` with every control and bidirectional character escaped: as repr() writes it (a
    newline as \\n), or with `json` as a JSON string escape (\\u202e), valid inside JSON strings.

    The one escaping function for whatever reaches a terminal, stderr and stdout alike.
    """
    text = str(text)
    if text.isprintable():      # the common case, and fast: nothing to escape
        return text
    escape = _json_escape if json else _repr_escape
    return "".join(escape(ch) if unicodedata.category(ch) in _UNSAFE else ch for ch in text)


def terminal_text(text: str, *, json: bool = False) -> str:
    """Lines for stdout: each line of `text` through one_line(), the line breaks kept."""
    return "\n".join(one_line(line, json=json) for line in text.split("\n"))


def _repr_escape(ch: str) -> str:
    return repr(ch)[1:-1]


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:           # JSON escapes code points past the BMP as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


class KitError(Exception):
    """A problem the user can fix; `problems` holds one line per problem.

    Every line is passed through one_line() here, once, so no key, value or path a file or an
    argument supplied can split a problem in two or reach the terminal raw.
    """

    def __init__(self, problems: str | Iterable[str]) -> None:
        if isinstance(problems, str):
            problems = [problems]
        self.problems = [one_line(p) for p in problems]
        super().__init__("\n".join(self.problems))

    def __reduce__(self) -> tuple[type["KitError"], tuple[list[str]]]:
        # Pickled (a problem found in a build's other process) as its lines, not one joined line.
        return type(self), (self.problems,)


class DataError(KitError):
    """data/ is malformed or inconsistent."""


class UsageError(KitError):
    """A command-line argument or option is wrong."""


class RenderError(KitError):
    """The data is valid but cannot be printed (e.g. text that cannot fit)."""


class LostWorker(KitError):
    """A process a build ran its work in ended before it was done (killed, out of memory)."""


class OutOfMemory(KitError):
    """The system (or a limit such as `ulimit -v`) refused the memory a command asked for."""


T = TypeVar("T")


def without_memory_error(make: Callable[[], T], outcome: str) -> T:
    """make(); a MemoryError becomes OutOfMemory, one line ending with `outcome` ("nothing was
    changed"), raised once the exception and the frames it held are gone: the clean-up on the
    way out (a staging folder removed) then has the memory they held."""
    try:
        return make()
    except MemoryError:
        pass        # leaving this block drops the exception, its traceback and what its frames held
    raise OutOfMemory(f"out of memory (the system, or a limit such as ulimit -v, refused more); {outcome}")
