"""The explorer's generation with the cache (view=cache), opened by link for the shipped tiny
GPT and a tiny grouped-query Hugging Face model: the step in the link and the step widget
agree both ways; the bars are each step's query row as ``generate_cached`` computes it here;
the full matrix beside them is the causal attention of the same tokens (the tiny GPT's own
trace) whose outlined last row is the step's row; the cache's shape, bytes and vectors are
the chapter's arithmetic, written out here; both languages."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from gpt_core import hf
from gpt_core.kv_cache import generate_characters_cached
from gpt_core.sources import TinyGPT
from harness.charts import assert_displays, decode, part_of, traces_by_name
from string_table import t
from tests.apptest.conftest import open_page
from tests.apptest.test_long_text_explorer import wide  # noqa: F401 - the fixture of GPT-2 small's shape
from tests.apptest.test_real_models import offered  # noqa: F401 - the fixture of the real models offered
from ui.explorer.cache_view import MATRIX_CHART_KEY, ROW_CHART_KEY
from ui.shared.resources import shipped_model

PAGE = "pages/4_explorer.py"
PROMPT = "ROMEO:\nBut soft"  # every character is in the shipped models' vocabulary
HF_PROMPT = "the cat sat"
STEPS = 8  # the view's default: a short greedy generation


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


def chart(at, key: str) -> dict:
    for element in at.get("plotly_chart"):
        if element.proto.id.endswith(key):
            return json.loads(element.proto.spec)
    raise AssertionError(f"no chart {key}")


def link(at) -> dict[str, str]:
    return {key: (value[-1] if isinstance(value, list) else value) for key, value in at.query_params.items()}


def kib(count: int) -> str:
    """Bytes as the page writes them above 1 KiB (written here: one decimal of KiB)."""
    assert 1024 <= count < 1024 * 1024
    return f"{count / 1024:.1f} KiB"


def shown_rows(at, lang: str, layers: int, heads: int, unit: str) -> np.ndarray:
    traces = traces_by_name(chart(at, ROW_CHART_KEY))
    reads, head_word, unit_word = t("tv.reads", lang), t("fig.head", lang), t(f"ex.col.{unit}", lang)
    return np.array(
        [
            [decode(traces[f"{unit_word} {b + 1} · {head_word} {h + 1} · {reads}"]["y"]) for h in range(heads)]
            for b in range(layers)
        ]
    )


def matrix_traces(at, lang: str, heads: int) -> list[dict]:
    traces = traces_by_name(chart(at, MATRIX_CHART_KEY))
    name = t("stage.weights", lang)
    return [traces[f"{name} · {t('fig.head', lang)} {h + 1}"] for h in range(heads)]


def shown_matrices(at, lang: str, heads: int, tokens: int) -> np.ndarray:
    return np.array([decode(trace["z"]).reshape(tokens, tokens) for trace in matrix_traces(at, lang, heads)])


def assert_last_rows_show(at, lang: str, tokens: int, expected: np.ndarray) -> None:
    """Each head's matrix (``expected``: (heads, tokens)) shows the step's new row last."""
    for trace, row in zip(matrix_traces(at, lang, len(expected)), expected, strict=True):
        assert_displays(part_of(trace, decode(trace["z"]).reshape(tokens, tokens)[-1]), row)


def outlined_rows(at) -> set[tuple[float, float, float, float]]:
    shapes = chart(at, MATRIX_CHART_KEY)["layout"].get("shapes", [])
    return {(s["x0"], s["x1"], s["y0"], s["y1"]) for s in shapes if s.get("x0") == -0.5 and s["y1"] - s["y0"] == 1}


def markdown(at) -> list[str]:
    return [element.value for element in at.markdown]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tiny_gpts_cache_view_shows_its_steps_numbers(lang):
    checkpoint = shipped_model(4)
    config = checkpoint.model.config
    blocks, heads, d = config.blocks, config.heads, config.embedding_dim // config.heads
    generation = generate_characters_cached(checkpoint.model, checkpoint.vocabulary, PROMPT, STEPS)
    assert len(generation.steps) == STEPS, "the prompt and 8 characters fit the context"
    at = open_page(PAGE, view="cache", model="h4", prompt=PROMPT, cache_step="3", lang=lang)
    assert not at.exception, at.exception
    assert not at.error, [error.value for error in at.error]
    assert at.session_state["ex_tab"] == t("ex.tab.cache", lang)
    assert at.slider(key="ex_cache_step").value == 3 and link(at)["cache_step"] == "3"
    assert link(at)["cache_n"] == str(STEPS) and link(at)["temp"] == "0", "a short greedy generation"
    step = generation.steps[3]
    tokens = len(PROMPT) + 3
    assert step.length == tokens
    expected_rows = torch.stack([layer.weights for layer in step.layers]).numpy()
    np.testing.assert_allclose(shown_rows(at, lang, blocks, heads, "block"), expected_rows, atol=1e-6)
    matrices = shown_matrices(at, lang, heads, tokens)
    full = TinyGPT(checkpoint.model, checkpoint.vocabulary, "h4", PROMPT).trace(
        checkpoint.vocabulary.decode(generation.token_ids[:tokens])
    )
    # The same tokens' causal pass, its float rounding apart (1e-5), and the matrix is sent
    # at the precision it prints (figures/display_precision.py): within one last digit, 1e-4.
    np.testing.assert_allclose(matrices, full.weights[0][0].numpy(), atol=1e-4 + 1e-5)
    assert_last_rows_show(at, lang, tokens, step.layers[0].weights.numpy())  # the new row
    assert outlined_rows(at) == {(-0.5, tokens - 0.5, tokens - 1.5, tokens - 0.5)}
    per_token = 2 * blocks * heads * d * 4  # keys and values, every block and head, float32
    shape = t(
        "cache.shape",
        lang,
        kv_heads=heads,
        t=tokens,
        d=d,
        layers=blocks,
        units=t("cb.blocks", lang),
        bytes=kib(per_token * tokens),
        per_token=kib(per_token),
    )
    assert shape in markdown(at)
    cost = t("cache.cost", lang, new=2 * blocks * heads, positions=1, t=tokens, full=2 * blocks * heads * tokens)
    assert cost in markdown(at)
    grouped = t("cache.grouped", lang, heads="", kv_heads="", per_token="", ungrouped="")[:6]
    assert not any(grouped in line for line in markdown(at)), "one key/value head for every head: nothing grouped"


def test_stepping_writes_the_link_and_the_link_moves_the_step():
    checkpoint = shipped_model(4)
    blocks, heads = checkpoint.model.config.blocks, checkpoint.model.config.heads
    generation = generate_characters_cached(checkpoint.model, checkpoint.vocabulary, PROMPT, 4)
    at = open_page(PAGE, view="cache", model="h4", prompt=PROMPT, cache_n="4")
    assert not at.exception, at.exception
    assert at.slider(key="ex_cache_step").value == 0 and link(at)["cache_step"] == "0"
    zero = generation.steps[0]
    assert zero.new == len(PROMPT), "step 0 computes the prompt's keys and values at once"
    vectors = 2 * blocks * heads * len(PROMPT)  # a key and a value, every block and head, every position
    assert t("cache.cost", "en", new=vectors, positions=len(PROMPT), t=len(PROMPT), full=vectors) in markdown(at)
    for index in (1, 2, 3):
        at.slider(key="ex_cache_step").set_value(index).run()
        assert not at.exception, at.exception
        assert link(at)["cache_step"] == str(index)
        rows = shown_rows(at, "en", blocks, heads, "block")
        expected = torch.stack([layer.weights for layer in generation.steps[index].layers]).numpy()
        np.testing.assert_allclose(rows, expected, atol=1e-6)
    assert at.slider(key="ex_cache_step").max == 3, "four steps: 0 to 3"
    later = open_page(PAGE, view="cache", model="h4", prompt=PROMPT, cache_n="4", cache_step="9")
    assert not later.exception, later.exception
    assert later.slider(key="ex_cache_step").value == 3 and link(later)["cache_step"] == "3"
    notes = [warning.value for warning in later.warning]
    assert any(r"cache\_step = 9" in note and "0 … 3" in note for note in notes), notes  # past the generation


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_grouped_query_hugging_face_model_shows_its_own_cache(lang, offered, tiny_models):  # noqa: F811
    loaded = tiny_models["qwen2"]
    generation = hf.generate_cached(loaded, HF_PROMPT, STEPS, 0.0, 0, None, None)
    at = open_page(PAGE, view="cache", model=offered["qwen2"], prompt=HF_PROMPT, cache_step="2", lang=lang)
    assert not at.exception, at.exception
    assert not at.error, [error.value for error in at.error]
    step = generation.steps[2]
    first = step.layers[0]
    kv_heads, heads, d = first.keys.shape[0], first.weights.shape[0], first.keys.shape[2]
    layers = len(step.layers)
    assert (layers, heads, kv_heads) == (2, 4, 2), "the tiny Qwen2: two query heads to a key/value head"
    expected = torch.stack([layer.weights for layer in step.layers]).numpy()
    np.testing.assert_allclose(shown_rows(at, lang, layers, heads, "layer"), expected, atol=1e-6)
    assert_last_rows_show(at, lang, step.length, first.weights.numpy())
    per_token = 2 * layers * kv_heads * d * 4
    assert per_token < 1024, "the tiny model's token fits in bytes"
    grouped = t(
        "cache.grouped",
        lang,
        heads=heads,
        kv_heads=kv_heads,
        per_token=f"{per_token} B",
        ungrouped=f"{2 * layers * heads * d * 4} B",
    )
    assert grouped in markdown(at)
    new, full = 2 * layers * kv_heads, 2 * layers * kv_heads * step.length
    assert t("cache.cost", lang, new=new, positions=1, t=step.length, full=full) in markdown(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_prompt_as_long_as_the_context_leaves_room_for_every_step_and_says_so(lang):
    """The shipped model reads 32 characters and a cache cannot slide: with a 30-character
    prompt the 8 steps asked keep the prompt's last 32 - 8 + 1 = 25 characters (the last
    query at position 31), and the view says what it read; the link's step 7 is shown."""
    checkpoint = shipped_model(4)
    context = checkpoint.model.config.context_length
    prompt = (PROMPT * 3)[: context - 2]
    at = open_page(PAGE, view="cache", model="h4", prompt=prompt, cache_step="7", lang=lang)
    assert not at.exception, at.exception
    assert at.slider(key="ex_cache_step").value == 7 and at.slider(key="ex_cache_step").max == STEPS - 1
    assert link(at)["cache_step"] == "7"
    kept = context - STEPS + 1
    note = t("cache.cut", lang, kept=kept, shown=len(prompt), context=context, n=STEPS)
    assert note in [caption.value for caption in at.caption]
    generation = generate_characters_cached(checkpoint.model, checkpoint.vocabulary, prompt[-kept:], STEPS)
    last = generation.steps[7]
    assert last.length == context, "the last query is at the context's last position"
    expected = torch.stack([layer.weights for layer in last.layers]).numpy()
    np.testing.assert_allclose(shown_rows(at, lang, 2, 4, "block"), expected, atol=1e-6)


