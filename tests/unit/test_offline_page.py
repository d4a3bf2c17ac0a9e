"""The page that works offline from one file (seeing_attention, figures.page): its numbers,
read back from the file here without the code that wrote them, are gpt_core's and obey the
laws of attention; it asks nothing of the network; user text stays text; the command writes
it and explains bad input."""

from __future__ import annotations

import base64
import html
import json
import math
import re
import urllib.parse

import numpy as np
import pytest
import torch

import seeing_attention as sa
from figures.page import PageLayer, page_data
from gpt_core import PlaygroundConfig, trace_attention
from gpt_core.registry import RandomProvider, Registry
from links.playground import parse_query
from seeing_attention.cli import main
from seeing_attention.engine import app_link, model_app_link, page_bytes

SETTINGS = Registry([RandomProvider()]).settings  # what the app's registry says of random weights

DATA = re.compile(r'<script type="application/json" id="sa-data">(.*?)</script>', re.S)
BOOK = "动手学大模型"
SIZE_LIMIT_BYTES = 5_000_000


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


def read_page(text: str) -> dict:
    """The page's data, decoded as its script decodes it: JSON, then float32 little-endian."""
    (payload,) = DATA.findall(text)
    data = json.loads(payload)
    T = len(data["tokens"])
    for layer in data["layers"]:
        layer["arrays"] = {
            name: np.frombuffer(base64.b64decode(b64), dtype="<f4").reshape(layer["heads"], T, T)
            for name, b64 in layer["stages"].items()
        }
    return data


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"text": "the cat sat on the mat", "tokenizer": "word", "heads": 8, "head_dim": 4, "seed": 7, "lang": "zh"},
        {
            "text": "abcdefgh",
            "heads": 2,
            "head_dim": 16,
            "scale": False,
            "qkv_bias": True,
            "positional": False,
            "input_dim": 5,
        },
    ],
    ids=["book", "words-8-heads-zh", "unscaled-bias"],
)
def test_the_pages_numbers_are_gpt_cores_and_obey_attention(settings, tmp_path):
    settings = dict(settings)
    text = settings.pop("text", BOOK)
    lang = settings.pop("lang", "en")
    path = tmp_path / "page.html"
    sa.export(path, text, lang=lang, **settings)
    data = read_page(path.read_text(encoding="utf-8"))
    (layer,) = data["layers"]
    arrays = layer["arrays"]

    expected = trace_attention(text, PlaygroundConfig(**settings)).trace
    T = expected.weights.shape[-1]
    assert data["stages"] == ["scores", "scaled_scores", "masked_scores", "weights"]
    for stage in data["stages"]:
        np.testing.assert_allclose(arrays[stage], getattr(expected, stage)[0].numpy(), rtol=0, atol=1e-6)

    d = settings.get("head_dim", 8)
    divisor = math.sqrt(d) if settings.get("scale", True) else 1.0
    np.testing.assert_allclose(arrays["scaled_scores"], arrays["scores"] / divisor, rtol=1e-6, atol=1e-6)
    above = np.triu(np.ones((T, T), dtype=bool), k=1)
    assert np.all(np.isneginf(arrays["masked_scores"][:, above]))
    np.testing.assert_array_equal(arrays["masked_scores"][:, ~above], arrays["scaled_scores"][:, ~above])
    by_hand = np.exp(arrays["masked_scores"] - arrays["masked_scores"].max(axis=-1, keepdims=True))
    by_hand /= by_hand.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(arrays["weights"], by_hand, rtol=0, atol=1e-6)
    np.testing.assert_allclose(arrays["weights"].sum(axis=-1), 1.0, atol=1e-6)
    assert np.all(arrays["weights"][:, above] == 0.0), "masked cells are exactly 0"
    assert data["tokens"] == (text.split() if settings.get("tokenizer") == "word" else list(text))


def test_the_weights_equal_torchs_own_attention():
    """torch's scaled_dot_product_attention, given the page's queries and keys, gives the
    page's context; its weights are the page's (checked through the context)."""
    view = sa.show(BOOK, heads=4, head_dim=8, seed=3)
    trace = view.result.trace
    q, k, v = trace.queries_heads, trace.keys_heads, trace.values_heads
    context = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    weights = torch.from_numpy(read_page(view.html)["layers"][0]["arrays"]["weights"].copy())
    torch.testing.assert_close(weights.unsqueeze(0) @ v, context, rtol=0, atol=1e-6)


