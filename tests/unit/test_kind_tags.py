"""The pages ask a source what it can do, never which kind it is: no page package compares a
source's kind tag (``origin``, ``unit``, ``family``…), a kind's literal (``"random"``,
``"hub"``, ``"h4"``…) or a kind's name constant, and none tests a source's class. Read from
the code's syntax tree, so a rename, a reformat or a comment cannot hide a comparison."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE_PACKAGES = ("ui/playground", "ui/explorer", "ui/lesson", "ui/train")
TAG_ATTRIBUTES = {"origin", "unit", "family", "tokens_word", "kind"}
KIND_LITERALS = {"random", "session", "hub", "seed", "checkpoint", "layer", "block", "characters", "gpt", "module"}
KIND_LITERALS |= {"given", "character"}
SHIPPED_NAME = re.compile(r"^h\d+$")  # a shipped model's link name: "h4"
KIND_NAMES = {"RANDOM", "SESSION", "SESSION_KEY", "SESSION_MODEL", "RANDOM_WEIGHTS", "FALLBACK_MODEL"}
SOURCE_CLASSES = {"RandomWeights", "TinyGPT", "HubModel", "ModuleSource", "GivenWeights"}


def _names_a_kind(node: ast.expr) -> str | None:
    """What in ``node`` names a kind of source, or None."""
    if isinstance(node, ast.Attribute) and node.attr in TAG_ATTRIBUTES:
        return f".{node.attr}"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value in KIND_LITERALS or SHIPPED_NAME.match(node.value):
            return repr(node.value)
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if name in KIND_NAMES:
        return name
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return next((found for element in node.elts if (found := _names_a_kind(element))), None)
    return None


def kind_questions(source: str, filename: str = "<code>") -> list[str]:
    """Every place in ``source`` that asks which kind a source is: a comparison (==, !=, in,
    not in, is) with a kind tag, literal or name constant, or an isinstance of a source class."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                what = _names_a_kind(operand)
                if what:
                    found.append(f"{filename}:{node.lineno} compares {what}")
                    break
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            classes = node.args[1] if len(node.args) > 1 else None
            named = {n.id for n in ast.walk(classes) if isinstance(n, ast.Name)} if classes is not None else set()
            if named & SOURCE_CLASSES:
                found.append(f"{filename}:{node.lineno} tests the class {sorted(named & SOURCE_CLASSES)}")
    return found


@pytest.mark.parametrize(
    "code",
    [
        'if view.about.origin == "hub": pass',
        'title = "a" if d.unit == "layer" else "b"',
        'reason = "x" if key == sources.SESSION else "y"',
        'omit = () if values.get("weights") != state.RANDOM_WEIGHTS else ALL',
        'fallback = "h4" if "h4" in available else available[0]',
        "layered = isinstance(source, (TinyGPT, HubModel))",
        'if name in ("random", "session"): pass',
    ],
)
def test_the_check_finds_each_way_of_asking_a_sources_kind(code):
    assert kind_questions(code), code


@pytest.mark.parametrize(
    "code",
    [
        "unit = source.words.unit",  # a word to compose a string key with, never compared
        't(f"ex.col.{view.source.words.unit}", lang)',
        "if source.settings: pass",  # what a source can do: behaviour, not a kind
        "heavy = trace_work(source.description, T) > HEAVY_WORK",
        'if stage == "weights": pass',
    ],
)
def test_asking_a_source_what_it_can_do_is_not_flagged(code):
    assert not kind_questions(code), code


def test_no_page_package_asks_a_source_which_kind_it_is():
    files = sorted(path for package in PAGE_PACKAGES for path in (ROOT / package).rglob("*.py"))
    assert len(files) > 20, "the page packages were found"
    found = [question for path in files for question in kind_questions(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)
