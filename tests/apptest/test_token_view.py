"""One token, every head, in the playground (one layer) and the explorer (every block): the
token strip, the token and the direction in the link and back, a token the text does not
have, both languages."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ui.views.token_view
from gpt_core import PlaygroundConfig, display_labels, hf, position_label, token_attention, tokenize, trace_attention
from gpt_core.explore import trace_model
from harness.charts import decode
from string_table import t
from tests.apptest.conftest import chart_traces, open_page, open_tab
from tests.apptest.test_literal_text import assert_no_raw_trap
from tests.apptest.test_real_models import offered  # noqa: F401  # the fixture of the real models offered
from tests.markup import MARKDOWN_TRAPS
from ui.markdown import literal
from ui.shared.resources import shipped_model
from ui.shared.token_strip import LINKS

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"  # opened on its token tab (view=token): only the open tab is drawn
TEXT = "the cat sat on the mat"
LINK = {"text": TEXT, "tok": "word", "heads": "3", "head_dim": "4", "seed": "5", "view": "token"}
LABELS = ["the", "cat", "sat", "on", "the", "mat"]
SENTENCE = re.compile(r"(?:reads|read by) '(.*?)' \(position (\d+)\)")


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def strip(at, key: str):
    return at.button_group(key=key)


def expected(position: int):
    weights = trace_attention(TEXT, PlaygroundConfig(heads=3, head_dim=4, seed=5, tokenizer="word")).trace.weights
    return token_attention([weights], position)


def _values(trace: dict) -> np.ndarray:
    return decode(trace["y"]).astype(np.float32)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_playground_view_shows_the_linked_token_row_and_column_in_every_head(lang):
    at = open_page(PLAYGROUND, **LINK, token="2", lang=lang)
    assert not at.exception, at.exception
    assert at.session_state["pg_tab"] == t("pg.tab.token", lang) in [tab.label for tab in at.tabs]
    assert strip(at, "pg_tv_strip").value == 2
    traces = chart_traces(at)
    token = expected(2)
    reads, read_by = t("tv.reads", lang), t("tv.read_by", lang)
    head = t("fig.head", lang)
    for h in range(3):
        row = traces[f"{head} {h + 1} · {reads}"]
        column = traces[f"{head} {h + 1} · {read_by}"]
        assert list(row["x"]) == [position_label(i, LABELS[i]) for i in range(3)], "keys up to the token"
        assert list(column["x"]) == [position_label(i, LABELS[i]) for i in range(2, 6)], "queries from the token on"
        np.testing.assert_array_equal(_values(row), token.rows[0, h, :3].numpy())
        np.testing.assert_array_equal(_values(column), token.columns[0, h, 2:].numpy())
    sentences = " ".join(md.value for md in at.markdown)
    assert t("tv.links_reads", lang) in sentences and t("tv.links_read_by", lang) in sentences
    assert query(at)["token"] == "2" and query(at)["view"] == "token"


def test_choosing_a_token_and_a_direction_writes_the_link():
    at = open_page(PLAYGROUND, **LINK)
    assert not at.exception, at.exception
    assert strip(at, "pg_tv_strip").value == 5, "the default is the last token"
    strip(at, "pg_tv_strip").set_value(1).run()
    assert not at.exception, at.exception
    assert query(at)["token"] == "1"
    traces = chart_traces(at)
    assert list(traces["head 1 · reads"]["x"]) == ["0 · the", "1 · cat"]
    at.button_group(key="pg_token_dir").set_value("read_by").run()
    assert query(at)["token_dir"] == "read_by"
    traces = chart_traces(at)
    assert "head 1 · is read by" in traces and "head 1 · reads" not in traces
    strip(at, "pg_tv_strip").set_value(None).run()  # a click on the chosen pill: the token stays
    assert query(at)["token"] == "1" and strip(at, "pg_tv_strip").value == 1


def test_a_token_the_text_does_not_have_falls_back_to_the_last_with_a_note():
    at = open_page(PLAYGROUND, **LINK, token="9")
    assert not at.exception, at.exception
    assert strip(at, "pg_tv_strip").value == 5
    notes = [w.value for w in at.warning]
    assert any("Token 9 is not in this text" in note for note in notes), notes
    assert query(at)["token"] == "-1"
    assert list(chart_traces(at)["head 1 · reads"]["x"])[-1] == "5 · mat"


def test_a_token_beyond_any_text_is_a_link_note():
    at = open_page(PLAYGROUND, **LINK, token="100000")
    assert not at.exception, at.exception
    assert any("token" in w.value for w in at.warning)
    assert strip(at, "pg_tv_strip").value == 5


# --- the explorer: every block ---

PROMPT = "ROMEO:\nBut soft"


def explorer_expected(heads: int, position: int):
    checkpoint = shipped_model(heads)
    traced = trace_model(checkpoint.model, checkpoint.vocabulary, PROMPT)
    return traced, token_attention([layer.weights for layer in traced.layers], position)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_explorer_view_shows_the_linked_token_in_every_block_and_head(lang):
    at = open_page(EXPLORER, model="h2", prompt=PROMPT, token="2", lang=lang, view="token")
    assert not at.exception, at.exception
    assert t("ex.tab.token", lang) in [tab.label for tab in at.tabs]
    assert strip(at, "ex_tv_strip").value == 2
    traced, token = explorer_expected(2, 2)
    traces = chart_traces(at)
    block, head, reads = t("ex.col.block", lang), t("fig.head", lang), t("tv.reads", lang)
    for b in range(len(traced.layers)):
        for h in range(2):
            row = traces[f"{block} {b + 1} · {head} {h + 1} · {reads}"]
            assert list(row["x"]) == [position_label(i, traced.labels[i]) for i in range(3)]
            np.testing.assert_array_equal(_values(row), token.rows[b, h, :3].numpy())
    sentences = " ".join(md.value for md in at.markdown)
    assert t("tv.links_reads", lang) in sentences
    assert query(at)["token"] == "2"


def test_choosing_a_token_in_the_explorer_writes_the_link_and_the_lines_view_follows():
    at = open_page(EXPLORER, model="h2", prompt=PROMPT, view="token")
    assert not at.exception, at.exception
    last = len(PROMPT) - 1
    assert strip(at, "ex_tv_strip").value == last, "every token for the lines: the last one here"
    strip(at, "ex_tv_strip").set_value(4).run()
    assert not at.exception, at.exception
    assert query(at)["token"] == "4"
    assert list(chart_traces(at)["block 1 · head 1 · reads"]["x"])[-1] == position_label(4, "O")
    at.button_group(key="ex_token_dir").set_value("read_by").run()
    assert query(at)["token_dir"] == "read_by" and "block 1 · head 1 · reads" not in chart_traces(at)
    open_tab(at, "lines", "ex_view")  # the lines view (its own tab) follows the token chosen on the strip
    assert query(at)["token"] == "4" and at.selectbox(key="ex_token").value == 4


def test_an_explorer_token_beyond_the_prompt_falls_back_with_a_note():
    at = open_page(EXPLORER, model="h2", prompt=PROMPT, token="99", view="token")
    assert not at.exception, at.exception
    assert any("token" in w.value for w in at.warning), [w.value for w in at.warning]
    assert strip(at, "ex_tv_strip").value == len(PROMPT) - 1


# --- a real model's layers ---

REAL_TEXT = "the cat sat on the mat"


def test_a_real_models_token_view_names_layers_and_links_every_layer(offered, tiny_models, monkeypatch):  # noqa: F811
    at = open_page(EXPLORER, model=offered["qwen2"], prompt=REAL_TEXT, token="3", block="2", view="token")
    assert not at.exception, at.exception
    expected = hf.trace(tiny_models["qwen2"], REAL_TEXT)
    token = token_attention(list(expected.weights), 3)
    traces = chart_traces(at)
    for layer in range(token.layers):
        for h in range(token.heads):
            row = traces[f"layer {layer + 1} · head {h + 1} · reads"]
            np.testing.assert_array_equal(_values(row), token.rows[layer, h, :4].numpy())
    sentences = " ".join(md.value for md in at.markdown)
    assert "layer " in sentences and " reads '" in sentences
    monkeypatch.setattr(ui.views.token_view, "MAX_PANELS", token.heads)  # too many panels: the chosen layer only
    at.run()
    names = set(chart_traces(at))
    assert "layer 2 · head 1 · reads" in names and "layer 1 · head 1 · reads" not in names
    assert any("Layer 2 of" in caption.value for caption in at.caption)


def test_the_playground_token_view_reads_a_real_models_layer(offered, tiny_models):  # noqa: F811
    at = open_page(PLAYGROUND, weights=offered["gpt2"], block="2", text=REAL_TEXT, view="token", token="1")
    assert not at.exception, at.exception
    expected = hf.trace(tiny_models["gpt2"], REAL_TEXT)
    columns = token_attention([expected.weights[1]], 1).columns
    traces = chart_traces(at)
    np.testing.assert_array_equal(_values(traces["head 2 · is read by"]), columns[0, 1, 1:].numpy())


def test_markup_in_the_tokens_reaches_the_strip_and_the_sentences_literally():
    text = " ".join(MARKDOWN_TRAPS)
    at = open_page(PLAYGROUND, text=text, tok="word", heads="2", view="token", token="20")
    assert not at.exception, at.exception
    sources = assert_no_raw_trap(at)
    labels = display_labels(tokenize(text, "word"))
    quoted = [match for source in sources for match in SENTENCE.finditer(source)]
    assert len(quoted) == 2 * LINKS, "the strongest links of both directions"
    for match in quoted:
        assert match.group(1) == literal(labels[int(match.group(2))])
    options = [option.content for option in strip(at, "pg_tv_strip").proto.options]
    assert options == [literal(position_label(i, label)) for i, label in enumerate(labels)]
