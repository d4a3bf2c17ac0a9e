"""A long text in the explorer, with a real model of GPT-2 small's 12 layers × 12 heads (on a
tiny width, 128 positions; harness/tiny_models.WIDE_SHAPES): the layer's heads, the one-head
stages, the lines, the token view and the combined view show a window around the link's
``row`` and ``col``; the map of the whole text moves it; the numbers are gpt_core.hf's,
read here with torch."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gpt_core import hf
from harness.charts import traces_by_name
from string_table import t
from tests.apptest.conftest import clicks_for, open_page

EXPLORER = "pages/4_explorer.py"
TEXT = " ".join(["the cat sat on the mat"] * 20)


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    from harness.tiny_models import build_shaped_model

    folder = build_shaped_model("wide-gpt2", tmp_path_factory.mktemp("wide") / "wide-gpt2")
    return folder, hf.load(str(folder))


@pytest.fixture
def offered(wide, monkeypatch):
    monkeypatch.setenv("ATTENTION_MODELS", str(wide[0]))
    return wide[1]


@pytest.fixture
def click(monkeypatch):
    import ui.explorer.page

    return clicks_for(monkeypatch, ui.explorer.page)


def _charts(at, key: str) -> dict[str, dict]:
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(key):
            return traces_by_name(json.loads(chart.proto.spec))
    raise AssertionError(f"no chart {key}")


def _spec(at, key: str) -> dict:
    return next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(key))


def _positions(labels: list[str]) -> list[int]:
    return [int(label.split(" · ")[0]) for label in labels]


def _open(**query):
    at = open_page(EXPLORER, model="wide-gpt2", prompt=TEXT, **query)
    assert not at.exception, at.exception
    return at


def test_the_layers_heads_and_the_stages_show_the_window_around_the_links_row(offered):
    T = len(hf.trace(offered, TEXT).pieces)
    assert T == 128, "the text is cut to the model's 128 positions"
    at = _open(block="3", head="5", row="80", col="10")
    layer = _charts(at, "ex_layer_chart")["softmax weights · head 5"]
    assert _positions(layer["y"]) == list(range(56, 104)) and _positions(layer["x"]) == list(range(0, 48))
    detail = _charts(at, "ex_detail_chart")["raw scores QKᵀ · head 5"]
    assert _positions(detail["y"]) == list(range(56, 104)) and detail["meta"]["origin"] == [56, 0]
    assert (at.query_params["row"], at.query_params["col"]) == ("80", "10")


def test_the_note_gives_the_weight_outside_the_window_from_torch(offered):
    at = _open(block="3", head="5", row="80", col="10")
    weights = hf.trace(offered, TEXT).weights[2][0, 4, 80]
    outside = weights[48:].sum().item()  # the window's keys are 0..47; query 80 reads 0..80
    notes = [line for m in at.markdown for line in m.value.split("\n\n") if "outside the window" in line]
    assert notes == [f"Query 80 gives **{outside:.1%}** of its attention to keys outside the window."]


def test_a_click_on_the_map_moves_the_window_and_the_link(offered, click):
    at = _open(block="3", head="5", row="80", col="10")
    map_trace = next(t for t in _spec(at, "ex_window_map")["data"] if t.get("hovertemplate"))
    assert map_trace["meta"]["step"] == 2, "128 tokens in blocks of 2"
    click({"chart": "window", "head": 4, "block": None, "row": 110, "col": 90})
    at.run()
    assert not at.exception, at.exception
    assert (at.query_params["row"], at.query_params["col"]) == ("110", "90")
    layer = _charts(at, "ex_layer_chart")["softmax weights · head 5"]
    assert _positions(layer["y"])[0] == 80 and _positions(layer["x"])[0] == 66, "128 − 48 = 80; 90 − 24 = 66"


def test_the_lines_of_a_long_text_are_the_windows_and_say_how_many_are_left_out(offered):
    at = _open(block="2", head="1", row="30", col="10", view="lines", lines="head")
    weights = hf.trace(offered, TEXT).weights[1][0, 0].numpy()
    queries, keys = range(10, 50), range(0, 40)  # 40 rows: row 30 centred, column 10 moved inwards
    spec = _spec(at, "ex_lines_chart")
    columns = [t for t in spec["data"] if t.get("mode") == "markers+text"]
    assert [int(c.split(" · ")[0]) for c in columns[0]["customdata"]] == list(queries)
    assert [int(c.split(" · ")[0]) for c in columns[1]["customdata"]] == list(keys)
    strong = [(q, k) for q in queries for k in range(q + 1) if weights[q, k] >= 0.02]
    outside = sum(1 for q, k in strong if k not in keys)
    drawn = sum(len([y for y in t["y"] if y is not None]) // 2 for t in spec["data"] if t.get("mode") == "lines")
    assert drawn == len(strong) - outside and outside > 0
    notes = [c.value for c in at.caption if "lines are not drawn" in c.value]
    assert notes == [
        f"{outside} lines are not drawn: {outside} go to keys outside the window, 0 are weaker than the ones drawn."
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lines_that_are_all_under_the_threshold_say_why_nothing_is_drawn(offered, lang):
    """The last queries of a random model's 128 tokens spread their weight thin: the window
    around the last one has no weight of 0.02, and the page says so with the largest."""
    at = _open(block="1", head="1", view="lines", lines="head", **({"lang": lang} if lang != "en" else {}))
    weights = hf.trace(offered, TEXT).weights[0][0, 0].numpy()
    queries = range(128 - 40, 128)  # the 40 rows around the last query, its own key chosen with it
    strongest = max(weights[q, k] for q in queries for k in queries if k <= q)
    assert strongest < 0.02, "the case this test is about: every weight under the threshold"
    spec = _spec(at, "ex_lines_chart")
    assert not [tr for tr in spec["data"] if tr.get("mode") == "lines" and any(y is not None for y in tr["y"])]
    said = [i.value for i in at.info]
    assert said == [t("ex.lines_none", lang, threshold=0.02, strongest=f"{strongest:.3f}")], said


def test_the_token_view_of_a_long_text_draws_the_positions_around_the_token(offered):
    at = _open(block="1", head="1", token="90", view="token")
    bars = _charts(at, "ex_token_chart")
    reads = bars["layer 1 · head 1 · reads"]
    assert _positions(reads["x"]) == list(range(66, 91)), "the keys from 66 (90 − 24) up to the token"
    rows = hf.trace(offered, TEXT).weights[0][0, 0, 90, 66:91].numpy()
    np.testing.assert_allclose(np.array(reads["y"], dtype=np.float32), rows, atol=1e-6)
    assert any("positions 66–113 of 128" in c.value for c in at.caption)


def test_the_combined_view_of_a_long_text_is_windowed(offered):
    at = _open(block="2", head="1", row="30", col="30", view="combined")
    mean = next(iter(_charts(at, "ex_combined_chart").values()))
    assert _positions(mean["y"]) == list(range(6, 54)) and _positions(mean["x"]) == list(range(6, 54))
    assert mean["meta"]["origin"] == [6, 6]


@pytest.mark.parametrize("view", ["detail", "lines", "metrics", "generate", "odds", "token", "combined"])
def test_no_chart_of_a_long_text_is_taller_than_a_screen(offered, view):
    """12 layers × 12 heads, 128 tokens: every chart of the page with this tab open fits one
    1366 × 768 projector's screen or two (1,100 px), and the page sends its window, not T × T."""
    at = _open(block="6", head="7", row="100", col="50", view=view, lines="block")
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    assert specs
    heights = {
        str(spec["layout"].get("title", {}).get("text", ""))[:40]: spec["layout"].get("height", 0) for spec in specs
    }
    assert max(heights.values()) <= 1100, heights
    heatmap_cells = sum(
        len(trace["y"]) * len(trace["x"])
        for spec in specs
        for trace in spec["data"]
        if trace.get("type") == "heatmap" and trace.get("x") and trace.get("y")
    )
    assert heatmap_cells < 12 * 128 * 128, "fewer cells than one layer's heads in full"
