"""Every chart of every page has a text alternative (its accessible name and, under it, its
strongest cells in words) and a "show as table" option whose table holds the figure's numbers."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from harness.browser import CHART_TABLE
from harness.charts import decode, traces_by_name
from string_table import t
from tests.apptest.conftest import open_page
from ui.charts import PART_SUFFIX, TABLE_SUFFIX
from ui.markdown import literal

PAGES = {
    "playground": ("pages/1_playground.py", {"text": "to <b>be</b>", "heads": "2", "stage": "masked_scores"}),
    "lesson": ("pages/2_lesson.py", {"step": "3"}),
    "train": ("pages/3_train.py", {}),
    "explorer": ("pages/4_explorer.py", {"lang": "zh"}),
}


def _chart_key(chart) -> str:
    return chart.key


def _open_table(at: AppTest, key: str) -> AppTest:
    at.session_state[key + TABLE_SUFFIX] = True
    return at.run()


def _numbers(table) -> np.ndarray:
    """A shown table's cells as numbers: −∞ as -inf, an empty cell as NaN."""
    convert = {"−∞": -np.inf, "": np.nan}
    return np.array([[convert[c] if c in convert else float(c) for c in row] for row in table.value.to_numpy()])


@pytest.mark.parametrize("page_key", list(PAGES))
def test_every_chart_has_a_text_alternative_and_a_closed_table_option(page_key):
    script, query = PAGES[page_key]
    at = open_page(script, **query)
    assert not at.exception, at.exception
    charts = at.get("plotly_chart")
    assert charts, f"{page_key} shows charts"
    hidden = [element.value for element in at.markdown]
    lang = query.get("lang", "en")
    for chart in charts:
        alt = chart.proto.alt
        assert alt.strip(), f"{_chart_key(chart)} has no accessible name"
        assert any(text.startswith(literal(alt)) and len(text) > len(literal(alt)) for text in hidden), alt
    labels = [element.label for element in at.expander]
    assert labels.count(t("chart.table", lang)) == len(charts), "one table option per chart"
    assert not at.table, "no table is built before it is opened"


def test_the_playgrounds_table_is_the_figures_z_with_minus_infinity_and_follows_the_chosen_head():
    script, query = PAGES["playground"]
    at = open_page(script, **query)
    chart = at.get("plotly_chart")[0]
    key = _chart_key(chart)
    traces = traces_by_name(json.loads(chart.proto.spec))
    at = _open_table(at, key)
    assert not at.exception, at.exception
    for head in (1, 2):
        if head == 2:
            at = at.selectbox(key=key + PART_SUFFIX).set_value(1).run()
        trace = traces[f"{t('stage.masked_scores')} · head {head}"]
        T = len(trace["x"])
        z = decode(trace["z"]).reshape(T, T).astype(float)
        masked = ~np.isnan(decode(traces[f"{t('fig.minus_inf')} · head {head}"]["z"]).reshape(T, T))
        shown = _numbers(at.table[0])
        assert np.isneginf(shown[masked]).all() and np.isfinite(shown[~masked]).all()
        np.testing.assert_allclose(shown[~masked], z[~masked], atol=5e-5)
        assert list(at.table[0].value.columns)[1] == "1 · o", "keys as columns, position and token"
    assert list(at.table[0].value.columns)[3] == "3 · <", "the student's text, as typed"


def test_a_series_chart_table_is_its_points():
    script, query = PAGES["train"]
    at = open_page(script, **query)
    chart = next(chart for chart in at.get("plotly_chart") if _chart_key(chart).endswith("final_chart"))
    spec = json.loads(chart.proto.spec)
    at = _open_table(at, _chart_key(chart))
    assert not at.exception, at.exception
    seeds = spec["data"][0]
    shown = _numbers(at.table[0])
    np.testing.assert_allclose(shown[:, 0], decode(seeds["y"]), atol=5e-5)
    assert list(at.table[0].value.index) == seeds["text"]


def test_the_browser_harness_knows_a_chart_tables_expander():
    assert TABLE_SUFFIX in CHART_TABLE, "open_expanders leaves the charts' tables closed"
