"""Downloading a real model: from a local stand-in for the Hugging Face Hub (HF_ENDPOINT),
into a cache of the test's own, with progress; once there, no second download; and each way
it can fail gives a message that names the model and says how to fetch it ahead."""

from __future__ import annotations

import pytest

from gpt_core import InputError, hf
from harness.file_server import unused_local_url
from harness.hub_server import serve_hub
from harness.tiny_models import build_tiny_model

REPO = "tiny-org/tiny-gpt2"


@pytest.fixture
def hub(tmp_path, monkeypatch):
    build_tiny_model("gpt2", tmp_path / "hub" / REPO)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    with serve_hub(tmp_path / "hub", gated=("tiny-org/gated",)) as (endpoint, requests):
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        yield requests


def test_first_use_downloads_with_progress_then_uses_the_cache(hub, tmp_path):
    seen: list[tuple[int, int]] = []
    loaded = hf.load(REPO, progress=lambda done, total: seen.append((done, total)))
    total = seen[-1][1]
    assert seen[-1] == (total, total) and total >= loaded.description.download_bytes > 0
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    downloaded = {line.split()[1].rsplit("/", 1)[1] for line in hub if line.startswith("GET") and "/resolve/" in line}
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= downloaded
    assert loaded.folder.is_relative_to(tmp_path / "cache")
    before = len(hub)
    again = hf.load(REPO, progress=lambda done, total: seen.append((-1, -1)))
    assert len(hub) == before and seen[-1] != (-1, -1)  # no request, no progress: the cache's copy
    assert again.description == loaded.description
    assert hf.trace(again, "the cat").labels == hf.trace(loaded, "the cat").labels


@pytest.mark.parametrize(("name", "code"), [("tiny-org/typo", "model_not_found"), ("tiny-org/gated", "model_gated")])
def test_a_model_that_cannot_be_had_is_named_with_the_way_to_fetch_it(hub, name, code):
    with pytest.raises(InputError) as caught:
        hf.load(name)
    assert caught.value.code == code
    assert name in str(caught.value) and "scripts/fetch_models.py" in str(caught.value)


def test_an_unreachable_hub_says_so_at_once(tmp_path, monkeypatch):
    import time

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_ENDPOINT", unused_local_url().rsplit("/", 1)[0])
    started = time.monotonic()
    with pytest.raises(InputError) as caught:
        hf.load(REPO)
    assert caught.value.code == "model_unreachable" and REPO in str(caught.value)
    assert caught.value.params == {"name": REPO, "detail": "ConnectError"}, "what failed, named for a host"
    assert time.monotonic() - started < 5  # no minute of retries while a student waits


def test_offline_mode_with_an_empty_cache_says_so(tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(InputError) as caught:
        hf.load(REPO)
    assert caught.value.code == "model_offline" and "fetch_models.py" in str(caught.value)
    assert caught.value.params == {"name": REPO}


def test_only_safe_files_are_fetched(hub, tmp_path):
    (tmp_path / "hub" / REPO / "pytorch_model.bin").write_bytes(b"a pickle could run code")
    (tmp_path / "hub" / REPO / "onnx").mkdir()
    (tmp_path / "hub" / REPO / "onnx" / "model.onnx").write_bytes(b"x")
    folder = hf.fetch(REPO)
    names = {path.name for path in folder.iterdir()}
    assert "model.safetensors" in names and "pytorch_model.bin" not in names and "onnx" not in names
