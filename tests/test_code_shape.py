"""The code stays readable in pieces: no function in generator/ runs over MAX_LINES lines.

Lines are counted from the `def` to the function's last line, its docstring and comments
included; a nested function counts inside its parent and on its own."""

import ast
import textwrap

from conftest import ROOT

CODE = ROOT / "generator"
MAX_LINES = 80


def long_functions(source: str, name: str) -> list[str]:
    """'name:line function (N lines)' for every function in `source` over MAX_LINES lines."""
    found = []
    for node in ast.walk(ast.parse(source, filename=name)):
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
