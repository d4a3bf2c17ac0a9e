"""What the playground hands out: the downloads (their contents, as a click would fetch them),
the link in the share tab, the per-head table, the notes beside the numbers, and a trained
model's facts and link."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from gpt_core import PlaygroundConfig, head_statistics, trace_attention
from gpt_core.explore import trace_model
from string_table import t
from tests.apptest.conftest import open_page, open_tab
from ui.shared.resources import shipped_model

PAGE = "pages/1_playground.py"
BOOK = "动手学大模型"


def charts_z(at) -> list:
    """Every heatmap's numbers on the page, in order."""
    return [
        trace.get("z")
        for chart in at.get("plotly_chart")
        for trace in json.loads(chart.proto.spec)["data"]
        if trace.get("type") == "heatmap"
    ]


def query(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def test_the_csv_download_is_the_chosen_stage_of_the_chosen_head(downloads):
    at = open_tab(open_page(PAGE, heads="3", seed="5"), "share")
    at.selectbox(key="pg_csv_stage").set_value("masked_scores").run()
    at.selectbox(key="pg_csv_head").set_value(3).run()
    assert not at.exception, at.exception
    rows = list(csv.reader(io.StringIO(downloads("masked_scores_head3.csv").decode())))
    shown = np.array([[float(cell) for cell in row[1:]] for row in rows[1:]], dtype=np.float32)
    expected = trace_attention(BOOK, PlaygroundConfig(heads=3, seed=5)).trace.masked_scores[0, 2].numpy()
    np.testing.assert_array_equal(shown, expected)


def test_a_csv_head_beyond_fewer_heads_goes_back_to_head_one(downloads):
    at = open_tab(open_page(PAGE), "share")
    at.selectbox(key="pg_csv_head").set_value(4).run()
    downloads.names.clear()
    at.number_input(key="pg_heads").set_value(2).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="pg_csv_head").value == 1 and at.selectbox(key="pg_csv_head").options == [
        "head 1",
        "head 2",
    ]
    assert f"{at.selectbox(key='pg_csv_stage').value}_head1.csv" in downloads.names


@pytest.mark.parametrize(("key", "stale"), [("pg_csv_stage", "softmax 权重"), ("pg_csv_head", "头 2")])
def test_a_csv_choice_holding_a_stale_label_carries_on(key, stale):
    """Streamlit sends a select box's choice as its label: after the language changed, an
    old label can come back as a plain string."""
    at = open_page(PAGE)
    at.switch_page("pages/2_lesson.py").run()
    at.session_state[key] = stale  # kept while another page is shown, as a stale label would be
    at.switch_page(PAGE).run()
    open_tab(at, "share")
    assert at.selectbox(key="pg_csv_stage").value == "scores" and at.selectbox(key="pg_csv_head").value == 1


