"""The golden links' numbers (tests/golden/, harness/golden.py) are still what the
playground computes: a change in how numbers are derived fails here, even though every
test that compares the page with gpt_core in one process would still pass."""

from __future__ import annotations

import numpy as np
import pytest

from gpt_core.reproduce import COMPUTE_THREADS, NUMBERS_VERSION
from harness.golden import STORED, allowed_difference, array_name, link_numbers, links, meta, stored_numbers

LINKS = links()
STORED_NUMBERS = stored_numbers()


def test_the_golden_numbers_were_made_by_this_version_of_the_derivation():
    made = meta()
    assert made["numbers_version"] == NUMBERS_VERSION, (
        "gpt_core.reproduce.NUMBERS_VERSION changed: regenerate with scripts/golden_numbers.py and say so in the commit"
    )
    assert made["torch_threads"] == COMPUTE_THREADS and made["links"] == len(LINKS)
    assert made["torch"].startswith("2.13.0"), "requirements pin torch 2.13.0"


def test_the_golden_links_cover_what_a_link_can_vary():
    queries = [link.query for link in LINKS]
    assert {query.get("tok", "char") for query in queries} == {"char", "word"}
    assert {1, 16} <= {int(query.get("heads", 0)) for query in queries}
    assert any(query.get("mode") == "train" and float(query.get("dropout", 0)) > 0 for query in queries)
    assert any(query.get("bias") == "1" for query in queries) and any(query.get("scale") == "0" for query in queries)
    assert any(query.get("weights", "random") != "random" for query in queries), "a shipped model's block"
    assert any(any("\u4e00" <= char <= "\u9fff" for char in query["text"]) for query in queries), "CJK"


@pytest.mark.parametrize("index", range(len(LINKS)), ids=[link.name for link in LINKS])
def test_each_golden_link_gives_its_stored_numbers(index):
    link = LINKS[index]
    numbers = link_numbers(link.query)
    for stage in STORED:
        stored = STORED_NUMBERS[array_name(index, stage)]
        assert numbers[stage].shape == stored.shape, (
            f"{link.name}: {stage} shape {numbers[stage].shape} != {stored.shape}"
        )
        difference = float(np.max(np.abs(numbers[stage] - stored)))
        limit = allowed_difference(stored)
        assert difference <= limit, f"{link.name}: {stage} moved by {difference:.2e} (> {limit:.1e})"


def test_the_stored_numbers_are_attention_not_placeholders():
    for index, link in enumerate(LINKS):
        weights = STORED_NUMBERS[array_name(index, "weights")]
        np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5, err_msg=link.name)
        T = weights.shape[-1]
        assert np.all(weights[:, np.triu_indices(T, 1)[0], np.triu_indices(T, 1)[1]] == 0), link.name
    dropout = next(index for index, link in enumerate(LINKS) if link.query.get("mode") == "train")
    dropped = STORED_NUMBERS[array_name(dropout, "dropped_weights")]
    assert (dropped == 0).sum() > (STORED_NUMBERS[array_name(dropout, "weights")] == 0).sum(), "the mask is pinned"
