"""Lesson step 9, generation with the key/value cache: the question comes before anything that
answers it, in both languages and presenting; the right answer is worked out here from the
shipped model's sizes and the prompt (one new position a step: h_kv key vectors a layer,
after t = prompt + step tokens), not from the cache's numbers; a wrong one gets the hint; the
step's input is the class's in a room; the link ``step=9`` opens it."""

from __future__ import annotations

import json
import re

import pytest

from string_table import t
from string_table.lesson import STRINGS as LESSON
from ui.shared import sources

from .conftest import open_page
from .test_room import room_store, student, teacher  # noqa: F401 - room_store: the autouse fixture, here too

PAGE = "pages/2_lesson.py"
PROMPT = "ROMEO:"  # the step's prompt: the tiny GPT reads it one character a token
SHIPPED_HEADS = 4
SIZES = sources.load(sources.shipped_model_name(SHIPPED_HEADS), "en").description
BYTES_PER_FLOAT32 = 4
# The options, as the string table words them ("… × h_kv = {n}"): the question's choices.
FORMULAS = [
    key.removeprefix("ls.9.") for key, words in LESSON.items() if key.startswith("ls.9.") and "{n}" in words["en"]
]


def _open(lang: str = "en", present: bool = False, **query):
    at = open_page(PAGE, step="9", **({"lang": lang} if lang != "en" else {}), **({"present": "1"} if present else {}))
    assert not at.exception, at.exception
    return at


def _length(at) -> int:
    """t: the prompt's characters and one token per generation step."""
    return len(PROMPT) + at.select_slider(key="ls_i_9").value


def _option(at, count: int) -> str:
    """The option (as the step names it: its string's key) whose formula comes to ``count``."""
    radio = at.radio(key="ls_answer_9")
    found = [option for option in FORMULAS if radio.format_func(option).endswith(f"= {count}")]
    assert len(found) == 1, (count, radio.options)
    return found[0]


def _check(at, option: str) -> None:
    at.radio(key="ls_answer_9").set_value(option).run()
    at.button(key="ls_check_9").click().run()
    assert not at.exception, at.exception


def _chart(at, key: str) -> dict | None:
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(key):
            return json.loads(chart.proto.spec)
    return None


def _shown(at) -> str:
    return "\n".join(m.value for m in at.markdown).replace("\\", "")


@pytest.mark.parametrize("present", [False, True])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_asks_before_it_reveals_and_accepts_the_answer_worked_out_from_the_model(lang, present):
    at = _open(lang, present)
    length = _length(at)
    assert at.get("subheader")[0].value == f"9. {t('ls.9.title', lang)}"
    assert f"t = {length}" in _shown(at), "the question names the step's t"
    assert _chart(at, "ls_chart_9") is None, "no new row before the answer"
    per_token = 2 * SIZES.layers * SIZES.kv_heads * SIZES.head_dim * BYTES_PER_FLOAT32
    assert str(per_token) not in _shown(at), "no bytes before the answer"
    _check(at, _option(at, SIZES.kv_heads))  # one new position: one key per key/value head
    assert at.success and not at.error, "the right answer is accepted"
    assert f"{per_token}" in _shown(at) and f"({SIZES.kv_heads}, {length}, {SIZES.head_dim})" in _shown(at)
    spec = _chart(at, "ls_chart_9")
    assert spec is not None, "the full causal matrix once answered"
    rows = [s for s in spec["layout"]["shapes"] if s.get("x0") == -0.5 and s.get("y0") == length - 1.5]
    assert len(rows) == SIZES.heads and all(s["x1"] == length - 0.5 for s in rows), "the new row outlined, each head"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_answer_gets_not_quite_and_reveals_nothing(lang):
    at = _open(lang)
    _check(at, _option(at, _length(at) * SIZES.kv_heads))  # recomputing every position
    assert at.error and at.error[0].value.startswith(t("ls.wrong", lang, hint="").strip())
    assert not at.success and _chart(at, "ls_chart_9") is None


def test_another_step_asks_about_its_own_t_and_the_answer_stays_one_key_per_head():
    at = _open()
    choices = at.select_slider(key="ls_i_9").options
    at.select_slider(key="ls_i_9").set_value(int(choices[-1])).run()
    length = _length(at)
    assert f"t = {length}" in _shown(at)
    assert _option(at, length * length * SIZES.kv_heads)  # the t² option follows t too
    _check(at, _option(at, SIZES.kv_heads))
    assert at.success and not at.error


def test_in_a_room_the_step_is_the_classs_and_its_input_locked():
    at = teacher(step="9")
    code = at.query_params["room"]
    one = student(code)
    assert one.select_slider(key="ls_i_9").disabled and at.select_slider(key="ls_i_9").disabled
    asked = [m.value for m in one.markdown if re.search(r"t = \d+", m.value)]
    one.session_state["ls_i_9"] = 1  # what a crafted client could send for the locked input
    one.run()
    assert not one.exception, one.exception
    assert [m.value for m in one.markdown if re.search(r"t = \d+", m.value)] == asked, "the class's question"
