"""The playground's parts that rerun alone (``st.fragment``): the overview's stage buttons with
the heads overview, the detail's values toggle with its chart. Whatever reruns, the chart shows
the chosen stage's numbers as torch computes them, the link carries the choice, and a full
rerun afterwards draws the same. (That the change's bytes hold only that chart is shown with
the websocket client against a real server: tests/browser/test_parts.py.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import decode
from tests.apptest.conftest import open_page

PAGE = "pages/1_playground.py"
TEXT = "a cat"
HEADS, HEAD_DIM, SEED = 2, 3, 5
DISPLAY_TOLERANCE = 1e-3  # a colour and its three-digit hover, whatever precision the arrays travel in


def chart(at, key: str) -> dict:
    """The figure JSON of the chart drawn with ``key``."""
    for element in at.get("plotly_chart"):
        if element.proto.id.endswith(f"-{key}"):
            return json.loads(element.proto.spec)
    raise AssertionError(f"no chart {key}")


def heatmaps(spec: dict, size: int) -> list[np.ndarray]:
    """Each heatmap of ``spec`` that covers the whole text (``size`` × ``size``), in order."""
    grids = [decode(trace["z"]) for trace in spec["data"] if trace.get("type") == "heatmap" and "z" in trace]
    return [grid.reshape(size, size) for grid in grids if grid.size == size * size]


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def opened(lang: str):
    at = open_page(PAGE, text=TEXT, heads=str(HEADS), head_dim=str(HEAD_DIM), seed=str(SEED), lang=lang)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_stage_buttons_show_that_stage_of_every_head_and_put_it_in_the_link(lang):
    at = opened(lang)
    expected = trace_attention(TEXT, PlaygroundConfig(heads=HEADS, head_dim=HEAD_DIM, seed=SEED)).trace
    raw = expected.scores[0].double().numpy()  # (h, T, T): Q Kᵀ, before the scale and the mask
    T = raw.shape[-1]
    at.button_group(key="pg_stage").set_value("scores").run()
    assert not at.exception, at.exception
    drawn = heatmaps(chart(at, "pg_overview_chart"), T)
    assert len(drawn) == HEADS
    for head, grid in enumerate(drawn):
        shown = np.isfinite(grid)
        assert shown[np.tril_indices(T)].all(), "every cell on and below the diagonal is drawn"
        np.testing.assert_allclose(grid[shown], raw[head][shown], atol=DISPLAY_TOLERANCE, rtol=DISPLAY_TOLERANCE)
    assert query(at)["stage"] == "scores"
    assert at.session_state["pg_values"]["stage"] == "scores", "remembered for the next page visit"
    at.run()  # a full rerun afterwards draws the same
    again = heatmaps(chart(at, "pg_overview_chart"), T)
    for before, after in zip(drawn, again, strict=True):
        np.testing.assert_array_equal(before, after)
    assert query(at)["stage"] == "scores"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_values_toggle_writes_the_detail_cells_values_or_not_and_puts_it_in_the_link(lang):
    at = opened(lang)
    weights = trace_attention(TEXT, PlaygroundConfig(heads=HEADS, head_dim=HEAD_DIM, seed=SEED)).trace.weights
    T = weights.shape[-1]

    def written(spec: dict) -> list[str]:
        return [trace["texttemplate"] for trace in spec["data"] if trace.get("texttemplate", "").startswith("%{z")]

    assert written(chart(at, "pg_detail_chart")), "values written in the cells by default"
    at.toggle(key="pg_cells").set_value(False).run()
    assert not at.exception, at.exception
    detail = chart(at, "pg_detail_chart")
    assert not written(detail)
    last = heatmaps(detail, T)[-1]  # the softmax weights, the last stage, of head 1
    shown = np.isfinite(last)
    np.testing.assert_allclose(last[shown], weights[0, 0].double().numpy()[shown], atol=DISPLAY_TOLERANCE)
    assert shown[np.tril_indices(T)].all()
    assert query(at)["cells"] == "0"
    assert at.session_state["pg_values"]["cells"] is False
    at.run()
    assert not written(chart(at, "pg_detail_chart")) and query(at)["cells"] == "0"
