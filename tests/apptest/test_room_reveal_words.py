"""What a room's student reads once the teacher reveals a step, in both languages: the
question without the lead that asks for an answer first (the answering is over), and a
wrong answer judged in words, as the lesson judges one."""

from __future__ import annotations

import pytest

from classroom.store import reset_shared_store
from string_table import t

from .conftest import open_page

PAGE = "pages/2_lesson.py"
STEP1_OPTIONS = ["6 × 6", "6 × 4", "4 × 4"]  # step 1's options; the first is right


@pytest.fixture(autouse=True)
def room_store(tmp_path, monkeypatch):
    monkeypatch.setenv("ROOM_STORE", f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    monkeypatch.delenv("ROOM_MAX_STUDENTS", raising=False)
    monkeypatch.delenv("ROOM_TTL_HOURS", raising=False)
    reset_shared_store()
    yield
    reset_shared_store()


def _shown(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption]).replace("\\", "")


def _open(lang: str, **query):
    at = open_page(PAGE, **query, **({"lang": lang} if lang != "en" else {}))
    assert not at.exception, at.exception
    return at


def _lead(lang: str) -> str:
    return f"**{t('ls.predict', lang)}:**"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_revealed_step_drops_the_lead_and_a_wrong_answer_is_judged(lang):
    teacher = _open(lang, room="new")
    code = teacher.query_params["room"]
    right, wrong = _open(lang, room=code), _open(lang, room=code)
    for page, option in ((right, STEP1_OPTIONS[0]), (wrong, STEP1_OPTIONS[1])):
        assert _lead(lang).replace("**", "") in _shown(page).replace("**", ""), "before the reveal: answer first"
        page.radio(key="rm_answer_1").set_value(option).run()
    teacher_prompt = t("room.teacher_prompt", lang)
    assert teacher_prompt in _shown(teacher), "before the reveal the class is predicting"
    teacher.button(key="rm_reveal").click().run()
    assert not teacher.exception, teacher.exception
    assert teacher_prompt not in _shown(teacher), "revealed: the class no longer predicts"
    verdict = t("ls.wrong", lang, hint="").strip()  # the lesson's own word for a wrong answer
    for page in (right, wrong):
        page.run()
        assert not page.exception, page.exception
        shown = _shown(page)
        assert t("ls.predict", lang) not in shown, "revealed: no lead asking for an answer first"
    wrong_line = next(m.value for m in wrong.markdown if m.value.rstrip(".。").endswith(STEP1_OPTIONS[1]))
    assert verdict in wrong_line, f"a wrong answer is said to be wrong: {wrong_line!r}"
    assert verdict not in t("room.you_were_right", lang, answer=STEP1_OPTIONS[0]), "a right answer is not"
