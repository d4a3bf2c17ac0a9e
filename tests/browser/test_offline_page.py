"""The page that works offline from one file, opened by Chromium from file:// with every
request that is not the file itself refused: it draws every head, asks the network for
nothing, a click outlines the cell in every stage of its head and works out the row's
softmax by hand with the file's own numbers, the stage switch redraws the heads, and a
hover in one stage shows the same cell in the others."""

from __future__ import annotations

import re

import numpy as np
import pytest

import seeing_attention as sa
from harness.browser import IDLE, new_context

pytestmark = pytest.mark.browser
# The page is made on the server when the button is pressed (a deferred download): a busy 2-core
# machine running a whole suite may take a while.
DOWNLOAD_TIMEOUT_MS = 120_000

CELL_JS = """([selector, row, col]) => {
  const plot = document.querySelector(selector);
  plot.scrollIntoView({block: 'center'});
  const x = plot._fullLayout.xaxis, y = plot._fullLayout.yaxis;
  const box = plot.querySelector('.main-svg').getBoundingClientRect();
  return [box.left + x._offset + x.l2p(col), box.top + y._offset + y.l2p(row)];
}"""
OUTLINES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(plot => ({
  role: plot.dataset.role, head: Number(plot.dataset.head), stage: plot.dataset.stage,
  shapes: (plot.layout.shapes || []).map(s => [s.y0 + 0.5, s.x0 + 0.5]),
}))"""


def _downloaded_page(page, url: str, button_name: str, tmp_path) -> tuple[str, dict]:
    """Open ``url`` in the app, press the share tab's page button, and read the file it gives."""
    from harness.browser import wait_for_app
    from tests.unit.test_offline_page import read_page

    page.goto(url)
    wait_for_app(page)
    button = page.locator(".st-key-pg_download_page").get_by_role("button", name=button_name)
    button.wait_for(state="visible")
    # A run still going would replace the button, and with it the file its click asks for.
    page.wait_for_selector(IDLE)
    with page.expect_download(timeout=DOWNLOAD_TIMEOUT_MS) as caught:
        button.click()
    path = tmp_path / caught.value.suggested_filename
    caught.value.save_as(path)
    return caught.value.suggested_filename, read_page(path.read_text(encoding="utf-8"))


def _offline_context(browser):
    """A context whose pages reach nothing but files."""
    context = new_context(browser, viewport={"width": 1366, "height": 768}, offline=True)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    return context


@pytest.fixture
def offline_page(playwright_browser, tmp_path):
    path = tmp_path / "attention.html"
    view = sa.export(path, "动手学大模型", heads=4, head_dim=8, seed=0, lang="zh")
    context = new_context(playwright_browser, viewport={"width": 1366, "height": 768}, offline=True)
    asked = []

    def route(request_route):
        url = request_route.request.url
        if url.startswith("file:"):
            request_route.continue_()
        else:
            asked.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_function("window.seeingAttention && window.seeingAttention.ready")
    yield page, view, asked, errors
    context.close()


def test_the_file_draws_every_head_and_asks_the_network_for_nothing(offline_page):
    page, view, asked, errors = offline_page
    assert asked == [] and errors == []
    charts = page.evaluate(OUTLINES_JS)
    assert sorted(c["head"] for c in charts if c["role"] == "overview") == [0, 1, 2, 3]
    assert [c["stage"] for c in charts if c["role"] == "detail"] == [
        "scores",
        "scaled_scores",
        "masked_scores",
        "weights",
    ]
    assert page.locator("h1").inner_text() == "多头因果注意力：动手学大模型"
    assert page.locator("#sa-tokens .token").count() == 6
    assert "(B, h, T, T)" in page.locator("#sa-shapes").inner_text()


def test_a_click_outlines_the_cell_in_every_stage_and_works_out_its_softmax(offline_page):
    page, view, asked, errors = offline_page
    head, row, col = 2, 3, 1
    x, y = page.evaluate(CELL_JS, [f".js-plotly-plot[data-role=overview][data-head='{head}']", row, col])
    page.mouse.click(x, y)
    page.wait_for_function(
        f"window.seeingAttention.state.row === {row} && window.seeingAttention.state.head === {head}"
    )
    charts = page.evaluate(OUTLINES_JS)
    outlined = [(c["role"], c["stage"]) for c in charts if c["shapes"] == [[row, col]]]
    assert sorted(outlined) == sorted([("overview", "weights")] + [("detail", s) for s in view.numbers]), charts
    assert all(c["shapes"] == [] for c in charts if c["role"] == "overview" and c["head"] != head)
    assert all(c["head"] == head for c in charts if c["role"] == "detail")

    table = page.locator("#sa-hand-table tr")
    assert table.count() == 1 + 6
    weights = view.numbers["weights"][head, row]
    shown_by_hand = [float(table.nth(1 + k).locator("td").nth(3).inner_text()) for k in range(6)]
    shown_stored = [float(table.nth(1 + k).locator("td").nth(4).inner_text()) for k in range(6)]
    np.testing.assert_allclose(shown_by_hand, weights, atol=1e-5)
    np.testing.assert_allclose(shown_stored, weights, atol=1e-5)
    assert table.nth(1 + 5).locator("td").nth(1).inner_text() == "−∞", "a key after the query"
    assert re.search(r"头 3，第 3 行", page.locator("#sa-hand h2").inner_text())
    assert asked == [] and errors == []


