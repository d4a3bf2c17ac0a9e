"""The explorer's views of the chosen block and head, each proven against gpt_core: a click
on the grid, the lines, the metrics, the training snapshots and generation; the link's
notes and the URL as the student changes the view."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from figures.lines import LINE_THRESHOLD
from gpt_core.explore import generate_characters, head_metrics, trace_model
from harness.charts import assert_displays, decode, part_of, traces_by_name
from string_table import t
from tests.apptest.conftest import clicks_for, open_page
from tests.apptest.test_explorer import _tiny_model
from ui.explorer.views import (
    DETAIL_CHART_KEY,
    GENERATION_CHART_KEY,
    GRID_CHART_KEY,
    LINES_CHART_KEY,
    TRAINING_CHART_KEY,
)
from ui.shared.models import MODEL_STATE
from ui.shared.resources import shipped_experiment, shipped_model, shipped_snapshots

PAGE = "pages/4_explorer.py"  # a view below the grid is drawn only when its tab is open (view=)
PROMPT = "ROMEO:\nBut soft"  # every character is in the shipped models' vocabulary


def shown_code(at) -> list[str]:
    """The code blocks' text (st.code drops a trailing newline)."""
    return [code.value.rstrip("\n") for code in at.code]


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def chart(at, key: str) -> dict:
    for element in at.get("plotly_chart"):
        if element.proto.id.endswith(key):
            return json.loads(element.proto.spec)
    raise AssertionError(f"no chart {key}")


def expected_trace(heads: int, prompt: str = PROMPT):
    checkpoint = shipped_model(heads)
    return trace_model(checkpoint.model, checkpoint.vocabulary, prompt)


def focused_panel(spec: dict) -> str:
    """The axis whose panel has the thickest border, as "x3"."""
    widths = {shape["xref"]: shape["line"]["width"] for shape in spec["layout"]["shapes"] if "xref" in shape}
    return max(widths, key=widths.get).split()[0]


@pytest.fixture
def click(monkeypatch):
    """A click on the grid arrives as the chart-click component's value for one run."""
    import ui.explorer.page

    return clicks_for(monkeypatch, ui.explorer.page)


def test_a_click_on_a_grid_panel_opens_that_block_and_head(click):
    at = open_page(PAGE, model="h4", prompt=PROMPT)
    grid = traces_by_name(chart(at, GRID_CHART_KEY))
    meta = grid["block 2 · head 3"]["meta"]
    click({"chart": "grid", "head": meta["head"], "block": meta["block"], "row": 5, "col": 2})
    at.run()
    assert not at.exception, at.exception
    assert (at.selectbox(key="ex_block").value, at.selectbox(key="ex_head").value) == (2, 3)
    assert (query(at)["block"], query(at)["head"]) == ("2", "3")
    assert any(h.value.startswith("Block 2 · head 3") for h in at.subheader), [h.value for h in at.subheader]
    detail = traces_by_name(chart(at, DETAIL_CHART_KEY))
    assert_displays(detail["softmax weights · head 3"], expected_trace(4).layers[1].weights[0, 2].numpy())
    focus = focused_panel(chart(at, GRID_CHART_KEY))
    assert traces_by_name(chart(at, GRID_CHART_KEY))["block 2 · head 3"]["xaxis"] == focus


@pytest.mark.parametrize(
    "payload",
    [
        {"chart": "grid", "head": 1, "block": 2, "row": 0, "col": 0},  # a block the model does not have
        {"chart": "grid", "head": 4, "block": 0, "row": 0, "col": 0},
        {"chart": "grid", "head": 1, "block": None, "row": 0, "col": 0},
        {"chart": "grid", "head": 1, "block": 1, "row": len(PROMPT), "col": 0},
    ],
)
def test_a_click_that_does_not_fit_the_model_changes_nothing(click, payload):
    at = open_page(PAGE, model="h4", prompt=PROMPT, block="1", head="2")
    click(payload)
    at.run()
    assert not at.exception, at.exception
    assert (at.selectbox(key="ex_block").value, at.selectbox(key="ex_head").value) == (1, 2)


