"""One token, every head, in a real Chromium: a click on a token in the strip redraws every
head's bars as that token's row, and the link follows."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np

from gpt_core import PlaygroundConfig, token_attention, trace_attention
from harness.browser import exceptions_shown, wait_for_app
from harness.charts import read_traces, wait_for_charts, wait_for_trace

LINK = {"text": "the cat sat on the mat", "tok": "word", "heads": "3", "head_dim": "4", "seed": "5", "view": "token"}
BAR_Y_JS = """name => { for (const plot of document.querySelectorAll('.js-plotly-plot'))
  for (const trace of plot._fullData || []) if (trace.name === name) return Array.from(trace.y); return null; }"""


def test_clicking_a_token_in_the_strip_draws_its_row_in_every_head(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/playground?{urlencode(LINK)}")
    wait_for_charts(page)
    wait_for_trace(page, "head 3 · reads")
    assert len(read_traces(page)["head 1 · reads"]["x"]) == 6, "the last token reads every key"
    page.locator(".st-key-pg_tv_strip").get_by_role("radio", name="1 · cat", exact=True).click()
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(p => p._fullData || [])
             .some(t => t.name === 'head 1 · reads' && t.x && t.x.length === 2)"""
    )
    wait_for_app(page)
    traces = read_traces(page)
    weights = trace_attention(
        LINK["text"], PlaygroundConfig(heads=3, head_dim=4, seed=5, tokenizer="word")
    ).trace.weights
    token = token_attention([weights], 1)
    for head in range(3):
        assert traces[f"head {head + 1} · reads"]["x"] == ["0 · the", "1 · cat"]
        assert traces[f"head {head + 1} · is read by"]["x"] == ["1 · cat", "2 · sat", "3 · on", "4 · the", "5 · mat"]
        shown = np.array(page.evaluate(BAR_Y_JS, f"head {head + 1} · reads"), dtype=np.float32)
        np.testing.assert_array_equal(shown, token.rows[0, head, :2].numpy())
    page.wait_for_function("() => new URLSearchParams(location.search).get('token') === '1'")
    assert parse_qs(urlparse(page.url).query)["view"] == ["token"]
    assert exceptions_shown(page) == 0
