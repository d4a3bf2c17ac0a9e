"""No work repeated in a rerun that the same inputs already produced: a rerun where nothing
changed builds, describes and serializes no figure and plans nothing again; a change of one
input rebuilds only the charts that read it. Counted at the one place every figure is made
(ui/charts.py), by the share keys of the figures made, and in ui/step_timing.py's log."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import pytest
import torch

import gpt_core.source
import ui.lesson.measured_steps
import ui.playground.softmax_table
import ui.playground.views
import ui.step_timing
from tests.apptest.conftest import open_page, open_tab
from ui import charts
from ui.explorer.odds_view import ODDS_CHART_KEY, ODDS_ROW_CHART_KEY
from ui.explorer.views import LAYER_CHART_KEY, MAP_CHART_KEY

PLAYGROUND = "pages/1_playground.py"
LESSON = "pages/2_lesson.py"
EXPLORER = "pages/4_explorer.py"
KEYS = (MAP_CHART_KEY, LAYER_CHART_KEY)
SHORT = "ROMEO: what"  # short enough that every query and key is drawn: no window moves with the row


@dataclass
class Work:
    """What the runs since the last ``take()`` made."""

    log: object  # the step log's path
    drawn: int = 0  # figures built (or taken as built), described and serialized
    kinds: list = field(default_factory=list)  # the share keys' kinds ("overview", "detail", …) of those shared
    plans: int = 0  # the playground overview's plans

    def take(self) -> tuple[int, Counter, int, Counter]:
        steps = Counter(line.split("\t")[0] for line in self.log.read_text().splitlines()) if self.log.exists() else {}
        self.log.unlink(missing_ok=True)
        taken = (self.drawn, Counter(self.kinds), self.plans, Counter(steps))
        self.drawn, self.kinds, self.plans = 0, [], 0
        return taken


@pytest.fixture
def work(monkeypatch, tmp_path) -> Work:
    torch.set_num_threads(1)
    counted = Work(tmp_path / "steps.log")
    monkeypatch.setattr(ui.step_timing, "LOG_PATH", str(counted.log))
    drawn, get, plan = charts._drawn, charts.SHARED_FIGURES.get, ui.playground.views.plan_overview

    def counting_drawn(*args):
        counted.drawn += 1
        return drawn(*args)

    def noting_get(key, make):
        def made():
            # (share, sized, presenting, lang); a view's share is (identity, kind, …), a
            # lesson chart's ("lesson", its key, …): noted by its kind or its key
            share = key[0]
            counted.kinds.append(share[1] if isinstance(share[0], tuple) or share[0] == "lesson" else share[0])
            return make()

        return get(key, made)

    def counting_plan(*args, **kwargs):
        counted.plans += 1
        return plan(*args, **kwargs)

    monkeypatch.setattr(charts, "_drawn", counting_drawn)
    monkeypatch.setattr(charts.SHARED_FIGURES, "get", noting_get)
    monkeypatch.setattr(ui.playground.views, "plan_overview", counting_plan)
    return counted


def assert_nothing_made(work: Work) -> None:
    drawn, kinds, plans, steps = work.take()
    assert (drawn, kinds, plans) == (0, Counter(), 0)
    assert steps["figures"] == 0 and steps["description"] == 0 and steps["trace"] == 0, steps


def test_a_playground_rerun_with_nothing_changed_makes_no_figure_and_plans_nothing(work):
    at = open_page(PLAYGROUND, text=SHORT, heads="4")
    drawn, kinds, plans, _ = work.take()
    assert drawn >= 2 and kinds["overview"] == 1 and kinds["detail"] == 1 and plans >= 1
    at.run()
    assert not at.exception, at.exception
    assert_nothing_made(work)


def test_a_playground_row_change_rebuilds_the_detail_alone(work):
    at = open_page(PLAYGROUND, text=SHORT, heads="4")
    work.take()
    at.selectbox(key="pg_row").set_value(3).run()
    assert not at.exception, at.exception
    drawn, kinds, plans, steps = work.take()
    assert (drawn, kinds, plans) == (1, Counter({"detail": 1}), 0)
    assert steps["figures"] == 1, steps


@pytest.mark.parametrize(
    ("page", "query"),
    [
        (PLAYGROUND, {"text": SHORT, "heads": "4"}),
        (EXPLORER, {"model": "h2", "prompt": SHORT}),
        (EXPLORER, {"model": "h4", "prompt": SHORT, "view": "odds"}),
        (LESSON, {"step": "4"}),
    ],
)
def test_language_back_and_forth_makes_each_figure_once_a_language(page, query, work):
    at = open_page(page, **query, lang="en")
    first = work.take()[0]
    at.session_state["language"] = "zh"
    at.run()
    assert work.take()[0] == first  # every figure again, in Chinese
    for lang in ("en", "zh", "en"):
        at.session_state["language"] = lang
        at.run()
        assert not at.exception, at.exception
        assert_nothing_made(work)


def test_a_head_change_leaves_the_difference_of_head_means_alone(work):
    """Two set-ups of different head counts compare their heads' means: the chosen head is
    no input of that difference, so choosing another rebuilds the set-ups' charts only."""
    at = open_page(PLAYGROUND, text=SHORT, heads="4", cmp="1", b_heads="2")
    assert work.take()[1]["difference"] == 1
    at.session_state["pg_head"] = 2  # as a click on a head of A's chart chooses it
    at.run()
    assert not at.exception, at.exception
    kinds = work.take()[1]
    assert kinds["compare"] >= 1 and kinds["difference"] == 0, kinds