def test_the_stage_switch_redraws_the_heads_and_a_hover_shows_the_cell_in_every_stage(offline_page):
    page, view, asked, errors = offline_page
    page.locator("#sa-stages input[value=masked_scores]").check()
    page.wait_for_function(
        "[...document.querySelectorAll('[data-role=overview]')].every(p => p.dataset.stage === 'masked_scores')"
    )
    z = page.evaluate("document.querySelector(\"[data-role=overview][data-head='1']\").data[0].z")
    expected = view.numbers["masked_scores"][1]
    finite = np.isfinite(expected)
    got = np.array([[np.nan if v is None else v for v in line] for line in z], dtype=float)
    np.testing.assert_allclose(got[finite], expected[finite], atol=1e-6)
    assert np.all(np.isnan(got[~finite])), "−∞ drawn as a gap, in the masked colour"

    x, y = page.evaluate(CELL_JS, [".js-plotly-plot[data-role=detail][data-stage=scores]", 4, 2])
    page.mouse.move(x, y)
    page.wait_for_function("document.querySelectorAll('[data-role=detail] .hoverlayer .hovertext').length === 4")
    texts = page.evaluate(
        "[...document.querySelectorAll('[data-role=detail] .hoverlayer .hovertext')].map(g => g.textContent)"
    )
    assert all("4 · 模" in text and "2 · 学" in text for text in texts), texts
    assert asked == [] and errors == []


def test_the_playgrounds_download_is_that_page_with_the_views_numbers(shared_server, browser_page, tmp_path):
    """The share tab's "Download as a page", in the real app: the file holds the numbers of
    the view it was downloaded from, and opens offline."""
    from urllib.parse import urlencode

    from gpt_core import PlaygroundConfig, trace_attention

    link = {
        "text": "to be or not",
        "tok": "word",
        "heads": "3",
        "head_dim": "4",
        "seed": "11",
        "view": "share",
        "lang": "zh",
    }
    name, data = _downloaded_page(
        browser_page, f"{shared_server.url}/playground?{urlencode(link)}", "下载为网页", tmp_path
    )
    assert name.endswith(".html") and "h3" in name
    expected = trace_attention("to be or not", PlaygroundConfig(heads=3, head_dim=4, seed=11, tokenizer="word")).trace
    for stage, array in data["layers"][0]["arrays"].items():
        np.testing.assert_allclose(array, getattr(expected, stage)[0].numpy(), rtol=0, atol=1e-6)
    assert data["tokens"] == ["to", "be", "or", "not"] and data["words"]["softmax_key"] == "键"
    link_made = dict(data["made"])["在应用中打开同一视图"]
    assert link_made.startswith(f"{shared_server.url}/playground?") and "seed=11" in link_made


def test_a_models_page_switches_layers_offline(playwright_browser, tiny_model_folders, tmp_path):
    path = tmp_path / "model.html"
    view = sa.export(path, "the cat sat", model=str(tiny_model_folders["qwen2"]), layer="all")
    context = _offline_context(playwright_browser)
    page = context.new_page()
    try:
        page.goto(path.as_uri())
        page.wait_for_function("window.seeingAttention && window.seeingAttention.ready")
        select = page.get_by_label("Layer")
        assert select.is_visible() and select.locator("option").all_inner_texts() == ["Layer 1", "Layer 2"]
        select.select_option("1")
        page.wait_for_function("window.seeingAttention.state.layer === 1")
        z = page.evaluate("document.querySelector(\"[data-role=overview][data-head='3']\").data[0].z")
        np.testing.assert_allclose(np.array(z, dtype=float), view.layers[1]["weights"][3], atol=1e-6)
        assert "h_kv" in page.locator("#sa-made").inner_text(), "grouped-query heads named"
    finally:
        context.close()


def test_a_trained_models_view_downloads_as_its_page(shared_server, browser_page, tmp_path):
    """The shipped 4-head model, its second block: the page holds that block's numbers and the
    view's own link."""
    from urllib.parse import urlencode

    from gpt_core.explore import trace_model
    from ui.shared.resources import shipped_model

    prompt = "ROMEO: what light"
    link = {"weights": "h4", "block": "2", "text": prompt, "view": "share"}
    _, data = _downloaded_page(
        browser_page, f"{shared_server.url}/playground?{urlencode(link)}", "Download as a page", tmp_path
    )
    checkpoint = shipped_model(4)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, prompt).layers[1]
    for stage, array in data["layers"][0]["arrays"].items():
        np.testing.assert_allclose(array, getattr(expected, stage)[0].numpy(), rtol=0, atol=1e-6)
    made = dict(data["made"])
    assert "h4" in made["Weights"] and "block 2 of" in made["Weights"]
    assert "weights=h4" in made["The same view in the app"] and "block=2" in made["The same view in the app"]


def test_a_generations_page_steps_through_the_cache_offline(playwright_browser, tiny_model_folders, tmp_path):
    """``sa.generate``'s saved page, from file://: next shows step 2, its row of weights per head
    and the cache's shape after it, with nothing asked of the network."""
    generation = sa.generate(model=str(tiny_model_folders["qwen2"]), text="the cat sat", n=3)
    path = generation.save_html(tmp_path / "generation.html")
    context = _offline_context(playwright_browser)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(path.as_uri())
        page.wait_for_function("window.seeingAttention && window.seeingAttention.ready")
        assert page.locator("#sa-previous").is_disabled()
        page.get_by_role("button", name="Next step ▶").click()
        page.wait_for_function("window.seeingAttention.state.step === 1")
        step = generation.steps[1]
        shown = page.locator("#sa-shown").inner_text()
        assert shown.startswith("Step 2 of 3") and f"position {step.position}" in shown
        assert f"= (2, {step.length}, 8)" in page.locator("#sa-cache").inner_text(), "h_kv = 2 of h = 4"
        z = page.evaluate("Array.from(document.getElementById('sa-rows')._fullData[0].z, row => Array.from(row))")
        np.testing.assert_allclose(np.array(z, dtype=float), step.layers[0].weights.numpy(), atol=1e-6)
        assert errors == []
    finally:
        context.close()
