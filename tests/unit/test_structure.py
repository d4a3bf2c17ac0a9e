"""The code's shape as the formatter leaves it: no function over 60 lines, no module of the
app's packages over 400, and ``# fmt: skip`` only where a table reads better (30 at most).

Lines are counted in the files as written, which ``ruff format --check`` (the README's test
command) keeps formatted, so a function cannot be kept short by packing it. Tests count for
the function length (a test over 60 lines is several tests or wants a helper); their modules
are collections of cases and are not held to the module limit."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 400
MAX_FMT_SKIPS = 30
SKIP_MARK = "# fmt: " + "skip"  # written in two parts, so this file does not count itself


SKIPPED = {".venv", "venv", "build", "test-artifacts", "mutants", "__pycache__", ".git", "node_modules"}


def _python_files() -> list[Path]:
    """Every Python file of the project: not a virtual environment's, a build's or the app's
    copy that ``pip install .`` makes inside the package."""
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED & set(path.relative_to(ROOT).parts)
        and path.relative_to(ROOT).parts[:2] != ("seeing_attention", "app")
    ]


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _long_functions(path: Path) -> list[tuple[int, str, int]]:
    """(line, name, length) of each function over the limit."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lengths = ((node.lineno, node.name, node.end_lineno - node.lineno + 1) for node in _functions(tree))
    return [entry for entry in lengths if entry[2] > MAX_FUNCTION_LINES]


def test_the_files_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in _python_files()}
    assert {"app.py", "gpt_core/attention.py", "tests/unit/test_structure.py"} <= names


def test_no_function_is_over_60_lines():
    found = [
        f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
        for path in _python_files()
        for line, name, length in _long_functions(path)
    ]
    assert found == []


def test_no_module_outside_the_tests_is_over_400_lines():
    found = []
    for path in _python_files():
        relative = path.relative_to(ROOT)
        lines = path.read_text(encoding="utf-8").count("\n")
        if relative.parts[0] != "tests" and lines > MAX_MODULE_LINES:
            found.append(f"{relative} ({lines} lines)")
    assert found == []


def test_the_formatter_is_off_on_at_most_30_lines():
    skips = sum(path.read_text(encoding="utf-8").count(SKIP_MARK) for path in _python_files())
    assert skips <= MAX_FMT_SKIPS


def test_the_length_rule_sees_a_61_line_function_and_passes_a_60_line_one(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    long_file, short_file = tmp_path / "long.py", tmp_path / "short.py"
    long_file.write_text(f"def f():\n{body}\n    return 0\n")
    short_file.write_text(f"def g():\n{body}\n")
    assert _long_functions(long_file) == [(1, "f", 61)]
    assert _long_functions(short_file) == []
