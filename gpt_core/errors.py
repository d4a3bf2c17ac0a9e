"""The one exception type the core raises for bad input.

Its message is a sentence a student can read as it is. ``code`` and ``params`` let a user
interface show the same message in another language (see ``ui/strings.py``).
"""

from __future__ import annotations

from typing import Any

#: English message templates, keyed by error code. Formatted with the error's params.
MESSAGES: dict[str, str] = {
    "heads_not_divisor": (
        "output_dim ({output_dim}) must be divisible by num_heads ({num_heads}): "
        "each head gets output_dim / num_heads channels."
    ),
    "heads_too_few": "num_heads must be at least 1 (got {num_heads}).",
    "dim_too_small": "{name} must be at least 1 (got {value}).",
    "context_too_small": "context_length must be at least 1 (got {context_length}).",
    "dropout_range": "dropout must be in [0, 1) (got {dropout}).",
    "input_rank": (
        "The input must have shape (B, T, C): a batch of sequences of vectors. "
        "Got {ndim} dimensions with shape {shape}."
    ),
    "input_width": (
        "Each token vector must have input_dim = {input_dim} numbers, but the input has {width} (shape {shape})."
    ),
    "sequence_too_long": (
        "The sequence has {tokens} tokens but this attention layer was built for at most "
        "context_length = {context_length}."
    ),
    "empty_text": "There is no text to tokenize: type a few characters or words first.",
    "out_of_range": "{name} must be between {low} and {high} (got {value}).",
    "unknown_choice": "{name} must be one of {choices} (got {value!r}).",
    "no_tokens": "The text has no {tokenizer} tokens (only spaces or separators?).",
}


class InputError(ValueError):
    """Bad input, explained in one sentence a student understands.

    ``code`` names the kind of problem and ``params`` the numbers in it, so a caller can
    translate the message; ``str(error)`` is the English sentence.
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(MESSAGES[code].format(**params))
