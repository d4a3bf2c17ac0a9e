"""gpt_core: multi-head causal attention with a full trace, in pure torch.

Never imports streamlit or plotly and never prints: the app and notebooks read its values.
"""

from .analysis import SoftmaxSteps, head_statistics, softmax_steps
from .attention import AttentionTrace, MultiHeadAttention, ShapeStep
from .errors import InputError
from .playground import (
    MAX_HEAD_DIM,
    MAX_HEADS,
    MAX_INPUT_DIM,
    MAX_TOKENS,
    PlaygroundConfig,
    PlaygroundTrace,
    build_attention,
    embed,
    trace_attention,
)
from .tokens import (
    TOKENIZERS,
    char_tokens,
    display_label,
    display_labels,
    tokenize,
    truncate_text,
    word_tokens,
)

__all__ = [
    "MAX_HEADS",
    "MAX_HEAD_DIM",
    "MAX_INPUT_DIM",
    "MAX_TOKENS",
    "TOKENIZERS",
    "AttentionTrace",
    "InputError",
    "MultiHeadAttention",
    "PlaygroundConfig",
    "PlaygroundTrace",
    "ShapeStep",
    "SoftmaxSteps",
    "build_attention",
    "char_tokens",
    "display_label",
    "display_labels",
    "embed",
    "head_statistics",
    "softmax_steps",
    "tokenize",
    "truncate_text",
    "trace_attention",
    "word_tokens",
]
