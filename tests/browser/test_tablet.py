"""A tablet (768×1024, touch) in Chromium: tapping a heatmap cell chooses it, as a click does,
and the playground's layout holds: nothing scrolls sideways, every chart fits the screen's
width, every chart is legible (harness/legibility.py) and no exception is shown. Screenshots
are kept in test-artifacts/tablet-*.png."""

from __future__ import annotations

import pytest

from harness.browser import exceptions_shown, new_context, wait_for_app
from harness.charts import cell_centre, wait_for_charts, wait_for_trace
from harness.legibility import problems, settled_charts
from harness.server import ARTIFACTS

TABLET = {"width": 768, "height": 1024}
LINK = "text=abcdef&heads=3&head=1&row=5&col=0"
# The page's scroll width, the window's and the charts' horizontal extents.
LAYOUT_JS = """() => ({
  page: document.scrollingElement.scrollWidth, window: innerWidth,
  charts: Array.from(document.querySelectorAll('.js-plotly-plot'))
    .filter(plot => plot.checkVisibility())
    .map(plot => { const box = plot.getBoundingClientRect(); return [Math.round(box.left), Math.round(box.right)]; }),
})"""


@pytest.fixture
def tablet_page(playwright_browser):
    context = new_context(playwright_browser, viewport=TABLET, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()


def _tap(page, key: str, axis: str, row: int, col: int, expected: dict[str, str]) -> None:
    page.touchscreen.tap(*cell_centre(page, key, axis, row, col))
    page.wait_for_function(
        "expected => Object.entries(expected).every(([k, v]) => new URLSearchParams(location.search).get(k) === v)",
        arg=expected,
    )
    wait_for_app(page)


def _layout_problems(page) -> list[str]:
    layout = page.evaluate(LAYOUT_JS)
    lines = [f"the page scrolls sideways: {layout['page']} px wide in {layout['window']}"] * (
        layout["page"] > layout["window"] + 1
    )
    return lines + [
        f"a chart spans {left}…{right} px of {layout['window']}"
        for left, right in layout["charts"]
        if left < 0 or right > layout["window"] + 1
    ]


def _legibility_problems(page) -> list[str]:
    lines = []
    for index in range(page.locator(".js-plotly-plot").count()):
        chart = page.locator(".js-plotly-plot").nth(index)
        if chart.is_visible():
            chart.scroll_into_view_if_needed()
            lines += [line for drawn in settled_charts(page, index) for line in problems(drawn)]
    return lines


def test_on_a_tablet_a_tap_chooses_the_cell_and_the_layout_holds(shared_server, tablet_page):
    page = tablet_page
    page.goto(f"{shared_server.url}/playground?{LINK}")
    wait_for_charts(page)
    wait_for_trace(page, "raw scores QKᵀ · head 1")  # the detail chart
    page.wait_for_function(
        "() => document.querySelector('.st-key-pg_detail_chart .js-plotly-plot')?.dataset.clicks === 'on'"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tablet-playground-768.png"))
    assert _layout_problems(page) == []
    assert _legibility_problems(page) == []
    # The detail's first panel (raw scores): query 3, key 1; the select boxes and the outline follow.
    _tap(page, "pg_detail_chart", "", 3, 1, {"row": "3", "col": "1"})
    page.wait_for_function("() => document.querySelector('.st-key-pg_row input').value === '3 · d'")
    assert page.locator(".st-key-pg_col input").input_value() == "1 · b"
    shapes = page.evaluate("() => document.querySelector('.st-key-pg_detail_chart .js-plotly-plot').layout.shapes")
    assert shapes and all(s["x0"] == 0.5 and s["y0"] == 2.5 for s in shapes), "the tapped cell is outlined"
    page.screenshot(path=str(ARTIFACTS / "tablet-playground-tapped-768.png"))
    # The overview's third head: head 3, query 4, key 2.
    _tap(page, "pg_overview_chart", "3", 4, 2, {"head": "3", "row": "4", "col": "2"})
    wait_for_trace(page, "softmax weights · head 3")
    assert page.locator(".st-key-pg_head input").input_value() == "head 3"
    assert _layout_problems(page) == []
    assert exceptions_shown(page) == 0
    assert not page.console_errors
