"""How many functions of the package are fully annotated, per package (the house's type hints).

Fully annotated: every parameter but self/cls has an annotation, and the function has a return
annotation (__init__ may leave it out).  Each def counts, nested ones and @overload stubs too.

    python .ci/annotations.py [FOLDER] [--list] [--min PERCENT]

FOLDER defaults to generator/; --list names each function that is not; --min exits 1 when the
whole is below PERCENT.
"""

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path


def annotated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    a = node.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]
    return (all(p.annotation is not None for p in params if p.arg not in ("self", "cls"))
            and (node.returns is not None or node.name == "__init__"))


def count(root: Path) -> tuple[dict[str, list[int]], list[str]]:
    """({package: [annotated, all]}, ['file:line name' of each function not annotated])."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    missing: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        package = rel.parts[0] if len(rel.parts) > 1 else "(base)"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                ok = annotated(node)
                per[package][0] += ok
                per[package][1] += 1
                if not ok:
                    missing.append(f"{root.name}/{rel.as_posix()}:{node.lineno} {node.name}")
    return dict(per), missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path(__file__).resolve().parents[1] / "generator")
    parser.add_argument("--list", action="store_true", help="name each function not fully annotated")
    parser.add_argument("--min", type=float, default=None, metavar="PERCENT")
    args = parser.parse_args()
    per, missing = count(args.folder)
    done, total = sum(v[0] for v in per.values()), sum(v[1] for v in per.values())
    for package, (ok, n) in sorted(per.items()):
        print(f"{package:10} {ok:4}/{n:<4} {100 * ok / n:5.1f}%")
    whole = 100 * done / total if total else 100.0
    print(f"{'total':10} {done:4}/{total:<4} {whole:5.1f}%")
    if args.list:
        print("\n".join(missing))
    return 1 if args.min is not None and whole < args.min else 0


if __name__ == "__main__":
    sys.exit(main())
