"""Real models on a server without the network: the model boxes offer what the cache holds and
mark the rest "not downloaded here" with the command that fetches them; choosing one says so
and leaves no progress bar behind."""

from __future__ import annotations

import pytest

from gpt_core import hf
from harness.file_server import unused_local_url
from tests.apptest.conftest import open_page

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"
CACHED, MISSING = "tiny-org/hub-gpt2", "tiny-org/not-fetched"
LABELS = {
    "en": {
        CACHED: "tiny-org/hub-gpt2 (real model)",
        MISSING: "tiny-org/not-fetched (real model, not downloaded here: python scripts/fetch_models.py tiny-org/not-fetched)",
    },
    "zh": {
        CACHED: "tiny-org/hub-gpt2（真实模型）",
        MISSING: "tiny-org/not-fetched（真实模型，这里尚未下载：python scripts/fetch_models.py tiny-org/not-fetched）",
    },
}


@pytest.fixture
def offline_with_one_cached(monkeypatch, tmp_path):
    """A cache that holds one tiny model (fetched from a stand-in Hub, which then goes away)
    and a Hub nobody answers."""
    from harness.hub_server import serve_hub
    from harness.tiny_models import build_tiny_model

    build_tiny_model("gpt2", tmp_path / "hub" / "tiny-org" / "hub-gpt2")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    with serve_hub(tmp_path / "hub") as (endpoint, _):
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        hf.fetch(CACHED)
    monkeypatch.setenv("HF_ENDPOINT", unused_local_url().rsplit("/", 1)[0])
    monkeypatch.setenv("ATTENTION_MODELS", f"{CACHED},{MISSING}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_boxes_mark_what_is_not_downloaded_here(offline_with_one_cached, lang):
    at = open_page(PLAYGROUND, text="the cat", lang=lang)
    assert not at.exception
    assert set(LABELS[lang].values()) <= set(at.selectbox(key="pg_weights").options)
    ex = open_page(EXPLORER, lang=lang)
    assert not ex.exception
    assert set(LABELS[lang].values()) <= set(ex.selectbox(key="ex_model").options)


def test_choosing_a_model_not_downloaded_says_how_to_fetch_it_and_leaves_no_bar(offline_with_one_cached):
    at = open_page(PLAYGROUND, text="the cat")
    at.selectbox(key="pg_weights").set_value(MISSING).run()
    assert not at.exception
    message = " ".join(error.value for error in at.error)
    assert f"python scripts/fetch_models.py {MISSING}" in message
    assert not at.get("progress"), "no download bar stays beside the message"


def test_a_cached_model_is_offered_and_shown_normally(offline_with_one_cached):
    at = open_page(PLAYGROUND, weights=CACHED, text="the cat")
    assert not at.exception and not at.error
    assert at.query_params["weights"] == CACHED
    assert at.get("plotly_chart")
    assert not at.get("progress")
