"""The kit's own source parsed once a process: test_layers.py, test_code_shape.py
and test_build.py each walk the syntax tree of every module under generator/."""

import ast

_TREES: dict[str, ast.Module] = {}


def parsed(source: str, filename: str) -> ast.Module:
    """`source`'s syntax tree, parsed once a process for the same text (`filename` is what a syntax
    error names; the trees are only read)."""
    tree = _TREES.get(source)
    if tree is None:
        tree = _TREES[source] = ast.parse(source, filename)
    return tree
