"""A long text in the playground: the charts show a window of 48 queries and keys around the
chosen cell, a map of the whole text beside it (a click moves the window), the share of the
chosen query's attention outside the window, and ``row=N`` in a link opens with query N in
view. Expected numbers come from gpt_core's trace, read here with torch."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import traces_by_name
from tests.apptest.conftest import clicks_for, open_page

PAGE = "pages/1_playground.py"
TEXT = "".join(chr(ord("a") + (i * 7) % 26) for i in range(100))  # 100 characters, 100 tokens
LINK = {"text": TEXT, "tok": "char", "row": "80", "col": "10", "head": "2"}


@pytest.fixture
def click(monkeypatch):
    import ui.playground.page

    return clicks_for(monkeypatch, ui.playground.page)


def _specs(at) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _trace(at, name: str) -> dict:
    for spec in _specs(at):
        named = traces_by_name(spec)
        detail = any(key.startswith("raw scores") for key in named)  # the one-head chart, not the overview
        if name in named and detail == name.startswith("raw"):
            return named[name]
    raise AssertionError(f"no trace {name!r}")


def _map(at) -> dict:
    maps = [spec for spec in _specs(at) if any(t.get("meta", {}).get("step") for t in spec["data"])]
    assert len(maps) == 1, "one map of the whole text"
    return maps[0]


def _query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def test_a_link_with_row_80_opens_with_query_80_in_the_window():
    at = open_page(PAGE, **LINK)
    assert not at.exception, at.exception
    detail = _trace(at, "raw scores QKᵀ · head 2")
    positions = [int(label.split(" · ")[0]) for label in detail["y"]]
    assert positions == list(range(52, 100)), "query 80 centred, moved inwards: queries 52–99"
    assert detail["y"][-1].split(" · ")[0] == "99" and detail["x"][0].split(" · ")[0] == "0"
    assert detail["meta"]["origin"] == [52, 0]
    overview = _trace(at, "softmax weights · head 1")
    assert len(overview["y"]) == 48 and overview["y"][0].split(" · ")[0] == "52"
    assert _query(at)["row"] == "80"


def test_the_map_shows_the_whole_text_and_the_note_gives_the_weight_outside_the_window():
    at = open_page(PAGE, **LINK)
    spec = _map(at)
    rect = spec["layout"]["shapes"][0]
    assert (rect["y0"], rect["y1"], rect["x0"], rect["x1"]) == (51.5, 99.5, -0.5, 47.5)
    weights = trace_attention(TEXT, PlaygroundConfig(tokenizer="char")).trace.weights[0, 1, 80]
    outside = weights[48:].sum().item()  # keys 48..80 lie outside the window's keys 0..47
    assert outside > 0.01
    notes = [line for m in at.markdown for line in m.value.split("\n\n") if "outside the window" in line]
    assert notes == [f"Query 80 gives **{outside:.1%}** of its attention to keys outside the window."]


def test_a_click_on_the_map_moves_the_window_and_the_link(click):
    at = open_page(PAGE, **LINK)
    click({"chart": "window", "head": 1, "block": None, "row": 20, "col": 6})
    at.run()
    assert not at.exception, at.exception
    assert (_query(at)["row"], _query(at)["col"]) == ("20", "6")
    detail = _trace(at, "raw scores QKᵀ · head 2")
    assert detail["y"][0].split(" · ")[0] == "0" and detail["x"][0].split(" · ")[0] == "0"
    rect = _map(at)["layout"]["shapes"][0]
    assert (rect["y0"], rect["x0"]) == (-0.5, -0.5)


def test_a_short_text_has_no_window_and_no_map():
    at = open_page(PAGE, text=TEXT[:64], tok="char")
    assert not at.exception, at.exception
    assert not [spec for spec in _specs(at) if any(t.get("meta", {}).get("step") for t in spec["data"])]
    detail = _trace(at, "raw scores QKᵀ · head 1")
    assert len(detail["y"]) == 64 and "origin" not in detail["meta"]
    assert not [line for m in at.markdown for line in m.value.split("\n\n") if "outside the window" in line]


@pytest.mark.parametrize("view", ["qk", "softmax", "token", "combined", "shapes", "stats", "share"])
def test_no_chart_of_a_long_text_is_taller_than_a_screen(view):
    """128 tokens, 12 heads: with each tab open, every chart fits 1,100 px and the page sends
    windows of the heads, not T × T."""
    text = (TEXT * 2)[:128]
    at = open_page(PAGE, text=text, tok="char", heads="12", row="100", col="40", view=view)
    assert not at.exception, at.exception
    specs = _specs(at)
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
    assert heatmap_cells < 12 * 128 * 128, "fewer cells than the heads in full"


def test_compare_mode_of_a_long_text_is_windowed():
    text = (TEXT * 2)[:128]
    at = open_page(PAGE, text=text, tok="char", cmp="1", row="100", col="40")
    assert not at.exception, at.exception
    charts = [spec for spec in _specs(at) if spec != _map(at)]  # the map of the whole text has its own test
    heatmaps = [trace for spec in charts for trace in spec["data"] if trace.get("type") == "heatmap"]
    assert len(heatmaps) >= 3 * 4, "A's heads, B's heads and B − A"
    for trace in heatmaps:
        assert len(trace["y"]) == 48 and trace["y"][0].split(" · ")[0] == "76", trace.get("name")


@pytest.fixture
def compare_click(monkeypatch):
    import ui.playground.compare

    return clicks_for(monkeypatch, ui.playground.compare)


def test_compare_mode_of_a_long_text_has_the_map_and_a_click_on_it_moves_both_windows(compare_click):
    text = (TEXT * 2)[:128]
    at = open_page(PAGE, text=text, tok="char", cmp="1", row="100", col="40", head="2")
    assert not at.exception, at.exception
    rect = _map(at)["layout"]["shapes"][0]
    # 48 queries centred on 100 (100 − 24 = 76) and 48 keys centred on 40 (40 − 24 = 16), as cell edges
    assert (rect["y0"], rect["y1"], rect["x0"], rect["x1"]) == (75.5, 123.5, 15.5, 63.5)
    assert "The map shows set-up A's head 2; its box is the window both set-ups show." in [c.value for c in at.caption]
    weights = trace_attention(text, PlaygroundConfig(tokenizer="char")).trace.weights[0, 1, 100]
    outside = weights[:16].sum().item() + weights[64:].sum().item()  # keys outside 16..63 (query 100 sees 0..100)
    assert [line for m in at.markdown for line in m.value.split("\n\n") if "outside the window" in line] == [
        f"Query 100 gives **{outside:.1%}** of its attention to keys outside the window."
    ]

    compare_click({"chart": "window", "head": 1, "block": None, "row": 20, "col": 6})
    at.run()
    assert not at.exception, at.exception
    assert (_query(at)["row"], _query(at)["col"]) == ("20", "6")
    heatmaps = [
        trace
        for spec in _specs(at)
        for trace in spec["data"]
        if trace.get("type") == "heatmap" and len(trace.get("y", [])) == 48
    ]
    assert len(heatmaps) >= 3 * 4, "A's heads, B's heads and B − A, all windowed"
    assert all(trace["y"][0].split(" · ")[0] == "0" and trace["x"][0].split(" · ")[0] == "0" for trace in heatmaps)
    rect = _map(at)["layout"]["shapes"][0]
    assert (rect["y0"], rect["x0"]) == (-0.5, -0.5)


def test_compare_mode_of_a_short_text_has_no_map():
    at = open_page(PAGE, text=TEXT[:64], tok="char", cmp="1", lang="zh")
    assert not at.exception, at.exception
    assert not [spec for spec in _specs(at) if any(t.get("meta", {}).get("step") for t in spec["data"])]
    assert not [c.value for c in at.caption if "小图" in c.value]


def test_the_downloads_of_a_long_text_carry_the_whole_matrices(downloads):
    """The charts show a window; the CSV and the NPZ hold all T × T."""
    at = open_page(PAGE, **LINK, view="share")
    assert not at.exception, at.exception
    name = next(name for name in downloads.names if name.endswith(".csv"))
    head = int(name.split("head")[1].split(".")[0])
    rows = list(csv.reader(io.StringIO(downloads(name).decode())))
    assert len(rows) == 1 + 100 and len(rows[1]) == 1 + 100
    stage = name.split("_head")[0]
    expected = getattr(trace_attention(TEXT, PlaygroundConfig(tokenizer="char")).trace, stage)[0, head - 1].numpy()
    np.testing.assert_array_equal(
        np.array([[float(v) for v in row[1:]] for row in rows[1:]], dtype=np.float32), expected
    )
    with np.load(io.BytesIO(downloads("attention_trace.npz"))) as npz:
        assert npz["weights"].shape[-2:] == (100, 100)


def test_a_large_view_is_kept_only_in_the_shared_cache_not_in_each_session(monkeypatch):
    """A session keeps its own reference to a small view only; a larger one (a long text in a
    real model, here any view, the bound set to 0 bytes) is read from the shared, bounded
    cache, and the page draws the same numbers."""
    import ui.playground.computed as computed

    small = open_page(PAGE, **LINK)
    assert computed.MEMO_STATE in small.session_state
    monkeypatch.setattr(computed, "MEMO_MAX_BYTES", 0)
    at = open_page(PAGE, **LINK)
    assert not at.exception, at.exception
    assert computed.MEMO_STATE not in at.session_state
    at.run()
    weights = trace_attention(TEXT, PlaygroundConfig(tokenizer="char")).trace.weights[0, 1, 52:100, 0:48].numpy()
    from harness.charts import assert_displays

    assert_displays(_trace(at, "softmax weights · head 2"), weights)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_map_on_the_first_screen_is_sent_once_and_the_detail_points_to_it(lang):
    """Eight heads stand under the controls, so the first screen shows the map of the whole
    text; the detail beside its window then gives the note and points up to that map instead
    of sending the same chart a second time."""
    from string_table import t

    at = open_page(PAGE, text=TEXT, tok="char", heads="8", head_dim="8", row="80", lang=lang)
    assert not at.exception, at.exception
    _map(at)  # exactly one map
    notes = [paragraph for m in at.markdown for paragraph in m.value.split("\n\n")]
    assert t("win.note_above", lang, T=100, n=48) in notes
    assert notes.count(t("win.note", lang, T=100, n=48)) == 1, "beside the map on the first screen only"
    assert any(t("win.outside", lang, row=80, share="").split("**")[0] in note for note in notes)
