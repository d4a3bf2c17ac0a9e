"""Predict first in a real Chromium: with ``predict=1`` the chosen query's row is empty in
every head; a tap on a token draws the row as torch computes it and ranks the guess."""

from __future__ import annotations

import numpy as np
import torch

from gpt_core import PlaygroundConfig, trace_attention
from harness.browser import exceptions_shown
from harness.charts import wait_for_charts, wait_for_trace

BOOK = "动手学大模型"
HEADS, ROW = 4, 5  # the default set-up: four heads; the last query reads every key
ROW_JS = """([name, row]) => { for (const plot of document.querySelectorAll('.js-plotly-plot'))
  for (const trace of plot._fullData || []) if (trace.name === name)
    return Array.from(trace.z[row], v => (v === null || Number.isNaN(v)) ? null : v);
  return undefined; }"""


def shown_row(page, head: int) -> list:
    return page.evaluate(ROW_JS, [f"softmax weights · head {head}", ROW])


def test_a_tapped_token_draws_the_hidden_row_in_every_head(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/playground?predict=1")
    wait_for_charts(page)
    wait_for_trace(page, f"softmax weights · head {HEADS}")
    for head in range(1, HEADS + 1):
        assert shown_row(page, head) == [None] * (ROW + 1), f"head {head} shows the row before the guess"
    page.locator(".st-key-pg_predict_pills").get_by_text("2 · 学", exact=True).click()
    page.wait_for_function(
        "args => { const row = (" + ROW_JS + ")(args); return row && row.every(v => v !== null); }",
        arg=["softmax weights · head 1", ROW],
    )
    weights = torch.softmax(trace_attention(BOOK, PlaygroundConfig()).trace.masked_scores[0], dim=-1).numpy()
    for head in range(1, HEADS + 1):
        wait_for_trace(page, f"softmax weights · head {head}")
        shown = np.array(shown_row(page, head), dtype=np.float64)
        np.testing.assert_allclose(shown, weights[head - 1, ROW], atol=1e-4, rtol=0)  # sent as it prints at 4 decimals
    page.get_by_text("head 4: rank", exact=False).wait_for()
    assert page.locator(".st-key-pg_predict_pills").count() == 0
    assert exceptions_shown(page) == 0
