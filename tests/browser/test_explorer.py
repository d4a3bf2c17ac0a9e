"""The explorer in a real Chromium: a deep link to a freshly started server reproduces the
chosen head's numbers; clicking a grid panel chooses that block and head; the training
scrubber changes the step shown; no exception anywhere."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np

from gpt_core.explore import trace_model
from gpt_core.results import load_experiment
from harness.browser import exceptions_shown, wait_for_app, wait_for_rerun
from harness.charts import assert_hover_shows, cell_centre, wait_for_trace
from tests.apptest.conftest import ROOT
from tests.helpers import assert_the_app_shell

EXPERIMENT = load_experiment(ROOT / "assets" / "heads_experiment")
PROMPT = "ROMEO:\nBut soft, what"
# One chart's traces by name, as Plotly drew them (two charts may share a trace name).
CHART_TRACES_JS = """key => {
  const plot = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const out = {};
  for (const trace of (plot && plot._fullData) || []) {
    if (trace.name && trace.z) out[trace.name] = Array.from(trace.z, row => Array.from(row, v => (v === null || Number.isNaN(v)) ? null : v));
  }
  return out;
}"""


def _matrix(values) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)


def _params(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


def test_a_deep_link_on_a_fresh_server_reproduces_the_chosen_heads_numbers(fresh_server, browser_page):
    page = browser_page
    page.goto(f"{fresh_server.url}/explorer?{urlencode({'model': 'h8', 'prompt': PROMPT, 'block': '2', 'head': '6'})}")
    wait_for_app(page)
    wait_for_trace(page, "softmax weights · head 6")
    assert_the_app_shell(page, "explorer")
    checkpoint = EXPERIMENT.checkpoint(8)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, PROMPT).layers[1]
    detail = page.evaluate(CHART_TRACES_JS, "ex_detail_chart")
    assert_hover_shows(detail["softmax weights · head 6"], expected.weights[0, 5].numpy())
    grid = page.evaluate(CHART_TRACES_JS, "ex_grid_chart")
    shown = _matrix(grid["block 2 · head 6"])
    lower = np.tril(np.ones(shown.shape, dtype=bool))
    assert_hover_shows(np.where(lower, shown, np.nan).tolist(), np.where(lower, expected.weights[0, 5].numpy(), np.nan))
    assert page.get_by_role("link", name="Attention playground").count() >= 1, "the app's page links, not raw files"
    assert _params(page)["head"] == "6" and _params(page)["model"] == "h8"
    assert exceptions_shown(page) == 0 and not page.console_errors


def test_clicking_a_grid_panel_chooses_its_block_and_head(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/explorer?model=h4&block=1&head=1")
    wait_for_app(page)
    wait_for_trace(page, "block 2 · head 3")
    page.locator(".st-key-ex_grid_chart").scroll_into_view_if_needed()
    x, y = cell_centre(page, "ex_grid_chart", "7", 10, 3)  # block 2 · head 3: panel 4 + 3
    page.mouse.move(x, y)
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('block=2') && location.search.includes('head=3')")
    wait_for_rerun(page)
    wait_for_trace(page, "softmax weights · head 3")
    assert page.locator(".st-key-ex_head input").input_value() == "head 3"
    assert exceptions_shown(page) == 0 and not page.console_errors


def test_the_scrubber_changes_the_step_shown(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/explorer?model=h2&block=1&head=2&step=0")
    wait_for_app(page)
    page.get_by_role("tab", name="During training").click()
    # The tabs are lazy: the click reruns the page to draw the training tab. Until that run
    # ends the detail tab's chart (a trace of the same name) is still on screen.
    page.wait_for_function("() => location.search.includes('view=training')")
    wait_for_rerun(page)
    page.wait_for_selector(".st-key-ex_training_chart .js-plotly-plot")
    wait_for_trace(page, "softmax weights · head 2")
    before = _matrix(page.evaluate(CHART_TRACES_JS, "ex_training_chart")["softmax weights · head 2"])
    snapshots = EXPERIMENT.snapshots(2)
    np.testing.assert_allclose(before, snapshots[0][0, 1], atol=1e-3)
    slider = page.locator(".st-key-ex_step input[type='range']")
    slider.focus()
    slider.press("End")
    page.wait_for_function("() => location.search.includes('step=1500')")
    wait_for_rerun(page)
    after = _matrix(page.evaluate(CHART_TRACES_JS, "ex_training_chart")["softmax weights · head 2"])
    np.testing.assert_allclose(after, snapshots[1500][0, 1], atol=1e-3)
    assert exceptions_shown(page) == 0 and not page.console_errors


def test_clicking_a_panels_masked_half_chooses_its_head_too(shared_server, browser_page):
    page = browser_page
    page.goto(f"{shared_server.url}/explorer?model=h4&block=2&head=3")
    wait_for_app(page)
    wait_for_trace(page, "block 1 · head 2")
    page.locator(".st-key-ex_grid_chart").scroll_into_view_if_needed()
    x, y = cell_centre(page, "ex_grid_chart", "2", 2, 20)  # block 1 · head 2, above the diagonal
    page.mouse.move(x, y)
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('block=1') && location.search.includes('head=2')")
    wait_for_rerun(page)
    assert page.locator(".st-key-ex_head input").input_value() == "head 2"
    assert exceptions_shown(page) == 0 and not page.console_errors
