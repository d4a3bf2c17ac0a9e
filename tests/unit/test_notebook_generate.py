"""``seeing_attention.generate`` in a notebook: its steps are gpt_core's cached generation (the
tiny GPT's rows the last rows of its full trace), greedy by default and reproducible by seed,
a model that cannot generate refused in words, and its page one offline file whose script
data holds every step's weights, the cache's shape and bytes, and the new row outlined."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest
import torch

import seeing_attention as sa
from gpt_core import InputError
from gpt_core.data import CharVocabulary
from gpt_core.model import GPT, GPTConfig
from gpt_core.sources import HubModel, TinyGPT
from seeing_attention.generation import MOST_PAIRS
from string_table import error_text

CHARS = tuple(sorted(set("the cat sat on a mat")))
PROMPT = "the cat"
TOLERANCE = 1e-5
DATA = re.compile(r'<script type="application/json" id="sa-data">(.*?)</script>', re.S)


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


def _tiny(heads: int = 2, blocks: int = 2, context: int = 16, seed: int = 0) -> TinyGPT:
    config = GPTConfig(
        vocab_size=len(CHARS), context_length=context, embedding_dim=16, heads=heads, blocks=blocks, dropout=0.0
    )
    return TinyGPT(GPT(config, seed=seed), CharVocabulary(CHARS), "tiny", PROMPT)


def _close(mine: torch.Tensor, theirs: torch.Tensor) -> None:
    torch.testing.assert_close(mine, theirs, rtol=0, atol=TOLERANCE)


def _data(page: str) -> dict:
    """The page script's data, as its script parses it."""
    found = DATA.findall(page)
    assert len(found) == 1
    return json.loads(found[0])


def _same_numbers(generation: sa.Generation, expected) -> None:
    assert generation.token_ids == expected.token_ids
    assert len(generation.steps) == len(expected.steps)
    for mine, theirs in zip(generation.steps, expected.steps, strict=True):
        assert (mine.token_id, mine.position, mine.length) == (theirs.token_id, theirs.position, theirs.length)
        for a, b in zip(mine.layers, theirs.layers, strict=True):
            for name in ("keys", "values", "weights", "query"):
                _close(getattr(a, name), getattr(b, name))


def test_the_tiny_gpts_steps_are_its_cached_generation_and_its_full_traces_last_rows():
    source = _tiny(heads=4)
    generation = sa.generate(model=source, text=PROMPT, n=5)
    _same_numbers(generation, source.generate_cached(PROMPT, 5))
    ids = source.vocabulary.encode(PROMPT)
    for k, step in enumerate(generation.steps):
        full = source.trace(source.vocabulary.decode(ids + [s.token_id for s in generation.steps[:k]]))
        for block, layer in enumerate(step.layers):
            assert layer.keys.shape == (4, len(ids) + k, 4) and layer.weights.shape == (4, len(ids) + k)
            _close(layer.weights, full.weights[block][0, :, -1, :])
    chosen = source.vocabulary.decode([step.token_id for step in generation.steps])
    assert generation.text == PROMPT + chosen
    assert "5 steps" in repr(generation) and "tiny" in repr(generation)


def test_a_real_model_by_its_loaded_form_and_by_its_folder(tiny_models, tiny_model_folders):
    """A model gpt_core.hf loaded, and a folder (grouped-query Qwen2: h_kv = 2 of h = 4)."""
    loaded = tiny_models["gpt2"]
    expected = HubModel(loaded, "gpt2", "the cat").generate_cached("the cat", 3)
    _same_numbers(sa.generate(model=loaded, text="the cat", n=3), expected)
    folder = str(tiny_model_folders["qwen2"])
    generation = sa.generate(model=folder, text="the cat", n=3)
    _same_numbers(generation, HubModel(tiny_models["qwen2"], folder, "the cat").generate_cached("the cat", 3))
    assert generation.steps[0].layers[0].keys.shape[0] == 2 and generation.steps[0].layers[0].weights.shape[0] == 4


def test_greedy_by_default_and_a_seed_draws_the_same_tokens_again():
    source = _tiny()
    greedy = sa.generate(model=source, text=PROMPT, n=6)
    assert greedy.token_ids == source.generate_cached(PROMPT, 6, temperature=0.0).token_ids
    drawn = sa.generate(model=source, text=PROMPT, n=6, temperature=2.0, seed=3)
    assert drawn.token_ids == sa.generate(model=source, text=PROMPT, n=6, temperature=2.0, seed=3).token_ids
    assert drawn.token_ids == source.generate_cached(PROMPT, 6, temperature=2.0, seed=3).token_ids
    others = {tuple(sa.generate(model=source, text=PROMPT, n=6, temperature=2.0, seed=s).token_ids) for s in range(4)}
    assert len(others) > 1, "at temperature 2 the seed chooses the tokens"


@pytest.mark.parametrize("model", [None, torch.nn.Linear(4, 4)], ids=["random weights", "a module"])
def test_a_model_that_cannot_generate_is_refused_in_words(model):
    with pytest.raises(InputError) as refused:
        sa.generate(model=model, text=PROMPT, n=3)
    assert refused.value.code == "no_generation"
    assert "key/value cache" in str(refused.value) and "键值缓存" in error_text(refused.value, "zh")


