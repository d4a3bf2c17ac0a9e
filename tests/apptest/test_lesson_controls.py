"""The lesson's controls move its numbers: each step's figure, text and the answer its
question checks follow the sliders and the text box (gpt_core's numbers, worked out here),
not only their defaults. And presentation mode keeps to one step per screen."""

from __future__ import annotations

import numpy as np

from gpt_core import PlaygroundConfig, trace_attention
from gpt_core.lesson import BOOK_TEXT, parameter_counts, scaling_table
from harness.charts import assert_displays, decode, part_of
from string_table import t
from ui.shared.resources import shipped_experiment, shipped_snapshots

from .conftest import chart_traces, open_page

PAGE = "pages/2_lesson.py"


def check(at, step: int, value) -> str:
    """Answer the step's question with ``value``; 'right' or 'wrong' as the page says."""
    widget = at.multiselect(key=f"ls_answer_{step}") if step == 3 else at.radio(key=f"ls_answer_{step}")
    widget.set_value(value).run()
    at.button(key=f"ls_check_{step}").click().run()
    assert not at.exception, at.exception
    assert bool(at.success) != bool(at.error), "one verdict"
    return "right" if at.success else "wrong"


def reveal(at, step: int) -> None:
    """The step's answer shown, as after "Show the answer" (what answers the question is
    drawn only then: tests/apptest/test_lesson.py proves it is absent before)."""
    at.session_state[f"ls_revealed_{step}"] = True
    at.run()
    assert not at.exception, at.exception


def z(at, name: str) -> np.ndarray:
    trace = chart_traces(at)[name]
    values = decode(trace["z"])
    return values.reshape(len(trace["y"]), -1)


def assert_shows(at, name: str, expected: np.ndarray, cells: np.ndarray | None = None) -> None:
    """The chart's trace ``name`` shows ``expected`` (only at ``cells``, where given) as the
    browser prints it (harness/charts.py ``assert_displays``)."""
    trace = chart_traces(at)[name]
    if cells is None:
        assert_displays(trace, expected)
    else:
        assert_displays(part_of(trace, z(at, name)[cells]), expected[cells])


def test_step_1_follows_the_text_and_d():
    at = open_page(PAGE, step="1")
    at.text_input(key="ls_text_1").input("abcdefghij").run()
    at.select_slider(key="ls_d_1").set_value(8).run()
    expected = trace_attention("abcdefghij", PlaygroundConfig(heads=1, head_dim=8)).trace
    assert_shows(at, "Q", expected.queries_heads[0, 0].numpy())  # Q, K, V before the question
    assert_shows(at, "V", expected.values_heads[0, 0].numpy())
    reveal(at, 1)
    assert_shows(at, "softmax weights · head 1", expected.weights[0, 0].numpy())
    assert any("T = 10 tokens, d = 8" in m.value for m in at.markdown)
    assert check(at, 1, "10 × 10") == "right"
    assert check(at, 1, "10 × 8") == "wrong"


def test_step_2_follows_heads_and_head_dim():
    at = open_page(PAGE, step="2")
    at.select_slider(key="ls_h_2").set_value(2).run()
    at.select_slider(key="ls_d_2").set_value(4).run()
    T = len(BOOK_TEXT)
    assert check(at, 2, f"(1, 2, {T}, 4)") == "right", "(B, h, T, d)"
    assert check(at, 2, f"(1, {T}, 2, 4)") == "wrong"


def test_step_3_shows_the_chosen_head_and_takes_the_zero_keys_in_any_order():
    at = open_page(PAGE, step="3")
    at.select_slider(key="ls_head_3").set_value(3).run()
    expected = trace_attention(BOOK_TEXT, PlaygroundConfig(heads=4, head_dim=8)).trace
    assert_shows(at, "raw scores QKᵀ · head 3", expected.scores[0, 2].numpy())
    reveal(at, 3)
    assert_shows(at, "softmax weights · head 3", expected.weights[0, 2].numpy())
    later = list(range(4, len(BOOK_TEXT)))  # the keys after query 3
    assert check(at, 3, later[::-1]) == "right"


def test_step_4_keeps_c_whatever_the_heads():
    at = open_page(PAGE, step="4")
    at.select_slider(key="ls_h_4").set_value(8).run()
    assert "softmax weights · head 8" in chart_traces(at)
    assert check(at, 4, f"(1, {len(BOOK_TEXT)}, 32)") == "right", "h × d = 4 × 8 = 32 channels, merged"


def test_step_5_counts_the_chosen_embedding():
    at = open_page(PAGE, step="5")
    at.select_slider(key="ls_c_5").set_value(128).run()
    counts = parameter_counts(128)
    check(at, 5, "same")
    assert t("ls.5.why", one=counts[1]["total"], eight=counts[8]["total"]) in (at.success or at.error)[0].value


def test_step_6_computes_the_layer_with_the_chosen_heads():
    at = open_page(PAGE, step="6")
    at.select_slider(key="ls_h_6").set_value(2).run()
    reveal(at, 6)
    output = trace_attention(BOOK_TEXT, PlaygroundConfig(heads=2, head_dim=16)).trace.output[0].numpy()
    np.testing.assert_allclose(z(at, t("lsfig.batched")), output, atol=1e-6)
    assert check(at, 6, "same") == "right"


def test_step_7_quotes_the_spread_at_the_chosen_head_dim():
    at = open_page(PAGE, step="7")
    rows = {row.head_dim: row for row in scaling_table(len(BOOK_TEXT))}
    reveal(at, 7)
    for d in rows.keys() - {64}:
        at.select_slider(key="ls_d_7").set_value(d).run()
        assert any(f"here {rows[d].score_std:.1f} at d = {d}" in m.value for m in at.markdown), d


def test_step_8_shows_the_last_block_at_the_end_of_training():
    at = open_page(PAGE, step="8")
    snapshots = shipped_snapshots(4)
    last = max(snapshots)
    assert last == shipped_experiment().runs[0].steps, "the model as it was shipped"
    assert any(f"step {last}" in m.value for m in at.markdown)
    weights = snapshots[last][-1]
    T = weights.shape[-1]
    lower = np.tril(np.ones((T, T), dtype=bool))
    for head in range(4):
        assert_shows(at, f"softmax weights · head {head + 1}", weights[head], lower)


def test_presentation_mode_leaves_the_page_title_out():
    assert open_page(PAGE, step="2").title
    presenting = open_page(PAGE, step="2", present="1")
    assert not presenting.title, "one step per screen: the step's own heading only"
    assert any(t("ls.2.title") in h.value for h in presenting.subheader)
