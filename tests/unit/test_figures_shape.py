"""The figure builders stay readable: no function in figures/ longer than 60 lines and no
module longer than 400, as ``ruff format`` writes them (CI checks that the tree is
formatted, so the lines counted here are the formatter's)."""

from __future__ import annotations

import ast
from pathlib import Path

import figures

FIGURES = Path(figures.__file__).parent
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 400


def _modules() -> list[Path]:
    return sorted(FIGURES.glob("*.py"))


def test_no_figure_module_is_longer_than_400_lines():
    long = {
        path.name: n for path in _modules() if (n := path.read_text(encoding="utf-8").count("\n")) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_in_figures_is_longer_than_60_lines():
    long = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.name}:{node.name}"] = lines
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
