"""The lesson's and the Train page's link rules (links/lesson.py, links/train.py), pure: no
Streamlit is needed to read their links."""

from __future__ import annotations

from links import lesson, train
from links.rules import Note, to_query

STEPS = 8


def test_the_lessons_link_reads_its_step_and_leaves_the_rooms_parameters_to_the_room():
    params = lesson.params(STEPS)
    query = {"step": "3", "room": "ACEFHJKM", "key": "secret", "me": "old", "view": "join", "lang": "zh"}
    assert lesson.parse_query(params, query) == ({"step": 3}, [])


def test_a_step_outside_the_lesson_falls_back_to_the_first_with_a_note():
    values, notes = lesson.parse_query(lesson.params(STEPS), {"step": str(STEPS + 1), "zoom": "2"})
    assert values == {"step": 1}
    assert notes == [Note("step", "9", "invalid", "1 … 8", "1"), Note("zoom", "2", "unknown")]


def test_the_train_pages_model_to_generate_with_is_one_the_page_names_when_the_link_is_read():
    names = ["h2"]
    params = train.params(lambda: names)
    by_name = {param.name: param for param in params}
    assert by_name["gen_model"].accepts("h2") and not by_name["gen_model"].accepts("h4")
    names.append("h4")  # the session trained a model: the same rules take it
    assert by_name["gen_model"].accepts("h4")
    assert "gen_model" not in to_query(params, {param.name: param.default for param in params})  # None: left out
    assert "own_text" not in to_query(params, {param.name: param.default for param in params})  # the session's only
