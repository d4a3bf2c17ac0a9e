"""Real models in a real Chromium, on a fresh server that offers tiny GPT-2, Llama and Qwen2
models (ATTENTION_MODELS, local folders) and one that cannot be downloaded: a deep link
reproduces a real model's numbers; the explorer's layer × head map of a model past a screen's
grid chooses a head by a click; the unreachable model gets a message, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np
import pytest

from gpt_core import hf
from harness.browser import exceptions_shown, wait_for_app, wait_for_rerun
from harness.charts import assert_hover_shows, cell_centre, wait_for_trace
from harness.file_server import unused_local_url
from harness.server import Server, start_server, stop_server
from tests.browser.test_explorer import CHART_TRACES_JS

TEXT = "the cat sat on the mat 动手"
UNREACHABLE = "tiny-org/not-downloadable"


def _real_env(folders: dict, cache) -> dict[str, str]:
    offered = ",".join([*(str(folder) for folder in folders.values()), UNREACHABLE])
    return {
        "ATTENTION_MODELS": offered,
        "HF_HUB_CACHE": str(cache),
        "HF_ENDPOINT": unused_local_url().rsplit("/", 1)[0],
    }


@pytest.fixture
def fresh_real_server(chromium_executable, tiny_model_folders, tmp_path) -> Iterator[Server]:
    """A server nobody has asked anything yet, offering the tiny models."""
    server = start_server("real-fresh", env=_real_env(tiny_model_folders, tmp_path / "cache"))
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def real_server(chromium_executable, tiny_model_folders, tmp_path_factory) -> Iterator[Server]:
    server = start_server("real", env=_real_env(tiny_model_folders, tmp_path_factory.mktemp("cache")))
    yield server
    stop_server(server)


def _matrix(values) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)


def _params(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlparse(page.url).query).items()}


@pytest.mark.parametrize(("family", "kv_heads"), [("gpt2", 4), ("llama", 1), ("qwen2", 2)])
def test_a_deep_link_to_a_real_model_reproduces_its_numbers(
    family, kv_heads, fresh_real_server, browser_page, tiny_models
):
    page = browser_page
    query = {"weights": f"tiny-{family}", "block": "2", "head": "3", "text": TEXT}
    page.goto(f"{fresh_real_server.url}/playground?{urlencode(query)}")
    wait_for_app(page)
    wait_for_trace(page, "softmax weights · head 3")
    expected = hf.trace(tiny_models[family], TEXT).layers[1]
    detail = page.evaluate(CHART_TRACES_JS, "pg_detail_chart")
    assert_hover_shows(detail["softmax weights · head 3"], expected.weights[0, 2].numpy())
    assert page.get_by_text(f"h_kv = {kv_heads} key/value heads").count() >= 1
    assert _params(page)["weights"] == f"tiny-{family}" and _params(page)["block"] == "2"
    assert exceptions_shown(page) == 0 and not page.console_errors


def test_a_model_that_cannot_be_downloaded_gets_a_message(real_server, browser_page):
    page = browser_page
    page.goto(f"{real_server.url}/playground?{urlencode({'weights': UNREACHABLE, 'text': TEXT, 'lang': 'zh'})}")
    wait_for_app(page)
    page.get_by_text("fetch_models.py").first.wait_for()
    assert page.get_by_text(UNREACHABLE).count() >= 1
    assert exceptions_shown(page) == 0 and not page.console_errors


@pytest.fixture(scope="module")
def wide_folders(tmp_path_factory) -> dict:
    """Models with GPT-2's 12 × 12 and Qwen2.5-0.5B's 24 × 14 layers × heads, by name."""
    from harness.tiny_models import WIDE_SHAPES, build_shaped_model

    root = tmp_path_factory.mktemp("wide_models")
    return {shape: build_shaped_model(shape, root / shape) for shape in WIDE_SHAPES}


@pytest.fixture(scope="module")
def wide_server(chromium_executable, wide_folders) -> Iterator[Server]:
    """A server offering the wide models."""
    server = start_server("wide", env={"ATTENTION_MODELS": ",".join(str(folder) for folder in wide_folders.values())})
    yield server
    stop_server(server)


@pytest.mark.parametrize("name", ["wide-gpt2", "wide-qwen2"])
def test_clicking_the_layer_map_opens_that_head(name, wide_folders, wide_server, browser_page):
    """A model of more heads than a screen's grid (12 × 12, 24 × 14) opens on the map; a click
    on a cell opens that layer and head, with the model's own numbers."""
    page = browser_page
    page.goto(f"{wide_server.url}/explorer?{urlencode({'model': name, 'prompt': TEXT})}")
    wait_for_app(page)
    page.locator(".st-key-ex_map_chart").wait_for()
    page.locator(".st-key-ex_map_chart").scroll_into_view_if_needed()
    x, y = cell_centre(page, "ex_map_chart", "", 1, 2)  # layer 2 · head 3
    page.mouse.move(x, y)
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('block=2') && location.search.includes('head=3')")
    wait_for_rerun(page)
    wait_for_trace(page, "softmax weights · head 3")
    expected = hf.trace(hf.load(str(wide_folders[name])), TEXT).weights[1][0, 2].numpy()
    layer = _matrix(page.evaluate(CHART_TRACES_JS, "ex_layer_chart")["softmax weights · head 3"])
    lower = np.tril(np.ones(layer.shape, dtype=bool))
    assert_hover_shows(np.where(lower, layer, np.nan).tolist(), np.where(lower, expected, np.nan))
    assert exceptions_shown(page) == 0 and not page.console_errors


