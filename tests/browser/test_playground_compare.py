"""Compare mode in a real Chromium: a cell clicked in set-up A's chart is the cell
outlined in set-up B's chart and in the difference."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

from figures.palette import HIGHLIGHT_COLOR
from harness.browser import exceptions_shown
from harness.charts import cell_centre, wait_for_charts, wait_for_trace
from ui.playground.compare import A_CHART_KEY, B_CHART_KEY, DIFF_CHART_KEY

LINK = {"text": "abcdef", "cmp": "1", "heads": "3", "b_heads": "5", "row": "5", "col": "0"}
OUTLINES_JS = """([key, color]) => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  return ((plot && plot.layout.shapes) || []).filter(s => s.line && s.line.color === color)
    .map(s => [s.xref, s.x0, s.y0]);
}"""


def _outlines(page, key: str) -> list[list]:
    return page.evaluate(OUTLINES_JS, [key, HIGHLIGHT_COLOR])


def test_a_cell_clicked_in_a_is_outlined_in_b_and_in_the_difference(shared_server, browser_page):
    browser_page.goto(f"{shared_server.url}/playground?{urlencode(LINK)}")
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "softmax weights · head 5")  # B's fifth head: both columns are drawn
    assert {(x0, y0) for _, x0, y0 in _outlines(browser_page, B_CHART_KEY)} == {(-0.5, 4.5)}, "the linked cell"
    x, y = cell_centre(browser_page, A_CHART_KEY, "2", 4, 2)  # A's second head: query 4, key 2
    browser_page.mouse.move(x, y)
    browser_page.mouse.click(x, y)
    browser_page.wait_for_function("() => location.search.includes('row=4') && location.search.includes('col=2')")
    browser_page.wait_for_function(
        "([key, color]) => { const p = document.querySelector(`.st-key-${key} .js-plotly-plot`);"
        " return p && (p.layout.shapes || []).some(s => s.line && s.line.color === color && s.x0 === 1.5); }",
        arg=[B_CHART_KEY, HIGHLIGHT_COLOR],
    )
    b_outlines = _outlines(browser_page, B_CHART_KEY)
    assert len(b_outlines) == 5 and {(x0, y0) for _, x0, y0 in b_outlines} == {(1.5, 3.5)}, b_outlines
    assert len({xref for xref, _, _ in b_outlines}) == 5, "one outline in each of B's panels"
    assert {(x0, y0) for _, x0, y0 in _outlines(browser_page, A_CHART_KEY)} == {(1.5, 3.5)}
    assert {(x0, y0) for _, x0, y0 in _outlines(browser_page, DIFF_CHART_KEY)} == {(1.5, 3.5)}
    params = {key: values[-1] for key, values in parse_qs(urlparse(browser_page.url).query).items()}
    assert (params["head"], params["b_heads"], params["cmp"]) == ("2", "5", "1"), "the click chose A's head 2"
    assert exceptions_shown(browser_page) == 0
    assert not browser_page.console_errors