def test_the_grid_marks_the_chosen_block_and_head():
    at = open_page(PAGE, model="h4", prompt=PROMPT, block="1", head="4")
    spec = chart(at, GRID_CHART_KEY)
    assert traces_by_name(spec)["block 1 · head 4"]["xaxis"] == focused_panel(spec)


def test_the_language_stays_in_the_url_as_the_view_changes():
    at = open_page(PAGE, lang="zh")
    at.selectbox(key="ex_head").set_value(2).run()
    assert query(at)["lang"] == "zh" and query(at)["head"] == "2"


def test_a_prompt_the_model_cannot_read_is_still_in_the_url():
    at = open_page(PAGE, lang="zh")
    at.text_area(key="ex_prompt").input("ééé").run()
    assert at.error
    assert query(at)["prompt"] == "ééé" and query(at)["lang"] == "zh", "the link shows what the student typed"


def test_the_links_notes_are_shown_once_and_go_when_the_student_changes_the_view():
    at = open_page(PAGE, model="h4", head="9")
    assert len(at.warning) == 1 and "head" in at.warning[0].value
    at.run()
    assert len(at.warning) == 1, "a rerun neither repeats nor drops the note"
    at.selectbox(key="ex_head").set_value(3).run()
    assert not at.warning


def test_a_links_token_beyond_the_prompt_falls_back_with_a_note():
    at = open_page(PAGE, model="h4", prompt=PROMPT, token=str(len(PROMPT)))
    assert not at.exception, at.exception
    assert any("token" in w.value for w in at.warning)
    assert query(at)["token"] == "-1"


def test_the_read_line_gives_the_models_sizes():
    at = open_page(PAGE, model="h4", prompt=PROMPT)
    config = shipped_model(4).model.config
    line = t(
        "ex.read_line.character",
        T=len(PROMPT),
        blocks=config.blocks,
        heads=config.heads,
        d=config.embedding_dim // config.heads,
        context=config.context_length,
    )
    assert line in [m.value for m in at.markdown]


def drawn_lines(spec: dict) -> set[tuple[int, int, int, float]]:
    """(head, query, key, weight) of every line the lines chart draws."""
    lines = set()
    for trace in spec["data"]:
        if trace.get("mode") != "lines" or "meta" not in trace:
            continue
        x, y, weight = trace["x"], trace["y"], trace["customdata"]
        for i in range(0, len(x), 3):
            lines.add((trace["meta"]["head"], y[i], y[i + 1], round(weight[i], 5)))
    return lines


def lines_of(weights: np.ndarray, heads, queries) -> set[tuple[int, int, int, float]]:
    return {
        (head, q, k, round(float(weights[head, q, k]), 5))
        for head in heads
        for q in queries
        for k in range(q + 1)
        if weights[head, q, k] >= LINE_THRESHOLD
    }


def test_the_lines_are_the_chosen_heads_weights_over_the_threshold():
    at = open_page(PAGE, model="h4", prompt=PROMPT, block="2", head="3", view="lines")
    weights = expected_trace(4).layers[1].weights[0].numpy()
    T = len(PROMPT)
    assert drawn_lines(chart(at, LINES_CHART_KEY)) == lines_of(weights, [2], range(T))
    at.selectbox(key="ex_token").set_value(7).run()
    assert drawn_lines(chart(at, LINES_CHART_KEY)) == lines_of(weights, [2], [7])
    at.segmented_control(key="ex_lines").set_value("block").run()
    assert drawn_lines(chart(at, LINES_CHART_KEY)) == lines_of(weights, range(4), [7])
    assert query(at)["token"] == "7" and query(at)["lines"] == "block"


