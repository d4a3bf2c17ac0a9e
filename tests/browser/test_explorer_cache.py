"""The explorer's generation with the cache in a real Chromium: a link opens view=cache at its
step; the step slider's right arrow key moves to the next step and writes it to the link; the bars Plotly
drew are that step's query row as gpt_core computes it here, and the full matrix's outlined
last row holds the same numbers."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np

from gpt_core.kv_cache import generate_characters_cached
from gpt_core.results import load_experiment
from harness.browser import APP_READY_TIMEOUT_MS, exceptions_shown, wait_for_app, wait_for_rerun
from harness.charts import assert_hover_shows, wait_for_trace
from tests.apptest.conftest import ROOT

EXPERIMENT = load_experiment(ROOT / "assets" / "heads_experiment")
PROMPT = "ROMEO:\nBut soft"
STEPS = 4
ROW_TRACE = "block 1 · head 1 · reads"
# One chart's traces by name as Plotly drew them: each trace's y (bars) or z (a heatmap).
CHART_VALUES_JS = """key => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const out = {};
  const plain = v => (v === null || Number.isNaN(v)) ? null : v;
  for (const trace of (plot && plot._fullData) || []) {
    if (!trace.name) continue;
    if (trace.z) out[trace.name] = Array.from(trace.z, row => Array.from(row, plain));
    else if (trace.y) out[trace.name] = Array.from(trace.y, plain);
  }
  return out;
}"""
BARS_JS = """([key, name]) => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const trace = ((plot && plot._fullData) || []).find(trace => trace.name === name);
  return trace ? trace.y.length : 0;
}"""


def _params(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


def _wait_for_bars(page, keys: int) -> None:
    """Until the row chart's first head draws ``keys`` bars: the step's t keys in the cache."""
    page.wait_for_function(
        f"arg => ({BARS_JS})(arg) === {keys}", arg=["ex_cache_row_chart", ROW_TRACE], timeout=APP_READY_TIMEOUT_MS
    )


def _check_step(page, generation, index: int) -> None:
    step = generation.steps[index]
    bars = page.evaluate(CHART_VALUES_JS, "ex_cache_row_chart")
    for block, layer in enumerate(step.layers):
        for head in range(layer.weights.shape[0]):
            shown = np.array(bars[f"block {block + 1} · head {head + 1} · reads"], dtype=float)
            np.testing.assert_allclose(shown, layer.weights[head].numpy(), atol=1e-6)
    matrix = page.evaluate(CHART_VALUES_JS, "ex_cache_matrix_chart")["softmax weights · head 1"]
    assert len(matrix) == step.length
    assert_hover_shows([matrix[-1]], step.layers[0].weights[0].numpy()[None])


def test_the_cache_view_steps_forward_and_draws_each_steps_row(shared_server, browser_page):
    page = browser_page
    checkpoint = EXPERIMENT.checkpoint(4)
    generation = generate_characters_cached(checkpoint.model, checkpoint.vocabulary, PROMPT, STEPS)
    query = {"model": "h4", "prompt": PROMPT, "view": "cache", "cache_n": str(STEPS), "cache_step": "1"}
    page.goto(f"{shared_server.url}/explorer?{urlencode(query)}")
    wait_for_app(page)
    wait_for_trace(page, ROW_TRACE)
    _wait_for_bars(page, generation.steps[1].length)
    _check_step(page, generation, 1)
    assert _params(page)["cache_step"] == "1"
    slider = page.locator(".st-key-ex_cache_step input[type='range']")
    slider.focus()
    slider.press("ArrowRight")
    page.wait_for_function("() => location.search.includes('cache_step=2')", timeout=APP_READY_TIMEOUT_MS)
    wait_for_rerun(page)
    _wait_for_bars(page, generation.steps[2].length)
    _check_step(page, generation, 2)
    assert exceptions_shown(page) == 0 and not page.console_errors
