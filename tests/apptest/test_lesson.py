"""The guided lesson in AppTest: every step in both languages, every question answered
right and wrong, the step in the URL, presentation mode."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from gpt_core.lesson import parameter_counts
from ui.lesson.steps import STEPS
from ui.strings import t

from .conftest import chart_traces, open_page

PAGE = "pages/2_lesson.py"
STEP_COUNT = len(STEPS)


# The shipped experiment's answer, worked out by hand from assets/heads_experiment/results.json
# (final held-out losses over seeds 0-2): h = 2 has the lowest mean (1.769); h = 1's mean
# (1.812) is worse by 0.043, more than either seed spread (0.016, 0.012).
SHIPPED_BEST, SHIPPED_CLEARLY_WORSE = 2, 1


# step -> (a right answer, a wrong answer), as the widget's values
ANSWERS = {
    1: ("6 × 6", "6 × 4"),
    2: ("(1, 4, 6, 8)", "(1, 6, 4, 8)"),
    3: ([4, 5], [3, 4, 5]),
    4: ("(1, 6, 32)", "(1, 4, 6, 8)"),
    5: ("same" if len({c["total"] for c in parameter_counts(64).values()}) == 1 else "more", "more"),
    6: ("same", "different"),
    7: ("one", "uniform"),
    8: (None, None),  # from the shipped experiment, below
}


def _answer(at, step: int, value) -> None:
    widget = at.multiselect(key=f"ls_answer_{step}") if step == 3 else at.radio(key=f"ls_answer_{step}")
    widget.set_value(value).run()
    at.button(key=f"ls_check_{step}").click().run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", range(1, STEP_COUNT + 1))
def test_every_step_draws_its_figure_and_checks_right_and_wrong_answers(lang, step):
    at = open_page(PAGE, lang=lang, step=str(step))
    assert not at.exception, at.exception
    assert at.query_params["step"] == [str(step)] or at.query_params["step"] == str(step)
    assert any(t(f"ls.{step}.title", lang) in h.value for h in at.subheader)
    assert at.get("plotly_chart"), "a live figure"
    right, wrong = ANSWERS[step]
    if step == 8:
        right, wrong = SHIPPED_BEST, SHIPPED_CLEARLY_WORSE
    _answer(at, step, wrong)
    assert at.error and t("ls.wrong", lang, why="").split("{")[0][:4] in at.error[0].value
    assert not at.success
    _answer(at, step, right)
    assert at.success and not at.error
    if step == 8:
        assert any(t("tr.verdict.title", lang) in m.value for m in at.markdown), "the full answer follows the check"


def test_next_and_previous_walk_the_steps_and_the_url_follows():
    at = open_page(PAGE)
    assert at.query_params["step"] in ("1", ["1"])
    for step in range(2, STEP_COUNT + 1):
        at.button(key="ls_next_ls_step").click().run()
        assert not at.exception, at.exception
        assert any(t(f"ls.{step}.title") in h.value for h in at.subheader)
    assert at.button(key="ls_next_ls_step").disabled, "no step after the last"
    at.button(key="ls_prev_ls_step").click().run()
    assert any(t(f"ls.{STEP_COUNT - 1}.title") in h.value for h in at.subheader)
    at.selectbox(key="ls_pick").set_value(3).run()
    assert any(t("ls.3.title") in h.value for h in at.subheader)
    assert at.query_params["step"] in ("3", ["3"])


def test_checking_without_an_answer_asks_for_one_and_a_changed_answer_hides_the_old_verdict():
    at = open_page(PAGE, step="5")
    at.button(key="ls_check_5").click().run()
    assert at.warning and t("ls.choose_first") in at.warning[0].value
    _answer(at, 5, "more")
    assert at.error
    at.radio(key="ls_answer_5").set_value("fewer").run()
    assert not at.error and not at.success, "the verdict was for the previous answer"


@pytest.mark.parametrize("value", ["0", "99", "abc", "<b>3</b>"])
def test_a_step_that_is_not_one_starts_at_step_1_with_a_note(value):
    at = open_page(PAGE, step=value)
    assert not at.exception
    assert any(t("ls.1.title") in h.value for h in at.subheader)
    assert at.warning and "1" in at.warning[0].value
    assert "<b>" not in at.warning[0].value, "the link's text is shown literally"


def test_the_mask_step_offers_the_book_tokens_and_accepts_no_zero_cell_as_an_answer():
    at = open_page(PAGE, step="3")
    options = at.multiselect(key="ls_answer_3").options
    assert len(options) == 6 and "大" in options[3]
    _answer(at, 3, [])
    assert at.error, "row 3 has two zero cells: none is wrong"


def test_presentation_mode_from_the_url_keeps_one_step_per_screen_and_survives_links():
    at = open_page(PAGE, lang="zh", present="1", step="3")
    assert not at.exception
    assert not _has(at, "ls_pick"), "no step list in presentation mode: previous/next only"
    assert at.button_group(key="present_toggle").value is True
    assert any(t("ls.3.title", "zh") in h.value for h in at.subheader)
    links = [parse_qs(link.proto.query_string) for link in at.get("page_link")]
    assert links and all(link == {"lang": ["zh"], "present": ["1"]} for link in links), "links keep language and mode"
    at.button_group(key="present_toggle").set_value(False).run()
    assert _has(at, "ls_pick")
    assert "present" not in at.query_params


def _has(at, key: str) -> bool:
    return any(getattr(widget, "key", None) == key for widget in at.get("selectbox"))



def test_presentation_mode_draws_larger_figures_and_type():
    import json

    heights, fonts = {}, {}
    for present in ("0", "1"):
        at = open_page(PAGE, step="5", present=present)
        spec = json.loads(at.get("plotly_chart")[0].proto.spec)
        heights[present], fonts[present] = spec["layout"]["height"], spec["layout"]["font"]["size"]
        assert any("font-size: 21px" in h.proto.body for h in at.get("html")) == (present == "1")
    assert heights["1"] > heights["0"] and fonts["1"] > fonts["0"]


def test_the_playground_keeps_text_heads_and_head_dim_in_view_and_the_rest_folded():
    plain = open_page("pages/1_playground.py")
    presenting = open_page("pages/1_playground.py", present="1")
    for at in (plain, presenting):
        assert not at.exception, at.exception
    for at in (plain, presenting):  # beside the first chart, only what is changed most often
        folded = {widget.key for widget in at.expander[0].number_input}
        assert {"pg_seed", "pg_input_dim"} <= folded
        in_view = {widget.key for widget in at.number_input} - folded
        assert in_view == {"pg_heads", "pg_head_dim"}
    assert presenting.query_params.get("present") in ("1", ["1"]), "the playground's link keeps the mode"


def test_the_trained_heads_step_shows_each_shipped_model():
    at = open_page(PAGE, step="8")
    for heads in (1, 2, 8):
        at.select_slider(key="ls_h_8").set_value(heads).run()
        assert not at.exception, at.exception
        names = set(chart_traces(at))
        assert f"softmax weights · head {heads}" in names and f"softmax weights · head {heads + 1}" not in names