@pytest.fixture
def mapped(monkeypatch):
    """A grid of at most 2 heads: the shipped 2 × 2 model opens on the map of one number per
    head and every head of the chosen layer, as a real model of 12 × 12 heads does."""
    monkeypatch.setattr(gpt_core.source, "GRID_HEADS", 2)


def test_an_explorer_rerun_with_nothing_changed_makes_no_figure(work, mapped):
    at = open_page(EXPLORER, model="h2", prompt=SHORT)
    drawn, kinds, _, _ = work.take()
    assert kinds["map"] == 1 and kinds["layer_heads"] == 1 and drawn == sum(kinds.values())
    at.run()
    assert not at.exception, at.exception
    assert_nothing_made(work)


def test_an_explorer_metric_change_rebuilds_the_map_alone(work, mapped):
    at = open_page(EXPLORER, model="h2", prompt=SHORT)
    work.take()
    at.segmented_control(key="ex_metric").set_value("entropy").run()
    assert not at.exception, at.exception
    drawn, kinds, _, _ = work.take()
    assert (drawn, kinds) == (1, Counter({"map": 1}))


def _charts(at) -> dict[str, dict]:
    """The map's and the layer's heads' figures, by their chart key."""
    shown = {key: chart for chart in at.get("plotly_chart") for key in KEYS if chart.proto.id.endswith(key)}
    assert sorted(shown) == sorted(KEYS), [chart.proto.id for chart in at.get("plotly_chart")]
    return {key: json.loads(chart.proto.spec) for key, chart in shown.items()}


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ({"metric": "first"}, {"metric": "entropy"}),
        ({"head": "1"}, {"head": "2"}),
        ({"block": "1"}, {"block": "2"}),
        ({"lang": "en"}, {"lang": "zh"}),
        ({"prompt": SHORT}, {"prompt": "ROMEO: who"}),
    ],
)
def test_an_explorer_map_shared_under_one_input_is_never_served_for_another(first, then, mapped):
    """Each input the map and the layer's heads read: a session that changes it after another
    drew the first gets what a fresh server draws for the second, not the first's figures."""
    query = {"model": "h2", "prompt": SHORT}
    before = _charts(open_page(EXPLORER, **{**query, **first}))
    shared = _charts(open_page(EXPLORER, **{**query, **then}))
    charts.SHARED_FIGURES.clear()
    fresh = _charts(open_page(EXPLORER, **{**query, **then}))
    for key in KEYS:
        assert shared[key] == fresh[key], key
    assert any(before[key] != fresh[key] for key in KEYS)


ODDS = {"model": "h4", "prompt": "ROMEO:\nBut soft", "view": "odds", "lang": "en"}


def _odds(at) -> dict:
    """The odds' chart and the last query's row, by key."""
    keys = (ODDS_CHART_KEY, ODDS_ROW_CHART_KEY)
    shown = {key: chart for chart in at.get("plotly_chart") for key in keys if chart.proto.id.endswith(key)}
    assert sorted(shown) == sorted(keys)
    return {key: json.loads(chart.proto.spec) for key, chart in shown.items()}


def test_an_explorer_odds_rerun_makes_no_figure(work):
    at = open_page(EXPLORER, **ODDS)
    assert _odds(at) and work.take()[1] == Counter({"grid": 1, "odds": 1, "odds_row": 1})
    at.run()
    assert not at.exception, at.exception
    assert_nothing_made(work)


EVERY = {"grid", "odds", "odds_row"}


@pytest.mark.parametrize(
    ("widget", "value", "reads"),
    [
        ("ex_odds_temp", 0.5, {"odds"}),
        ("ex_top_k", 3, {"odds"}),
        ("ex_top_p", 0.5, {"odds"}),
        ("ex_prompt", "ROMEO:\nBut", EVERY),
        ("language", "zh", EVERY),
        ("ex_head", 2, {"grid", "odds_row"}),
        ("ex_block", 2, {"grid", "odds_row"}),
    ],
)
def test_the_odds_shared_under_one_setting_are_never_served_for_another(widget, value, reads, work):
    """A change remakes the charts that read it, and no other; each one is what a fresh
    server draws for the new setting, never the one shared under the old."""
    at = open_page(EXPLORER, **ODDS)
    before = _odds(at)
    work.take()
    if widget == "language":
        at.session_state["language"] = value
    else:
        at.session_state[widget] = value
    at.run()
    assert not at.exception, at.exception
    shared = _odds(at)
    assert set(work.take()[1]) == reads
    charts.SHARED_FIGURES.clear()
    fresh = open_page(EXPLORER, **ODDS)
    fresh.session_state[widget] = value
    fresh.run()
    assert shared == _odds(fresh)
    assert any(shared[key] != before[key] for key in shared)


