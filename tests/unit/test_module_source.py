"""A learner's own attention module as a source (``gpt_core.ModuleSource``): it reads vectors,
not text, keeps the module's weights as they were when it was made, and says what it changed
to trace it (torch's MultiheadAttention: a causal mask added; dropout: off)."""

from __future__ import annotations

import pytest
import torch

from gpt_core import ModuleSource, MultiHeadAttention
from gpt_core.given import FIXED


@pytest.fixture(autouse=True)
def _seeded():
    torch.set_num_threads(1)
    torch.manual_seed(0)


def test_the_text_is_not_read_the_tokens_name_the_positions():
    source = ModuleSource(MultiHeadAttention(6, 8, 10, 0.0, 2), torch.randn(1, 4, 6), tokens=list("abcd"))
    one, other = source.trace("a text"), source.trace("another, longer text")
    assert one.tokens == other.tokens == list("abcd")
    torch.testing.assert_close(one.weights[0], other.weights[0], rtol=0, atol=0)
    assert [note.key for note in source.notes(one)] == [FIXED]
    assert ModuleSource(MultiHeadAttention(6, 8, 10, 0.0, 2), torch.randn(1, 3, 6)).trace("").tokens == ["0", "1", "2"]


def test_torchs_module_is_said_to_have_had_a_causal_mask_added_and_dropout_turned_off():
    module = torch.nn.MultiheadAttention(8, 2, dropout=0.25, batch_first=True)
    source = ModuleSource(module, torch.randn(1, 5, 8))
    notes = {note.key: note for note in source.notes(source.trace(""))}
    assert set(notes) == {FIXED, "page.made.mask_added", "source.module.eval"}
    assert notes["source.module.eval"].values == {"p": 0.25}
    assert module.training, "the module is left in the mode it was in"


def test_the_weights_are_kept_as_they_were_and_a_changed_module_is_another_source():
    module, x = MultiHeadAttention(6, 8, 10, 0.0, 2), torch.randn(1, 4, 6)
    source = ModuleSource(module, x)
    before = source.trace("").weights[0].clone()
    with torch.no_grad():
        module.query_layer.weight.mul_(3.0)
    torch.testing.assert_close(source.trace("").weights[0], before, rtol=0, atol=0)
    changed = ModuleSource(module, x)
    assert changed.identity != source.identity
    assert not torch.allclose(changed.trace("").weights[0], before)


def test_what_it_cannot_trace_is_refused_with_a_message():
    module = MultiHeadAttention(6, 8, 10, 0.0, 2)
    with pytest.raises(ValueError, match="x holds 2 sequences: pass one"):
        ModuleSource(module, torch.randn(2, 4, 6))
    with pytest.raises(ValueError, match="3 tokens for 4 positions"):
        ModuleSource(module, torch.randn(1, 4, 6), tokens=list("abc"))
    with pytest.raises(ValueError, match="layer 1 is not one of 0..0"):
        ModuleSource(module, torch.randn(1, 4, 6)).reproduction("", 1)
