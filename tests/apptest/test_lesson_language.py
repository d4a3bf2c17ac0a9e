"""The Chinese lesson shows no English of Streamlit's own widgets."""

from __future__ import annotations

from tests.apptest.conftest import open_page
from tests.apptest.test_one_name import shown_texts

PAGE = "pages/2_lesson.py"


def test_the_chinese_lessons_several_answers_step_shows_no_english_select_all():
    """Streamlit's multiselect offers its own "Select all", in English whatever the page's
    language: its browser side shows it for two or more options unless ``select_all`` is 0
    (-1: always; n > 0: up to n options)."""
    at = open_page(PAGE, lang="zh", step="3")
    assert not at.exception, at.exception
    box = at.multiselect(key="ls_answer_3")
    n, select_all = len(box.options), box.proto.select_all
    assert n >= 2
    assert not (select_all == -1 or 0 < n <= select_all), f"“Select all” is offered (select_all={select_all})"
    assert not [text for text in shown_texts(at) if "Select all" in text]
