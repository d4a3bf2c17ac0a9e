"""The playground's charts fit the screens they are read on, measured in a real Chromium:
on a fresh load every head of the overview is above the fold (1366×768, a classroom
projector, and 1920×1080, in both languages); heads that fit one screen but not the first
stand beside the controls all the same, the first whole on the first screen (the book's
example with 8 heads; a 44-character sentence with 4; the default in presentation mode), except on a phone, where the page's
width under the controls keeps its panels square; one head's raw scores and softmax are
on one screen together for a sentence of fifteen words and for 50 tokens; a long text's
overview takes the page's width rather than a tall column beside the controls; compare mode's
two charts start on the first screen."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from harness.browser import new_context, settled_value
from harness.charts import wait_for_charts
from ui.playground.compare import A_CHART_KEY, B_CHART_KEY
from ui.playground.views import DETAIL_CHART_KEY, OVERVIEW_CHART_KEY

SCREENS = [{"width": 1366, "height": 768}, {"width": 1920, "height": 1080}]
PROJECTOR = SCREENS[0]
PHONE = {"width": 390, "height": 844}
PHONE_AGENT = (  # an Android phone's Chrome: "Mobile" in its User-Agent (tests/browser/test_phone.py)
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 "
    "Mobile Safari/537.36"
)
FIFTEEN_WORDS = (
    "attention mechanisms transform sequences through learned projections while transformers remember "
    "positional information across many layers"
)
FIFTY_CHARACTERS = "the quick brown fox jumps over the lazy dog again!"
FORTY_FOUR_CHARACTERS = "The quick brown fox jumps over the lazy dog."

# A chart's box in page coordinates (the page scrolls inside Streamlit's main section) and
# each panel's plot area (Plotly's axes: offset and length), in the order of its y axes.
CHART_JS = """key => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const box = plot.getBoundingClientRect();
  const scroller = document.querySelector('[data-testid="stMain"]') || document.scrollingElement;
  const shift = scroller.scrollTop;
  const layout = plot._fullLayout;
  const names = Object.keys(layout).filter(name => /^yaxis\\d*$/.test(name))
    .sort((a, b) => (Number(a.slice(5)) || 1) - (Number(b.slice(5)) || 1));
  const panels = names.map(name => {
    const axis = layout[name];
    return [box.top + shift + axis._offset, box.top + shift + axis._offset + axis._length];
  });
  const tokens = (plot._fullData.find(trace => trace.type === 'heatmap') || {x: []}).x.length;
  const main = document.querySelector('[data-testid="stMainBlockContainer"]'), style = getComputedStyle(main);
  const content = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {top: box.top + shift, bottom: box.bottom + shift, width: box.width, height: box.height, panels, tokens,
          main: content};
}"""


def _chart(browser, server, viewport: dict, query: dict, *keys: str, **options) -> list[dict]:
    """The boxes of the charts ``keys`` on a fresh load of the playground at ``query``
    (``options``: the browser context's, such as a phone's User-Agent)."""
    context = new_context(browser, viewport=viewport, **options)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/playground?{urlencode(query)}")
        wait_for_charts(page)
        for key in keys:
            page.wait_for_selector(f".st-key-{key} .js-plotly-plot .heatmaplayer")
        return [settled_value(page, CHART_JS, key) for key in keys]  # after Plotly's last relayout
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("viewport", SCREENS, ids=lambda size: f"{size['width']}x{size['height']}")
def test_a_fresh_load_shows_every_head_of_the_overview_above_the_fold(
    shared_server, playwright_browser, viewport, lang
):
    (overview,) = _chart(playwright_browser, shared_server, viewport, {"lang": lang}, OVERVIEW_CHART_KEY)
    assert len(overview["panels"]) == 4, "the default: four heads"
    assert overview["bottom"] <= viewport["height"], (overview["bottom"], viewport)
    assert max(bottom for _, bottom in overview["panels"]) <= viewport["height"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("query", "heads"),
    [
        ({"text": "动手学大模型", "heads": "8"}, 8),
        ({"text": FORTY_FOUR_CHARACTERS, "heads": "4"}, 4),
        ({"present": "1"}, 4),  # the default in presentation mode: its larger type and panels
    ],
    ids=["book-8-heads", "44-characters-4-heads", "presenting-the-default"],
)
def test_heads_that_fit_one_screen_stand_beside_the_controls_the_first_on_the_first_screen(
    shared_server, playwright_browser, query, heads, lang
):
    """Before, every head had to fit the first screen's rest beside the controls, and these
    went under them: the first screen showed the controls beside nothing."""
    (overview,) = _chart(playwright_browser, shared_server, PROJECTOR, {**query, "lang": lang}, OVERVIEW_CHART_KEY)
    assert len(overview["panels"]) == heads
    assert overview["width"] <= 0.7 * overview["main"], ("beside the controls, not under them", overview)
    assert overview["top"] < PROJECTOR["height"], overview
    assert overview["panels"][0][1] <= PROJECTOR["height"], "the first head whole on the first screen"
    assert overview["height"] <= PROJECTOR["height"], "every head on one screen, once scrolled to"


def test_on_a_phone_those_heads_take_the_pages_width_under_the_controls(shared_server, playwright_browser):
    """A phone's columns stand one under the other: a chart planned for the column beside the
    controls would be drawn the page's width with its panels stretched."""
    query = {"text": FORTY_FOUR_CHARACTERS, "heads": "4"}
    (overview,) = _chart(
        playwright_browser, shared_server, PHONE, query, OVERVIEW_CHART_KEY, user_agent=PHONE_AGENT, has_touch=True
    )
    assert len(overview["panels"]) == 4
    assert overview["width"] >= 0.9 * overview["main"], overview
    top, bottom = overview["panels"][0]
    assert bottom - top >= 0.3 * overview["width"], ("square panels of the page's width, not squeezed", overview)


