"""gpt_core: multi-head causal attention with a full trace, and a tiny GPT, in pure torch.

Never imports streamlit or plotly and never prints: the app and notebooks read its values.
"""

from .analysis import QKProducts, SoftmaxSteps, head_statistics, qk_products, softmax_steps
from .attention import DETAIL_STAGES, STAGES, AttentionTrace, MultiHeadAttention, ShapeStep
from .checkpoint import Checkpoint, CheckpointMeta, checkpoint_bytes, load_checkpoint, save_checkpoint
from .data import (
    SYNTHETIC_KINDS,
    CharDataset,
    CharVocabulary,
    Corpus,
    build_corpus,
    corpus_cache_dir,
    decode_user_text,
    download_tiny_shakespeare,
    find_tiny_shakespeare,
    load_tiny_shakespeare,
    read_verified,
    synthetic_text,
)
from .errors import InputError
from .explore import trace_model
from .generate import generate
from .given import GivenWeights
from .model import GPT, GPTConfig, GPTTrace
from .module_source import ModuleSource
from .modules import trace_module
from .odds import NextToken, Odds, next_token, next_token_odds, sample
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
from .runs import RunSummary, compact_history
from .token_view import Link, TokenAttention, strongest_links, token_attention
from .tokens import (
    TOKENIZERS,
    char_tokens,
    display_label,
    display_labels,
    position_label,
    tokenize,
    truncate_text,
    word_tokens,
)
from .train import HistoryPoint, Progress, TrainConfig, TrainResult, evaluate, last_test_loss, train

__all__ = [
    "DETAIL_STAGES",
    "GPT",
    "STAGES",
    "MAX_HEADS",
    "MAX_HEAD_DIM",
    "MAX_INPUT_DIM",
    "MAX_TOKENS",
    "SYNTHETIC_KINDS",
    "TOKENIZERS",
    "AttentionTrace",
    "CharDataset",
    "CharVocabulary",
    "Checkpoint",
    "CheckpointMeta",
    "Corpus",
    "GPTConfig",
    "GPTTrace",
    "GivenWeights",
    "HistoryPoint",
    "InputError",
    "Link",
    "ModuleSource",
    "MultiHeadAttention",
    "NextToken",
    "Odds",
    "PlaygroundConfig",
    "PlaygroundTrace",
    "Progress",
    "QKProducts",
    "RunSummary",
    "ShapeStep",
    "TokenAttention",
    "SoftmaxSteps",
    "TrainConfig",
    "TrainResult",
    "build_attention",
    "build_corpus",
    "char_tokens",
    "checkpoint_bytes",
    "compact_history",
    "decode_user_text",
    "display_label",
    "display_labels",
    "corpus_cache_dir",
    "download_tiny_shakespeare",
    "embed",
    "evaluate",
    "find_tiny_shakespeare",
    "generate",
    "trace_module",
    "head_statistics",
    "last_test_loss",
    "load_checkpoint",
    "trace_model",
    "load_tiny_shakespeare",
    "next_token",
    "next_token_odds",
    "position_label",
    "qk_products",
    "read_verified",
    "sample",
    "save_checkpoint",
    "softmax_steps",
    "strongest_links",
    "synthetic_text",
    "token_attention",
    "tokenize",
    "trace_attention",
    "train",
    "truncate_text",
    "word_tokens",
]
