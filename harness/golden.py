"""Golden numbers: what a dozen playground links showed, pinned in the repository.

Every other number check compares the page with gpt_core computed in the same process, so
a change in how the numbers are derived (the token vectors' hash, the order weights are
drawn in, the dropout masks) would change every old link's numbers while every such test
still passed. These links' softmax weights and raw scores QKᵀ are stored instead
(``tests/golden/``, made by ``scripts/golden_numbers.py``) with the torch version, thread
count and numbers version they were made with; ``tests/unit/test_golden_numbers.py``
recomputes them through the playground's own parsing and fails on any difference over
``TOLERANCE`` (another CPU may differ in the last bits; a changed derivation moves every
digit).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "tests" / "golden"
LINKS_FILE = GOLDEN_DIR / "links.json"
NUMBERS_FILE = GOLDEN_DIR / "numbers.npz"
META_FILE = GOLDEN_DIR / "meta.json"
EXPERIMENT_DIR = ROOT / "assets" / "heads_experiment"
TOLERANCE = 1e-6
# Softmax weights, raw scores and the weights after dropout (the mask follows the seed), (h, T, T) float32
STORED = ("weights", "scores", "dropped_weights")


@dataclass(frozen=True)
class Link:
    name: str  # what it covers, e.g. "word tokens, 8 heads"
    query: dict[str, str]  # the playground link's query string


def links() -> list[Link]:
    records = json.loads(LINKS_FILE.read_text(encoding="utf-8"))
    return [Link(record["name"], record["query"]) for record in records]


def link_numbers(query: dict[str, str]) -> dict[str, np.ndarray]:
    """The playground's numbers for a link, computed as the page computes them: the link
    parsed by ``links.playground``, the text cut to the tokens shown, random weights from
    the seed, or a shipped model's block fed its real stream."""
    from gpt_core import MAX_TOKENS, trace_attention, truncate_text
    from gpt_core.explore import trace_model
    from gpt_core.registry import RandomProvider, Registry
    from gpt_core.results import load_experiment
    from links.playground import RANDOM_WEIGHTS, config_of, parse_query

    values, notes = parse_query(query, Registry([RandomProvider()]).settings)
    if notes:
        raise ValueError(f"a golden link must be valid as it is: {notes}")
    if values["weights"] == RANDOM_WEIGHTS:
        config = config_of(values)
        trace = trace_attention(truncate_text(values["text"], config.tokenizer, MAX_TOKENS), config).trace
    else:
        checkpoint = load_experiment(EXPERIMENT_DIR).checkpoint(int(values["weights"].removeprefix("h")))
        trace = trace_model(checkpoint.model, checkpoint.vocabulary, values["text"]).layers[values["block"] - 1]
    return {name: getattr(trace, name)[0].numpy().astype(np.float32) for name in STORED}


def allowed_difference(stored: np.ndarray) -> float:
    """How far a stage may be from its stored numbers: ``TOLERANCE`` relative to the stage's
    size. Float32 scores of 10 or more differ in their last bits by 1e-6 and more between
    CPUs (seen: 1.9e-6, and 1.05e-5 on an 8-head model's scores); a changed derivation moves
    every digit."""
    finite = np.abs(stored[np.isfinite(stored)])
    return TOLERANCE * max(1.0, float(finite.max()) if finite.size else 1.0)


def stored_numbers() -> dict[str, np.ndarray]:
    with np.load(NUMBERS_FILE) as stored:
        return {name: stored[name] for name in stored.files}


def array_name(index: int, stage: str) -> str:
    return f"link{index:02d}_{stage}"


def meta() -> dict:
    return json.loads(META_FILE.read_text(encoding="utf-8"))
