"""A training's memory is bounded: its peak is estimated from the model's size before the
first step, and a run above TrainConfig.max_bytes is refused."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gpt_core import GPT, GPTConfig, InputError, TrainConfig, build_corpus, synthetic_text, train
from gpt_core.errors import MESSAGES
from gpt_core.memory import estimate_training_bytes
from string_table import STRINGS, error_text

ROOT = Path(__file__).resolve().parents[2]
# The estimate may be a little below the measure (allocator slack, a busy machine), and is
# generous by design, but not wildly: measured 1.1x the peak growth for the model below.
LOW_FACTOR, HIGH_FACTOR = 0.8, 6.0

MEASURE = textwrap.dedent(
    """
    import json, torch
    torch.set_num_threads(1)
    from gpt_core import GPT, GPTConfig, TrainConfig, build_corpus, synthetic_text, train
    from gpt_core.memory import estimate_training_bytes

    def status(field):
        for line in open("/proc/self/status"):
            if line.startswith(field):
                return int(line.split()[1]) * 1024

    corpus = build_corpus("copy", synthetic_text("copy", 4000), context_length=64)
    # One tiny run first: torch's one-time set-up (autograd, kernels) is paid once per
    # server process, not by each training.
    warm = GPT(GPTConfig(vocab_size=65, context_length=64, embedding_dim=8, heads=2, blocks=1))
    train(warm, corpus, TrainConfig(steps=2, batch_size=2, eval_every=10**4, eval_batches=1))
    model = GPT(GPTConfig(vocab_size=65, context_length=64, embedding_dim=128, heads=4, blocks=2))
    open("/proc/self/clear_refs", "w").write("5")  # the peak (VmHWM) counts from here
    before = status("VmRSS")
    train(model, corpus, TrainConfig(steps=3, batch_size=32, eval_every=10**4, eval_batches=1))
    print(json.dumps({"growth": status("VmHWM") - before, "estimate": estimate_training_bytes(model, 32)}))
    """
)


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc")
def test_the_estimate_is_not_below_the_measured_peak():
    done = subprocess.run([sys.executable, "-c", MEASURE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    numbers = json.loads(done.stdout.strip().splitlines()[-1])
    growth, estimate = numbers["growth"], numbers["estimate"]
    assert growth > 0
    assert LOW_FACTOR * growth <= estimate <= HIGH_FACTOR * growth, numbers


def _corpus():
    return build_corpus("copy", synthetic_text("copy", 3000), context_length=16)


def test_a_model_above_the_budget_is_refused_before_any_step():
    corpus = _corpus()
    model = GPT(GPTConfig(vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=256, heads=4, blocks=4))
    budget = estimate_training_bytes(model, 8) // 2
    progress = []
    began = time.perf_counter()
    with pytest.raises(InputError) as caught:
        train(model, corpus, TrainConfig(steps=100, batch_size=8, max_bytes=budget), on_progress=progress.append)
    assert time.perf_counter() - began < 2.0 and not progress
    params = caught.value.params
    assert caught.value.code == "too_large_for_memory" and params["parameters"] == model.parameter_count()
    assert params["estimate_mb"] > params["budget_mb"] and 0 < params["largest"] < params["parameters"]
    # The largest model said to fit does fit: same heads, blocks and context, a smaller head_dim.
    shapes = [
        GPTConfig(vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=4 * d, heads=4, blocks=4)
        for d in range(1, 64)
    ]
    fitting = [shape for shape in shapes if GPT(shape, device="meta").parameter_count() == params["largest"]]
    assert fitting and estimate_training_bytes(fitting[0], 8) <= budget
    assert all(p.grad is None for p in model.parameters()), "no step taken"


def test_a_model_under_the_budget_trains():
    corpus = _corpus()
    model = GPT(GPTConfig(vocab_size=corpus.vocabulary.size, context_length=16, embedding_dim=16, heads=2, blocks=1))
    budget = estimate_training_bytes(model, 4) + 1
    result = train(model, corpus, TrainConfig(steps=3, batch_size=4, max_bytes=budget))
    assert result.steps == 3


def test_the_refusal_is_said_in_every_language():
    error = InputError("too_large_for_memory", estimate_mb=900, budget_mb=600, parameters=2_000_000, largest=1_200_000)
    assert "900 MB" in str(error) and "1,200,000" in str(error) and "too_large_for_memory" in MESSAGES
    assert "900 MB" in error_text(error, "zh") and "zh" in STRINGS["error.too_large_for_memory"]
