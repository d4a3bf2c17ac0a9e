"""Markdown and HTML typed into any text box or upload are shown literally: no element of
the page renders them (Markdown elements hold them escaped, charts hold them as entities)."""

from __future__ import annotations

import json

from tests.apptest.conftest import open_page
from tests.apptest.test_train import train_quickly

MARKUP = "<b>x</b> **y** [z](http://e.example) <img src=x onerror=alert(1)>"
RAW_PIECES = ("<b>", "**y**", "](http", "<img")


def rendered_markdown(at) -> list[str]:
    """The source of every element the page renders as Markdown."""
    kinds = ("markdown", "caption", "warning", "error", "info", "success")
    return [element.value for kind in kinds for element in at.get(kind)]


def assert_literal(at) -> None:
    for source in rendered_markdown(at):
        for piece in RAW_PIECES:
            assert piece not in source, f"{piece!r} reaches Markdown unescaped in {source!r}"


def test_markup_in_the_playground_text_and_link_is_shown_literally():
    at = open_page("pages/1_playground.py", text=MARKUP, tok="word", heads="2", bogus=MARKUP)
    assert not at.exception
    assert_literal(at)
    for chart in at.get("plotly_chart"):
        spec = chart.proto.spec
        assert "<b>x" not in spec and "<img" not in spec
    labels = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]["x"]
    assert any("&lt;" in label for label in labels), "a < token is drawn as an entity"


def test_markup_in_the_prompt_and_an_uploaded_corpus_is_shown_literally():
    at = open_page("pages/3_train.py")
    upload = (MARKUP + " the quick brown fox jumps over the lazy dog.\n").encode() * 40
    at.radio(key="tr_corpus").set_value("own").run()
    at.get("file_uploader")[0].set_value(("markup.txt", upload, "text/plain")).run()
    train_quickly(at, corpus="own", steps=10)
    assert at.session_state["tr_model"].corpus == "own"
    at.text_area(key="tr_prompt").input("ROMEO: " + MARKUP + " `code` # ~~").run()
    at.button(key="tr_generate").click().run()
    assert not at.exception
    assert_literal(at)
    assert any("Left out of the prompt" in caption.value for caption in at.caption)
