"""The Train page's settings travel in its link like every other page's (links/train.py):
a link in sets every control, a change goes out to the URL, odd values fall back with a note."""

from __future__ import annotations

import pytest

from gpt_core.reproduce import NUMBERS_VERSION
from string_table import t
from tests.apptest.conftest import open_page
from ui.markdown import literal

PAGE = "pages/3_train.py"
LINKED = {
    "corpus": "copy",
    "heads": "4",
    "head_dim": "8",
    "blocks": "3",
    "context": "24",
    "budget_kind": "seconds",
    "seconds": "7",
    "exp_steps": "60",
    "exp_seeds": "2",
    "prompt": "abc",
    "temperature": "1.25",
    "top_k": "5",
    "length": "40",
    "gen_seed": "9",
}


def warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def test_a_link_sets_every_control(steady_server):
    at = open_page(PAGE, **LINKED)
    assert not at.exception, at.exception
    assert at.radio(key="tr_corpus").value == "copy"
    assert at.selectbox(key="tr_heads").value == 4
    assert at.number_input(key="tr_head_dim").value == 8
    assert at.number_input(key="tr_blocks").value == 3
    assert at.number_input(key="tr_context").value == 24
    assert at.radio(key="tr_budget_kind").value == "seconds"
    assert at.number_input(key="tr_seconds").value == 7
    assert at.number_input(key="tr_exp_steps").value == 60
    assert at.number_input(key="tr_exp_seeds").value == 2
    assert at.text_area(key="tr_prompt").value == "abc"
    assert at.session_state["tr_temperature"] == pytest.approx(1.25)
    assert at.session_state["tr_top_k"] == 5
    assert at.session_state["tr_length"] == 40
    assert at.session_state["tr_gen_seed"] == 9
    assert "embedding = heads × head_dim = 4 × 8 = **32**" in [m.value for m in at.markdown]
    assert not warnings(at), "a valid link gives no notes"


def test_the_url_says_what_the_page_shows_and_follows_a_change(page):
    query = page.query_params
    assert (query["corpus"], query["heads"], query["v"]) == ("tinyshakespeare", "2", str(NUMBERS_VERSION))
    page.selectbox(key="tr_heads").set_value(8).run()
    page.number_input(key="tr_context").set_value(40).run()
    page.radio(key="tr_corpus").set_value("induction").run()
    assert (page.query_params["heads"], page.query_params["context"], page.query_params["corpus"]) == (
        "8",
        "40",
        "induction",
    )
    reopened = open_page(PAGE, **dict(page.query_params.items()))
    assert not reopened.exception, reopened.exception
    assert reopened.selectbox(key="tr_heads").value == 8
    assert reopened.number_input(key="tr_context").value == 40
    assert reopened.radio(key="tr_corpus").value == "induction"


def test_a_pasted_corpus_stays_out_of_the_link(page):
    page.radio(key="tr_corpus").set_value("own").run()
    page.text_area(key="tr_own_text").input("my own private notes " * 10).run()
    assert "own_text" not in page.query_params
    assert all("private" not in value for value in page.query_params.values())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_odd_link_values_fall_back_with_a_note(lang):
    at = open_page(PAGE, lang=lang, heads="3", context="9999", corpus="<b>x</b>", budget_kind="minutes", zzz="1")
    assert not at.exception, at.exception
    assert at.selectbox(key="tr_heads").value == 2
    assert at.number_input(key="tr_context").value == 32
    assert at.radio(key="tr_corpus").value == "tinyshakespeare"
    assert at.radio(key="tr_budget_kind").value == "steps"
    shown = "\n".join(warnings(at))
    for name in ("heads", "context", "corpus", "budget_kind"):
        assert literal(name) in shown, (name, shown)
    assert t("note.unknown", lang, name="zzz") in warnings(at)
    assert "<b>" not in shown, "a link's value is quoted literally"
    link_notes = [w for w in warnings(at) if "zzz" in w or any(literal(name) in w for name in ("heads", "context"))]
    assert len(link_notes) >= 3
    at.selectbox(key="tr_heads").set_value(4).run()
    assert not set(link_notes) & set(warnings(at)), "once the student changes a setting, the link's notes go"
