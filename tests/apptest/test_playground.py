"""The playground through AppTest: every control, URL parameters in and out, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from figures.sizing import DEFAULT_WIDTH_PX
from gpt_core import MAX_TOKENS, PlaygroundConfig, tokenize, trace_attention
from gpt_core.window import WINDOW_TOKENS
from harness.charts import assert_displays, decode, traces_by_name
from links.playground import PRESET_TOKENIZERS, PRESETS, VIEWS
from tests.apptest.conftest import asks_for_the_rest, chart_traces, open_page, open_tab

PAGE = "pages/1_playground.py"


def charts(at) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def all_traces(at) -> dict[str, dict]:
    return chart_traces(at)


def matrix(at, name: str) -> np.ndarray:
    trace = all_traces(at)[name]
    z = decode(trace["z"])
    T = len(trace["x"])
    return z.reshape(T, T)


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def markdown_text(at) -> str:
    return "\n".join(element.value for element in at.markdown)


def test_default_page_shows_the_book_example_with_every_view(page):
    traces = all_traces(page)
    assert "softmax weights · head 4" in traces  # overview, 4 heads
    assert "masked (−∞ above the diagonal) · head 1" in traces  # detail
    assert traces["softmax weights · head 1"]["x"][0] == "0 · 动"
    assert "T = 6 tokens" in markdown_text(page)
    assert [tab.label for tab in page.tabs] == [
        "q·k by hand",
        "Softmax by hand",
        "One token, every head",
        "All heads combined",
        "Shapes: split and merge",
        "Per-head table",
        "Share and download",
    ]
    assert len(page.dataframe) == 1 and not page.get("code"), "the softmax calculator's tab only: the others wait"
    assert "head 1: channels 0–7" in all_traces(open_tab(page, "shapes"))  # channel map
    assert len(page.get("code")) == 1 and not page.dataframe, "the shape trace"
    assert len(open_tab(page, "stats").dataframe) == 1 and not page.get("code"), "the per-head table"
    assert len(open_tab(page, "share").get("code")) >= 2 and page.get("download_button"), "link and snippet"
    assert "head 1: channels 0–7" not in all_traces(page)


def test_the_open_tab_stays_open_through_a_change_and_a_change_of_language(page):
    open_tab(page, "stats")
    page.number_input(key="pg_seed").set_value(9).run()
    assert page.session_state["pg_tab"] == "Per-head table" and len(page.dataframe) == 1
    page.query_params["lang"] = "zh"
    page.session_state["language"] = "zh"
    page.run()
    assert not page.exception, page.exception
    assert page.session_state["pg_tab"] == "每个头的统计"
    assert page.dataframe[0].value.columns[0] == "头"


def test_the_open_view_is_in_the_link_and_a_link_opens_it():
    at = open_page(PAGE, view="stats", seed="4")
    assert not at.exception and not at.warning
    assert len(at.dataframe) == 1 and at.dataframe[0].value.columns[0] == "head"
    open_tab(at, "share")
    assert query(at)["view"] == "share"
    again = open_page(PAGE, **query(at))
    assert again.session_state["pg_tab"] == "Share and download" and again.get("download_button")


def test_an_unknown_view_in_a_link_opens_the_first_with_a_note():
    at = open_page(PAGE, view="<b>zzz</b>")
    assert not at.exception
    assert at.session_state["pg_tab"] == "Softmax by hand"
    assert any("view" in warning.value for warning in at.warning), [w.value for w in at.warning]


def test_a_crafted_tab_value_opens_the_first_tab(page):
    page.session_state["pg_tab"] = "<b>no such tab</b>"
    page.run()
    assert not page.exception, page.exception
    assert page.session_state["pg_tab"] == "Softmax by hand" and len(page.dataframe) == 1


def test_first_run_draws_the_first_screen_and_asks_for_the_rest():
    at = open_page(PAGE, first_screen_only=True)
    assert not at.exception
    traces = all_traces(at)
    assert "softmax weights · head 4" in traces, "the overview comes first"
    assert "raw scores QKᵀ · head 1" not in traces and "head 1: channels 0–7" not in traces
    assert not at.dataframe and not at.get("code") and not at.get("iframe") and not at.tabs
    assert at.number_input(key="pg_heads").value == 4 and at.text_area(key="pg_text").value == PRESETS["book"]
    assert asks_for_the_rest(at)
    at.run()  # what the browser asks for once the first chart is drawn
    assert not asks_for_the_rest(at)
    assert "raw scores QKᵀ · head 1" in all_traces(at) and at.dataframe and len(at.tabs) == len(VIEWS)
    assert not at.get("iframe"), "no frame on the page: clicks and linked hover are one in-page component"


def test_a_change_before_the_rest_arrives_draws_the_whole_page():
    at = open_page(PAGE, first_screen_only=True)
    at.number_input(key="pg_seed").set_value(3).run()
    assert not asks_for_the_rest(at)
    assert "raw scores QKᵀ · head 1" in all_traces(at) and len(at.tabs) == len(VIEWS) and at.dataframe
    assert query(at)["seed"] == "3"


def test_page_numbers_equal_gpt_core(page):
    expected = trace_attention(PRESETS["book"], PlaygroundConfig()).trace
    assert_displays(all_traces(page)["softmax weights · head 3"], expected.weights[0, 2].numpy())
    assert_displays(all_traces(page)["raw scores QKᵀ · head 1"], expected.scores[0, 0].numpy())


def test_url_holds_every_control(page):
    q = query(page)
    assert q["text"] == PRESETS["book"]
    assert {
        "tok",
        "heads",
        "head_dim",
        "input_dim",
        "seed",
        "pos",
        "dropout",
        "mode",
        "bias",
        "scale",
        "head",
        "stage",
        "row",
        "col",
    } <= set(q)
    assert q["row"] == "5", "the calculator starts on the last query"


def test_url_parameters_reproduce_the_numbers():
    at = open_page(
        PAGE,
        text="hello there",
        tok="char",
        heads="2",
        head_dim="3",
        seed="42",
        pos="0",
        bias="1",
        scale="0",
        head="2",
        stage="scores",
        row="4",
        col="1",
    )
    assert not at.exception and not at.warning
    config = PlaygroundConfig(heads=2, head_dim=3, seed=42, positional=False, qkv_bias=True, scale=False)
    expected = trace_attention("hello there", config).trace
    assert_displays(all_traces(at)["softmax weights · head 2"], expected.weights[0, 1].numpy())
    assert "raw scores QKᵀ · head 1" in all_traces(at), "overview shows the stage from the link"
    assert at.selectbox(key="pg_row").value == 4 and at.selectbox(key="pg_col").value == 1
    assert query(at)["seed"] == "42" and query(at)["head"] == "2"


@pytest.mark.parametrize(
    "params",
    [
        {"heads": "abc"},
        {"heads": "0"},
        {"head_dim": "100000"},
        {"seed": "-5"},
        {"dropout": "2"},
        {"stage": "<b>x</b>"},
        {"nonsense": "1"},
        {"row": "zz", "col": "[]"},
        {"pos": "maybe"},
    ],
)
def test_malformed_url_parameters_fall_back_with_a_visible_note(params):
    at = open_page(PAGE, **params)
    assert not at.exception
    assert at.warning, "a visible note"
    assert "softmax weights · head 1" in all_traces(at), "the page still works with defaults"
    note = " ".join(w.value for w in at.warning)
    assert "<b>" not in note, "link text is shown escaped"
    for key in params:
        if key == "nonsense":
            assert key not in query(at)
        else:
            assert query(at)[key] != params[key]


def test_heads_control_changes_the_number_of_heads_and_the_url(page):
    page.number_input(key="pg_heads").set_value(6).run()
    traces = all_traces(page)
    assert "softmax weights · head 6" in traces and "softmax weights · head 7" not in traces
    assert "C = h × d = 6 × 8 = **48**" in markdown_text(page)
    assert query(page)["heads"] == "6"


@pytest.mark.parametrize(
    ("key", "typed", "used", "allowed"),
    [
        ("pg_heads", 17, 16, "1–16"),
        ("pg_heads", 0, 1, "1–16"),
        ("pg_head_dim", 100, 64, "1–64"),
        ("pg_input_dim", -3, 0, "0–1024"),
        ("pg_seed", 2**31, 2**31 - 1, "0–2147483647"),
    ],
)
def test_a_number_out_of_range_is_clamped_and_the_box_shows_the_value_used(page, key, typed, used, allowed):
    """A browser keeps an out-of-range number in a box with a max and sends nothing: the
    boxes have no max, and the page clamps what it gets, says so, and computes with it."""
    page.number_input(key=key).set_value(typed).run()
    assert not page.exception
    assert page.number_input(key=key).value == used
    assert query(page)[key.removeprefix("pg_")] == str(used)
    notes = [w.value for w in page.warning]
    assert any(allowed in note and f"using {used}" in note for note in notes), notes
    if key == "pg_heads":
        traces = all_traces(page)
        assert f"softmax weights · head {used}" in traces and f"softmax weights · head {used + 1}" not in traces
    page.text_area(key="pg_text").input("abc").run()
    assert [w.value for w in page.warning] == notes, "the note stays while the clamped value is in use"
    in_range = 2 if key != "pg_seed" else 5
    page.number_input(key=key).set_value(in_range).run()
    assert not page.warning, "a value in range clears the note"
    assert query(page)[key.removeprefix("pg_")] == str(in_range)


def test_clamp_note_is_chinese_on_the_chinese_page():
    at = open_page(PAGE, lang="zh")
    at.number_input(key="pg_heads").set_value(40).run()
    assert at.number_input(key="pg_heads").value == 16
    assert any("1–16" in w.value and "16" in w.value and "之间" in w.value for w in at.warning)


def test_head_dim_control_changes_c(page):
    open_tab(page, "shapes")
    page.number_input(key="pg_head_dim").set_value(2).run()
    assert "head 4: channels 6–7" in all_traces(page)
    assert query(page)["head_dim"] == "2"


def test_typing_text_changes_the_tokens_and_the_url(page):
    page.text_area(key="pg_text").input("abcab").run()
    trace = all_traces(page)["softmax weights · head 1"]
    assert trace["x"] == ["0 · a", "1 · b", "2 · c", "3 · a", "4 · b"]
    assert query(page)["text"] == "abcab"
    assert page.selectbox(key="pg_preset").value == "custom"


@pytest.mark.parametrize("name", ["english", "repeat", "book"])
def test_preset_sets_the_text_and_the_tokenizer(page, name):
    page.radio(key="pg_tok").set_value("word" if PRESET_TOKENIZERS[name] == "char" else "char")
    page.text_area(key="pg_text").input("something else").run()
    page.selectbox(key="pg_preset").set_value(name).run()
    assert page.text_area(key="pg_text").value == PRESETS[name]
    assert page.radio(key="pg_tok").value == PRESET_TOKENIZERS[name]
    assert query(page)["text"] == PRESETS[name] and query(page)["tok"] == PRESET_TOKENIZERS[name]
    expected = tokenize(PRESETS[name], PRESET_TOKENIZERS[name])
    labels = all_traces(page)["softmax weights · head 1"]["x"]
    assert labels == [f"{n} · {token}" for n, token in enumerate(expected)]
    page.number_input(key="pg_seed").set_value(3).run()
    assert page.selectbox(key="pg_preset").value == name, "the preset stays chosen while its text is shown"


@pytest.mark.parametrize("name", ["english", "repeat"])
def test_a_link_with_a_preset_text_shows_that_preset(name):
    at = open_page(PAGE, text=PRESETS[name], tok=PRESET_TOKENIZERS[name])
    assert not at.exception
    assert at.selectbox(key="pg_preset").value == name
    assert at.radio(key="pg_tok").value == PRESET_TOKENIZERS[name]


def test_a_presets_text_in_other_tokens_is_the_students_own():
    at = open_page(PAGE, text=PRESETS["english"], tok="char")
    assert at.selectbox(key="pg_preset").value == "custom"
    at.radio(key="pg_tok").set_value("word").run()
    assert at.selectbox(key="pg_preset").value == "english"


def test_word_tokenizer(page):
    page.text_area(key="pg_text").input("the cat, the hat").run()
    page.radio(key="pg_tok").set_value("word").run()
    assert all_traces(page)["softmax weights · head 1"]["x"] == ["0 · the", "1 · cat", "2 · ,", "3 · the", "4 · hat"]
    assert query(page)["tok"] == "word"


@pytest.mark.parametrize(
    ("key", "kind", "value", "url"),
    [
        ("pg_seed", "number_input", 7, "7"),
        ("pg_input_dim", "number_input", 5, "5"),
        ("pg_pos", "toggle", False, "0"),
        ("pg_bias", "toggle", True, "1"),
    ],
)
def test_every_number_control_changes_the_numbers(page, key, kind, value, url):
    before = matrix(page, "raw scores QKᵀ · head 1")
    getattr(page, kind)(key=key).set_value(value).run()
    assert not page.exception
    assert not np.array_equal(matrix(page, "raw scores QKᵀ · head 1"), before)
    assert query(page)[key.removeprefix("pg_")] == url


def test_scale_switch_leaves_scores_undivided(page):
    page.toggle(key="pg_scale").set_value(False).run()
    np.testing.assert_array_equal(matrix(page, "raw scores QKᵀ · head 1"), matrix(page, "scaled ÷ √d · head 1"))
    assert query(page)["scale"] == "0"


def test_dropout_in_train_mode_adds_the_dropped_weights(page):
    page.slider(key="pg_dropout").set_value(0.5).run()
    assert "weights after dropout · head 1" not in all_traces(page), "eval mode: no dropout"
    page.radio(key="pg_mode").set_value("train").run()
    after = matrix(page, "weights after dropout · head 1")
    weights = matrix(page, "softmax weights · head 1")
    kept = np.isfinite(after)  # dropped cells are drawn in their own layer, not as small weights
    exact = trace_attention(PRESETS["book"], PlaygroundConfig(dropout=0.5, training=True)).trace
    assert_displays(
        all_traces(page)["weights after dropout · head 1"], np.where(kept, exact.dropped_weights[0, 0], np.nan)
    )
    assert_displays(all_traces(page)["softmax weights · head 1"], exact.weights[0, 0].numpy())
    np.testing.assert_allclose(exact.dropped_weights[0, 0][kept], exact.weights[0, 0][kept] * 2, rtol=1e-6)
    layer = matrix(page, "dropped by dropout (0) · head 1")
    lower = np.isfinite(weights)
    np.testing.assert_array_equal(np.isfinite(layer) | kept, lower), "every visible cell is kept or dropped"
    assert not (np.isfinite(layer) & kept).any()
    assert query(page)["mode"] == "train" and query(page)["dropout"] == "0.5"


def test_stage_control_switches_the_overview(page):
    page.button_group(key="pg_stage").set_value("masked_scores").run()
    traces = all_traces(page)
    assert "masked (−∞ above the diagonal) · head 4" in traces
    assert "softmax weights · head 4" not in traces
    assert query(page)["stage"] == "masked_scores"


def test_focus_head_row_and_column_change_the_view_without_recomputing(page, monkeypatch):
    import gpt_core.sources

    calls = []

    def counting_trace_attention(*args, **kwargs):
        calls.append(args)
        return trace_attention(*args, **kwargs)

    monkeypatch.setattr(gpt_core.sources, "trace_attention", counting_trace_attention)
    page.number_input(key="pg_seed").set_value(7).run()
    assert len(calls) == 1, "a number change computes once"
    page.selectbox(key="pg_head").set_value(3).run()
    page.selectbox(key="pg_row").set_value(2).run()
    page.selectbox(key="pg_col").set_value(1).run()
    page.button_group(key="pg_stage").set_value("scores").run()
    assert len(calls) == 1, "a view change reuses the last computation"
    traces = all_traces(page)
    assert "softmax weights · head 3" in traces and "raw scores QKᵀ · head 3" in traces
    detail = next(spec for spec in charts(page) if "−∞ cells · head 3" in traces_by_name(spec))
    cells = {(shape["x0"], shape["y0"]) for shape in detail["layout"]["shapes"]}
    assert cells == {(0.5, 1.5)}
    assert query(page)["head"] == "3" and query(page)["row"] == "2" and query(page)["col"] == "1"
    assert "query row 2" in markdown_text(page)


def test_softmax_calculator_matches_the_weights(page):
    page.selectbox(key="pg_row").set_value(3).run()
    table = page.dataframe[0].value
    weights = table.iloc[:, 3].astype(float).to_numpy()
    expected = trace_attention(PRESETS["book"], PlaygroundConfig()).trace.weights[0, 0, 3].numpy()
    np.testing.assert_allclose(weights, expected, atol=1e-6)
    assert list(table.iloc[4:, 1]) == ["−∞", "−∞"]
    assert list(table.iloc[4:, 2].astype(float)) == [0.0, 0.0]


def test_per_head_table_has_a_row_per_head(page):
    table = open_tab(page, "stats").dataframe[0].value
    assert list(table.iloc[:, 0]) == ["head 1", "head 2", "head 3", "head 4"]
    assert table.shape[1] == 5


def test_empty_text_shows_a_hint_and_no_charts(page):
    page.text_area(key="pg_text").input("   ").run()
    assert not page.exception
    assert page.info and not page.get("plotly_chart")


def test_huge_text_is_cut_with_a_message():
    at = open_page(PAGE)
    at.text_area(key="pg_text").input("ab" * 1000).run()
    assert not at.exception
    assert any(str(MAX_TOKENS) in w.value and "2000" in w.value for w in at.warning)
    overview = all_traces(at)["softmax weights · head 1"]
    assert len(overview["x"]) == WINDOW_TOKENS, "a long text: a window of it"
    assert overview["y"][-1].startswith(f"{MAX_TOKENS - 1} · "), "the last query, in the window around it"
    assert query(at)["text"] == ("ab" * 1000)[:MAX_TOKENS], "the link holds the tokens shown, not the whole paste"


def test_hostile_text_is_labelled_and_escaped():
    text = "<b>hi</b>\u200b\u202e😀\n"
    at = open_page(PAGE, text=text)
    assert not at.exception
    labels = all_traces(at)["softmax weights · head 1"]["x"]
    assert labels[0] == "0 · &lt;" and "U+200B" in labels[9] and "U+202E" in labels[10]
    assert labels[-1] == "12 · ⏎"
    assert query(at)["text"] == text


def test_chinese_page():
    at = open_page(PAGE, lang="zh")
    assert not at.exception
    assert "softmax 权重 · 头 1" in all_traces(at)
    assert query(at)["lang"] == "zh"


def test_work_survives_a_trip_to_another_page(page):
    page.text_area(key="pg_text").input("keep me").run()
    page.number_input(key="pg_heads").set_value(2).run()
    page.switch_page("pages/2_lesson.py").run()
    page.switch_page(PAGE).run()
    assert page.text_area(key="pg_text").value == "keep me"
    assert page.number_input(key="pg_heads").value == 2


def test_downloads_are_offered(page):
    open_tab(page, "share")
    labels = [button.proto.label for button in page.get("download_button")]
    assert labels == ["Matrix as CSV", "Whole trace as NPZ", "Python that reproduces it", "Download as a page"]
    snippet = page.get("code")[-1].value
    assert "PlaygroundConfig(heads=4, head_dim=8" in snippet and "'动手学大模型'" in snippet


def test_link_notes_show_odd_names_literally():
    at = open_page(PAGE, utm_source="x", **{"[click](http://evil.example)": "1"})
    notes = [warning.value for warning in at.warning]
    assert any("“utm\\_source”" in note for note in notes), notes
    assert any("\\[click\\]\\(http" in note for note in notes), "Markdown link syntax is escaped, not rendered"


def test_new_tokens_reset_the_chosen_cell_to_the_last_query(page):
    page.selectbox(key="pg_row").set_value(2).run()
    page.selectbox(key="pg_col").set_value(1).run()
    page.text_area(key="pg_text").input("abcdefghij").run()
    assert page.selectbox(key="pg_row").value == 9 and page.selectbox(key="pg_col").value == 0
    assert query(page)["row"] == "9"


def test_a_long_paste_is_taken_and_cut_to_the_token_cap(page):
    long_text = "lorem ipsum dolor sit amet " * 200  # 5400 characters
    page.text_area(key="pg_text").input(long_text).run()
    assert not page.exception
    assert any(str(len(long_text)) in w.value for w in page.warning), [w.value for w in page.warning]
    assert len(query(page)["text"]) == MAX_TOKENS


def test_a_long_text_keeps_legible_cells_in_a_window_that_needs_no_sideways_scroll():
    from figures.detail_plan import DETAIL_FIT_MIN_CELL_PX

    at = open_page(PAGE, text="abcdefghij" * 13, heads="2")
    assert not at.exception
    assert not [h for h in at.get("html") if "overflow-x" in h.proto.body], "the window fits the page"
    spec = next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if "raw scores QKᵀ · head 1" in c.proto.spec)
    layout = spec["layout"]
    plot_px = DEFAULT_WIDTH_PX - layout["margin"]["l"] - layout["margin"]["r"]
    domain = layout["xaxis"]["domain"]
    cell = (domain[1] - domain[0]) * plot_px / WINDOW_TOKENS
    assert cell >= DETAIL_FIT_MIN_CELL_PX, f"cells of {cell:.1f} px: no smaller than a short text's on one screen"
    assert len(traces_by_name(spec)["raw scores QKᵀ · head 1"]["y"]) == WINDOW_TOKENS


def test_the_values_switch_writes_values_in_the_cells_and_is_in_the_link(page):
    assert all_traces(page)["softmax weights · head 1"].get("texttemplate") == "%{z:.2f}"
    page.toggle(key="pg_cells").set_value(False).run()
    assert not all_traces(page)["softmax weights · head 1"].get("texttemplate")
    assert query(page)["cells"] == "0"
    again = open_page(PAGE, cells="0")
    assert again.toggle(key="pg_cells").value is False


def test_a_link_is_read_through_the_rules_its_tests_prove():
    """The page parses its link with ``state.parse_query``: a head beyond random weights' heads
    is a note and head 1, as the unit test of the rules says, not a silent clamp to the last."""
    at = open_page(PAGE, heads="2", head="5")
    assert not at.exception
    assert at.selectbox(key="pg_head").value == 1
    assert query(at)["head"] == "1"
    note = " ".join(w.value for w in at.warning)
    assert "head" in note and "5" in note and "1 … 2" in note


def test_a_models_head_is_not_judged_by_random_weights_heads():
    """A shipped 8-head model's head 6: the link omits random weights' heads (4 by default),
    and head 6 is the model's own, kept."""
    at = open_page(PAGE, weights="h8", head="6", block="2", text="ROMEO: what")
    assert not at.exception
    assert at.selectbox(key="pg_head").value == 6
    assert "softmax weights · head 6" in all_traces(at)
    assert not [w for w in at.warning if "head" in w.value]
