"""A learner's own attention module, traced with its own weights (gpt_core.trace_module,
seeing_attention.show(module=...)): the book's MultiHeadAttention as the chapter writes it,
gpt_core's, and torch.nn.MultiheadAttention. Expected values come from torch's own fused
attention and from the module's own layers, called here."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import seeing_attention as sa
from gpt_core import InputError, MultiHeadAttention, trace_module


class BookMultiHeadAttention(nn.Module):
    """The chapter's layer, written out as a learner types it (scores scaled after the mask)."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False, causal=True):
        super().__init__()
        assert d_out % num_heads == 0
        self.d_out, self.num_heads, self.head_dim, self.causal = d_out, num_heads, d_out // num_heads, causal
        self.query_layer = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.key_layer = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.value_layer = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.output_layer = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, _ = x.shape
        keys = self.key_layer(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        queries = self.query_layer(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.value_layer(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        if self.causal:
            attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2).contiguous().view(b, num_tokens, self.d_out)
        return self.output_layer(context_vec)


@pytest.fixture(autouse=True)
def _seeded():
    torch.set_num_threads(1)
    torch.manual_seed(0)


def _fused(q, k, v, h):
    """torch's own causal attention of projections (B, T, C) split into h heads."""
    B, T, C = q.shape
    split = [t.view(B, T, h, C // h).transpose(1, 2) for t in (q, k, v)]
    return F.scaled_dot_product_attention(*split, is_causal=True)


def _laws(trace, T):
    weights = trace.weights[0]
    torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[:-1]), rtol=0, atol=1e-6)
    assert torch.all(weights[:, torch.ones(T, T, dtype=torch.bool).triu(1)] == 0)


def test_the_books_layer_is_traced_through_its_own_projections():
    module = BookMultiHeadAttention(6, 8, context_length=10, dropout=0.1, num_heads=2, qkv_bias=True)
    module.train()
    x = torch.randn(1, 5, 6)
    trace = trace_module(module, x)
    assert module.training, "the learner's module is left as it was"
    with torch.no_grad():
        q, k, v = module.query_layer(x), module.key_layer(x), module.value_layer(x)
        expected_context = _fused(q, k, v, 2)
        torch.testing.assert_close(trace.context_heads, expected_context, rtol=0, atol=1e-6)
        module.eval()
        torch.testing.assert_close(trace.output, module(x), rtol=0, atol=1e-6)
        by_hand = torch.softmax(
            (
                q.view(1, 5, 2, 4).transpose(1, 2) @ k.view(1, 5, 2, 4).transpose(1, 2).transpose(-2, -1) / 2.0
            ).masked_fill(torch.ones(5, 5, dtype=torch.bool).triu(1), float("-inf")),
            -1,
        )
    torch.testing.assert_close(trace.weights, by_hand, rtol=0, atol=1e-6)
    assert trace.scores.shape == (1, 2, 5, 5) and trace.queries_heads.shape == (1, 2, 5, 4)
    _laws(trace, 5)


def test_gpt_cores_layer_is_its_own_trace_and_torchs_attention():
    module = MultiHeadAttention(8, 8, 16, 0.0, 4)
    x = torch.randn(1, 7, 8)
    trace = trace_module(module, x)
    with torch.no_grad():
        expected = _fused(module.query_layer(x), module.key_layer(x), module.value_layer(x), 4)
    torch.testing.assert_close(trace.context_heads, expected, rtol=0, atol=1e-6)
    _laws(trace, 7)


@pytest.mark.parametrize("batch_first", [True, False])
def test_torchs_multihead_attention_gives_the_weights_it_returns_itself(batch_first):
    module = nn.MultiheadAttention(12, 3, batch_first=batch_first)
    x = torch.randn(1, 6, 12) if batch_first else torch.randn(6, 1, 12)
    trace = trace_module(module, x)
    future = torch.ones(6, 6, dtype=torch.bool).triu(1)
    with torch.no_grad():
        output, weights = module(x, x, x, attn_mask=future, need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(trace.weights, weights, rtol=0, atol=1e-6)
    torch.testing.assert_close(trace.output, output if batch_first else output.transpose(0, 1), rtol=0, atol=1e-6)
    assert trace.scaled_scores.shape == (1, 3, 6, 6)
    _laws(trace, 6)


def test_a_module_that_is_not_causal_attention_is_refused_with_the_reason():
    module = BookMultiHeadAttention(4, 4, 8, 0.0, 2, causal=False)
    with pytest.raises(InputError) as refused:
        trace_module(module, torch.randn(1, 5, 4))
    assert refused.value.code == "module_differs" and "context" in str(refused.value)
    with pytest.raises(InputError) as refused:
        trace_module(nn.Linear(4, 4), torch.randn(1, 5, 4))
    assert refused.value.code == "module_unsupported" and "Linear" in str(refused.value)
    with pytest.raises(InputError, match=r"x must be \(B, T, 4\)"):
        trace_module(BookMultiHeadAttention(4, 4, 8, 0.0, 2), torch.randn(1, 5, 3))


def test_show_draws_a_modules_heads_with_its_numbers_and_names():
    module = BookMultiHeadAttention(6, 8, 10, 0.0, 2)
    x = torch.randn(1, 4, 6)
    view = sa.show(module=module, x=x, tokens=["我", "<b>", "学", "习"], lang="zh")
    (payload,) = re.findall(r'<script type="application/json" id="sa-data">(.*?)</script>', view.html, re.S)
    data = json.loads(payload)
    (layer,) = data["layers"]
    weights = np.frombuffer(base64.b64decode(layer["stages"]["weights"]), dtype="<f4").reshape(2, 4, 4)
    np.testing.assert_allclose(weights, trace_module(module, x).weights[0].numpy(), rtol=0, atol=1e-6)
    assert data["tokens"] == ["我", "<b>", "学", "习"] and layer["name"] == "BookMultiHeadAttention"
    assert "BookMultiHeadAttention: h = 2, d = 4" in dict(data["made"])["权重"]
    with pytest.raises(ValueError, match="3 tokens for 4 positions"):
        sa.show(module=module, x=x, tokens=["a", "b", "c"])


def test_show_says_that_it_added_a_causal_mask_to_torchs_module_in_the_page_and_the_views_text():
    """torch.nn.MultiheadAttention is not causal by itself: the trace passes it a causal mask,
    and what is shown says so; the book's module is causal itself, and nothing is said."""
    module = nn.MultiheadAttention(12, 3, batch_first=True)
    for lang, words in (("en", "causal mask added"), ("zh", "已加上因果掩码")):
        view = sa.show(module=module, x=torch.randn(1, 5, 12), lang=lang)
        (payload,) = re.findall(r'<script type="application/json" id="sa-data">(.*?)</script>', view.html, re.S)
        made = [value for _, value in json.loads(payload)["made"]]
        assert any(words in value and "attn_mask" in value for value in made), made
        assert words in repr(view)
    book = sa.show(module=BookMultiHeadAttention(6, 8, 10, 0.0, 2), x=torch.randn(1, 4, 6))
    assert "mask" not in repr(book) and "causal mask added" not in book.html
