"""Run axe-core (Deque's accessibility engine) in a Playwright page and report what it finds.

axe-core's own ``axe.min.js`` comes from the PyPI package ``axe-playwright-python`` (pinned in
requirements-dev.txt); only that bundled file is used, injected into the page as a script.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

# The WCAG 2.1 A and AA rules (axe's tags); best practices and AAA are not asked for.
WCAG_21_AA_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
BLOCKING_IMPACTS = ("serious", "critical")
MAX_NODES_LISTED = 8  # per rule in a report; the count says how many there were
MAX_SUMMARY_CHARS = 300

RUN_AXE_JS = """(tags) => axe.run(document, {
  runOnly: {type: 'tag', values: tags},
  resultTypes: ['violations'],
})"""


def axe_script() -> Path:
    """The path of the packaged axe.min.js; without the package, skip the calling test, or
    fail it when REQUIRE_BROWSER=1 (CI), so a missing install can't pass silently."""
    import pytest

    try:
        script = Path(str(files("axe_playwright_python") / "axe.min.js"))
    except ModuleNotFoundError:
        script = None
    if script is None or not script.is_file():
        reason = "no axe-core (pip install -r requirements-dev.txt installs axe-playwright-python)"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    return script


def axe_version(page) -> str:
    return page.evaluate("() => axe.version")


def run_axe(page, script: Path, tags: tuple[str, ...] = WCAG_21_AA_TAGS) -> list[dict]:
    """axe's violations of ``tags`` on the page as it is now (axe is injected when missing)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(script))
    return page.evaluate(RUN_AXE_JS, list(tags))["violations"]


def blocking(violations: list[dict]) -> list[dict]:
    return [violation for violation in violations if violation.get("impact") in BLOCKING_IMPACTS]


def report(violations: list[dict]) -> str:
    """One block per rule: id, impact, what it asks, and each node's target and summary."""
    lines = []
    for violation in violations:
        nodes = violation["nodes"]
        lines.append(f"{violation['id']} ({violation['impact']}, {len(nodes)} nodes): {violation['help']}")
        for node in nodes[:MAX_NODES_LISTED]:
            target = " >> ".join(" ".join(part) if isinstance(part, list) else part for part in node["target"])
            summary = " ".join((node.get("failureSummary") or "").split())[:MAX_SUMMARY_CHARS]
            lines.append(f"  - {target}: {summary}")
            lines.append(f"    html: {node['html'][:MAX_SUMMARY_CHARS]}")
        if len(nodes) > MAX_NODES_LISTED:
            lines.append(f"  … and {len(nodes) - MAX_NODES_LISTED} more")
    return "\n".join(lines)
