"""Playground details a person sees at a classroom projector's 1366×768, in a real Chromium:
an out-of-range number is clamped in its box with a note, the shape trace is not cut, and
the copy button of a code block shows without hovering."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from gpt_core import MAX_HEAD_DIM, MAX_HEADS, MAX_INPUT_DIM, MAX_TOKENS
from harness.browser import exceptions_shown, new_context, wait_for_app, wait_for_rerun

PROJECTOR = {"width": 1366, "height": 768}
# The widest shape trace: every size at its maximum.
WIDEST = {
    "text": "x" * MAX_TOKENS,
    "heads": str(MAX_HEADS),
    "head_dim": str(MAX_HEAD_DIM),
    "input_dim": str(MAX_INPUT_DIM),
}
SHAPES_TAB = "Shapes: split and merge"


@pytest.fixture
def projector_page(playwright_browser):
    context = new_context(playwright_browser, viewport=PROJECTOR)
    yield context.new_page()
    context.close()


def test_heads_17_is_clamped_in_the_box_with_a_note(shared_server, projector_page):
    page = projector_page
    page.goto(f"{shared_server.url}/playground?heads=4")
    wait_for_app(page)
    box = page.locator(".st-key-pg_heads input")
    box.fill("17")
    box.press("Enter")
    wait_for_rerun(page)
    page.wait_for_function("document.querySelector('.st-key-pg_heads input').value === '16'")
    notes = page.locator("[data-testid='stAlert']").all_inner_texts()
    assert any("1–16" in note and "using 16" in note for note in notes), notes
    assert parse_qs(urlparse(page.url).query)["heads"] == ["16"]
    assert exceptions_shown(page) == 0


@pytest.mark.parametrize("present", ["0", "1"])
def test_shape_trace_is_not_cut_and_its_copy_button_shows_without_hover(shared_server, projector_page, present):
    page = projector_page
    page.goto(f"{shared_server.url}/playground?{urlencode(WIDEST | {'present': present})}")
    wait_for_app(page)
    page.get_by_role("tab", name=SHAPES_TAB).click()
    code = page.locator("[data-testid='stCode']").filter(has_text="query_layer").first
    code.scroll_into_view_if_needed()
    page.mouse.move(0, 0)  # no hover over the block
    shown = code.evaluate(
        """block => { const code = block.querySelector('code'); const pre = block.querySelector('pre');
        const button = block.querySelector("button[aria-label='Copy to clipboard']");
        const style = getComputedStyle(button); const rect = button.getBoundingClientRect();
        return {lines: code.innerText.trimEnd().split('\\n').length,
                rows: Math.round(code.getBoundingClientRect().height / parseFloat(getComputedStyle(code).lineHeight)),
                overflow: pre.scrollWidth - pre.clientWidth,
                button: style.visibility === 'visible' && Number(getComputedStyle(button.closest('[data-testid=stCode] > pre + div')).opacity) === 1
                        && rect.width > 0 && rect.right <= window.innerWidth}; }"""
    )
    assert shown["rows"] == shown["lines"], f"a line wrapped: {shown}"
    assert shown["overflow"] <= 0, f"a line is cut: {shown}"
    assert shown["button"], "the copy button is visible without hovering"
