"""A small declared-schema reader for TOML tables that collects every problem at once.

Each `Reader` wraps one table; every key read is remembered, so `finish()` can report the
keys nobody asked for (typos, stale settings) as unknown.  Problems name file and key path.
"""

from dataclasses import dataclass, field

_MISSING = object()

_KIND_NAMES = {
    int: "an integer",
    str: "a string",
    bool: "true or false",
    dict: "a table",
    list: "an array",
}


def _is(value, kind):
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


@dataclass
class Problems:
    """Every problem found in one load, in the order found."""

    root: str = ""          # the data folder, printed before each file name
    lines: list = field(default_factory=list)
    _said: set = field(default_factory=set, repr=False)

    def add(self, file, path, message):
        file = f"{self.root.rstrip('/')}/{file}" if self.root else file
        where = f"{file}: {path}" if path else f"{file}"
        line = f"{where}: {message}"
        if line not in self._said:      # the same file found unreadable twice is one problem
            self._said.add(line)
            self.lines.append(line)

    def __bool__(self):
        return bool(self.lines)


class Reader:
    def __init__(self, problems, file, table, path=""):
        self.problems = problems
        self.file = file
        self.table = table if isinstance(table, dict) else {}
        self.path = path
        self._seen = set()

    def key(self, name):
        return f"{self.path}.{name}" if self.path else str(name)

    def report(self, name, message):
        self.problems.add(self.file, self.key(name) if name is not None else self.path, message)

    def get(self, name, kind, *, default=_MISSING, check=None):
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

    def get_list(self, name, item_kind, *, default=_MISSING, nonempty=True, check_item=None):
        """A list whose every item is of `item_kind`; bad items are reported one by one."""
        value = self.get(name, list, default=default)
        if value is None or value is default:
            return value
        if nonempty and not value:
            self.report(name, "must not be empty")
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

    def section(self, name, *, required=True):
        """A sub-table as its own Reader (an empty one if absent or of the wrong type)."""
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

    def tables(self, name, *, required=True):
        """An array of tables ([[name]]) as Readers."""
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
        return [Reader(self.problems, self.file, v, f"{self.key(name)}[{i}]") for i, v in enumerate(value)]

    def names(self):
        """Every key of this table, marked as read (for tables whose keys are data)."""
        self._seen.update(self.table)
        return sorted(self.table)

    def finish(self):
        for name in sorted(set(self.table) - self._seen, key=str):
            self.report(name, "unknown key")


def _describe(value):
    if isinstance(value, bool):
        return "a boolean"
    for kind, text in ((int, "an integer"), (float, "a float"), (str, "a string"),
                       (list, "an array"), (dict, "a table")):
        if isinstance(value, kind):
            return text
    return type(value).__name__


def in_range(low, high):
    def check(value):
        if not low <= value <= high:
            return f"{value} is out of range {low}..{high}"
        return None
    return check


def nonblank(value):
    return None if value.strip() else "must not be blank"


def one_of(choices):
    def check(value):
        if value not in choices:
            return f"{value!r} is not one of {', '.join(map(repr, sorted(choices)))}"
        return None
    return check