@pytest.fixture
def tables(monkeypatch) -> list:
    """The softmax rows worked out for the playground's table (one entry each)."""
    made, steps = [], ui.playground.softmax_table.softmax_steps
    monkeypatch.setattr(ui.playground.softmax_table, "softmax_steps", lambda row: made.append(1) or steps(row))
    return made


def _softmax(at) -> list:
    """The table (the open tab's one dataframe) and the page's paragraphs, its sum among them."""
    (frame,) = at.dataframe
    return [frame.value.to_dict("list"), *[m.value for m in at.markdown]]


def test_the_softmax_table_is_worked_out_once_per_row(tables):
    at = open_tab(open_page(PLAYGROUND, text=SHORT, heads="4"), "softmax")
    assert tables
    tables.clear()
    at.run()
    assert not at.exception, at.exception
    assert tables == []  # a rerun with nothing changed: no row worked out again
    at.selectbox(key="pg_row").set_value(3).run()
    assert tables == [1]


@pytest.mark.parametrize(("widget", "value"), [("pg_row", 3), ("pg_head", 2), ("pg_seed", 7), ("language", "zh")])
def test_a_softmax_table_shared_under_one_input_is_never_served_for_another(widget, value, tables):
    query = {"text": SHORT, "heads": "4", "lang": "en"}
    at = open_tab(open_page(PLAYGROUND, **query), "softmax")
    before = _softmax(at)
    at.session_state[widget] = value
    at.run()
    shared = _softmax(at)
    charts.SHARED_FIGURES.clear()
    ui.playground.softmax_table.TABLES.clear()
    fresh = open_tab(open_page(PLAYGROUND, **query), "softmax")
    fresh.session_state[widget] = value
    fresh.run()
    assert shared == _softmax(fresh) and shared != before


@pytest.mark.parametrize("step", range(1, 10))
def test_a_lesson_rerun_with_nothing_changed_makes_no_figure(step, work):
    at = open_page(LESSON, step=str(step))
    assert not at.exception, at.exception
    drawn, kinds, _, _ = work.take()
    assert drawn >= 1 and drawn == sum(kinds.values())
    at.run()
    assert_nothing_made(work)


@pytest.mark.parametrize(
    ("step", "worked_out", "widget", "value"), [(5, "parameter_counts", "ls_c_5", 32), (6, "two_ways", "ls_h_6", 2)]
)
def test_a_lesson_steps_numbers_are_worked_out_once_per_input(step, worked_out, widget, value, monkeypatch):
    """Steps 5 and 6 work out their numbers (parameter counts; the two ways of computing)
    once per input, not on every rerun; a new input works them out once more."""
    calls, real = [], getattr(ui.lesson.measured_steps, worked_out)
    monkeypatch.setattr(ui.lesson.measured_steps, worked_out, lambda *args: calls.append(args) or real(*args))
    at = open_page(LESSON, step=str(step))
    assert len(calls) == 1
    at.run()
    assert not at.exception, at.exception
    assert len(calls) == 1
    at.select_slider(key=widget).set_value(value).run()
    assert len(calls) == 2


def _lesson_charts(at) -> dict[str, dict]:
    shown = {chart.proto.id.split("-")[-1]: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}
    assert shown
    return shown


def _set(at, widget: str, value) -> None:
    if widget == "language":
        at.session_state["language"] = value
        at.run()
    elif widget == "ls_text_1":
        at.text_input(key=widget).set_value(value).run()
    else:
        at.select_slider(key=widget).set_value(value).run()
    assert not at.exception, at.exception


@pytest.mark.parametrize(
    ("step", "widget", "value"),
    [
        (1, "ls_text_1", "abcdef"),
        (1, "ls_d_1", 8),
        (1, "language", "zh"),
        (2, "ls_h_2", 2),
        (2, "ls_d_2", 4),
        (3, "ls_head_3", 2),
        (4, "ls_h_4", 2),
        (5, "ls_c_5", 32),
        (6, "ls_h_6", 2),
        (7, "ls_d_7", 16),
        (8, "ls_h_8", 2),
    ],
)
def test_a_lesson_chart_shared_under_one_input_is_never_served_for_another(step, widget, value, work):
    """Each input a lesson step's chart reads: changed after the default's chart was drawn,
    the chart is what a fresh server draws for the new value, not the default's; and the
    change rebuilt that step's charts alone."""
    at = open_page(LESSON, step=str(step), lang="en")
    before = _lesson_charts(at)
    work.take()
    _set(at, widget, value)
    shared = _lesson_charts(at)
    drawn, kinds, _, _ = work.take()
    assert drawn == len(shared) == sum(kinds.values()) and set(kinds) <= {key for key in shared}
    charts.SHARED_FIGURES.clear()
    fresh = open_page(LESSON, step=str(step), lang="en")
    _set(fresh, widget, value)
    assert shared == _lesson_charts(fresh)
    assert any(before[key] != shared[key] for key in shared)
