"""A small declared-schema reader for TOML tables that collects every problem at once.

Each `Reader` wraps one table; every key read is remembered, so `finish()` can report the
keys nobody asked for (typos, stale settings) as unknown.  Problems name file and key path.
"""

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from generator.suggest import suggestion

_MISSING: Any = object()
# What a read that found a problem gives: None, typed as whatever was asked for.  A load that
# reported a problem raises DataError at its end, so no model holding it leaves load().
REPORTED: Any = None
_T = TypeVar("_T")
_D = TypeVar("_D")

# A check of one value read: an error message, or None when the value is good.
Validator = Callable[[_T], str | None]

_KIND_NAMES = {
    int: "an integer",
    str: "a string",
    bool: "true or false",
    dict: "a table",
    list: "an array",
}


def _is(value: object, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


@dataclass
class Problems:
    """Every problem found in one load, in the order found."""

    root: str = ""          # the data folder, printed before each file name
    lines: list[str] = field(default_factory=list)
    _said: set[str] = field(default_factory=set, repr=False)

    def add(self, file: str, path: str, message: str) -> None:
        file = f"{self.root.rstrip('/')}/{file}" if self.root else file
        where = f"{file}: {path}" if path else f"{file}"
        line = f"{where}: {message}"
        if line not in self._said:      # the same file found unreadable twice is one problem
            self._said.add(line)
            self.lines.append(line)

    def __bool__(self) -> bool:
        return bool(self.lines)


class Reader:
    """One table of a TOML file, read key by key; every problem goes to `problems`.

    A value that is missing or bad is reported and read as REPORTED, None (or as the default
    given).  The types below promise a value of `kind` all the same: a load that reported a
    problem builds its model with such Nones, then raises DataError, so none leaves load().
    """

    def __init__(self, problems: Problems, file: str, table: dict[str, Any], path: str = "") -> None:
        self.problems = problems
        self.file = file
        self.table: dict[str, Any] = table if isinstance(table, dict) else {}
        self.path = path
        self._seen: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else str(name)

    def report(self, name: str | None, message: str) -> None:
        self.problems.add(self.file, self.key(name) if name is not None else self.path, message)

    @overload
    def get(self, name: str, kind: type[_T], *, check: Validator[_T] | None = None) -> _T: ...

    @overload
    def get(self, name: str, kind: type[_T], *, default: _D, check: Validator[_T] | None = None) -> _T | _D: ...

    def get(self, name: str, kind: type[Any], *, default: Any = _MISSING, check: Validator[Any] | None = None) -> Any:
        """Value of `name` if it is of `kind` (and passes `check`, which returns an error or None)."""
        self._seen.add(name)
        if name not in self.table:
            if default is _MISSING:
                self.report(name, f"missing; expected {_KIND_NAMES[kind]}")
                return None
            return default
        value = self.table[name]
        if not _is(value, kind):
            self.report(name, f"expected {_KIND_NAMES[kind]}, got {_describe(value)}")
            return None if default is _MISSING else default
        if check is not None:
            error = check(value)
            if error:
                self.report(name, error)
                return None if default is _MISSING else default
        return value

    @overload
    def get_list(self, name: str, item_kind: type[_T], *, nonempty: bool = True,
                 check_item: Validator[_T] | None = None, most: int | None = None) -> list[_T]: ...

    @overload
    def get_list(self, name: str, item_kind: type[_T], *, default: _D, nonempty: bool = True,
                 check_item: Validator[_T] | None = None, most: int | None = None) -> list[_T] | _D: ...

    def get_list(self, name: str, item_kind: type[Any], *, default: Any = _MISSING, nonempty: bool = True,
                 check_item: Validator[Any] | None = None, most: int | None = None) -> Any:
        """A list whose every item is of `item_kind`; bad items are reported one by one.  A list
        longer than `most` is one problem, its items unread."""
        value = self.get(name, list, default=default)
        if value is None or value is default:
            return value
        if nonempty and not value:
            self.report(name, "must not be empty")
            return None
        if not self._within(name, value, most, "items"):
            return None
        good = []
        for i, item in enumerate(value):
            where = f"{name}[{i}]"
            if not _is(item, item_kind):
                self.report(where, f"expected {_KIND_NAMES[item_kind]}, got {_describe(item)}")
                continue
            error = check_item(item) if check_item else None
            if error:
                self.report(where, error)
                continue
            good.append(item)
        return good if len(good) == len(value) else None

    def section(self, name: str, *, required: bool = True) -> "Reader | None":
        """A sub-table as its own Reader; None if absent (reported if `required`) or not a table."""
        self._seen.add(name)
        value = self.table.get(name, _MISSING)
        if value is _MISSING:
            if required:
                self.report(name, "missing table")
            return None
        if not isinstance(value, dict):
            self.report(name, f"expected a table, got {_describe(value)}")
            return None
        return Reader(self.problems, self.file, value, self.key(name))

    def tables(self, name: str, *, required: bool = True, most: int | None = None) -> "list[Reader]":
        """An array of tables ([[name]]) as Readers; more than `most` is one problem, none read."""
        self._seen.add(name)
        value = self.table.get(name, _MISSING)
        if value is _MISSING:
            if required:
                self.report(name, "missing; expected an array of tables")
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.report(name, f"expected an array of tables ([[{name}]]), got {_describe(value)}")
            return []
        if required and not value:
            self.report(name, "must not be empty")
        if not self._within(name, value, most, "tables"):
            return []
        return [Reader(self.problems, self.file, v, f"{self.key(name)}[{i}]") for i, v in enumerate(value)]

    def _within(self, name: str, value: list[Any], most: int | None, what: str) -> bool:
        """Whether the list `name` holds at most `most` entries (reported when it holds more)."""
        if most is None or len(value) <= most:
            return True
        self.report(name, f"{len(value):,} {what}; at most {most:,}")
        return False

    def names(self) -> list[str]:
        """Every key of this table, marked as read (for tables whose keys are data)."""
        self._seen.update(self.table)
        return sorted(self.table)

    def finish(self) -> None:
        """Report every key of the table nobody read as unknown."""
        for name in sorted(set(self.table) - self._seen, key=str):
            hint = suggestion(str(name), sorted(self._seen - set(self.table)))     # the keys looked for, not there
            self.report(name, f"unknown key; {hint}" if hint else "unknown key")


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    for kind, text in ((int, "an integer"), (float, "a float"), (str, "a string"),
                       (list, "an array"), (dict, "a table")):
        if isinstance(value, kind):
            return text
    return type(value).__name__


def in_range(low: int, high: int) -> Validator[int]:
    def check(value: int) -> str | None:
        if not low <= value <= high:
            return f"{value} is out of range {low}..{high}"
        return None
    return check


def nonblank(value: str) -> str | None:
    return None if value.strip() else "must not be blank"


# A name the kit prints and every digital file repeats (each piece's and tile's name holds its
# nationality's): the data's longest is 28 characters.
MAX_NAME_CHARS = 100


def a_name(value: str) -> str | None:
    """A nonblank name of at most MAX_NAME_CHARS characters."""
    if len(value) > MAX_NAME_CHARS:
        return f"is {len(value):,} characters long; a name is at most {MAX_NAME_CHARS}"
    return nonblank(value)


def one_of(choices: Collection[str]) -> Validator[str]:
    def check(value: str) -> str | None:
        if value not in choices:
            return f"{value!r} is not one of {', '.join(map(repr, sorted(choices)))}"
        return None
    return check
