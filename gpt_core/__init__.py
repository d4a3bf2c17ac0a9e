"""gpt_core: multi-head causal attention with a full trace, in pure torch.

Never imports streamlit or plotly and never prints: the app and notebooks read its values.
"""

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
from .tokens import TOKENIZERS, char_tokens, display_label, display_labels, tokenize, word_tokens

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
    "build_attention",
    "char_tokens",
    "display_label",
    "display_labels",
    "embed",
    "tokenize",
    "trace_attention",
    "word_tokens",
]
