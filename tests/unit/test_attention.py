"""Properties of gpt_core.MultiHeadAttention: it is the attention PyTorch computes."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from gpt_core import AttentionTrace, InputError, MultiHeadAttention
from tests.helpers import assert_close

TOLERANCE = {torch.float64: 1e-10, torch.float32: 1e-5}


def make(dtype=torch.float64, heads=4, width=16, context=10, dropout=0.0, qkv_bias=True, seed=0, **kw):
    torch.manual_seed(seed)
    module = MultiHeadAttention(width, width, context, dropout, heads, qkv_bias=qkv_bias, **kw).to(dtype)
    x = torch.randn(3, context - 2, width, dtype=dtype)
    return module.eval(), x


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("heads", [1, 2, 4, 8])
def test_equals_scaled_dot_product_attention_on_the_same_projections(dtype, heads):
    module, x = make(dtype, heads=heads)
    trace = AttentionTrace()
    out = module(x, trace=trace)
    context_heads = F.scaled_dot_product_attention(
        trace.queries_heads, trace.keys_heads, trace.values_heads, is_causal=True
    )
    B, T, C = x.shape
    expected = module.output_layer(context_heads.transpose(1, 2).reshape(B, T, C))
    assert_close(trace.context_heads, context_heads, TOLERANCE[dtype], "context per head")
    assert_close(out, expected, TOLERANCE[dtype], "output")


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("heads", [1, 2, 4])
def test_equals_torch_nn_multihead_attention_with_copied_weights(dtype, heads):
    module, x = make(dtype, heads=heads)
    C = module.output_dim
    reference = torch.nn.MultiheadAttention(C, heads, bias=True, batch_first=True).to(dtype).eval()
    with torch.no_grad():
        reference.in_proj_weight.copy_(
            torch.cat([module.query_layer.weight, module.key_layer.weight, module.value_layer.weight])
        )
        reference.in_proj_bias.copy_(
            torch.cat([module.query_layer.bias, module.key_layer.bias, module.value_layer.bias])
        )
        reference.out_proj.weight.copy_(module.output_layer.weight)
        reference.out_proj.bias.copy_(module.output_layer.bias)
    T = x.shape[1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    trace = AttentionTrace()
    out = module(x, trace=trace)
    expected, expected_weights = reference(x, x, x, attn_mask=future, average_attn_weights=False)
    assert_close(out, expected, TOLERANCE[dtype], "output vs nn.MultiheadAttention")
    assert_close(trace.weights, expected_weights, TOLERANCE[dtype], "weights vs nn.MultiheadAttention")


def test_multi_head_is_each_head_computed_alone_then_concatenated():
    module, x = make(torch.float64, heads=4)
    h, d = module.num_heads, module.head_dim
    contexts = []
    for head in range(h):
        rows = slice(head * d, (head + 1) * d)
        q = x @ module.query_layer.weight[rows].T + module.query_layer.bias[rows]  # (B, T, d)
        k = x @ module.key_layer.weight[rows].T + module.key_layer.bias[rows]
        v = x @ module.value_layer.weight[rows].T + module.value_layer.bias[rows]
        T = x.shape[1]
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        scores = scores.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
        contexts.append(torch.softmax(scores, dim=-1) @ v)
    expected = module.output_layer(torch.cat(contexts, dim=-1))
    assert_close(module(x), expected, 1e-10, "per-head loop vs parallel heads")


@pytest.mark.parametrize("width", [16, 48])
def test_parameter_count_does_not_depend_on_num_heads(width):
    counts = {
        heads: sum(p.numel() for p in MultiHeadAttention(width, width, 8, 0.0, heads).parameters())
        for heads in (1, 2, 4, 8, 16)
    }
    assert len(set(counts.values())) == 1, counts


def test_weight_rows_sum_to_one_and_masked_cells_are_exactly_zero():
    module, x = make(torch.float32, heads=4)
    trace = AttentionTrace()
    module(x, trace=trace)
    T = x.shape[1]
    assert_close(trace.weights.sum(-1), torch.ones(3, 4, T), 1e-6, "row sums")
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
    assert torch.all(trace.weights[..., future] == 0.0)
    assert torch.all(trace.masked_scores[..., future] == float("-inf"))
    assert torch.isfinite(trace.masked_scores[..., ~future]).all()
    assert torch.all(trace.weights[..., 0, 0] == 1.0), "the first token can only attend to itself"


def test_dropout_acts_only_in_training_mode():
    module, x = make(torch.float64, heads=2, dropout=0.5)
    module.eval()
    eval_trace = AttentionTrace()
    module(x, trace=eval_trace)
    assert torch.equal(eval_trace.weights, eval_trace.dropped_weights)
    assert torch.equal(module(x), module(x)), "eval mode is deterministic"
    module.train()
    torch.manual_seed(1)
    train_trace = AttentionTrace()
    module(x, trace=train_trace)
    dropped = train_trace.dropped_weights
    kept = dropped != 0
    assert not torch.equal(dropped, train_trace.weights)
    assert (~kept & (train_trace.weights > 0)).any(), "some weights are dropped"
    assert_close(dropped[kept], train_trace.weights[kept] * 2.0, 1e-12, "kept weights are scaled by 1/(1-p)")


def test_recorded_shapes_equal_the_shapes_of_the_recorded_tensors():
    module, x = make(torch.float32, heads=4, width=16)
    trace = AttentionTrace()
    module(x, trace=trace)
    B, T, C = x.shape
    h, d = 4, 4
    steps = {step.name: step for step in trace.shape_steps}
    assert steps["split heads"].code == ".view(B, T, h, d)"
    assert steps["split heads"].before == tuple(trace.queries.shape) == (B, T, C)
    assert steps["split heads"].after == (B, T, h, d)
    assert steps["heads first"].after == tuple(trace.queries_heads.shape) == (B, h, T, d)
    assert steps["scores"].after == tuple(trace.scores.shape) == (B, h, T, T)
    assert steps["context"].after == tuple(trace.context_heads.shape) == (B, h, T, d)
    assert steps["merge heads"].code == ".contiguous().view(B, T, C)"
    assert steps["merge heads"].after == tuple(trace.context.shape) == (B, T, C)
    assert steps["output projection"].after == tuple(trace.output.shape)
    for before, after in zip(trace.shape_steps, trace.shape_steps[1:], strict=False):
        assert before.after == after.before, f"{before.name} -> {after.name}"


@pytest.mark.parametrize(("heads", "width", "T"), [(4, 16, 4), (2, 16, 8), (8, 8, 1)])
def test_shape_letters_name_each_dimension_consistently(heads, width, T):
    """T = d or h = T must not confuse the letters: each letter always has one value."""
    module = MultiHeadAttention(width, width, 10, 0.0, heads)
    trace = AttentionTrace()
    module(torch.zeros(1, T, width), trace=trace)
    values = {}
    for step in trace.shape_steps:
        letters = step.letters.split()
        assert len(letters) == len(step.after), step
        for letter, size in zip(letters, step.after, strict=True):
            assert values.setdefault(letter, size) == size, (step.name, letter)
    assert values == {"B": 1, "T": T, "C": width, "h": heads, "d": width // heads, "C_out": width}


def test_trace_tensors_are_detached_and_in_lesson_order():
    module, x = make(torch.float32)
    x.requires_grad_(True)
    trace = AttentionTrace()
    out = module(x, trace=trace)
    assert out.requires_grad
    tensors = trace.tensors()
    assert list(tensors)[:3] == ["x", "queries", "keys"]
    assert list(tensors)[-1] == "output"
    assert all(not t.requires_grad for t in tensors.values())


def test_without_a_trace_nothing_is_recorded_and_the_output_is_the_same():
    module, x = make(torch.float64)
    attributes, state = set(vars(module)), set(module.state_dict())
    untraced = module(x)
    trace = AttentionTrace()
    assert torch.equal(untraced, module(x, trace=trace))
    assert torch.equal(module(x, trace=None), trace.output)
    assert trace.tensors() and AttentionTrace().tensors() == {}, "only a given trace is filled"
    assert set(vars(module)) == attributes and set(module.state_dict()) == state, "nothing is kept on the module"


def test_scale_off_leaves_the_scores_undivided():
    module, x = make(torch.float64, scale=False)
    trace = AttentionTrace()
    module(x, trace=trace)
    assert torch.equal(trace.scaled_scores, trace.scores)


def test_book_state_dict_names_load_unchanged():
    module = MultiHeadAttention(8, 8, 6, 0.1, 2, qkv_bias=False)
    names = set(module.state_dict())
    assert names == {
        "query_layer.weight",
        "key_layer.weight",
        "value_layer.weight",
        "output_layer.weight",
        "output_layer.bias",
        "mask",
    }
    assert module.mask.shape == (6, 6)
    assert torch.equal(module.mask, torch.triu(torch.ones(6, 6), diagonal=1))
    biased = MultiHeadAttention(8, 8, 6, 0.1, 2, qkv_bias=True)
    biased.load_state_dict(MultiHeadAttention(8, 8, 6, 0.1, 2, qkv_bias=True).state_dict())
    assert "query_layer.bias" in biased.state_dict()


@pytest.mark.parametrize(
    ("kwargs", "code", "words"),
    [
        (dict(output_dim=10, num_heads=4), "heads_not_divisor", "divisible"),
        (dict(num_heads=0), "heads_too_few", "at least 1"),
        (dict(dropout=1.0), "dropout_range", "[0, 1)"),
        (dict(dropout=-0.1), "dropout_range", "[0, 1)"),
        (dict(context_length=0), "context_too_small", "at least 1"),
    ],
)
def test_invalid_arguments_raise_a_readable_value_error(kwargs, code, words):
    args = dict(input_dim=8, output_dim=8, context_length=4, dropout=0.0, num_heads=2) | kwargs
    with pytest.raises(ValueError, match=None) as info:
        MultiHeadAttention(**args)
    assert isinstance(info.value, InputError) and info.value.code == code
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("shape", "code"),
    [((4, 8), "input_rank"), ((1, 4, 7), "input_width"), ((1, 5, 8), "sequence_too_long")],
)
def test_bad_inputs_raise_a_readable_value_error(shape, code):
    module = MultiHeadAttention(8, 8, 4, 0.0, 2)
    with pytest.raises(InputError) as info:
        module(torch.zeros(shape))
    assert info.value.code == code
    assert str(info.value)[0].isupper()


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("scale", [True, False])
def test_fused_training_path_equals_the_readable_path(dtype, scale):
    module, x = make(dtype, heads=4, scale=scale)
    fused = MultiHeadAttention(16, 16, 10, 0.0, 4, qkv_bias=True, scale=scale, fused=True).to(dtype).eval()
    fused.load_state_dict(module.state_dict())
    assert_close(fused(x), module(x), TOLERANCE[dtype], "fused vs readable")
    trace = AttentionTrace()
    assert_close(fused(x, trace=trace), module(x), TOLERANCE[dtype], "a traced forward reads the same")
    assert trace.weights is not None, "a trace always takes the readable path"


def test_fused_path_backpropagates_the_same_gradients():
    module, x = make(torch.float64, heads=2)
    fused = MultiHeadAttention(16, 16, 10, 0.0, 2, qkv_bias=True, fused=True).to(torch.float64)
    fused.load_state_dict(module.state_dict())
    module(x).square().sum().backward()
    fused(x).square().sum().backward()
    for (name, a), b in zip(module.named_parameters(), fused.parameters(), strict=True):
        assert_close(b.grad, a.grad, 1e-10, f"grad of {name}")


def test_a_sequence_of_exactly_context_length_tokens_is_accepted():
    module = MultiHeadAttention(8, 8, 4, 0.0, 2).eval()
    trace = AttentionTrace()
    out = module(torch.randn(1, 4, 8), trace=trace)
    assert out.shape == (1, 4, 8)
    assert torch.all(trace.weights[0, :, 0, 1:] == 0.0), "the full-length mask still hides the future"


def test_the_smallest_layer_one_channel_one_head_one_token_works():
    module = MultiHeadAttention(1, 1, 1, 0.0, 1).eval()
    trace = AttentionTrace()
    out = module(torch.randn(2, 1, 1), trace=trace)
    assert out.shape == (2, 1, 1)
    assert torch.all(trace.weights == 1.0), "a single token attends only to itself"
    assert module.head_dim == 1


@pytest.mark.parametrize("scale", [True, False])
def test_the_scale_step_shows_the_code_that_ran(scale):
    module, x = make(torch.float64, scale=scale)
    trace = AttentionTrace()
    module(x, trace=trace)
    code = {step.name: step.code for step in trace.shape_steps}["scale"]
    assert code == ("/ math.sqrt(d)" if scale else "(no scaling)")
    d = module.head_dim
    expected = trace.scores / math.sqrt(d) if scale else trace.scores
    assert_close(trace.scaled_scores, expected, 1e-12, "scaled scores")


def test_a_reused_trace_records_each_shape_step_once():
    module, x = make(torch.float32)
    trace = AttentionTrace()
    module(x, trace=trace)
    first = list(trace.shape_steps)
    module(x[:, :3], trace=trace)
    assert len(trace.shape_steps) == len(first) == 12
    assert trace.shape_steps[-1].after == (3, 3, 16), "the second pass's shapes replace the first's"


def test_the_book_default_has_no_query_key_value_bias_and_scales():
    module = MultiHeadAttention(8, 8, 4, 0.0, 2)
    assert all(layer.bias is None for layer in (module.query_layer, module.key_layer, module.value_layer))
    assert module.output_layer.bias is not None
    assert module.scale and not module.fused


def test_a_fused_layer_in_training_mode_draws_its_dropout_from_the_given_generator():
    """With a generator, dropout must come from it (never torch's global state), so the fused
    layer takes the readable path and gives the readable layer's numbers for the same seed."""
    readable, x = make(torch.float64, heads=4, dropout=0.5)
    fused = MultiHeadAttention(16, 16, 10, 0.5, 4, qkv_bias=True, fused=True).to(torch.float64)
    fused.load_state_dict(readable.state_dict())
    readable.train()
    fused.train()
    torch.manual_seed(0)
    before = torch.rand(3)
    torch.manual_seed(0)
    expected = readable(x, generator=torch.Generator().manual_seed(3))
    out = fused(x, generator=torch.Generator().manual_seed(3))
    assert torch.equal(torch.rand(3), before), "torch's global random state was not drawn from"
    assert_close(out, expected, 1e-12, "fused with a generator vs readable with the same generator")
    assert not torch.equal(out, fused.eval()(x)), "dropout acted"


@pytest.mark.parametrize("width", [1, 0])
def test_widths_below_one_are_refused_and_one_is_accepted(width):
    if width >= 1:
        assert MultiHeadAttention(width, width, 2, 0.0, 1).input_dim == width
        return
    for kwargs in (dict(input_dim=width), dict(output_dim=width)):
        args = dict(input_dim=4, output_dim=4, context_length=2, dropout=0.0, num_heads=1) | kwargs
        with pytest.raises(InputError) as info:
            MultiHeadAttention(**args)
        assert info.value.code == "dim_too_small" and info.value.params["value"] == width


@pytest.mark.parametrize(
    ("kwargs", "params"),
    [
        (dict(output_dim=10, num_heads=4), {"output_dim": 10, "num_heads": 4}),
        (dict(num_heads=0), {"num_heads": 0}),
        (dict(dropout=1.0), {"dropout": 1.0}),
        (dict(context_length=0), {"context_length": 0}),
        (dict(input_dim=0), {"name": "input_dim", "value": 0}),
        (dict(output_dim=-2), {"name": "output_dim", "value": -2}),
    ],
)
def test_a_refused_layer_names_the_values_it_refused(kwargs, params):
    args = dict(input_dim=8, output_dim=8, context_length=4, dropout=0.0, num_heads=2) | kwargs
    with pytest.raises(InputError) as info:
        MultiHeadAttention(**args)
    assert info.value.params == params


@pytest.mark.parametrize(
    ("shape", "params"),
    [
        ((4, 8), {"ndim": 2, "shape": (4, 8)}),
        ((1, 4, 7), {"input_dim": 8, "width": 7, "shape": (1, 4, 7)}),
        ((1, 5, 8), {"tokens": 5, "context_length": 4}),
    ],
)
def test_a_refused_input_names_its_shape(shape, params):
    with pytest.raises(InputError) as info:
        MultiHeadAttention(8, 8, 4, 0.0, 2)(torch.zeros(shape))
    assert info.value.params == params


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_a_fused_layer_with_dropout_in_eval_mode_drops_nothing(dtype):
    readable, x = make(dtype, heads=4, dropout=0.5)
    fused = MultiHeadAttention(16, 16, 10, 0.5, 4, qkv_bias=True, fused=True).to(dtype).eval()
    fused.load_state_dict(readable.state_dict())
    assert_close(fused(x), readable.eval()(x), TOLERANCE[dtype], "fused eval vs readable eval")
    assert torch.equal(fused(x), fused(x))


def test_a_fused_layer_in_training_mode_without_a_generator_applies_dropout():
    module = MultiHeadAttention(16, 16, 10, 0.5, 4, fused=True).to(torch.float64)
    x = torch.randn(2, 6, 16, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    evaluated = module.eval()(x)
    torch.manual_seed(0)
    first = module.train()(x)
    torch.manual_seed(0)
    assert torch.equal(module(x), first), "the same global seed, the same mask"
    assert not torch.allclose(first, evaluated), "half the weights dropped changes the output"


def test_the_trace_keeps_each_projection_as_the_layers_compute_it():
    """Q, K and V before the split: the three linear layers applied to x in the test."""
    torch.manual_seed(0)
    layer = MultiHeadAttention(6, 8, 10, 0.0, 2).eval()
    x = torch.randn(1, 5, 6)
    trace = AttentionTrace()
    layer(x, trace=trace)
    with torch.no_grad():
        for name, linear in (("queries", layer.query_layer), ("keys", layer.key_layer), ("values", layer.value_layer)):
            expected = x @ linear.weight.T + (linear.bias if linear.bias is not None else 0)
            assert_close(getattr(trace, name), expected, 1e-6, name)
