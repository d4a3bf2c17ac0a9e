"""Predict first (``predict=1``): the chosen query's row is sent nowhere until the learner
guesses a key; then every head's row is drawn as torch computes it, and each head says where
the guess ranks among the row's keys. Both languages."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import assert_displays, decode, traces_by_name
from string_table import t
from string_table.figure_words import figure_words
from tests.apptest.conftest import open_page

PAGE = "pages/1_playground.py"
BOOK = "动手学大模型"  # the page's default text: six characters, four heads
HEADS, T = 4, 6
PILLS = "pg_predict_pills"
# The per-head line, as each language writes it (the string table's words, here by hand).
RANK_LINE = {
    "en": "head {head}: rank {rank} of {keys}; the strongest is {strongest}",
    "zh": "头 {head}：{keys} 个中排第 {rank}；最强的是 {strongest}",
}


@pytest.fixture(autouse=True)
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def heatmaps(at) -> list[dict]:
    """Every heatmap trace of every chart on the page, the same name in two charts kept twice."""
    found = []
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        found += [trace for trace in spec["data"] if trace.get("type") == "heatmap" and "z" in trace]
    return found


def weights() -> np.ndarray:
    """Torch's softmax weights (h, T, T) of the page's default set-up."""
    scores = trace_attention(BOOK, PlaygroundConfig()).trace.masked_scores[0]
    return torch.softmax(scores, dim=-1).numpy()


def page_words(at) -> str:
    """Every word the page shows or hides in Markdown and tables, and the charts' alt texts."""
    parts = [element.value for element in (*at.markdown, *at.caption, *at.info, *at.warning)]
    parts += [frame.value.to_csv() for frame in at.dataframe]
    parts += [chart.proto.alt for chart in at.get("plotly_chart")]
    return "\n".join(parts)


def rows_of(trace: dict) -> np.ndarray:
    z = np.asarray(decode(trace["z"]), dtype=np.float64)
    return z.reshape(len(trace["y"]), len(trace["x"]))


def weights_name(lang: str, head: int) -> str:
    """The softmax weights' trace of ``head`` (1-based), named in the page's language."""
    words = figure_words(lang)
    return f"{words['stage.weights']} · {words['fig.head']} {head}"


def assert_row_hidden(at, row: int, values: np.ndarray, lang: str = "en") -> None:
    """No chart holds a number in query ``row`` (every head, every stage), and no text on the
    page prints one of ``values`` (the row's weights of every head) as the charts print them."""
    traces = heatmaps(at)
    names = {trace["name"] for trace in traces}
    assert all(weights_name(lang, head) in names for head in range(1, HEADS + 1)), "every head is drawn"
    for trace in traces:
        z = rows_of(trace)
        assert np.isnan(z[row]).all(), f"{trace['name']} sends row {row}"
        assert "text" not in trace or trace["text"] is None
    words = page_words(at)
    for value in values.ravel():
        assert f"{value:.4f}" not in words and f"{value:.3f}" not in words, value


def expected_rank(row_weights: np.ndarray, guess: int) -> int:
    """1 + the keys the query reads more than the guessed one (torch's row, sorted)."""
    order = sorted(range(len(row_weights)), key=lambda key: -row_weights[key])
    return order.index(guess) + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_predict_first_sends_no_number_of_the_chosen_row(lang):
    at = open_page(PAGE, predict="1", lang=lang)
    assert not at.exception, at.exception
    assert at.toggle(key="pg_predict").value is True
    assert query(at)["predict"] == "1"
    assert at.button_group(key=PILLS).options is not None
    probabilities = weights()
    assert_row_hidden(at, T - 1, probabilities[:, T - 1, :], lang)
    first = next(trace for trace in heatmaps(at) if trace["name"] == weights_name(lang, 1))
    assert np.isfinite(rows_of(first)[T - 2, : T - 1]).all(), "the other rows stay drawn"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_guess_reveals_every_head_and_ranks_it(lang):
    at = open_page(PAGE, predict="1", lang=lang)
    guess, row = 2, T - 1
    at.button_group(key=PILLS).set_value(guess).run()
    assert not at.exception, at.exception
    assert not at.get("button_group") or all(group.key != PILLS for group in at.get("button_group"))
    probabilities = weights()
    overview = {}
    for chart in at.get("plotly_chart"):
        overview.update(traces_by_name(json.loads(chart.proto.spec)))
    words = page_words(at)
    for head in range(HEADS):
        assert_displays(overview[weights_name(lang, head + 1)], probabilities[head])
        readable = probabilities[head, row, : row + 1]
        strongest = int(np.argmax(readable))
        line = RANK_LINE[lang].format(
            head=head + 1,
            rank=expected_rank(readable, guess),
            keys=row + 1,
            strongest=f"{strongest} · {BOOK[strongest]}",
        )
        assert line in words, line


def test_changing_the_query_row_asks_again():
    at = open_page(PAGE, predict="1")
    at.button_group(key=PILLS).set_value(0).run()
    at.selectbox(key="pg_row").set_value(3).run()
    assert not at.exception, at.exception
    pills = at.button_group(key=PILLS)
    assert list(pills.options) and len(pills.options) == 4, "keys 0 … 3"
    probabilities = weights()
    assert_row_hidden(at, 3, probabilities[:, 3, :4])


def test_changing_a_setting_asks_again():
    at = open_page(PAGE, predict="1")
    at.button_group(key=PILLS).set_value(0).run()
    at.number_input(key="pg_seed").set_value(7).run()
    assert not at.exception, at.exception
    assert len(at.button_group(key=PILLS).options) == T


