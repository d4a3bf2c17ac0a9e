"""The project's imports form no cycle, and no module takes another's private names.

Every committed module counts: the app's packages, ``pages/`` and ``app.py``, the harness,
benchmarks, scripts and deploy (the tests only for the private-name rule's exemption below),
and imports inside functions count as much as those at the top: a cycle hidden in a function
is still two modules that cannot be understood, tested or moved one without the other. A
package's ``__init__`` that re-exports its own modules, which import each other through the
package, is the one kind of loop allowed (a package and its children, nothing outside).

Tests may import a module's private helper to test it; modules of the code may not."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Every top-level package (a folder with an ``__init__.py``: a new one counts without a word
# here), the page scripts and the folders of scripts.
SCRIPT_FOLDERS = ("pages", "app.py", "benchmarks", "scripts", "deploy")
PACKAGES = sorted(path.name for path in ROOT.iterdir() if (path / "__init__.py").is_file() and path.name != "tests")
TOPS = tuple(dict.fromkeys([*PACKAGES, *SCRIPT_FOLDERS]))


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _files(root: Path, tops) -> list[Path]:
    found = []
    for top in tops:
        path = root / top
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found += [p for p in path.rglob("*.py") if "__pycache__" not in p.parts and not _built(p, root)]
    return found


def _built(path: Path, root: Path) -> bool:
    """The app's copy that ``pip install .`` makes inside the package (not committed)."""
    return path.relative_to(root).parts[:2] == ("seeing_attention", "app")


def _targets(node: ast.AST, package: str) -> tuple[str, list[str]]:
    """The module an import names (relative ones resolved) and the names it takes."""
    if isinstance(node, ast.Import):
        return "", [alias.name for alias in node.names]
    base = package.split(".") if node.level else []
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    module = ".".join(base + ([node.module] if node.module else []))
    return module, [alias.name for alias in node.names]


def import_graph(root: Path, tops) -> tuple[dict[str, set[str]], list[str]]:
    """Each module's imports of the project's modules, and the private names taken from another."""
    paths = {_module_name(path, root): path for path in _files(root, tops)}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    private = []
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or getattr(node, "module", "") == "__future__":
                continue
            module, names = _targets(node, package)
            wanted = names if isinstance(node, ast.Import) else [module] + [f"{module}.{n}" for n in names]
            graph[name] |= {target for target in wanted if target in paths and target != name}
            taken = [n for n in names if isinstance(node, ast.ImportFrom) and n.startswith("_")]
            private += [
                f"{path.relative_to(root)}:{node.lineno} {module}.{n}"
                for n in taken
                if module in paths and module != name and not n.startswith("__")
            ]
    return graph, private


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively),
    less those that are a package and its own children."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 and not _package_and_children(component):
                    found.append(sorted(component))
    return found


def _package_and_children(component: list[str]) -> bool:
    return any(all(m == p or m.startswith(p + ".") for m in component) for p in component)


def test_the_graph_holds_every_part_of_the_project():
    graph, _ = import_graph(ROOT, TOPS)
    wanted = {"gpt_core.attention", "figures.overview", "string_table", "links.rules", "seeing_attention.cli"}
    assert wanted | {"ui.shell", "app", "pages.1_playground", "harness", "benchmarks.roundtrip"} <= set(graph)
    assert "ui.playground" in graph["pages.1_playground"]


def test_no_import_cycle_in_the_project():
    graph, _ = import_graph(ROOT, TOPS)
    assert cycles(graph) == []


def test_no_private_name_is_taken_from_another_module():
    _, private = import_graph(ROOT, TOPS)
    assert private == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def later():\n    from . import c\n",
            "pkg/c.py": "import pkg.a\n",
            "pkg/d.py": "from pkg.a import x\n",
        },
    )
    graph, _ = import_graph(tmp_path, ["pkg"])
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_package_re_exporting_its_children_is_not_a_cycle(tmp_path):
    _write(tmp_path, {"pkg/__init__.py": "from .a import f\n", "pkg/a.py": "from pkg import g\n"})
    graph, _ = import_graph(tmp_path, ["pkg"])
    assert graph["pkg"] == {"pkg.a"} and graph["pkg.a"] == {"pkg"}
    assert cycles(graph) == []


def test_a_private_name_from_a_sibling_is_found_and_a_dunder_is_not(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "_hidden = 1\n__version__ = 2\n",
            "pkg/b.py": "from .a import _hidden, __version__\n",
        },
    )
    _, private = import_graph(tmp_path, ["pkg"])
    assert private == ["pkg/b.py:1 pkg.a._hidden"]
