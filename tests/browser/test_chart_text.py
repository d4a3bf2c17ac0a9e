"""A chart's text alternative and its table, as a screen reader and a student meet them in Chromium."""

from __future__ import annotations

from urllib.parse import urlencode

from harness.browser import exceptions_shown, new_context, wait_for_app, wait_for_rerun
from harness.charts import read_traces, wait_for_charts, wait_for_trace
from harness.server import ARTIFACTS
from string_table import t

PROJECTOR = {"width": 1366, "height": 768}
LINK = {"text": "<i>x</i>", "heads": "2"}  # character tokens: <, i, >, x, <, /, i, >
WEIGHTS = "softmax weights · head 1"


def test_the_text_alternative_is_read_not_seen_and_the_table_shows_the_charts_numbers(
    shared_server, playwright_browser
):
    context = new_context(playwright_browser, viewport=PROJECTOR)
    page = context.new_page()
    try:
        page.goto(f"{shared_server.url}/playground?{urlencode(LINK)}")
        wait_for_charts(page)
        wait_for_trace(page, WEIGHTS)
        wait_for_app(page)
        overview = page.get_by_role("figure", name="softmax weights: 2 heatmaps of 8 × 8 cells.")
        assert overview.count() == 1, "the chart is a figure named by what it shows"
        sentence = f"{WEIGHTS}: largest 1.0000 (query 0 · <, key 0 · <)"
        hidden = page.locator("[class*='pg_overview_chart__alt_text']")
        assert hidden.get_by_text(sentence).count() == 1, (
            "the overview's text alternative names head 1's strongest cell"
        )
        box = hidden.bounding_box()
        assert box["height"] <= 1 and hidden.evaluate("e => getComputedStyle(e).clipPath") != "none", f"seen: {box}"
        assert sentence in page.locator("[data-testid='stMain']").aria_snapshot(), "in the accessibility tree"
        assert page.locator("[class*='__alt_text'] i").count() == 0, "the typed <i> is text, not markup"

        page.locator("summary", has_text=t("chart.table", "en")).first.click()
        wait_for_rerun(page)
        table = page.locator("[data-testid='stTable'] table").first
        table.wait_for()
        z = read_traces(page)[WEIGHTS]["z"]
        headers = table.locator("thead th").all_inner_texts()
        assert "1 · i" in headers and "3 · x" in headers
        row = table.locator("tbody tr").nth(1).locator("td").all_inner_texts()
        assert row[:2] == [f"{z[1][0]:.4f}", f"{z[1][1]:.4f}"], row
        table.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "chart-table.png"))
        assert exceptions_shown(page) == 0
    finally:
        context.close()