def test_the_toggle_puts_predict_in_the_link_and_takes_it_out():
    at = open_page(PAGE)
    assert "predict" not in query(at)
    assert all(group.key != PILLS for group in at.get("button_group"))
    at.toggle(key="pg_predict").set_value(True).run()
    assert query(at)["predict"] == "1"
    assert_row_hidden(at, T - 1, weights()[:, T - 1, :])
    at.toggle(key="pg_predict").set_value(False).run()
    assert "predict" not in query(at)
    assert all(group.key != PILLS for group in at.get("button_group"))


@pytest.mark.parametrize("bad", ["maybe", "2", "<b>x</b>"])
def test_a_bad_predict_value_falls_back_with_a_note(bad):
    at = open_page(PAGE, predict=bad)
    assert not at.exception, at.exception
    note = " ".join(warning.value for warning in at.warning)
    assert "predict" in note and "<b>" not in note
    assert at.toggle(key="pg_predict").value is False
    assert "predict" not in query(at)
    assert all(group.key != PILLS for group in at.get("button_group"))


def row_bands(at, row: int) -> set[str]:
    """The panels (their y axes) in which some chart outlines query ``row`` from key 0 to its own."""
    band = (-0.5, row + 0.5, row - 0.5, row + 0.5)
    found = set()
    for chart in at.get("plotly_chart"):
        for shape in json.loads(chart.proto.spec)["layout"].get("shapes", []):
            if shape.get("type") == "rect" and tuple(shape.get(k) for k in ("x0", "x1", "y0", "y1")) == band:
                found.add(shape["yref"])
    return found


def test_the_hidden_row_is_outlined_in_every_head_until_the_guess():
    at = open_page(PAGE, predict="1")
    assert len(row_bands(at, T - 1)) == HEADS
    at.button_group(key=PILLS).set_value(4).run()
    assert not at.exception, at.exception
    assert row_bands(at, T - 1) == set()


def test_another_head_keeps_the_answer():
    at = open_page(PAGE, predict="1")
    at.button_group(key=PILLS).set_value(1).run()
    at.selectbox(key="pg_head").set_value(3).run()
    assert not at.exception, at.exception
    assert all(group.key != PILLS for group in at.get("button_group"))
    assert RANK_LINE["en"].split(":")[0].format(head=3) in page_words(at)


def test_a_trained_model_hides_its_row_too():
    at = open_page(PAGE, predict="1", weights="h2", text="to be or not")
    assert not at.exception, at.exception
    row = len("to be or not") - 1
    for trace in heatmaps(at):
        assert np.isnan(rows_of(trace)[row]).all(), trace["name"]
    assert len(at.button_group(key=PILLS).options) == row + 1


def test_compare_mode_offers_no_predict_switch():
    at = open_page(PAGE, cmp="1")
    assert not at.exception, at.exception
    assert all(toggle.key != "pg_predict" for toggle in at.toggle)
    assert all(group.key != PILLS for group in at.get("button_group"))


def test_a_long_texts_window_hides_the_row_too():
    words = "the cat sat on the mat ".split() * 12  # 72 words: the views show a window around the row
    at = open_page(PAGE, predict="1", text=" ".join(words), tok="word")
    assert not at.exception, at.exception
    row_label = f"{len(words) - 1} · {words[-1]}"
    windowed = [trace for trace in heatmaps(at) if row_label in trace["y"]]
    assert len(windowed) >= HEADS, "every head's window holds the row"
    for trace in windowed:
        assert np.isnan(rows_of(trace)[trace["y"].index(row_label)]).all(), trace["name"]
    assert all(group.key != PILLS for group in at.get("button_group")), "72 keys: no wall of pills"
    listed = at.selectbox(key=PILLS)
    assert listed.options == [f"{i} · {word}" for i, word in enumerate(words)] and listed.value is None
    outside = t("win.outside", row=len(words) - 1, share="").split("**")[0]  # "Query 71 gives "
    assert "nan" not in page_words(at).lower() and outside not in page_words(at), "no share of a hidden row"
    listed.set_value(0).run()
    assert not at.exception, at.exception
    assert t("pg.predict_result", guess="0 · the").split(".")[0] in page_words(at), "the list's choice is the guess"
    assert not at.exception, at.exception
    assert outside in page_words(at), "the row's share outside the window, once guessed"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_failing_predict_first_says_so_in_its_place_and_the_page_stays(monkeypatch, lang):
    import ui.playground.predict

    def broken(*_):
        raise RuntimeError("a bug in Predict first")

    monkeypatch.setattr(ui.playground.predict, "hidden", broken)
    at = open_page(PAGE, predict="1", lang=lang)
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [t("contained.failed", lang, what=t("pg.predict", lang))]
    assert len(heatmaps(at)) >= HEADS, "the heads are still drawn"


def test_every_key_at_the_top_is_named_the_strongest():
    """Without positions, four equal characters have equal keys: every weight of the last row
    is the same, so each key is the strongest and every guess ranks first."""
    at = open_page(PAGE, predict="1", text="aaaa", pos="0")
    assert not at.exception, at.exception
    at.button_group(key=PILLS).set_value(2).run()
    tied = ", ".join(f"{i} · a" for i in range(4))
    expected = RANK_LINE["en"].format(head=1, rank=1, keys=4, strongest=tied)
    assert expected in page_words(at), page_words(at)
