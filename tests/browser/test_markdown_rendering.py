"""Streamlit's Markdown (remark with GFM, LaTeX, coloured text, Material icons) renders
ui.markdown.literal's output as the user's text: no link, formula, colour, icon or tag,
in every kind of element the app quotes user text in."""

from __future__ import annotations

import pytest

from harness.browser import IDLE
from harness.server import ROOT, start_server, stop_server
from tests.markup import MARKDOWN_TRAPS
from ui.markdown import WORD_JOINER

ELEMENTS = 6  # markdown, caption, warning, info, error, success
# What any of the traps would become if Markdown or Streamlit interpreted it.
INTERPRETED = "a, img, b, strong, em, del, .katex, span[role='img'], span[style*='color'], span[style*='background']"


@pytest.fixture(scope="module")
def probe_server(chromium_executable):
    server = start_server("markdown-probe", script=str(ROOT / "tests" / "browser" / "apps" / "markdown_literal.py"))
    yield server
    stop_server(server)


def test_every_trap_is_shown_as_its_own_text_in_every_element(probe_server, browser_page):
    browser_page.goto(probe_server.url)
    last = len(MARKDOWN_TRAPS) - 1
    browser_page.wait_for_selector(f".st-key-trap_{last} [data-testid='stAlertContentSuccess']", timeout=60_000)
    browser_page.wait_for_selector(IDLE, timeout=60_000)
    for index, trap in enumerate(MARKDOWN_TRAPS):
        containers = browser_page.locator(
            f".st-key-trap_{index} :is([data-testid='stMarkdownContainer'], [data-testid='stCaptionContainer'])"
        )
        assert containers.count() == ELEMENTS, (trap, containers.count())
        for n in range(ELEMENTS):
            container = containers.nth(n)
            text = container.inner_text().replace(WORD_JOINER, "")
            assert f"trap{index}: {trap} end" in text, f"{trap!r} shown as {text!r}"
            assert container.locator(INTERPRETED).count() == 0, f"{trap!r} rendered as markup: {container.inner_html()}"