def test_the_metrics_table_and_the_entropy_limit_are_gpt_cores():
    at = open_page(PAGE, model="h2", prompt=PROMPT, view="metrics")
    table = next(frame.value for frame in at.dataframe if t("ex.col.kind") in frame.value.columns)
    for block, layer in enumerate(expected_trace(2).layers):
        metrics = head_metrics(layer.weights[0])
        for head in range(2):
            row = table[(table[t("ex.col.block")] == block + 1) & (table[t("ex.col.head")] == head + 1)]
            assert len(row) == 1
            for name in ("previous", "first", "self", "entropy"):  # the table's columns ("even" is the rule's own)
                assert row[t(f"ex.metric_short.{name}")].item() == pytest.approx(float(metrics[name][head]), abs=1e-6)
    at.segmented_control(key="ex_metric").set_value("entropy").run()
    assert any(f"ln T = {math.log(len(PROMPT)):.2f} for T = {len(PROMPT)}" in c.value for c in at.caption)


def test_the_training_snapshot_is_the_chosen_blocks_at_the_chosen_step():
    at = open_page(PAGE, model="h4", block="2", head="3", view="training")
    steps = sorted(shipped_snapshots(4))
    at.select_slider(key="ex_step").set_value(steps[1]).run()
    snapshot = shipped_snapshots(4)[steps[1]][1]  # block 2: (h, T, T)
    spec = chart(at, TRAINING_CHART_KEY)
    traces = traces_by_name(spec)
    T = snapshot.shape[-1]
    lower = np.tril(np.ones((T, T), dtype=bool))
    for head in range(4):
        trace = traces[f"softmax weights · head {head + 1}"]
        z = decode(trace["z"]).reshape(T, T)
        assert_displays(part_of(trace, z[lower]), snapshot[head][lower])
    assert traces["softmax weights · head 3"]["xaxis"] == focused_panel(spec)
    assert shipped_experiment().snapshot_prompt[:T] in [code.value for code in at.code]


def test_generation_is_gpt_cores_and_follows_its_settings():
    at = open_page(PAGE, model="h4", prompt=PROMPT, block="2", head="3", view="generate")
    at.slider(key="ex_n").set_value(5).run()
    at.number_input(key="ex_seed").set_value(7).run()
    at.slider(key="ex_temp").set_value(1.0).run()
    checkpoint = shipped_model(4)
    steps = generate_characters(checkpoint.model, checkpoint.vocabulary, PROMPT, 5, 1.0, 7)
    assert (PROMPT + "".join(step.char for step in steps)).rstrip("\n") in shown_code(at)
    trace = traces_by_name(chart(at, GENERATION_CHART_KEY))["block 2 · head 3"]
    z = decode(trace["z"]).reshape(5, -1)
    for i, step in enumerate(steps):
        row = step.rows[1, 2].numpy()
        assert_displays(part_of(trace, z[i, : len(row)]), row)
    at.slider(key="ex_n").set_value(8).run()
    longer = generate_characters(checkpoint.model, checkpoint.vocabulary, PROMPT, 8, 1.0, 7)
    assert (PROMPT + "".join(step.char for step in longer)).rstrip("\n") in shown_code(at)


def test_a_new_prompt_for_this_sessions_model_is_traced_anew():
    at = open_page(PAGE)
    trained = _tiny_model()
    at.session_state[MODEL_STATE] = trained
    at.run()
    at.selectbox(key="ex_model").set_value("session").run()
    at.text_area(key="ex_prompt").input("hgfedcba").run()
    assert not at.exception, at.exception
    expected = trace_model(trained.model, trained.vocabulary, "hgfedcba")
    trace = traces_by_name(chart(at, GRID_CHART_KEY))["block 2 · head 3"]
    z = decode(trace["z"]).reshape(8, 8)
    assert_displays(part_of(trace, z[7]), expected.layers[1].weights[0, 2, 7].numpy())