@pytest.mark.parametrize(
    ("query", "tokens"),
    [({"text": FIFTEEN_WORDS, "tok": "word"}, 15), ({"text": FIFTY_CHARACTERS, "tok": "char"}, 50)],
    ids=["15-words", "50-tokens"],
)
def test_raw_scores_and_softmax_of_one_head_are_on_one_screen(shared_server, playwright_browser, query, tokens):
    (detail,) = _chart(playwright_browser, shared_server, PROJECTOR, query, DETAIL_CHART_KEY)
    assert detail["tokens"] == tokens
    assert detail["height"] <= PROJECTOR["height"], detail
    raw, softmax = detail["panels"][0], detail["panels"][3]  # the stages' order: QKᵀ, ÷ √d, masked, softmax
    assert max(raw[1], softmax[1]) - min(raw[0], softmax[0]) <= PROJECTOR["height"], detail["panels"]
    assert softmax[1] - softmax[0] >= tokens * 3, "cells of at least 3 px"


def test_a_long_texts_overview_takes_the_pages_width_not_a_column_beside_the_controls(
    shared_server, playwright_browser
):
    query = {"text": FIFTY_CHARACTERS, "tok": "char", "heads": "8"}
    (overview,) = _chart(playwright_browser, shared_server, PROJECTOR, query, OVERVIEW_CHART_KEY)
    assert len(overview["panels"]) == 8 and overview["tokens"] == 50
    assert overview["width"] >= 0.9 * overview["main"], overview
    assert overview["height"] <= PROJECTOR["height"], overview


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compare_modes_two_charts_start_on_the_first_screen(shared_server, playwright_browser, lang):
    a, b = _chart(playwright_browser, shared_server, PROJECTOR, {"cmp": "1", "lang": lang}, A_CHART_KEY, B_CHART_KEY)
    assert a["top"] < PROJECTOR["height"] and b["top"] < PROJECTOR["height"], (a["top"], b["top"])