def test_n_out_of_range_is_refused_in_words():
    for n in (0, 10_000, 2.5):
        with pytest.raises(InputError) as refused:
            sa.generate(model=_tiny(), text=PROMPT, n=n)
        assert refused.value.code == "out_of_range"


def test_the_page_is_one_offline_file_with_every_steps_numbers(tmp_path):
    from plotly.offline import get_plotlyjs

    source = _tiny(heads=2, blocks=2)
    generation = sa.generate(model=source, text=PROMPT, n=4)
    page = generation.save_html(tmp_path / "generation.html").read_text(encoding="utf-8")
    assert page.count(get_plotlyjs()) == 1 and page.count("<script") == 3, "Plotly once, the data, the script"
    own = page.replace(get_plotlyjs(), "")
    assert not re.search(r"https?:", own) and "<link" not in own and "<img" not in own
    data = _data(page)
    assert len(data["steps"]) == 4 and len(data["layers"]) == 2 and data["words"]["bound"] == ""
    d, P = 16 // 2, len(PROMPT)
    for k, (shown, step) in enumerate(zip(data["steps"], generation.steps, strict=True)):
        t = P + k
        assert shown["position"] == t - 1
        for layer, entry in enumerate(shown["layers"]):
            weights = np.frombuffer(base64.b64decode(entry["weights"]), dtype="<f4")
            assert entry["shape"] == [2, t]
            np.testing.assert_array_equal(weights.reshape(2, t), step.layers[layer].weights.numpy())
            assert entry["cacheShape"] == [2, t, d]
            assert entry["cacheBytes"] == 2 * 2 * 2 * d * 4 * t, "2 × layers × h_kv × d × 4 bytes, t tokens"
            outlines = [s for s in entry["matrix"]["layout"]["shapes"] if s["x0"] == -0.5 and s["x1"] == t - 0.5]
            assert [(s["y0"], s["y1"]) for s in outlines] == [(t - 1.5, t - 0.5)] * 2, "the new row, each head"


def test_user_text_stays_text_and_the_page_speaks_its_language():
    from plotly.offline import get_plotlyjs

    source = _tiny()
    evil = "</script><b>the cat"
    page = sa.generate(model=source, text=evil, n=2, lang="zh").html
    assert page.count("</script>") == 3 and "<b>" not in page.replace(get_plotlyjs(), "")
    words = _data(page)["words"]
    assert words["next"] == "下一步 ▶" and "缓存" in words["cache"]


def test_a_long_generation_embeds_a_bounded_part_and_says_so():
    source = _tiny(blocks=6, context=64)
    generation = sa.generate(model=source, text=PROMPT, n=30)
    data = _data(generation.html)
    assert len(generation.steps) == 30 and len(generation.steps[0].layers) == 6
    assert len(data["steps"]) * len(data["layers"]) <= MOST_PAIRS
    assert len(data["steps"]) == 30 and len(data["layers"]) == MOST_PAIRS // 30, "every step, the first layers"
    assert "1–30 of 30" in data["words"]["bound"] and "1–1 of 6" in data["words"]["bound"]


def test_a_model_and_tokenizer_loaded_with_transformers(tiny_models, tiny_model_folders):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = tiny_model_folders["gpt2"]
    mine = (AutoModelForCausalLM.from_pretrained(folder), AutoTokenizer.from_pretrained(folder))
    generation = sa.generate(model=mine, text="the cat", n=3)
    _same_numbers(generation, HubModel(tiny_models["gpt2"], "gpt2", "the cat").generate_cached("the cat", 3))


def test_in_a_notebook_the_page_is_in_a_frame_of_its_own():
    from plotly.offline import get_plotlyjs

    generation = sa.generate(model=_tiny(), text=PROMPT, n=2)
    framed = generation._repr_html_()
    frame = re.search(r'<iframe srcdoc="([^"]*)"', framed)
    assert frame is not None and framed.count("<iframe") == 1
    assert get_plotlyjs() not in frame.group(1), "the notebook's copy of Plotly, not one per frame"
    assert "sa-data" in frame.group(1) and "&lt;script" in frame.group(1)


def test_the_pages_figures_are_valid_plotly_with_the_rows_and_the_new_row_outlined():
    import plotly.graph_objects as go

    from figures.cache_page import matrix_figure, rows_figure
    from string_table.figure_words import figure_words

    rng = np.random.default_rng(0)
    matrix = np.tril(rng.random((3, 4, 4), dtype=np.float32))
    matrix /= matrix.sum(axis=-1, keepdims=True)
    labels = ["<b>", "a", "b", "c"]
    rows = rows_figure(matrix[:, -1], labels, figure_words("en"), "rows")
    full = matrix_figure(matrix, labels, 3, figure_words("zh"), "matrix")
    for figure in (rows, full):
        go.Figure(figure.to_dict())  # raises ValueError on any invalid property
    trace = rows.data[0]
    np.testing.assert_array_equal(np.asarray(trace.z), matrix[:, -1])
    assert list(trace.y) == ["head 1", "head 2", "head 3"] and trace.x[0] == "0 · &lt;b&gt;"
    outlines = {(s.xref, s.x0, s.x1, s.y0, s.y1) for s in full.layout.shapes if s.x1 - s.x0 > 1}
    assert outlines == {(xref, -0.5, 3.5, 2.5, 3.5) for xref in ("x", "x2", "x3")}, "row 3, every key, each head"
