"""One error hierarchy: anything a user can fix ends as a message and exit status 2."""

import unicodedata
from collections.abc import Iterable

# Line breaks, escapes and other invisible controls: in a message they could start what looks
# like a second problem line or drive the terminal (Cc, Cf, Zl, Zp), or fail to encode (Cs).
_UNSAFE = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def one_line(text: object) -> str:
    """`text` with every control character escaped as repr() writes it (a newline as \\n)."""
    text = str(text)
    if text.isprintable():      # the common case, and fast: nothing to escape
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in _UNSAFE else ch for ch in text)


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
