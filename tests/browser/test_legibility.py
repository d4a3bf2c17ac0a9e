"""Issue 10: every chart of the playground is legible, whatever the input and the screen.

For each viewport and input, every displayed Plotly chart (those in tabs too, one tab at a
time) is read in the page and checked by harness/legibility.py: no two texts overlap (tick
labels, panel, axis and figure titles, colour-bar labels, legend), no tick label reaches into
another panel's plot area, no text is cut off by its chart's edge, the panels that start a
row show y labels and those that end a column show x labels, and every label shown names its
position. These tests hold for any layout that is legible: they name no size or position.
A screenshot of each case is kept in test-artifacts/legibility-<case>-<width>.png.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from gpt_core import MAX_TOKENS, tokenize, truncate_text
from harness.browser import APP_READY_TIMEOUT_MS, new_context, wait_for_app
from harness.charts import wait_for_charts
from harness.legibility import problems, settled_charts
from harness.server import ARTIFACTS

VIEWPORTS = {1366: {"width": 1366, "height": 768}, 1920: {"width": 1920, "height": 1080}}
FIRST_SCREEN = VIEWPORTS[1366]

SENTENCE_40_WORDS = (
    "When the tired students finally opened the old notebook at night, every attention head in the small "
    "model looked back at the words before it and slowly learned which ones mattered most for "
    "interpretability of the next word."
)
LONG_TEXT = (  # 175 characters: the page shows the first MAX_TOKENS
    "Attention lets every token look back at the tokens before it: queries meet keys, the scores are "
    "scaled, masked and turned into weights by a softmax, then the values are mixed."
)
ZERO_WIDTH_RTL = "👩‍💻 a\u200bb\u200dc שלום עולם مرحبا"

# case id -> (query parameters, the detail chart's stages)
CASES = {
    "book": ({"text": "动手学大模型"}, 4),
    "words40": ({"text": SENTENCE_40_WORDS, "tok": "word"}, 4),
    "chars128": ({"text": LONG_TEXT, "tok": "char"}, 4),
    "zerowidth-rtl": ({"text": ZERO_WIDTH_RTL, "tok": "char"}, 4),
    "five-panels": ({"text": "动手学大模型", "dropout": "0.2", "mode": "train"}, 5),
}
DETAIL_TRACE = "softmax weights · head 1"  # in the overview (its default stage) and the detail chart
DROPOUT_TRACE = "weights after dropout · head 1"  # the fifth stage of the detail chart
MAX_LINES = 40  # problems listed in a failure message
MAX_SCREENSHOT_PX = 8000

# Both charts drawn with T tokens, and (five panels) the dropout stage: the detail chart
# comes from the second run the browser starts after the first screen.
DRAWN_JS = """([name, tokens, extra]) => {
  const traces = Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(p => p._fullData || []);
  const drawn = traces.filter(t => t.name === name && t.x && t.x.length === tokens);
  return drawn.length >= 2 && (!extra || traces.some(t => t.name === extra));
}"""


def test_the_cases_are_what_they_say():
    assert len(tokenize(SENTENCE_40_WORDS, "word")) == 40
    assert len(tokenize(LONG_TEXT, "char")) > MAX_TOKENS


def _tokens(query: dict[str, str]) -> int:
    tokenizer = query.get("tok", "char")
    return len(tokenize(truncate_text(query["text"], tokenizer, MAX_TOKENS), tokenizer))


@pytest.fixture(scope="module")
def pages(playwright_browser):
    """One page per viewport, reused across cases (each case navigates to its own link)."""
    contexts, opened = [], {}

    def page_for(width: int):
        if width not in opened:
            context = new_context(playwright_browser, viewport=VIEWPORTS[width])
            contexts.append(context)
            opened[width] = context.new_page()
        return opened[width]

    yield page_for
    for context in contexts:
        context.close()


def _check_shown_charts(page, checked: set[int]) -> list[str]:
    """Problems of every chart displayed now and not yet checked; each scrolled into view."""
    lines = []
    for index in range(page.locator(".js-plotly-plot").count()):
        if index in checked:
            continue
        chart = page.locator(".js-plotly-plot").nth(index)
        if not chart.is_visible():
            continue
        chart.scroll_into_view_if_needed()
        for drawn in settled_charts(page, index):
            checked.add(index)
            lines += problems(drawn)
    return lines


def _screenshot(page, path) -> None:
    """The whole page: it scrolls inside its main section, so the window grows to its height
    for the picture (same width: the charts keep their layout) and then shrinks back."""
    viewport = dict(page.viewport_size)
    height = page.evaluate(
        "() => { const main = document.querySelector('.stMain'); return main ? main.scrollHeight : 0; }"
    )
    path.parent.mkdir(exist_ok=True)
    try:
        if height > viewport["height"]:
            page.set_viewport_size({"width": viewport["width"], "height": min(height, MAX_SCREENSHOT_PX)})
            settled_charts(page)
        page.screenshot(path=str(path))
    finally:
        page.set_viewport_size(viewport)


@pytest.mark.parametrize("width", list(VIEWPORTS), ids=[f"{w}x{VIEWPORTS[w]['height']}" for w in VIEWPORTS])
@pytest.mark.parametrize("case", list(CASES))
def test_every_chart_is_legible(shared_server, pages, case, width):
    query, stages = CASES[case]
    page = pages(width)
    page.goto(f"{shared_server.url}/playground?{urlencode(query)}")
    wait_for_charts(page)
    extra = DROPOUT_TRACE if stages == 5 else None
    page.wait_for_function(DRAWN_JS, arg=[DETAIL_TRACE, _tokens(query), extra], timeout=APP_READY_TIMEOUT_MS)
    wait_for_app(page)
    checked: set[int] = set()
    lines = _check_shown_charts(page, checked)
    assert checked, "no chart was displayed"
    _screenshot(page, ARTIFACTS / f"legibility-{case}-{width}.png")
    for tab in range(page.get_by_role("tab").count()):  # charts inside tabs, one tab at a time
        page.get_by_role("tab").nth(tab).click()
        page.wait_for_function(
            "n => document.querySelectorAll('[role=tab]')[n].getAttribute('aria-selected') === 'true'", arg=tab
        )
        lines += _check_shown_charts(page, checked)
    if lines:
        more = f"\n… and {len(lines) - MAX_LINES} more" if len(lines) > MAX_LINES else ""
        pytest.fail(
            f"{case} at {width}×{VIEWPORTS[width]['height']}: {len(lines)} legibility problems "
            f"(screenshot: test-artifacts/legibility-{case}-{width}.png)\n" + "\n".join(lines[:MAX_LINES]) + more,
            pytrace=False,
        )


def test_a_chart_is_on_the_first_screen(shared_server, playwright_browser):
    """At 1366×768 (a classroom projector) the playground shows a chart without scrolling."""
    context = new_context(playwright_browser, viewport=FIRST_SCREEN)
    try:
        page = context.new_page()
        page.goto(f"{shared_server.url}/playground")
        wait_for_charts(page)
        top = page.evaluate(
            """() => { const main = document.querySelector('.stMain');
                       if (main) main.scrollTop = 0; window.scrollTo(0, 0);
                       return document.querySelector('.js-plotly-plot').getBoundingClientRect().top; }"""
        )
        assert top < FIRST_SCREEN["height"], f"the first chart starts at y = {top:.0f} px, below the first screen"
    finally:
        context.close()


# The explorer's charts, every tab: (query parameters), the shipped models with characters.
EXPLORER_CASES = {
    "explorer-h4": {"model": "h4", "lines": "block"},
    "explorer-h8-zh": {"model": "h8", "lang": "zh", "lines": "block", "metric": "entropy"},
}


@pytest.mark.parametrize(("case", "width"), [("explorer-h4", 1366), ("explorer-h4", 1920), ("explorer-h8-zh", 1366)])
def test_every_explorer_chart_is_legible(shared_server, pages, case, width):
    page = pages(width)
    page.goto(f"{shared_server.url}/explorer?{urlencode(EXPLORER_CASES[case])}")
    wait_for_charts(page)
    page.get_by_role("tab").first.wait_for(timeout=APP_READY_TIMEOUT_MS)  # the rest of the page
    wait_for_app(page)
    checked: set[int] = set()
    lines = _check_shown_charts(page, checked)
    for tab in range(page.get_by_role("tab").count()):
        page.get_by_role("tab").nth(tab).click()
        page.wait_for_function(
            "n => document.querySelectorAll('[role=tab]')[n].getAttribute('aria-selected') === 'true'", arg=tab
        )
        wait_for_app(page)
        lines += _check_shown_charts(page, checked)
    _screenshot(page, ARTIFACTS / f"legibility-{case}-{width}.png")
    assert len(checked) >= 5, "the grid and every tab's chart"
    if lines:
        pytest.fail(f"{case} at {width}: {len(lines)} legibility problems\n" + "\n".join(lines[:MAX_LINES]), pytrace=False)
