"""The token questions (lesson steps 10 and 11) in AppTest, in both languages: alone (predict,
a wrong answer's hint, the real row once answered or asked for), and in a room (the teacher's
chart counts the class's choices per key token, the reveal adds the head's real row and the
share that chose the strongest key; a student's reveal marks their own choice)."""

from __future__ import annotations

import json
import math

import pytest
import torch

from classroom.model import new_student_id
from classroom.store import reset_shared_store, shared_store
from gpt_core import PlaygroundConfig, position_label
from gpt_core.explore import trace_model
from gpt_core.lesson import BOOK_TEXT
from gpt_core.playground import trace_attention
from gpt_core.results import load_experiment
from gpt_core.token_question import TRAINED_HEADS, TRAINED_PROMPT
from seeing_attention.paths import ASSETS
from string_table import t

from .conftest import open_page

PAGE = "pages/2_lesson.py"


@pytest.fixture(autouse=True)
def room_store(tmp_path, monkeypatch):
    torch.set_num_threads(1)
    monkeypatch.setenv("ROOM_STORE", f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    reset_shared_store()
    yield
    reset_shared_store()


def random_row(head: int = 0) -> list[float]:
    """Step 10's row: the last token's softmax over q·k/√8 in head ``head`` of the book's
    random layer (4 heads of 8), worked out here from its queries and keys."""
    trace = trace_attention(BOOK_TEXT, PlaygroundConfig(heads=4, head_dim=8)).trace
    q, k = trace.queries_heads[0, head], trace.keys_heads[0, head]
    return torch.softmax(q[-1] @ k.T / math.sqrt(8), dim=-1).tolist()


def trained_row() -> list[float]:
    """Step 11's row: the shipped model's head whose rows most often peak on the previous
    token (counted here), its last row."""
    checkpoint = load_experiment(ASSETS / "heads_experiment").checkpoint(TRAINED_HEADS)
    weights = [w[0] for w in trace_model(checkpoint.model, checkpoint.vocabulary, TRAINED_PROMPT).weights]
    T = len(TRAINED_PROMPT)

    def hits(rows) -> int:
        return sum(int(rows[q].argmax()) == q - 1 for q in range(1, T))

    layer, head = max(
        ((l, h) for l in range(len(weights)) for h in range(TRAINED_HEADS)),
        key=lambda lh: (hits(weights[lh[0]][lh[1]]), -lh[0], -lh[1]),
    )
    return weights[layer][head, -1].tolist()


ROWS = {10: random_row, 11: trained_row}


def chart(at, key: str) -> dict:
    """The named traces of the chart whose key ends with ``key``."""
    (found,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    return {trace["name"]: trace for trace in json.loads(found.proto.spec)["data"]}


def best_and_worst(row: list[float]) -> tuple[int, int]:
    return max(range(len(row)), key=row.__getitem__), min(range(len(row)), key=row.__getitem__)


def check(at, step: int, option: int) -> None:
    at.radio(key=f"ls_answer_{step}").set_value(option).run()
    at.button(key=f"ls_check_{step}").click().run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", [10, 11])
def test_alone_a_wrong_token_gets_a_hint_and_the_right_one_draws_the_real_row(step, lang):
    row = ROWS[step]()
    best, worst = best_and_worst(row)
    at = open_page(PAGE, lang=lang, step=str(step))
    assert not at.exception, at.exception
    options = at.radio(key=f"ls_answer_{step}").options
    assert len(options) == len(row) and options[1].startswith("1 · ")
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"ls_chart_{step}")], "no row before"
    check(at, step, worst)
    assert at.error and t(f"ls.{step}.hint", lang) in at.error[0].value
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"ls_chart_{step}")], "a hint, no row"
    check(at, step, best)
    assert at.success and f"{row[best]:.2f}" in at.success[0].value
    (drawn,) = chart(at, f"ls_chart_{step}").values()
    assert drawn["x"] == pytest.approx(row, abs=1e-6), "the head's real row, one bar per key"
    if step == 11:
        assert best == len(row) - 2, "the previous-token head reads the token just before"


