"""The layers import one way only: gpt_core (torch) <- figures (numpy, Plotly) <- the
string table, the link rules and the classroom's rooms (pure Python) <- seeing_attention (the
installable package: the notebook call, the offline page, where the app's files are) <- ui
(Streamlit) <- pages/ and app.py. Nothing imports the harness or the tests but the tests,
benchmarks and scripts. gpt_core never prints."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "gpt_core"
DEV_ONLY = {"harness", "tests", "benchmarks", "scripts", "deploy"}
# What each layer may not import (its own package and the layers below it are allowed).
ABOVE_CORE = {"figures", "string_table", "links", "classroom", "seeing_attention", "ui", "pages"}
# The pure packages beside each other above figures: the link rules and the rooms.
PURE_FORBIDDEN = {"streamlit", "plotly", "pandas", "figures", "seeing_attention", "ui", "pages"} | DEV_ONLY
FORBIDDEN: dict[str, set[str]] = {
    "gpt_core": {"streamlit", "plotly", "pandas"} | ABOVE_CORE | DEV_ONLY,
    "figures": {"streamlit", "pandas"} | (ABOVE_CORE - {"figures"}) | DEV_ONLY,
    # the words of every page in every language (the figures' own words read from figures)
    "string_table": {"streamlit", "pandas", "links", "classroom", "seeing_attention", "ui", "pages"} | DEV_ONLY,
    # what a page's link may carry and how it is read and written
    "links": PURE_FORBIDDEN | {"string_table", "classroom"},
    # a class's room and its stores (SQLite, Redis): no words, no links, no page
    "classroom": PURE_FORBIDDEN | {"string_table", "links"},
    # the notebook call and the offline page: what a notebook has, never Streamlit nor the app's ui
    "seeing_attention": {"streamlit", "pandas", "classroom", "ui", "pages"} | DEV_ONLY,
    "ui": {"pages"} | DEV_ONLY,
}
PAGE_SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
MAX_PAGE_SCRIPT_LINES = 25  # a page script only hands over to its ui module


# Page packages of ui/: each page's own code. They share through the shared packages and the
# other modules of ui/, never through each other.
PAGE_PACKAGES = {"playground", "explorer", "lesson", "train"}
# Shared packages of ui/: what several pages use (ui/shared: sources, models, lanes), the views
# by concept that the playground and the explorer both draw (ui/views), each page's view state.
SHARED_PACKAGES = {"shared", "views", "page_state", "room"}


def _modules(path: Path) -> set[str]:
    """Every module ``path`` imports, dotted and absolute (relative imports resolved)."""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)  # "from .. import models"
    return names


def _imports(path: Path) -> set[str]:
    return {name.split(".")[0] for name in _modules(path)}


def test_relative_imports_resolve_to_absolute_modules():
    resolved = _modules(ROOT / "ui" / "explorer" / "page.py")
    assert "ui.shared.sources" in resolved and "ui.page_state.state" in resolved


@pytest.mark.parametrize("page", sorted(PAGE_PACKAGES))
def test_page_packages_never_import_each_other(page):
    others = PAGE_PACKAGES - {page}
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name for name in _modules(path) if name.startswith("ui.") and name.split(".")[1] in others
        )
        for path in (ROOT / "ui" / page).rglob("*.py")
    }
    assert not any(offenders.values()), {name: found for name, found in offenders.items() if found}


def test_shared_ui_modules_import_no_page_package():
    for path in (ROOT / "ui").rglob("*.py"):
        if path.parent.name in PAGE_PACKAGES:
            continue
        pages = sorted(
            name for name in _modules(path) if name.startswith("ui.") and name.split(".")[1] in PAGE_PACKAGES
        )
        assert not pages, (str(path.relative_to(ROOT)), pages)


def test_every_package_of_ui_is_a_page_or_a_shared_one():
    packages = {path.parent.name for path in (ROOT / "ui").glob("*/__init__.py")}
    assert packages == PAGE_PACKAGES | SHARED_PACKAGES, "a ui package without its place: name it above"


def test_every_package_of_the_app_is_a_named_layer():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - DEV_ONLY
    assert packages == set(FORBIDDEN), "a package without its place in the layers: add it to FORBIDDEN"


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_a_layer_above_it(layer):
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imports(path) & FORBIDDEN[layer]) for path in (ROOT / layer).rglob("*.py")
    }
    assert not any(offenders.values()), {name: found for name, found in offenders.items() if found}


def test_page_scripts_are_thin_and_import_only_the_ui_layer_and_its_words():
    for path in PAGE_SCRIPTS:
        assert _imports(path) - {"streamlit", "ui", "string_table", "__future__"} == set(), path.name
        assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_PAGE_SCRIPT_LINES, path.name


def test_gpt_core_sources_never_print():
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                raise AssertionError(f"print() in {path.name} line {node.lineno}")


@pytest.mark.parametrize(
    ("package", "absent"),
    [
        ("gpt_core", {"streamlit", "plotly", "ui"}),
        ("figures", {"streamlit", "ui"}),
        ("links", {"streamlit", "plotly", "ui"}),
        ("classroom", {"streamlit", "plotly", "ui"}),
    ],
)
def test_importing_a_lower_layer_loads_nothing_above_it(package, absent):
    modules = [package]
    if package in ("links", "classroom"):  # every module: their __init__ imports none
        modules += [f"{package}.{path.stem}" for path in sorted((ROOT / package).glob("[!_]*.py"))]
    code = f"import sys, {', '.join(modules)}; print(sorted(m for m in {sorted(absent)!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


# The model backends: the pages that show attention speak only the source interface
# (gpt_core.source, ui/shared/sources.py), the lesson too. The Train page trains the book's GPT
# itself and keeps this session's trained model (ui/shared/models.py), so it is not in this
# list; it generates and reads snapshots through sources.
BACKENDS = (
    "ui.shared.models",
    "ui.shared.real_models",
    "gpt_core.hf",
    "gpt_core.sources",
    "gpt_core.explore.trace_model",
    "gpt_core.explore.generate_characters",
    "gpt_core.explore.induction_text",
    "gpt_core.next_token",
    "gpt_core.odds.next_token",
    "gpt_core.trace_attention",
    "gpt_core.playground.trace_attention",
)
BACKEND_NAMES = (
    "RealLoaded",
    "RealTrace",
    "RealModel",
    "real_models",
    "is_real",
    "LoadedModel",
    "ModelTrace",
    "compute_real",
    "compute_trained",
    "TinyGPT",
    "HubModel",
    "RandomWeights",
)
SOURCE_PAGES = ("playground", "explorer", "lesson")


@pytest.mark.parametrize("page", SOURCE_PAGES)
def test_the_attention_pages_speak_only_the_source_interface(page):
    for path in sorted((ROOT / "ui" / page).glob("*.py")):
        imported = {m for m in _modules(path) if any(m == b or m.startswith(b + ".") for b in BACKENDS)}
        assert not imported, f"{path.relative_to(ROOT)} imports a backend: {sorted(imported)}"
        text = path.read_text(encoding="utf-8")
        named = [name for name in BACKEND_NAMES if name in text]
        assert not named, f"{path.relative_to(ROOT)} names a backend: {named}"
