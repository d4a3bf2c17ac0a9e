"""The playground's chosen head and cell: chosen by a click on a chart (the payload
assets/chart_events.js sends), kept inside the view when the heads or the text change or a
link asks for more, and the same in the widgets, the charts, the calculator and the URL.
Also the link's notes: what they say, and when they go."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gpt_core import MAX_HEADS, PlaygroundConfig, trace_attention
from harness.charts import traces_by_name
from tests.apptest.conftest import chart_traces, clicks_for, open_page
from ui.playground.controls import NOTE_VALUE_CHARS

PAGE = "pages/1_playground.py"
BOOK = "动手学大模型"  # the page's default text, six tokens


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def chosen(at) -> tuple[int, int, int]:
    return at.selectbox(key="pg_head").value, at.selectbox(key="pg_row").value, at.selectbox(key="pg_col").value


def detail_spec(at, head: int) -> dict:
    """The figure JSON of the detail chart (the one that draws ``head`` stage by stage)."""
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if f"raw scores QKᵀ · head {head}" in traces_by_name(spec):
            return spec
    raise AssertionError(f"no detail chart of head {head}")


def highlighted_cells(at, head: int) -> set[tuple[float, float]]:
    """The (x0, y0) corners of the cells outlined in the detail chart: key − ½, query − ½."""
    return {(shape["x0"], shape["y0"]) for shape in detail_spec(at, head)["layout"]["shapes"]}


def overview_focus(at) -> int:
    """The head the overview draws with the thickest border (1-based)."""
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        names = traces_by_name(spec)
        if "softmax weights · head 1" in names and "raw scores QKᵀ · head 1" not in names:
            widths = {shape["xref"]: shape["line"]["width"] for shape in spec["layout"]["shapes"]}
            axis = max(widths, key=widths.get).split()[0]  # "x3 domain" -> "x3"
            return next(head for head in range(1, 100) if names[f"softmax weights · head {head}"]["xaxis"] == axis)
    raise AssertionError("no overview chart")


def calculator_weights(at) -> np.ndarray:
    return at.dataframe[0].value.iloc[:, 3].astype(float).to_numpy()


@pytest.fixture
def click(monkeypatch):
    """Clicks arrive as the chart-click component's value for one run, as the browser sends
    them; ``click(payload)`` makes the next run carry one."""
    import ui.playground.page

    return clicks_for(monkeypatch, ui.playground.page)


def test_a_click_on_a_head_in_the_overview_chooses_that_head_row_and_column(click):
    at = open_page(PAGE)
    meta = chart_traces(at)["softmax weights · head 3"]["meta"]
    click({"chart": "overview", "head": meta["head"], "block": None, "row": 4, "col": 2})
    at.run()
    assert not at.exception, at.exception
    assert chosen(at) == (3, 4, 2)
    assert (query(at)["head"], query(at)["row"], query(at)["col"]) == ("3", "4", "2")
    assert overview_focus(at) == 3
    assert highlighted_cells(at, 3) == {(1.5, 3.5)}, "key 2, query 4"
    expected = trace_attention(BOOK, PlaygroundConfig()).trace.weights[0, 2, 4].numpy()
    np.testing.assert_allclose(calculator_weights(at), expected, atol=1e-6)
    assert any(m.value.startswith("Head 3, query row 4") for m in at.markdown)
    at.run()
    assert chosen(at) == (3, 4, 2), "the choice stays once the click is spent"


def test_a_click_in_the_detail_chart_moves_the_cell_of_the_head_shown(click):
    at = open_page(PAGE, head="2")
    meta = chart_traces(at)["raw scores QKᵀ · head 2"]["meta"]
    click({"chart": "detail", "head": meta["head"], "block": None, "row": 3, "col": 0})
    at.run()
    assert chosen(at) == (2, 3, 0)
    assert highlighted_cells(at, 2) == {(-0.5, 2.5)}
    assert (query(at)["row"], query(at)["col"]) == ("3", "0")


@pytest.mark.parametrize(
    "payload",
    [
        {"chart": "overview", "head": 0, "row": 6, "col": 0},  # a cell of an older, longer text
        {"chart": "overview", "head": 0, "row": 0, "col": 6},
        {"chart": "overview", "head": 4, "row": 1, "col": 0},  # a head there is no longer
        {"chart": "overview", "head": 0, "row": -1, "col": 0},
        {"chart": "overview", "head": True, "row": 1, "col": 0},
        {"chart": "elsewhere", "head": 0, "row": 1, "col": 0},
        "row 1",
    ],
)
def test_a_click_that_does_not_fit_the_view_changes_nothing(click, payload):
    at = open_page(PAGE, head="2", row="3", col="1")
    click(payload)
    at.run()
    assert not at.exception, at.exception
    assert chosen(at) == (2, 3, 1)


def test_fewer_heads_keep_the_chosen_head_inside_everywhere():
    at = open_page(PAGE)
    at.selectbox(key="pg_head").set_value(4).run()
    assert overview_focus(at) == 4
    at.number_input(key="pg_heads").set_value(2).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="pg_head").value == 2 and query(at)["head"] == "2"
    assert overview_focus(at) == 2
    assert "raw scores QKᵀ · head 2" in chart_traces(at)
    expected = trace_attention(BOOK, PlaygroundConfig(heads=2)).trace.weights[0, 1, 5].numpy()
    np.testing.assert_allclose(calculator_weights(at), expected, atol=1e-6)


@pytest.mark.parametrize("beyond", ["6", "50"])
def test_a_links_cell_beyond_the_text_is_the_last_query_and_key_in_the_view_and_the_url(beyond):
    at = open_page(PAGE, text=BOOK, row=beyond, col=beyond)
    assert not at.exception, at.exception
    assert chosen(at) == (1, 5, 5)
    assert (query(at)["row"], query(at)["col"]) == ("5", "5"), "the link says what is shown"
    assert highlighted_cells(at, 1) == {(4.5, 4.5)}


def test_the_overview_marks_the_chosen_head():
    at = open_page(PAGE, head="3")
    assert overview_focus(at) == 3
    at.selectbox(key="pg_head").set_value(1).run()
    assert overview_focus(at) == 1


def test_a_links_note_says_what_is_allowed_and_what_is_used_instead():
    at = open_page(PAGE, heads="abc")
    note = " ".join(w.value for w in at.warning)
    assert f"allowed: 1 … {MAX_HEADS}" in note and f"the default {PlaygroundConfig().heads} is shown" in note, note


def test_a_long_odd_value_is_shown_cut():
    value = "9" * 100
    at = open_page(PAGE, heads=value)
    note = " ".join(w.value for w in at.warning)
    assert value[: NOTE_VALUE_CHARS - 1] + "…" in note and value[:NOTE_VALUE_CHARS] not in note, note


def test_the_links_notes_stay_while_looking_and_go_once_a_number_changes():
    at = open_page(PAGE, heads="abc")
    assert at.warning
    at.selectbox(key="pg_head").set_value(2).run()
    assert at.warning, "choosing what to look at keeps the note about the link"
    at.number_input(key="pg_seed").set_value(3).run()
    assert not at.warning, "the numbers are the student's own now"