def test_asking_for_the_answer_draws_the_row_too():
    at = open_page(PAGE, step="10")
    check(at, 10, best_and_worst(random_row())[1])
    at.button(key="ls_show_10").click().run()
    assert chart(at, "ls_chart_10"), "the row once asked for"


def test_two_texts_with_the_same_labels_each_draw_their_own_row():
    """A space is labelled "␣", as the character "␣" is: two sessions whose texts differ only
    there have the same labels but their own weights, and each reveal draws its own."""
    for text in ("a b", "a␣b"):
        trace = trace_attention(text, PlaygroundConfig(heads=4, head_dim=8)).trace
        q, k = trace.queries_heads[0, 0], trace.keys_heads[0, 0]
        row = torch.softmax(q[-1] @ k.T / math.sqrt(8), dim=-1).tolist()
        at = open_page(PAGE, step="10")
        at.text_input(key="ls_text_10").input(text).run()
        check(at, 10, best_and_worst(row)[1])
        at.button(key="ls_show_10").click().run()
        (drawn,) = chart(at, "ls_chart_10").values()
        assert drawn["x"] == pytest.approx(row, abs=1e-6), f"{text!r}: its own row"


def _room_on(step: int, lang: str):
    at = open_page(PAGE, room="new", step=str(step), **({"lang": lang} if lang != "en" else {}))
    assert not at.exception, at.exception
    code, key = at.query_params["room"], at.query_params["key"]
    shared_store().move(code, key, step)
    at.run()
    return at, code, key


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", [10, 11])
def test_in_a_room_the_teacher_sees_the_class_per_token_and_the_reveal_adds_the_row(step, lang):
    row = ROWS[step]()
    best, worst = best_and_worst(row)
    at, code, key = _room_on(step, lang)
    picks = (best, worst, worst, best if step == 10 else worst)
    choices = {new_student_id(): option for option in picks}
    for name, option in choices.items():
        shared_store().join(code, name)
        shared_store().answer(code, step, name, [option])
    at.run()
    assert not at.exception, at.exception
    (tally,) = chart(at, "rm_answers").values()
    labels = list(BOOK_TEXT) if step == 10 else None
    if labels is not None:
        assert tally["y"] == [position_label(i, c) for i, c in enumerate(labels)], "one bar per key token"
    counts = [0] * len(row)
    for option in choices.values():
        counts[option] += 1
    assert tally["text"] == [str(n) for n in counts]
    assert t("room.answered", lang, n=4) in "".join(m.value for m in at.markdown)
    at.button(key="rm_reveal").click().run()
    assert not at.exception, at.exception
    cls, real = chart(at, "rm_answers").values()
    assert real["x"] == pytest.approx(row, abs=1e-6) and real["y"] == cls["y"], "the row on the same axis"
    chose = counts[best]
    token = (BOOK_TEXT if step == 10 else TRAINED_PROMPT)[best]
    said = t("room.tq_share", lang, share=f"{chose / 4:.0%}", n=chose, answered=4, keys=position_label(best, token))
    assert said in "".join(m.value for m in at.markdown).replace("\\", "")


def test_a_students_reveal_marks_their_own_choice_beside_the_real_row():
    row = random_row()
    best, worst = best_and_worst(row)
    at, code, key = _room_on(10, "en")
    phone = open_page(PAGE, room=code)
    assert not phone.exception, phone.exception
    phone.radio(key="rm_answer_10").set_value(worst).run()
    assert not [c for c in phone.get("plotly_chart") if c.proto.id.endswith("rm_own_row")], "nothing before"
    shared_store().reveal(code, key, 10)
    phone.run()
    assert not phone.exception, phone.exception
    (mine,) = chart(phone, "rm_own_row").values()
    assert mine["x"] == pytest.approx(row, abs=1e-6)
    marked = [label for label in mine["y"] if t("tqfig.yours") in label]
    assert marked == [f"{position_label(worst, BOOK_TEXT[worst])} ◀ {t('tqfig.yours')}"]
