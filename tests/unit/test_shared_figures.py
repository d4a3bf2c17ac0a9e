"""Figures and computations shared by every session of a server: the wire form of a figure
(figures/wire.py) equals Plotly's own, and the shared memo (ui/shared/shared_cache.py)
makes a value once however many threads ask at once, and keeps within its bounds."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import plotly.io as pio
import pytest
from plotly.io._json import to_json_plotly

from figures import (
    ChartSize,
    channel_map_figure,
    generation_figure,
    grid_figure,
    head_detail_figure,
    heads_overview_figure,
    lines_figure,
    metric_figure,
    qkv_figure,
    softmax_bars_figure,
)
from figures.wire import wire_dict
from gpt_core import STAGES, PlaygroundConfig, trace_attention
from string_table.figure_words import figure_words
from ui.shared.shared_cache import MISSING, SharedResults

EN, ZH = figure_words("en"), figure_words("zh")


def _figures():
    result = trace_attention("The cat sat on the mat 🐱 <b>.", PlaygroundConfig(heads=4, head_dim=8, seed=3))
    trace = result.trace
    stages = {stage: getattr(trace, stage)[0, 1].numpy() for stage in STAGES}
    weights = trace.weights[0].numpy()
    T = len(result.labels)
    rng = np.random.default_rng(0)
    grid = rng.random((2, 4, T, T)).astype(np.float32)
    labels = result.labels
    metric = rng.random((2, 4))
    qkv = [rng.standard_normal((T, 8)) for _ in range(3)]
    return {
        "overview": lambda: heads_overview_figure(trace.masked_scores[0].numpy(), labels, "masked_scores", EN, focus=1),
        "overview_zh": lambda: heads_overview_figure(
            weights, labels, "weights", ZH, size=ChartSize(width_px=600, scale=1.35)
        ),
        "detail": lambda: head_detail_figure(
            stages, labels, 1, EN, highlight=(3, 2), show_values=True, room_for_values=True
        ),
        "channels": lambda: channel_map_figure(4, 8, ZH, kv_heads=2),
        "grid": lambda: grid_figure(grid, labels, EN, focus=(1, 2)),
        "metric": lambda: metric_figure(metric, "entropy", EN),
        "lines": lambda: lines_figure(weights, labels, [0, 1], EN),
        "softmax_bars": lambda: softmax_bars_figure(weights[0, -1], weights[1, -1], labels, EN),
        "qkv": lambda: qkv_figure(*qkv, labels, EN),
        "generation": lambda: generation_figure(
            [weights[0, -1, : T - 2 + i] for i in range(3)],
            ["a", "<b>", "猫"],
            [labels[: T - 2 + i] for i in range(3)],
            0,
            1,
            ZH,
        ),
    }


@pytest.mark.parametrize("name", list(_figures()))
def test_the_wire_form_is_plotlys_own_and_leaves_the_figure_as_it_was(name):
    figure = _figures()[name]()
    before = pio.to_json(figure.to_dict(), validate=False)
    wire = wire_dict(figure)
    assert pio.to_json(wire, validate=False) == before
    assert pio.to_json(figure.to_dict(), validate=False) == before, "the figure itself is not changed"
    for trace in wire["data"] if name in ("overview", "overview_zh", "detail", "grid") else ():
        if trace.get("type") == "heatmap":
            assert isinstance(trace["z"], dict) and "bdata" in trace["z"], "arrays go as typed arrays, as Plotly's do"


def test_a_value_asked_for_by_many_threads_at_once_is_made_once():
    results = SharedResults(max_entries=4)
    made = []
    start = threading.Barrier(12)

    def make():
        made.append(threading.get_ident())
        time.sleep(0.2)  # long enough that every thread asks while it is being made
        return object()

    got = []

    def ask():
        start.wait()
        got.append(results.get("view", make))

    threads = [threading.Thread(target=ask) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and len(got) == 12 and all(value is got[0] for value in got)
    assert results.made == 1 and results.asked == 12


def test_the_least_recently_used_go_first_beyond_the_entries_and_the_bytes():
    results = SharedResults(max_entries=3, max_bytes=100, size=len)
    for key in "abc":
        results.get(key, lambda key=key: key * 10)
    assert results.peek("a") == "a" * 10  # a is now the most recently used
    results.get("d", lambda: "d" * 10)
    assert results.peek("b") is MISSING and len(results) == 3
    results.get("e", lambda: "e" * 80)  # 30 + 80 > 100 bytes: the oldest go until it fits
    assert results.bytes <= 100 and results.peek("e") == "e" * 80
    assert results.get("huge", lambda: "x" * 101) == "x" * 101
    assert results.peek("huge") is MISSING, "a value larger than the whole bound is handed out, not kept"


def test_a_failed_make_is_not_kept_and_the_next_caller_makes_it_again():
    results = SharedResults(max_entries=2)

    def fail():
        raise ValueError("no")

    with pytest.raises(ValueError):
        results.get("k", fail)
    assert results.peek("k") is MISSING
    assert results.get("k", lambda: 5) == 5


def test_a_thread_waiting_for_a_value_whose_maker_failed_makes_it_itself():
    results = SharedResults(max_entries=2)
    started = threading.Event()
    errors, values = [], []

    def slow_fail():
        started.set()
        time.sleep(0.2)
        raise ValueError("no")

    def first():
        try:
            results.get("k", slow_fail)
        except ValueError as error:
            errors.append(error)

    thread = threading.Thread(target=first)
    thread.start()
    started.wait()
    values.append(results.get("k", lambda: 7))
    thread.join()
    assert len(errors) == 1 and values == [7]


@pytest.mark.parametrize("name", list(_figures()))
def test_a_builders_spec_is_sent_and_described_as_its_figure_is(name):
    """A page sends a builder's dicts without making a Plotly Figure (figures/style.py's
    FigureSpec): the browser gets what the validated Figure would send, and the text
    alternative and tables read the same."""
    import plotly.graph_objects as go

    from figures.describe import chart_data, chart_table, describe, table_names
    from figures.style import FigureSpec, specs_only

    figure = _figures()[name]()
    with specs_only():
        spec = _figures()[name]()
    assert isinstance(spec, FigureSpec) and isinstance(figure, go.Figure)
    validated = go.Figure(figure.to_dict())  # Plotly's own reading of every property
    assert json.loads(pio.to_json(wire_dict(spec), validate=False)) == json.loads(
        pio.to_json(validated.to_dict(), validate=False)
    )
    for words in (EN, ZH):
        from_spec, from_figure = chart_data(spec, words), chart_data(figure, words)
        assert describe(from_spec, words) == describe(from_figure, words)
        names = table_names(from_figure, words)
        assert table_names(from_spec, words) == names
        for part in range(len(names)):
            a, b = chart_table(from_spec, part, words), chart_table(from_figure, part, words)
            assert (a.index, a.columns, a.corner) == (b.index, b.columns, b.corner)
            np.testing.assert_array_equal(np.array(a.cells, dtype=object), np.array(b.cells, dtype=object))


@pytest.mark.parametrize(
    "array",
    [
        np.arange(12, dtype=np.float32).reshape(3, 4),
        np.arange(12, dtype=np.float64).reshape(4, 3).T,  # not contiguous
        np.array([np.nan, -np.inf, 1.5], dtype=np.float32),
        np.arange(6, dtype=np.int8),
        np.arange(6, dtype=np.uint16).reshape(2, 3),
        np.arange(6, dtype=np.int64),  # Plotly narrows it
        np.arange(6, dtype=">f4"),  # big-endian: Plotly's way
        np.array(["a", "b"]),
        np.zeros((0,), dtype=np.float32),
        np.float32(2.5) * np.ones((2, 2, 2), dtype=np.float32),
    ],
)
def test_a_typed_array_is_plotlys_own(array):
    from _plotly_utils.utils import to_typed_array_spec as plotlys

    from figures.wire import to_typed_array_spec

    ours, theirs = to_typed_array_spec(array), plotlys(array)
    if isinstance(theirs, dict):
        assert ours == theirs
    else:
        assert isinstance(ours, np.ndarray) and np.array_equal(ours, theirs)


@pytest.mark.parametrize("name", list(_figures()))
def test_the_json_sent_is_plotlys_own_value_and_safe_inside_html(name):
    from figures.wire import wire_json

    wire = wire_dict(_figures()[name]())
    plotlys = to_json_plotly(wire, engine="orjson")
    ours = wire_json(wire)
    assert json.loads(ours) == json.loads(plotlys)
    assert "<" not in ours and ">" not in ours, "a label such as <b> cannot close a tag"


def test_the_json_sent_escapes_what_could_close_a_tag():
    from figures.wire import wire_json

    spec = {"layout": {"title": {"text": "</script><b>\u2028\u2029 a/b 猫"}}, "data": []}
    sent = wire_json(spec)
    assert json.loads(sent) == spec
    assert "<" not in sent and ">" not in sent and "\u2028" not in sent and "\u2029" not in sent


def test_streamlit_sends_a_drawn_figures_json_made_once():
    """Streamlit's plotly_chart serializes the figure's dict with plotly.io.to_json: for a
    figure drawn by ui/charts.py that is the JSON made when it was drawn, the same value as
    Plotly's; any other figure is Plotly's own."""
    import plotly.graph_objects as go
    import streamlit as st  # noqa: F401  (plotly_chart's module reads plotly.io.to_json)

    from ui import charts

    drawn = charts._drawn(_figures()["overview"](), sized=True, presenting=False, lang="en")
    wire = drawn.sent.to_dict()
    assert pio.to_json(wire, validate=False) is wire.json
    assert json.loads(wire.json) == json.loads(to_json_plotly(dict(wire), engine="orjson"))
    other = go.Figure(go.Bar(y=[1, 2]))
    assert pio.to_json(other) == charts._plotly_to_json(other)
