"""The code stays readable in pieces: no function in generator/ runs over MAX_LINES lines.

Lines are counted from the `def` to the function's last line, its docstring and comments
included; a nested function counts inside its parent and on its own."""

import ast
import textwrap

from commands_source import parsed
from conftest import ROOT

CODE = ROOT / "generator"
MAX_LINES = 80


def long_functions(source: str, name: str) -> list[str]:
    """'name:line function (N lines)' for every function in `source` over MAX_LINES lines."""
    found = []
    for node in ast.walk(parsed(source, name)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_LINES:
                found.append(f"{name}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_in_generator_runs_over_the_limit():
    paths = sorted(CODE.rglob("*.py"))
    assert len(paths) > 50, "the walk found the code"
    found = [line for path in paths
             for line in long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, f"split these into named pieces (at most {MAX_LINES} lines each): {found}"


def test_the_count_sees_a_long_function_and_passes_one_at_the_limit():
    def function(name, lines):      # a `def` line, then lines - 1 statements
        return f"def {name}():\n" + "".join(f"    x{i} = {i}\n" for i in range(lines - 1))

    at_limit, over = function("fits", MAX_LINES), function("too_long", MAX_LINES + 1)
    nested = "class Outer:\n" + textwrap.indent(over, "    ")
    assert long_functions(at_limit, "a.py") == []
    assert long_functions(over, "a.py") == [f"a.py:1 too_long ({MAX_LINES + 1} lines)"]
    assert long_functions(nested, "b.py") == [f"b.py:2 too_long ({MAX_LINES + 1} lines)"]


def plain_frozen_dataclasses(source: str, name: str) -> list[str]:
    """'name:line Class' for every frozen dataclass in `source` that could be a frozen Struct:
    one that neither sets a field of its own in __post_init__ (a frozen Struct cannot) nor keeps a
    field out of its hash (CONTRIBUTING.md: a record is a Struct; Python 3.11 compiles a
    dataclass's methods at import)."""
    found = []
    for node in ast.walk(parsed(source, name)):
        if not isinstance(node, ast.ClassDef):
            continue
        frozen = any(isinstance(d, ast.Call) and getattr(d.func, "id", "") == "dataclass"
                     and any(k.arg == "frozen" and getattr(k.value, "value", False) for k in d.keywords)
                     for d in node.decorator_list)
        sets = any(isinstance(f, ast.FunctionDef) and f.name == "__post_init__"
                   and "object.__setattr__" in ast.unparse(f) for f in node.body)
        unhashed = any(isinstance(k, ast.keyword) and k.arg == "hash" for k in ast.walk(node))
        if frozen and not sets and not unhashed:
            found.append(f"{name}:{node.lineno} {node.name}")
    return found


def test_a_record_is_a_struct_unless_it_needs_a_dataclass():
    found = [line for path in sorted(CODE.rglob("*.py"))
             for line in plain_frozen_dataclasses(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, f"make these msgspec Structs (class X(Struct, frozen=True)): {found}"


def test_the_record_check_tells_a_plain_record_from_one_that_needs_a_dataclass():
    plain = "@dataclass(frozen=True)\nclass Plain:\n    a: int\n"
    checked = ("@dataclass(frozen=True)\nclass Checked:\n    a: int\n    def __post_init__(self):\n"
               "        assert self.a\n")
    sets = ("@dataclass(frozen=True)\nclass Sets:\n    a: int\n    def __post_init__(self):\n"
            "        object.__setattr__(self, 'a', 1)\n")
    unhashed = "@dataclass(frozen=True)\nclass Unhashed:\n    a: dict = field(default_factory=dict, hash=False)\n"
    mutable = "@dataclass\nclass State:\n    a: int\n"
    assert plain_frozen_dataclasses(plain + checked, "a.py") == ["a.py:2 Plain", "a.py:5 Checked"]
    assert plain_frozen_dataclasses(sets + unhashed + mutable, "b.py") == []