def test_the_npz_download_holds_a_trained_models_stream_and_its_config(downloads):
    open_tab(open_page(PAGE, weights="h2", text="ROMEO: what", block="2"), "share")
    archive = np.load(io.BytesIO(downloads("attention_trace.npz")))
    checkpoint = shipped_model(2)
    expected = trace_model(checkpoint.model, checkpoint.vocabulary, "ROMEO: what").layers[1]
    np.testing.assert_array_equal(archive["weights"], expected.weights.numpy())
    config = json.loads(str(archive["config_json"]))
    model = checkpoint.model.config
    attention = checkpoint.model.blocks[1].attention
    assert (config["heads"], config["head_dim"]) == (model.heads, model.embedding_dim // model.heads)
    assert config["qkv_bias"] == (attention.query_layer.bias is not None)


def test_the_share_link_is_the_pages_own_url_language_included():
    at = open_tab(open_page(PAGE, lang="zh", heads="2"), "share")
    link = next(code.value for code in at.get("code") if "?" in code.value and "heads=" in code.value)
    linked = {key: values[-1] for key, values in parse_qs(urlsplit(link).query).items()}
    assert linked == query(at) and linked["lang"] == "zh"


def test_the_per_head_table_holds_gpt_cores_statistics():
    at = open_tab(open_page(PAGE, seed="3"), "stats")
    table = at.dataframe[0].value
    weights = trace_attention(BOOK, PlaygroundConfig(seed=3)).trace.weights[0]
    for name, values in head_statistics(weights).items():
        np.testing.assert_allclose(table[t(f"pg.stat.{name}")].to_numpy(dtype=float), values.numpy(), atol=1e-6)


def test_the_dropout_note_gives_the_factor_the_kept_weights_are_multiplied_by():
    at = open_page(PAGE, dropout="0.25", mode="train")
    assert any("1/(1−p) = 1.333" in caption.value for caption in at.caption), "1 / (1 - 0.25)"


def test_a_trained_models_facts_are_the_models():
    at = open_page(PAGE, weights="h4", text="ROMEO:")
    model, vocabulary = shipped_model(4).model, shipped_model(4).vocabulary
    config = model.config
    facts = t(
        "pg.trained_facts",
        h=config.heads,
        d=config.embedding_dim // config.heads,
        C=config.embedding_dim,
        context=config.context_length,
        chars=len(vocabulary.chars),
    )
    assert facts in [m.value for m in at.markdown]


def test_a_trained_models_link_keeps_the_students_text_and_reproduces_the_view():
    """The link holds what the student typed, not what the model could read of it: opening
    it shows the same numbers and the same notes (characters left out, text cut)."""
    text = "你好 ROMEO: " + "what light through yonder window breaks" * 2 + " and more"
    at = open_page(PAGE, weights="h2", text=text)
    assert query(at)["text"] == text
    again = open_page(PAGE, **query(at))
    assert [w.value for w in again.warning] == [w.value for w in at.warning]
    assert charts_z(again) == charts_z(at)


def test_choosing_a_model_keeps_the_text_the_cell_and_says_what_the_page_shows():
    """Issue: a word-token sentence, then a trained model: the text stays the student's, the
    chosen cell stays where it still exists, and the link no longer claims tok=word."""
    sentence = "the cat sat on the mat because it was tired"
    at = open_page(PAGE, text=sentence, tok="word", row="3", col="1")
    at.selectbox(key="pg_weights").set_value("h4").run()
    assert not at.exception
    linked = query(at)
    assert at.text_area(key="pg_text").value == sentence and linked["text"] == sentence
    assert (linked["row"], linked["col"]) == ("3", "1")
    assert "tok" not in linked and "heads" not in linked and "seed" not in linked  # the model decides those
    at.selectbox(key="pg_weights").set_value("random").run()  # back to random weights: the words again
    assert query(at)["tok"] == "word" and query(at)["text"] == sentence
    assert (query(at)["row"], query(at)["col"]) == ("3", "1")


@pytest.mark.parametrize("page", ["app.py", PAGE, "pages/2_lesson.py", "pages/3_train.py", "pages/4_explorer.py"])
def test_the_shells_own_link_settings_are_no_news_to_any_page(page):
    at = open_page(page, lang="zh", present="1")
    assert not at.exception, at.exception
    notes = [element.value for kind in ("warning", "info") for element in at.get(kind)]
    assert not [note for note in notes if "present" in note or "lang" in note], notes


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_text_too_long_for_a_link_is_left_out_of_it_and_the_page_says_so(lang):
    """A single word of 5,000 characters is kept whole by the word tokenizer: past what a
    link carries (4,000), so the link leaves the text out rather than make one a proxy
    refuses, and the page says why; a short text goes back into the link."""
    from links.rules import LINK_TEXT_CHARS

    word = "a" * (LINK_TEXT_CHARS + 1_000)
    at = open_page(PAGE, text=f"{word} b", tok="word", lang=lang)
    assert not at.exception, at.exception
    assert "text" not in query(at), "the link leaves the text out"
    note = t("note.too_long_for_link", lang, name="text", chars=f"{len(word) + 2:,}", limit=f"{LINK_TEXT_CHARS:,}")
    assert note in [info.value for info in at.info]
    open_tab(at, "share")
    assert any(word in code.value for code in at.code), "the Python download carries the whole text"
    at.text_area[0].set_value("动手 学").run()
    assert query(at)["text"] == "动手 学"
    assert not [info for info in at.info if info.value == note]


def test_a_download_made_on_its_click_reruns_nothing():
    """Streamlit makes such a file beside the click's rerun, and a rerun that ends first drops
    the file's maker: the browser then got no file at all (a third of clicks on a busy
    machine). Every button whose file is made on the click reruns nothing."""
    at = open_tab(open_page(PAGE, heads="3", seed="5"), "share")
    buttons = {b.proto.id.rsplit("-", 1)[-1]: b.proto for b in at.get("download_button")}
    made_on_click = [key for key, proto in buttons.items() if proto.HasField("deferred_file_id")]
    assert sorted(made_on_click) == ["pg_download_csv", "pg_download_npz", "pg_download_page"]
    assert [key for key in made_on_click if not buttons[key].ignore_rerun] == []
