"""A long text's first view in a real Chromium at a projector's 1366 × 768, as a reader who
pastes a paragraph sees it: the window shows the keys around the chosen (last) query with the
diagonal in view, in the playground and in the explorer (before, queries 80–127 × keys 0–47,
far from it), and the first screen holds a chart, not only the note that the text was cut
(before, the playground's heads stood under the controls, below the screen, and the explorer's
map under a real model's facts)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from harness.browser import exceptions_shown, new_context, wait_for_app
from harness.charts import wait_for_trace
from harness.server import Server, start_server, stop_server

SCREEN = {"width": 1366, "height": 768}
# 400 characters, read one token each: random weights read the first 128.
TEXT = ("The quick brown fox jumps over the lazy dog while the cat sat on the mat. " * 6)[:400]
RANDOM_TOKENS = 128
# A model with GPT-2's 12 layers of 12 heads on a tiny width and 128 positions (harness/tiny_models.py).
WIDE_MODEL, WIDE_TOKENS = "wide-gpt2", 128
WORDS = " ".join(["the cat sat on the mat"] * 40)  # more than 128 of the model's tokens
# The first panel's query and key labels as Plotly drew them, and where the panel is on the screen.
PANEL_JS = """([key, name]) => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const trace = (plot._fullData || []).find(t => t.name === name);
  if (!trace) return null;
  const y = plot._fullLayout['yaxis' + (trace.yaxis || 'y').slice(1)];
  const top = plot.querySelector('.main-svg').getBoundingClientRect().top + y._offset;
  return {queries: Array.from(trace.y, String), keys: Array.from(trace.x, String), top, bottom: top + y._length};
}"""


# Every chart panel (a y axis's drawn length) wholly inside the window as it opens, at least
# min_px tall: a chart one can read without scrolling.
WHOLE_PANELS_JS = """min_px => {
  const panels = [];
  for (const plot of document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')) {
    const top = plot.querySelector('.main-svg').getBoundingClientRect().top;
    for (const [name, axis] of Object.entries(plot._fullLayout || {}))
      if (/^yaxis\\d*$/.test(name) && axis._length >= min_px && top + axis._offset >= 0
          && top + axis._offset + axis._length <= window.innerHeight) panels.push(name);
  }
  return panels;
}"""
MIN_PANEL_PX = 100
# How much of the explorer's map (its layers × heads) the first screen shows: at least a
# fifth of the screen's height, the map's first five layers, is a chart one sees (before: its
# title's edge, 68 px).
SHOWN_MAP_JS = """() => {
  const plot = document.querySelector('.st-key-ex_map_chart .js-plotly-plot');
  const top = plot.querySelector('.main-svg').getBoundingClientRect().top + plot._fullLayout.yaxis._offset;
  return Math.min(window.innerHeight, top + plot._fullLayout.yaxis._length) - Math.max(top, 0);
}"""
MIN_MAP_PX = 160


def _positions(labels: list[str]) -> list[int]:
    return [int(label.split(" · ")[0]) for label in labels]


@pytest.fixture(scope="module")
def server(chromium_executable, tmp_path_factory) -> Iterator[Server]:
    from harness.tiny_models import build_shaped_model

    folder = build_shaped_model(WIDE_MODEL, tmp_path_factory.mktemp("wide") / WIDE_MODEL)
    running = start_server("long-first-view", env={"ATTENTION_MODELS": str(folder)})
    yield running
    stop_server(running)


@pytest.fixture
def screen(playwright_browser):
    context = new_context(playwright_browser, viewport=SCREEN)
    yield context.new_page()
    context.close()


def _first_panel(page, url: str, key: str, name: str) -> dict:
    page.goto(url)
    wait_for_trace(page, name)
    wait_for_app(page)
    panel = page.evaluate(PANEL_JS, [key, name])
    assert panel is not None and exceptions_shown(page) == 0
    return panel


def _assert_diagonal_in_view(panel: dict, tokens: int) -> None:
    queries, keys = _positions(panel["queries"]), _positions(panel["keys"])
    assert tokens - 1 in queries, "the chosen query, the last, is in the window"
    assert queries == keys, f"queries {queries[0]}–{queries[-1]} × keys {keys[0]}–{keys[-1]}: the diagonal in view"


def test_the_playgrounds_first_window_is_on_the_diagonal(server, screen):
    url = f"{server.url}/playground?{urlencode({'text': TEXT, 'tok': 'char'})}"
    _assert_diagonal_in_view(_first_panel(screen, url, "pg_overview_chart", "softmax weights · head 1"), RANDOM_TOKENS)


@pytest.mark.parametrize("heads", [4, 12])
def test_the_playgrounds_first_screen_of_a_long_text_shows_a_chart(server, screen, heads):
    """4 heads stand beside the controls; 12 do not fit there, and the map of the whole text does."""
    screen.goto(f"{server.url}/playground?{urlencode({'text': TEXT, 'tok': 'char', 'heads': heads})}")
    wait_for_app(screen)
    assert screen.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0, "not scrolled"
    panels = screen.evaluate(WHOLE_PANELS_JS, MIN_PANEL_PX)
    assert panels, "no chart's panel is whole on the first screen: only the note that the text was cut"
    assert exceptions_shown(screen) == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_explorers_first_screen_of_a_long_text_shows_a_chart(server, screen, lang):
    """A real model's long text: the cut note, then the map of its 12 × 12 heads on the first
    screen (its facts and sizes under it); before, they stood above and pushed it below."""
    screen.goto(f"{server.url}/explorer?{urlencode({'model': WIDE_MODEL, 'prompt': WORDS, 'lang': lang})}")
    screen.locator(".st-key-ex_map_chart .js-plotly-plot").wait_for()
    wait_for_app(screen)
    assert screen.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0, "not scrolled"
    shown = screen.evaluate(SHOWN_MAP_JS)
    assert shown >= MIN_MAP_PX, f"{shown:.0f} px of the map on the first screen: only notes and the model's facts"
    assert exceptions_shown(screen) == 0


def test_the_explorers_first_window_of_a_long_text_is_on_the_diagonal(server, screen):
    url = f"{server.url}/explorer?{urlencode({'model': WIDE_MODEL, 'prompt': WORDS})}"
    panel = _first_panel(screen, url, "ex_layer_chart", "softmax weights · head 1")
    _assert_diagonal_in_view(panel, WIDE_TOKENS)