def test_the_books_example_fits_in_five_megabytes_and_loads_nothing():
    page = sa.show(BOOK).html
    assert len(page.encode("utf-8")) < SIZE_LIMIT_BYTES
    assert page.count("<script") == 3, "Plotly once, the data, the page's script"
    from plotly.offline import get_plotlyjs

    assert page.count(get_plotlyjs()) == 1, "Plotly's JavaScript inlined once"
    # Plotly's own code names URLs it never loads here (a map's attribution); the browser test
    # proves the page loads nothing. The page's own parts name none.
    own = page.replace(get_plotlyjs(), "")
    assert "<link" not in own and "<img" not in own and "<iframe" not in own
    assert not re.search(r"https?:", own.replace("http://localhost:8501/playground?", ""))


def test_user_text_stays_text():
    evil = '</script><script>alert(1)</script><b onmouseover="x">&amp; \u2028'
    view = sa.show(evil + " 🙂\u200b", tokenizer="char", heads=2, head_dim=2, lang="en")
    page = view.html
    assert page.count("</script>") == 3, "no script closed early"
    assert "<b onmouseover" not in page
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert html.unescape(title) == "Multi-head causal attention: " + evil[:40] + "…", "cut at 40 characters"
    assert "<" not in title
    data = read_page(page)
    assert "".join(data["tokens"]) == evil + " 🙂\u200b", "every character, the invisible one too"


def test_the_page_opens_on_the_chosen_cell_and_says_how_it_was_made():
    view = sa.show("abcd", heads=2, head_dim=4, seed=5, head=1, row=3, col=1, lang="zh", stage="masked_scores")
    data = read_page(view.html)
    assert (data["head"], data["row"], data["col"], data["stage"]) == (1, 3, 1, "masked_scores")
    made = dict(data["made"])
    assert (
        "seeing-attention export --text abcd --heads 2 --head-dim 4 --seed 5 --tok char --lang zh"
        in made["重新生成本页的命令"]
    )
    link = made["在应用中打开同一视图"]
    assert link.startswith("http://localhost:8501/playground?")
    values, notes = _read_by_the_playground(link)
    assert notes == [] and values["lang"] == "zh"
    assert (values["text"], values["heads"], values["head_dim"], values["seed"]) == ("abcd", 2, 4, 5)
    assert (values["head"], values["row"], values["col"], values["stage"]) == (2, 3, 1, "masked_scores"), "head 1-based"
    assert data["words"]["softmax_key"] == "键"


def _read_by_the_playground(link: str) -> tuple[dict, list]:
    """A link as the playground reads it (its own parse_query), and its language."""
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query, keep_blank_values=True))
    values, notes = parse_query(query, SETTINGS)
    return {**values, "lang": query.get("lang")}, notes


def test_the_app_link_gives_the_playground_every_setting_that_is_not_a_default():
    config = PlaygroundConfig(
        heads=3,
        head_dim=5,
        input_dim=12,
        seed=9,
        tokenizer="word",
        positional=False,
        dropout=0.25,
        training=True,
        qkv_bias=True,
        scale=False,
    )
    values, notes = _read_by_the_playground(app_link("to be or not", config, "en", "https://class.example/app/"))
    assert notes == []
    assert values == {
        **values,
        "text": "to be or not",
        "tok": "word",
        "heads": 3,
        "head_dim": 5,
        "input_dim": 12,
        "seed": 9,
        "pos": False,
        "dropout": 0.25,
        "mode": "train",
        "bias": True,
        "scale": False,
        "weights": "random",
        "lang": "en",
    }
    link = app_link("动手学 <b>&", PlaygroundConfig(), "zh", "https://class.example/app/")
    assert link.startswith("https://class.example/app/playground?")
    values, notes = _read_by_the_playground(link)
    assert notes == [] and values["text"] == "动手学 <b>&" and values["mode"] == "eval" and values["input_dim"] == 0


def test_a_real_models_app_link_names_the_model_and_its_layer_one_based():
    values, notes = _read_by_the_playground(model_app_link("hello", "Qwen/Qwen2.5-0.5B", 0, "zh"))
    assert notes == [] and (values["weights"], values["block"], values["text"], values["lang"]) == (
        "Qwen/Qwen2.5-0.5B",
        1,
        "hello",
        "zh",
    )


