"""One way down: no module over 400 lines and no function over 60, as formatted (the tree is
``ruff format``ted), in the packages brought within those bounds, and no test function over 60
anywhere in tests/. Read from the syntax tree: a function runs from its ``def`` line to its
last line (its decorators aside); methods and nested functions count as functions."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
BOUNDED = ("gpt_core", "seeing_attention", "ui/lesson")  # modules and functions both bounded
FUNCTIONS_BOUNDED = ("tests",)  # functions bounded (some test modules are still longer)


def long_functions(source: str) -> list[tuple[str, int]]:
    """Every function of ``source`` longer than MAX_FUNCTION_LINES: (name, lines)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                found.append((node.name, lines))
    return found


def _modules(folders: tuple[str, ...]) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def test_a_function_is_counted_from_its_def_to_its_last_line():
    body = "".join(f"    x{i} = {i}\n" for i in range(58))
    at_the_bound = "@decorator\ndef f():\n" + body + "    return x0\n"  # def, 58 lines, return: 60
    assert long_functions(at_the_bound) == []
    inner = "".join(f"        y{i} = {i}\n" for i in range(60))  # inner: its def and 60 lines, 61
    nested = "def g():\n    def inner():\n" + inner + "    return inner\n"  # g: 1 + 61 + 1
    assert long_functions(nested) == [("g", 63), ("inner", 61)]


def test_no_module_of_the_bounded_packages_is_over_400_lines():
    modules = _modules(BOUNDED)
    assert len(modules) > 50, "the packages were found"
    over = {
        str(path.relative_to(ROOT)): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert over == {}, f"modules over {MAX_MODULE_LINES} lines: split them along their concerns: {over}"


def test_no_function_of_the_bounded_packages_or_of_the_tests_is_over_60_lines():
    over = {
        str(path.relative_to(ROOT)): found
        for path in _modules(BOUNDED + FUNCTIONS_BOUNDED)
        if (found := long_functions(path.read_text(encoding="utf-8")))
    }
    assert over == {}, f"functions over {MAX_FUNCTION_LINES} lines: extract what each part does: {over}"
