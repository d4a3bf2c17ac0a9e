"""scripts/fetch_models.py: fetches the models into the cache ahead of a class (from a local
stand-in for the Hub), checks each by tracing a text, and fails loudly on one it cannot have."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from harness.hub_server import serve_hub
from harness.tiny_models import build_tiny_model

ROOT = Path(__file__).resolve().parents[2]


def test_fetch_models_fills_the_cache_and_names_what_it_could_not_fetch(tmp_path):
    build_tiny_model("qwen2", tmp_path / "hub" / "tiny-org" / "tiny-qwen2")
    with serve_hub(tmp_path / "hub") as (endpoint, _):
        env = {
            "PATH": "/usr/bin:/bin",
            "HF_ENDPOINT": endpoint,
            "HF_HUB_CACHE": str(tmp_path / "cache"),
            "ATTENTION_MODELS": "tiny-org/tiny-qwen2,tiny-org/missing",
        }
        run = subprocess.run(
            [sys.executable, "scripts/fetch_models.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
    assert run.returncode == 1, run.stderr
    assert "tiny-org/tiny-qwen2: ready" in run.stdout and "4 heads (2 key/value)" in run.stdout
    assert "tiny-org/missing" in run.stderr and "not found" in run.stderr
    assert list((tmp_path / "cache").glob("models--tiny-org--tiny-qwen2/snapshots/*/model.safetensors"))
    # Once fetched, a server that cannot reach the Hub loads it from the cache.
    offline = subprocess.run(
        [sys.executable, "scripts/fetch_models.py", "tiny-org/tiny-qwen2"],
        cwd=ROOT,
        env=env | {"HF_ENDPOINT": "http://127.0.0.1:9"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert offline.returncode == 0, offline.stderr