EXPLORER_24X14 = ("explorer", {"model": "wide-qwen2", "metric": "induction"})
EXPLORER_12X12 = ("explorer", {"model": "wide-gpt2", "block": "12", "head": "12"})
PLAYGROUND_24X14 = ("playground", {"weights": "wide-qwen2", "block": "24", "head": "14"})
# (page, link, width, language): the projector in both languages, the large screen in one (kept few: each
# case opens a page of many charts; CI's time is bounded).
LARGE_CASES = {
    "explorer-24x14-1366-zh": (*EXPLORER_24X14, 1366, "zh"),
    "explorer-24x14-1920-en": (*EXPLORER_24X14, 1920, "en"),
    "explorer-12x12-1366-en": (*EXPLORER_12X12, 1366, "en"),
    "playground-24x14-1366-zh": (*PLAYGROUND_24X14, 1366, "zh"),
}


@pytest.mark.parametrize(("page_name", "query", "width", "lang"), list(LARGE_CASES.values()), ids=list(LARGE_CASES))
def test_every_layer_and_head_of_a_large_model_is_legible(
    wide_server, playwright_browser, page_name, query, width, lang
):
    from harness.browser import new_context
    from harness.charts import wait_for_charts
    from harness.server import ARTIFACTS
    from tests.browser.test_legibility import VIEWPORTS, _check_shown_charts, _screenshot

    context = new_context(playwright_browser, viewport=VIEWPORTS[width])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{wide_server.url}/{page_name}?{urlencode({**query, 'prompt': TEXT, 'text': TEXT, 'lang': lang})}")
        wait_for_charts(page)
        wait_for_app(page)
        page.locator(".js-plotly-plot").nth(1).wait_for()  # the rest of the page, after the first screen
        checked: set[int] = set()
        lines = _check_shown_charts(page, checked)
        name = f"legibility-real-{page_name}-{query.get('model', query.get('weights'))}-{lang}-{width}.png"
        _screenshot(page, ARTIFACTS / name)
        assert len(checked) >= 2 and not lines, "\n".join(lines[:40])
        assert exceptions_shown(page) == 0 and not errors
    finally:
        context.close()
