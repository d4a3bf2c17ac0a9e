"""gpt_core stays pure torch: no UI imports, no prints."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "gpt_core"
UI_MODULES = {"streamlit", "plotly", "pandas"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_gpt_core_sources_never_import_the_ui_layer():
    offenders = {p.name: _imports(p) & UI_MODULES for p in CORE.rglob("*.py")}
    assert not any(offenders.values()), offenders


def test_gpt_core_sources_never_print():
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                raise AssertionError(f"print() in {path.name} line {node.lineno}")


def test_importing_gpt_core_loads_no_ui_module():
    code = "import sys, gpt_core; print(sorted(m for m in {'streamlit','plotly'} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=CORE.parent
    ).stdout.strip()
    assert out == "[]"
