"""Downloading a real model: from a local stand-in for the Hugging Face Hub (HF_ENDPOINT),
into a cache of the test's own, with progress; once there, no second download; and each way
it can fail gives a message that names the model and says how to fetch it ahead."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from huggingface_hub import constants

from gpt_core import InputError, hf
from gpt_core.hf.hub import _bar_class, _hub, _wanted
from harness.file_server import unused_local_url
from harness.hub_server import serve_hub
from harness.tiny_models import build_tiny_model

REPO = "tiny-org/tiny-gpt2"
ROOT = Path(__file__).resolve().parents[2]


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
    fetch = f"python scripts/fetch_models.py {REPO}"  # from a clone: its script
    assert caught.value.params == {"name": REPO, "detail": "ConnectError", "fetch": fetch}, "what failed, for a host"
    assert time.monotonic() - started < 5  # no minute of retries while a student waits


def test_offline_mode_with_an_empty_cache_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(InputError) as caught:
        hf.load(REPO)
    assert caught.value.code == "model_offline" and "fetch_models.py" in str(caught.value)
    assert caught.value.params == {"name": REPO, "fetch": f"python scripts/fetch_models.py {REPO}"}


@pytest.mark.parametrize("name", ["./my-model", "models/gpt2/final", "~/no-such-model-here", "/tmp/no/such/model"])
def test_a_folder_that_does_not_exist_is_said_so_and_nothing_is_downloaded(name, monkeypatch):
    from huggingface_hub import HfApi

    def no_request(*args, **kwargs):
        raise AssertionError("a path is not asked of the Hub")

    monkeypatch.setattr(HfApi, "model_info", no_request)
    with pytest.raises(InputError) as caught:
        hf.load(name)
    assert caught.value.code == "model_folder_missing"
    message = str(caught.value)
    assert f"There is no folder {name} on this computer" in message
    assert "offline" not in message and "download" not in message


def test_without_a_clones_script_the_fetch_command_is_the_packages_own_and_it_fetches(hub, tmp_path, monkeypatch):
    """Installed with pip there is no scripts/fetch_models.py: the message gives a command that
    works there (run here, from a folder with no scripts/: it fills the cache)."""
    from gpt_core.hf import hub as hub_module

    monkeypatch.setattr(hub_module, "FETCH_SCRIPT", tmp_path / "no-clone" / "scripts" / "fetch_models.py")
    command = hub_module.fetch_command(REPO)
    assert "scripts/" not in command
    program, flag, code = shlex.split(command)
    assert (program, flag) == ("python", "-c")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, check=True, timeout=300)
    assert hub_module.local_folder(REPO) is not None, "in the cache"

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(InputError) as caught:
        hf.load("tiny-org/not-fetched")
    assert str(caught.value).endswith(hub_module.fetch_command("tiny-org/not-fetched"))


def test_only_safe_files_are_fetched(hub, tmp_path):
    (tmp_path / "hub" / REPO / "pytorch_model.bin").write_bytes(b"a pickle could run code")
    (tmp_path / "hub" / REPO / "onnx").mkdir()
    (tmp_path / "hub" / REPO / "onnx" / "model.onnx").write_bytes(b"x")
    folder = hf.fetch(REPO)
    names = {path.name for path in folder.iterdir()}
    assert "model.safetensors" in names and "pytorch_model.bin" not in names and "onnx" not in names


# ---------------------------------------------------------------- found by mutation testing


def test_the_hub_and_the_cache_are_read_from_the_environment_now(tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_ENDPOINT", "http://hub.example/X/")
    assert _hub() == {"endpoint": "http://hub.example/X", "cache_dir": str(tmp_path / "home" / "hub")}
    monkeypatch.delenv("HF_HOME")
    monkeypatch.delenv("HF_ENDPOINT")
    assert _hub() == {"endpoint": constants.ENDPOINT.rstrip("/"), "cache_dir": constants.HF_HUB_CACHE}
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    assert _hub()["cache_dir"] == str(tmp_path / "cache"), "HF_HUB_CACHE before HF_HOME"


def test_only_a_repositorys_top_level_safe_files_are_wanted():
    assert _wanted("config.json") and _wanted("model.safetensors") and _wanted("tokenizer.model")
    assert not _wanted("onnx/config.json") and not _wanted("pytorch_model.bin")


class _Terminal:
    """A file that says it is a terminal: a progress bar would draw itself there."""

    def __init__(self) -> None:
        self.written = ""

    def write(self, text: str) -> None:
        self.written += text

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_a_download_bar_reports_its_bytes_and_draws_nothing():
    reported: list[int] = []
    Bar = _bar_class(reported.append)
    terminal = _Terminal()
    bar = Bar(total=10, file=terminal, desc="model.safetensors")
    assert bar.total == 10 and bar.disable
    bar.update()
    bar.update(5)
    bar.update(0)
    bar.update(None)
    bar.close()
    assert reported == [1, 5, 0, 0] and terminal.written == ""
    assert list(Bar(range(3), file=terminal)) == [0, 1, 2] and terminal.written == ""


def test_a_repository_without_safe_files_is_refused_in_words(tmp_path, monkeypatch):
    (tmp_path / "hub" / "tiny-org" / "pickled").mkdir(parents=True)
    (tmp_path / "hub" / "tiny-org" / "pickled" / "pytorch_model.bin").write_bytes(b"a pickle could run code")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    with serve_hub(tmp_path / "hub") as (endpoint, _):
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        with pytest.raises(InputError) as caught:
            hf.fetch("tiny-org/pickled")
    assert caught.value.code == "model_no_files" and caught.value.params == {"name": "tiny-org/pickled"}


def test_the_hub_is_asked_with_a_timeout(hub, monkeypatch):
    from huggingface_hub import HfApi

    asked: list[dict] = []
    original = HfApi.model_info

    def model_info(self, *args, **kwargs):
        asked.append(kwargs)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(HfApi, "model_info", model_info)
    hf.fetch(REPO)
    assert [kwargs.get("timeout") for kwargs in asked] == [hf.HUB_TIMEOUT_S] and hf.HUB_TIMEOUT_S == 10.0


def test_progress_counts_the_bytes_of_the_safe_files_an_empty_one_included(hub, tmp_path):
    folder = tmp_path / "hub" / REPO
    (folder / "notes.txt").write_bytes(b"")
    sizes = {path.name: path.stat().st_size for path in folder.iterdir() if _wanted(path.name)}
    seen: list[tuple[int, int]] = []
    hf.fetch(REPO, progress=lambda done, total: seen.append((done, total)))
    total = sum(sizes.values())
    assert {t for _, t in seen} == {total} and seen[-1] == (total, total)
    assert seen[0][0] in sizes.values(), "the first report: the first file's bytes, counted from 0"


def test_a_cache_filled_by_the_hubs_own_tool_is_used_as_it_is(hub, tmp_path):
    """A copy of the safe files that huggingface_hub's snapshot_download fetched ahead (it also
    records the repository's whole listing, the pickle included) needs no request."""
    from huggingface_hub import snapshot_download

    (tmp_path / "hub" / REPO / "pytorch_model.bin").write_bytes(b"a pickle could run code")
    fetched = snapshot_download(REPO, allow_patterns=list(hf.MODEL_FILES), **_hub())
    before = len(hub)
    assert hf.fetch(REPO) == Path(fetched) and len(hub) == before
    assert hf.local_folder(REPO) == Path(fetched), "found on this computer"
    assert hf.local_folder("tiny-org/never-fetched") is None, "a Hub id not in the cache is nowhere here"
