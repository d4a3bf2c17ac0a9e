"""One name per thing on every page: the shipped 4-head model and the student's own model
are called the same in every box, note and message of the playground (its compare mode
too), the explorer, the Train page and the lesson, in English and in Chinese."""

from __future__ import annotations

import re

import pytest

from tests.apptest.conftest import open_page
from tests.apptest.test_explorer import _tiny_model
from ui.shared.models import MODEL_STATE

PLAYGROUND, LESSON, TRAIN, EXPLORER = (
    "pages/1_playground.py",
    "pages/2_lesson.py",
    "pages/3_train.py",
    "pages/4_explorer.py",
)

# The one name of each thing, as a select box shows it.
SHIPPED_4 = {"en": "Shipped model, h = 4", "zh": "随附模型，h = 4"}
YOURS = {"en": "Your model", "zh": "你的模型"}
# Words that name one of these models (or the shipped ones together). What is left of a
# text once its allowed phrases are taken out must hold none of them.
MARKERS = {
    "en": r"shipped|pre-?trained|this session|you trained|session's model",
    "zh": r"随应用提供|随附|自带|预训练|本次会话|本次训练|你训练",
}
ALLOWED = {  # the names, the shipped models as a kind, and the shipped experiment (no model)
    "en": (r"shipped models?", r"your model", r"shipped heads experiment", r"shipped results"),
    "zh": (r"随附模型", r"你的模型", r"随附的多头实验", r"随附的结果"),
}


def shown_texts(at) -> list[str]:
    """Every text the page shows: boxes' labels and options as displayed, and its prose."""
    texts = []
    for kind in ("markdown", "caption", "info", "warning", "success", "error", "subheader", "header", "title", "text"):
        texts += [element.value for element in at.get(kind)]
    for box in at.selectbox:
        texts += [box.label, *box.options]
    for group in at.get("button_group"):
        texts += [group.proto.label, *(option.content for option in group.proto.options)]
    for radio in at.radio:
        texts += [radio.label, *radio.options]
    return texts


def other_names(texts: list[str], lang: str) -> list[str]:
    """The texts that still name a model another way once the allowed phrases are out."""
    odd = []
    for text in texts:
        rest = text
        for phrase in ALLOWED[lang]:
            rest = re.sub(phrase, "", rest, flags=re.IGNORECASE)
        if re.search(MARKERS[lang], rest, flags=re.IGNORECASE):
            odd.append(text)
    return odd


def with_your_model(at):
    at.session_state[MODEL_STATE] = _tiny_model()
    at.run()
    assert not at.exception, at.exception
    return at


def box_options(at, key: str) -> list[str]:
    return at.selectbox(key=key).options


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_playground_and_its_compare_mode_name_each_model_one_way(lang):
    at = with_your_model(open_page(PLAYGROUND, lang=lang, cmp="1"))
    for key in ("pg_weights", "pg_b_weights"):
        options = box_options(at, key)
        assert SHIPPED_4[lang] in options and YOURS[lang] in options, (key, options)
    assert not other_names(shown_texts(at), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_explorer_names_each_model_one_way_in_its_box_notes_and_messages(lang):
    at = with_your_model(open_page(EXPLORER, lang=lang, model="h4", view="training"))
    options = box_options(at, "ex_model")
    assert SHIPPED_4[lang] in options and YOURS[lang] in options, options
    texts = shown_texts(at)
    at.selectbox(key="ex_model").set_value("session").run()  # its training tab: no snapshots
    texts += shown_texts(at)
    for link in ({"model": "session"}, {"model": "h9"}):  # a link to a model that is not here
        texts += shown_texts(open_page(EXPLORER, lang=lang, **link))
    assert not other_names(texts, lang), other_names(texts, lang)
    fallback = [text for text in texts if "h9" in text or "会话" in text or "session" in text.lower()]
    assert fallback and all(SHIPPED_4[lang].lower() in text.lower() for text in fallback), fallback


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_train_page_names_each_model_one_way(lang):
    at = with_your_model(open_page(TRAIN, lang=lang))
    options = box_options(at, "tr_gen_model")
    assert SHIPPED_4[lang] in options and YOURS[lang] in options, options
    assert not other_names(shown_texts(at), lang), other_names(shown_texts(at), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lessons_trained_heads_step_names_the_shipped_model_one_way(lang):
    at = open_page(LESSON, lang=lang, step="8")
    assert not at.exception, at.exception
    texts = shown_texts(at)
    assert any(SHIPPED_4[lang].lower().replace("4", "") in text.lower() for text in texts), "it names the model"
    assert not other_names(texts, lang), other_names(texts, lang)
