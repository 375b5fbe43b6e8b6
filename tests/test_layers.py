"""The house: each package imports only those below it, no module imports itself in a circle,
no two modules share a file name, and the drawing libraries stay under render/.

Every import is read from the source (function-level ones too), so a lazy import up a layer
fails here as surely as a top-level one."""

import ast
import functools
from collections import defaultdict
from pathlib import Path

from commands_source import parsed

ROOT = Path(__file__).resolve().parent.parent
CODE = ROOT / "generator"
# Lowest first.  A module may import its own layer and those below; "base" is the top-level
# modules every layer shares (errors, text, units, colour, options).
LAYERS = ("base", "data", "engine", "content", "layout", "render", "make", "cli")
# Packages that are part of "base": the print profiles (generator/profiles/) are plain data that
# options.py takes its default from and layout/ and render/ lay out and draw by, so they sit with
# options.py, below every layer that reads them, and import nothing of ours but base modules.
BASE_PACKAGES = ("profiles",)
DRAWING = ("reportlab", "PIL", "pypdfium2", "pypdf")     # only render/ draws, rasterises or merges PDFs


def modules():
    for path in sorted(CODE.rglob("*.py")):
        if "shipped" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def layer(module):
    if module == "generator.__main__":      # `python -m generator` is the command line
        return "cli"
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in BASE_PACKAGES or (len(parts) == 2 and parts[1] not in LAYERS):
        return "base"
    return parts[1]


def imports(path, module):
    """(imported module, line) for every import in the file, resolved to absolute names."""
    tree = parsed(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            yield base, node.lineno
            for alias in node.names:        # `from generator.engine import procedure`
                yield f"{base}.{alias.name}", node.lineno


MODULES = dict(modules())


def internal(name):
    """The module of ours that `name` is, or None (a name imported from a module, or a library)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


@functools.cache
def graph():
    edges = defaultdict(set)
    for module, path in MODULES.items():
        for name, line in imports(path, module):
            target = internal(name) if name.startswith("generator") else None
            if target and target not in (module, "generator"):
                edges[module].add((target, line))
    return edges


def test_no_import_runs_up_a_layer():
    wrong = []
    for module, targets in graph().items():
        for target, line in targets:
            if target.startswith("generator.shipped"):
                continue
            if LAYERS.index(layer(target)) > LAYERS.index(layer(module)):
                wrong.append(f"{MODULES[module].relative_to(ROOT)}:{line}: {module} ({layer(module)}) imports "
                             f"{target} ({layer(target)})")
    assert not wrong, "\n".join(wrong)


def test_no_circle():
    edges = {m: {t for t, _ in ts} for m, ts in graph().items()}
    # A package's __init__ re-exporting its modules is not a circle with them.
    edges = {m: {t for t in ts if not (m.startswith(t + ".") and MODULES[t].name == "__init__.py")}
             for m, ts in edges.items()}
    state, circles = {}, []

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                circles.append(" -> ".join([*trail[trail.index(nxt):], nxt]) if nxt in trail else nxt)
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = "done"
    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])
    assert not circles, "\n".join(circles)


def test_drawing_libraries_only_under_render():
    wrong = [f"{path.relative_to(ROOT)}:{line}: {name}"
             for module, path in MODULES.items() if layer(module) != "render"
             for name, line in imports(path, module) if name.split(".")[0] in DRAWING]
    assert not wrong, "\n".join(wrong)


def test_no_two_modules_share_a_file_name():
    names = defaultdict(list)
    for path in MODULES.values():
        if path.name != "__init__.py":
            names[path.name].append(str(path.relative_to(ROOT)))
    shared = {name: paths for name, paths in names.items() if len(paths) > 1}
    assert not shared, shared


def test_every_package_is_a_layer():
    packages = {layer(m) for m in MODULES}
    assert packages <= set(LAYERS), packages - set(LAYERS)


def test_the_layer_test_sees_a_wrong_import(tmp_path):
    # The reader itself: a lazy import up a layer inside a function is found.
    source = "def f():\n    from generator.cli.parser import parser\n    return parser\n"
    path = tmp_path / "probe.py"
    path.write_text(source)
    found = list(imports(path, "generator.engine.probe"))
    assert ("generator.cli.parser", 2) in found
    assert LAYERS.index(layer("generator.cli.parser")) > LAYERS.index(layer("generator.engine.probe"))
