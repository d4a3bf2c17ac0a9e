"""The one exception type the core raises for bad input.

Its message is a sentence a student can read as it is. ``code`` and ``params`` let a user
interface show the same message in another language (see ``string_table.py``).
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
    "no_generation": (
        "{name} has no vocabulary and no output head: it generates no tokens, so it keeps no key/value cache. "
        "Choose a model that generates: the book's GPT or a Hugging Face model."
    ),
    "no_snapshot": "This model kept no attention at training step {step}: it kept snapshots only while it trained.",
    "own_corpus_empty": "Your corpus is empty: paste a text, or upload a UTF-8 text file of at most {limit_mb} MB (a larger file is refused by the upload box and not used).",
    "out_of_range": "{name} must be between {low} and {high} (got {value}).",
    "unknown_choice": "{name} must be one of {choices} (got {value!r}).",
    "no_tokens": "The text has no {tokenizer} tokens (only spaces or separators?).",
    "no_known_characters": (
        "None of the {characters} characters is in this model's vocabulary: type characters it was trained on."
    ),
    "corpus_too_short": (
        "The text is too short to train on: {chars} characters, but the model reads "
        "{context_length} at a time. Give it at least {minimum} characters."
    ),
    "corpus_too_short_for_window": (
        "The text is too short: {chars} characters, but the model reads {context_length} at a time."
    ),
    "vocab_too_large": (
        "The text has {size} different characters; a character model here handles at most {limit}. "
        "Is it really plain text?"
    ),
    "checksum_mismatch": (
        "The file {path} is not the expected corpus (its checksum starts {actual}, expected {expected}); it was not used."
    ),
    "corpus_missing": (
        "Tiny Shakespeare was not found: download it on the Train page, or set {env} to the file's path "
        "(its checksum is checked)."
    ),
    "download_failed": (
        "Tiny Shakespeare could not be downloaded from {url} ({reason}). Is this computer offline? "
        "Nothing was changed; you can try again, or give the file's path in TINY_SHAKESPEARE."
    ),
    "cache_unwritable": "The folder {path} cannot be written ({reason}): set GPT_CACHE_DIR to a folder that can.",
    "corpus_too_large": "The file is too large: {size} bytes (at most {limit}).",
    "not_text": "This file looks binary (it contains zero bytes), not text. Upload a UTF-8 text file.",
    "not_utf8": "This file is not UTF-8 text (a byte at position {position} can't be read). Save it as UTF-8 and try again.",
    "budget_kind": "Give exactly one training budget, in steps or in seconds (got steps={steps}, seconds={seconds}).",
    "checkpoint_format": (
        "This model file has format version {found}; this version of the app reads version {expected}. "
        "Train and save it again."
    ),
    "too_slow_for_cap": (
        "This model is too large to train here: one step would take about {step} s, and a run may take "
        "{cap} s in all, which is not enough for {steps} steps and an evaluation. It has {parameters:,} "
        "parameters; about {largest:,} would fit. Choose fewer heads, a smaller head_dim, fewer blocks "
        "or a shorter context."
    ),
    "too_slow_to_stop": (
        "This model is too large to train here: each of its blocks would take about {block} s, and the "
        "Stop button must be able to end a run within {limit} s. It has {parameters:,} parameters; about "
        "{largest:,} would do. Choose fewer heads, a smaller head_dim or a shorter context."
    ),
    "too_large_for_memory": (
        "This model is too large to train here: a training step would need about {estimate_mb} MB of "
        "memory, and a run may use {budget_mb} MB. It has {parameters:,} parameters; about {largest:,} "
        "would fit. Choose fewer heads, a smaller head_dim, fewer blocks or a shorter context."
    ),
    "checkpoint_unreadable": (
        "This file is not a model saved by this app's Train page (it could not be read as one). "
        "Upload the .pt file its download button gave you."
    ),
    "checkpoint_mismatch": (
        "This model file's weights ({given:,} numbers) do not match the model it describes ({expected:,}): "
        "the file is damaged or was changed."
    ),
    "model_not_found": (
        "The model {name} was not found on the Hugging Face Hub (a typo, or a private model?). "
        "The host can fetch it ahead: {fetch}"
    ),
    "model_gated": (
        "The model {name} is gated: its page on the Hugging Face Hub asks you to accept its licence. "
        "Accept it there, log in (hf auth login), then fetch it ahead: {fetch}"
    ),
    "model_offline": (
        "The model {name} is not in this computer's cache and the Hub cannot be reached. "
        "Fetch it ahead, where there is a network: {fetch}"
    ),
    "model_unreachable": (
        "The model {name} could not be downloaded ({detail}): is this computer offline? "
        "The host can fetch it ahead: {fetch}"
    ),
    "model_folder_missing": (
        "There is no folder {name} on this computer: check the path (a model's folder holds its config.json, "
        "safetensors weights and tokenizer files). A Hugging Face id has no folder's form: owner/name, "
        "such as openai-community/gpt2."
    ),
    "model_no_files": "The model {name} has no config, safetensors weights or tokenizer files this app can read.",
    "model_unsupported": "The model {name} cannot be shown here ({reason}): choose a causal language model.",
    "model_not_offered": "This server does not offer the model {name}; it offers: {offered}.",
    "module_unsupported": (
        "A {kind} cannot be traced here ({reason}). Pass gpt_core's MultiHeadAttention, the book's (with "
        "query_layer, key_layer, value_layer, output_layer and num_heads) or torch.nn.MultiheadAttention."
    ),
    "module_differs": (
        "This {kind} does not compute the book's causal attention of its own projections (its {part} differs by "
        "{difference}): is it causal, with scores divided by √head_dim?"
    ),
    "given_shape": (
        "The attention weights must be a tuple of per-layer tensors (1, h, T, T), as transformers' "
        "outputs.attentions, one tensor (layers, h, T, T) or one layer's (h, T, T); got {shape}."
    ),
    "given_batch": "Layer {layer}'s weights hold several texts, shape {shape}: pass one text's, (1, h, T, T).",
    "given_no_tokens": "The attention weights need their tokens: a list of T strings, one per position.",
    "given_tokens": (
        "Layer {layer}'s weights have shape {shape}, but {tokens} tokens and the first layer's {heads} heads "
        "need ({heads}, {tokens}, {tokens}): are these the tokens the weights were computed for?"
    ),
    "given_values": "Layer {layer}'s weights are not all finite and at least 0: are they softmax weights?",
    "given_not_causal": (
        "These weights are not causal: in layer {layer}, head {head}, query {row} puts {weight} on the later "
        "token {col}. This app shows causal attention (each token reads only itself and the tokens before it)."
    ),
    "given_rows": (
        "These are not softmax weights: in layer {layer}, head {head}, row {row} sums to {total}, not 1 "
        "(were the scores before the softmax passed?)."
    ),
    "temperature_negative": "The temperature must be a number of at least 0 (got {value}); 0 always picks the likeliest token.",
    "top_k_too_small": "top-k must be a whole number of at least 1 (got {value}): it keeps the k likeliest tokens.",
    "top_p_range": "top-p must be more than 0 and at most 1 (got {value}): it keeps the likeliest tokens up to that probability.",
    "steps_range": "The training budget must be between {low} and {high} {unit} (got {value}).",
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