@pytest.fixture
def wide_offered(wide, monkeypatch):  # noqa: F811 - the fixture
    monkeypatch.setenv("ATTENTION_MODELS", str(wide[0]))
    return wide[1]


def test_a_long_prompt_in_a_model_of_many_heads_shows_a_window_of_one_layer(wide_offered):
    """GPT-2 small's 12 layers × 12 heads (harness/tiny_models' wide stand-in, 128 positions)
    on a prompt over 64 tokens: the bars of the chosen layer only, over the 48 keys around the
    new query; the matrix the last 48 queries and keys, its outlined last row the step's."""
    text = " ".join(["the cat sat on the mat"] * 8)
    generation = hf.generate_cached(wide_offered, text, STEPS, 0.0, 0, None, None)
    step = generation.steps[5]
    tokens = step.length
    assert 64 < len(generation.prompt_ids) and len(generation.steps) == STEPS, "long, and the steps fit"
    at = open_page(PAGE, view="cache", model="wide-gpt2", prompt=text, block="3", head="5", cache_step="5")
    assert not at.exception, at.exception
    captions = [caption.value for caption in at.caption]
    assert t("cache.one_layer", "en", unit="layer", layer=3) in captions
    assert t("tv.window", "en", first=tokens - 48, last=tokens - 1, T=tokens) in captions
    bars = traces_by_name(chart(at, ROW_CHART_KEY))
    assert "layer 1 · head 1 · reads" not in bars, "one layer drawn"
    for head in (0, 4, 11):
        shown = decode(bars[f"layer 3 · head {head + 1} · reads"]["y"])
        np.testing.assert_allclose(shown, step.layers[2].weights[head, tokens - 48 :].numpy(), atol=1e-6)
    matrices = traces_by_name(chart(at, MATRIX_CHART_KEY))
    head5 = matrices["softmax weights · head 5"]
    assert [int(label.split(" · ")[0]) for label in head5["y"]] == list(range(tokens - 48, tokens))
    z = decode(head5["z"]).reshape(48, 48)
    assert_displays(part_of(head5, z[-1]), step.layers[2].weights[4, tokens - 48 :].numpy())
    assert outlined_rows(at) == {(-0.5, 47.5, 46.5, 47.5)}
