"""How a reader recomputes a view's numbers away from the app: the Python each source's
``reproduction`` gives, and the ``seeing-attention export`` command that writes its offline
page. Every piece of code here prints the traced tokens and head 1's softmax weights, leaves
every stage of the layer in ``trace`` and every head's softmax weights, (h, T, T), in ``weights``."""

from __future__ import annotations

import shlex
from dataclasses import asdict

from .playground import PlaygroundConfig

# The top of the Python: how to get gpt_core, which is not on PyPI.
SNIPPET_HEADER = """\
# Recomputes the numbers of the Seeing Attention playground with gpt_core.
#
# gpt_core is the pure-torch package of the Seeing Attention repository.
# Install it once: in a clone of that repository (the folder with pyproject.toml) run
#     pip install -e .        (or: pip install .; either also installs torch)
# Then run this file from anywhere:
#     python reproduce_attention.py

try:
    {imports}
except ModuleNotFoundError as missing:
    raise SystemExit(f"{{missing}}. Install gpt_core: pip install -e . in a clone of the repository.") from missing
"""
PRINT_HEAD = (
    "weights = trace.weights[0]  # (h, T, T) every head's softmax weights: rows are queries, columns keys\n"
    "print(weights[0])  # head 1\n"
)


def _header(imports: str) -> str:
    return SNIPPET_HEADER.format(imports=imports) + "\n"


def random_code(text: str, config: PlaygroundConfig) -> str:
    """Python that draws the same random weights from the seed and traces ``text``."""
    settings = ", ".join(f"{name}={value!r}" for name, value in asdict(config).items())
    return (
        _header("from gpt_core import PlaygroundConfig, trace_attention")
        + f"config = PlaygroundConfig({settings})\n"
        + f"result = trace_attention({text!r}, config)\n"
        + "trace = result.trace  # every stage: trace.scores, trace.masked_scores, trace.weights, ...\n"
        + "print(result.tokens)\n"
        + PRINT_HEAD
    )


def hub_code(name: str, text: str, layer: int) -> str:
    """Python that loads a Hugging Face model by name and traces layer ``layer`` (0-based)."""
    return (
        _header("from gpt_core import hf")
        + f"loaded = hf.load({name!r})  # downloads it once into the Hugging Face cache\n"
        + f"traced = hf.trace(loaded, {text!r})\n"
        + f"trace = traced.layers[{layer}]  # layer {layer + 1}: trace.scores, trace.masked_scores, trace.weights, ...\n"
        + "print(traced.labels)\n"
        + PRINT_HEAD
    )


def checkpoint_code(checkpoint: str, text: str, layer: int) -> str:
    """Python that loads the book's GPT from its checkpoint file and traces block ``layer``."""
    return (
        _header("from gpt_core import load_checkpoint, trace_model")
        + f"loaded = load_checkpoint({checkpoint!r})  # the model's file (the Train page downloads yours)\n"
        + f"traced = trace_model(loaded.model, loaded.vocabulary, {text!r})\n"
        + f"trace = traced.layers[{layer}]  # block {layer + 1}: trace.scores, trace.masked_scores, trace.weights, ...\n"
        + "print(traced.labels)\n"
        + PRINT_HEAD
    )


def random_command(text: str, config: PlaygroundConfig) -> str:
    """The ``seeing-attention export`` command that writes the page of these random weights."""
    parts = ["seeing-attention", "export", "--text", text, "--heads", str(config.heads)]
    parts += ["--head-dim", str(config.head_dim), "--seed", str(config.seed), "--tok", config.tokenizer]
    if config.input_dim is not None:
        parts += ["--input-dim", str(config.input_dim)]
    if not config.positional:
        parts.append("--no-positional")
    if config.dropout:
        parts += ["--dropout", repr(config.dropout)] + (["--training"] if config.training else [])
    if config.qkv_bias:
        parts.append("--qkv-bias")
    if not config.scale:
        parts.append("--no-scale")
    return shlex.join(parts)


def hub_command(name: str, text: str, layers: list[int]) -> str:
    """The ``seeing-attention export`` command that writes a Hugging Face model's page."""
    chosen = ",".join(str(index) for index in layers)
    return shlex.join(["seeing-attention", "export", "--model", name, "--layer", chosen, "--text", text])