def test_page_data_refuses_what_the_page_cannot_draw():
    square = np.zeros((2, 3, 3), dtype=np.float32)
    kwargs = {
        "title": "t",
        "tokens": ["a", "b", "c"],
        "stage_titles": {"weights": "w"},
        "words": {},
        "shape_trace": "",
        "made": [],
    }
    with pytest.raises(ValueError, match="shape"):
        page_data(layers=[PageLayer("x", {"weights": np.zeros((2, 3, 4))})], **kwargs)
    with pytest.raises(ValueError, match="cell"):
        page_data(layers=[PageLayer("x", {"weights": square})], row=3, col=0, **kwargs)
    with pytest.raises(ValueError, match="head"):
        page_data(layers=[PageLayer("x", {"weights": square})], head=2, **kwargs)
    with pytest.raises(ValueError, match="at least one layer"):
        page_data(layers=[], **kwargs)


def test_the_command_writes_the_page_and_explains_bad_input(tmp_path, capsys):
    out = tmp_path / "attention.html"
    assert main(["export", "--text", "hello", "--heads", "2", "--head-dim", "4", "--lang", "zh", "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    data = read_page(out.read_text(encoding="utf-8"))
    assert data["layers"][0]["heads"] == 2 and data["tokens"] == list("hello")
    assert main(["export", "--text", "   ", "-o", str(tmp_path / "empty.html")]) == 2
    assert "no text" in capsys.readouterr().err.lower()
    assert not (tmp_path / "empty.html").exists()
    with pytest.raises(SystemExit):
        main(["export", "--heads", "99"])
    assert "between 1 and 16" in capsys.readouterr().err
    assert main(["--help"]) == 0
    said = capsys.readouterr().out
    assert "seeing-attention export" in said and "seeing-attention [app]" in said


def test_the_notebook_view_is_the_page_in_a_frame_of_its_own(monkeypatch):
    """The first view of a notebook holds Plotly's script, once, beside its frame; every
    frame's page is the file's page with the notebook's copy of the script in its place."""
    from seeing_attention import notebook
    from seeing_attention.limits import plotly_js

    monkeypatch.setattr(notebook, "_holder", {})  # a fresh kernel
    view = sa.show("ab", heads=1, head_dim=2)
    first, second = view._repr_html_(), view._repr_html_()
    holder = f'<script type="text/plain" id="seeing-attention-plotly">{plotly_js()}</script>'
    assert first.startswith(holder + '<iframe srcdoc="') and second.startswith('<iframe srcdoc="')
    for frame in (first, second):
        page = html.unescape(frame.split('<iframe srcdoc="', 1)[1].split('" style=', 1)[0])
        assert plotly_js() not in page and page.count("<script") == view.html.count("<script")
        assert page.replace(notebook.LOADER, f'<script type="text/javascript">{plotly_js()}</script>') == view.html
    assert view.numbers["weights"].shape == (1, 2, 2)
    figure = view.figures("weights")
    assert len(figure.data) >= 1


@pytest.mark.parametrize("family", ["gpt2", "qwen2", "llama-sp"])
def test_a_real_models_page_holds_gpt_cores_numbers_for_every_layer_chosen(family, tiny_model_folders, tiny_models):
    """Tiny random models of three families (a byte-level and a SentencePiece tokenizer,
    grouped-query heads in qwen2), every layer: the page's numbers are gpt_core.hf's trace."""
    from gpt_core import hf

    text = "the cat sat on the mat, café 猫"
    view = sa.show(text, model=str(tiny_model_folders[family]), layer="all", lang="zh")
    data = read_page(view.html)
    expected = hf.trace(tiny_models[family], text)
    assert len(data["layers"]) == len(expected.layers) == tiny_models[family].description.layers
    assert data["tokens"] == expected.labels
    T = len(expected.labels)
    above = np.triu(np.ones((T, T), dtype=bool), k=1)
    for index, layer in enumerate(data["layers"]):
        assert layer["name"] == f"第 {index + 1} 层", "numbered from 1, as in the app"
        assert layer["heads"] == tiny_models[family].description.heads
        for stage, array in layer["arrays"].items():
            np.testing.assert_allclose(array, getattr(expected.layers[index], stage)[0].numpy(), rtol=0, atol=1e-6)
        np.testing.assert_allclose(layer["arrays"]["weights"].sum(axis=-1), 1.0, atol=1e-5)
        assert np.all(layer["arrays"]["weights"][:, above] == 0.0)
    made = dict(data["made"])
    assert "--model" in made["重新生成本页的命令"] and "--layer 0,1" in made["重新生成本页的命令"]
    assert "weights=tiny-" in made["在应用中打开同一视图"] and "block=1" in made["在应用中打开同一视图"]
    assert repr(view).startswith("<seeing_attention.View: 4 heads × ")


def test_the_command_exports_a_models_layers_and_refuses_one_it_lacks(tiny_model_folders, tmp_path, capsys):
    folder = str(tiny_model_folders["gpt2"])
    out = tmp_path / "model.html"
    assert main(["export", "--model", folder, "--layer", "1", "--text", "hello there", "-o", str(out)]) == 0
    data = read_page(out.read_text(encoding="utf-8"))
    assert [layer["name"] for layer in data["layers"]] == ["Layer 2"], "--layer is 0-based, its name 1-based"
    with pytest.raises(SystemExit) as exited:
        main(["export", "--model", folder, "--layer", "7", "-o", str(tmp_path / "no.html")])
    assert exited.value.code == 2 and "layer 7 is not one of 0..1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["export", "--model", folder, "--layer", "two", "-o", str(tmp_path / "no.html")])
    assert "is not a layer number" in capsys.readouterr().err
    assert main(["export", "--model", str(tmp_path / "no-such-model"), "-o", str(tmp_path / "no.html")]) == 2
    assert "no-such-model" in capsys.readouterr().err
    assert not (tmp_path / "no.html").exists()


def test_a_model_and_tokenizer_loaded_with_transformers_give_the_same_page(tiny_model_folders, tiny_models):
    """Loaded by the learner with transformers' own calls (eager attention, as they come), then
    shown: the numbers are those of gpt_core.hf's load of the same folder."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = tiny_model_folders["qwen2"]
    model = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager")
    tokenizer = AutoTokenizer.from_pretrained(folder)
    view = sa.show("the cat sat on the mat", model=(model, tokenizer), layer=1)
    from gpt_core import hf

    expected = hf.trace(tiny_models["qwen2"], "the cat sat on the mat").layers[1]
    data = read_page(view.html)
    for stage, array in data["layers"][0]["arrays"].items():
        np.testing.assert_allclose(array, getattr(expected, stage)[0].numpy(), rtol=0, atol=1e-6)
    with torch.no_grad():  # the learner's model still gives its own logits, now through the traced attention
        ids = tokenizer("the cat", return_tensors="pt")["input_ids"]
        eager = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager")(ids).logits
        torch.testing.assert_close(model(ids).logits, eager, rtol=0, atol=1e-5)


@pytest.mark.parametrize(("text", "heads"), [("动手学大模型", 4), ("abcdefghij" * 10, 4), ("abcdefghij" * 12, 8)])
def test_the_size_said_before_a_download_is_the_pages_own_within_two_percent(text, heads):
    view = sa.show(text, heads=heads, head_dim=8, tokenizer="char")
    actual = len(view.html.encode("utf-8"))
    assert abs(page_bytes(heads, len(view.tokens)) - actual) <= 0.02 * actual, (
        page_bytes(heads, len(view.tokens)),
        actual,
    )


def test_a_long_texts_page_grows_with_the_square_of_its_tokens():
    # T × T float32 cells in base64 (4 bytes per 3): 4 stages × 12 heads × 512² × 4 × 4/3 bytes
    numbers = 4 * 12 * 512 * 512 * 4 * 4 / 3
    assert abs((page_bytes(12, 512) - page_bytes(12, 0)) - numbers) < 8, "only rounding of the base64 text"
    assert page_bytes(12, 512, layers=2) - page_bytes(12, 0, layers=2) == 2 * (page_bytes(12, 512) - page_bytes(12, 0))


def test_a_folders_model_reads_as_the_learners_own_not_as_the_hub_model_of_its_family(tiny_model_folders):
    """A tiny random model saved in a folder has transformers' gpt2 architecture: its page
    names the folder and calls gpt2 its architecture, not the model it is."""
    folder = str(tiny_model_folders["gpt2"])
    cases = (
        ("en", "Weights", "your model in the folder", "gpt2 architecture"),
        ("zh", "权重", "你在文件夹", "gpt2 架构"),
    )
    for lang, weights, own, kind in cases:
        data = read_page(sa.show("hello there", model=folder, lang=lang).html)
        line = dict(data["made"])[weights]
        assert line.startswith(own) and folder in line and kind in line, line
        assert not line.startswith("gpt2")
