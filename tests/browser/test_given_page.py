"""The offline page of attention weights a learner already has (``sa.show(attention=...)``),
opened by Chromium from file:// with the network refused: the stage switch offers the weights
alone, the page says which stages it lacks under the switch and, where the softmax by hand
would be, says it again; a click still outlines the cell; no script error."""

from __future__ import annotations

import os

import pytest
import torch

import seeing_attention as sa
from harness.browser import new_context
from string_table import t
from tests.browser.test_offline_page import CELL_JS, OUTLINES_JS

pytestmark = pytest.mark.browser
TOKENS = ["Ġthe", "Ġcat", "Ġsat", "Ġon", "Ġthe", "Ġmat"]
SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")  # set it to keep a picture of each language's page


def _attentions() -> tuple[torch.Tensor, ...]:
    generator = torch.Generator().manual_seed(0)
    future = torch.ones(6, 6, dtype=torch.bool).triu(1)
    scores = torch.randn(2, 1, 3, 6, 6, generator=generator).masked_fill(future, -torch.inf)
    return tuple(torch.softmax(scores, -1))  # as transformers' outputs.attentions: 2 layers, (1, 3, 6, 6)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_page_of_weights_alone_offers_them_and_says_what_it_lacks_in_its_place(playwright_browser, tmp_path, lang):
    path = sa.show(attention=_attentions(), tokens=TOKENS, layer="all", lang=lang).save_html(tmp_path / "given.html")
    context = new_context(playwright_browser, viewport={"width": 1366, "height": 768}, offline=True)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(path.as_uri())
        page.wait_for_function("window.seeingAttention && window.seeingAttention.ready")
        radios = page.locator("#sa-stages input")
        assert radios.count() == 1 and radios.first.get_attribute("value") == "weights"
        lacks = t("source.weights_only", lang)
        assert lacks in page.locator("#sa-stage-notes").inner_text()
        assert lacks in page.locator("#sa-hand").inner_text(), "said where the softmax by hand would be"
        x, y = page.evaluate(CELL_JS, [".js-plotly-plot[data-role=overview][data-head='1']", 4, 2])
        page.mouse.click(x, y)
        page.wait_for_function("window.seeingAttention.state.row === 4 && window.seeingAttention.state.head === 1")
        charts = page.evaluate(OUTLINES_JS)
        assert [c["stage"] for c in charts if c["role"] == "detail"] == ["weights"]
        assert [c["shapes"] for c in charts if c["role"] == "detail"] == [[[4, 2]]]
        assert page.locator("#sa-hand-table").count() == 0 and lacks in page.locator("#sa-hand").inner_text()
        if SCREENSHOTS:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=os.path.join(SCREENSHOTS, f"given-{lang}.png"))
        assert errors == []
    finally:
        context.close()


def test_a_page_with_every_stage_says_nothing_under_the_switch(playwright_browser, tmp_path):
    path = tmp_path / "random.html"
    sa.export(path, "abc", heads=2, head_dim=4)
    context = new_context(playwright_browser, viewport={"width": 1366, "height": 768}, offline=True)
    page = context.new_page()
    try:
        page.goto(path.as_uri())
        page.wait_for_function("window.seeingAttention && window.seeingAttention.ready")
        assert page.locator("#sa-stages input").count() == 4
        assert page.locator("#sa-stage-notes").inner_text() == ""
    finally:
        context.close()
