"""Shared test helpers."""

from __future__ import annotations

import torch

from figures import Words

# The explorer's figure words with plain values, so tests can name what they expect.
EXPLORER_WORDS = Words(
    {
        "ex.col.block": "block",
        "fig.head": "head",
        "fig.query": "query",
        "fig.key": "key",
        "fig.query_axis": "query (row)",
        "fig.key_axis": "key (column)",
        "ex.weight": "weight",
        "ex.grid_title": "All heads",
        "ex.queries": "queries",
        "ex.keys": "keys",
        "ex.metric.previous": "previous",
        "ex.metric.first": "first",
        "ex.metric.self": "self",
        "ex.metric.entropy": "entropy",
        "ex.generated_axis": "generated",
        "ex.position_axis": "position",
        "ex.step_label": "{step}: {char}",
        "ex.col.layer": "layer",
        "ex.metric.induction": "induction",
        "fig.masked_reason": "masked: this key comes after the query",
    }
)


def assert_close(actual: torch.Tensor, expected: torch.Tensor, atol: float, what: str = "") -> None:
    """assert |actual - expected| <= atol everywhere, reporting the max difference."""
    assert actual.shape == expected.shape, f"{what}: shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    max_diff = (actual - expected).abs().max().item()
    assert max_diff <= atol, f"{what}: max difference {max_diff:.3e} > {atol:.0e}"


def free_slots(semaphore) -> int:
    """How many times ``semaphore`` can be acquired now (taken without blocking, then given back)."""
    taken = 0
    while semaphore.acquire(blocking=False):
        taken += 1
    for _ in range(taken):
        semaphore.release()
    return taken


def assert_the_app_shell(page, page_key: str, lang: str = "en") -> None:
    """A page opened by a deep link shows the app's own shell: its title, the navigation
    to every page by name (never the raw file names Streamlit lists when app.py was skipped,
    facts.md's routing trap) and the window's title."""
    from string_table import t
    from ui.shell import PAGES

    heading = page.locator("[data-testid='stHeading'] h1").first.inner_text()
    assert t(f"page.{page_key}", lang) in heading
    sidebar = page.locator("[data-testid='stSidebar']")
    for info in PAGES:
        link = sidebar.get_by_text(t(f"page.{info.key}", lang), exact=True)
        link.wait_for(timeout=30_000)  # the script may still be drawing
        assert link.count() == 1, info.key
    assert "1_playground" not in sidebar.inner_text(), "raw file names leaked into the navigation"
    page.wait_for_function("title => document.title.startsWith(title)", arg=t(f"page.{page_key}", lang))
