"""Loading a real model: its folder (fetched first when needed) through transformers, in eval
mode and float32, its attention replaced by the registered tracing attention, with its
tokenizer, its spelling and its description in the book's letters."""

from __future__ import annotations

import threading
from pathlib import Path

import torch

from ..errors import InputError
from ..source import Description
from .hub import Progress, fetch
from .model import RealModel
from .reading import spelling
from .recording import attention_modules, hook_inputs_and_outputs, traced_attention

IMPLEMENTATION = "seeing_attention_trace"  # the name this package's attention is registered under

_REGISTER_LOCK = threading.Lock()
_REGISTERED = False


def _register() -> None:
    """Register the tracing attention and the eager mask with transformers (once)."""
    global _REGISTERED
    with _REGISTER_LOCK:
        if _REGISTERED:
            return
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, eager_mask

        AttentionInterface.register(IMPLEMENTATION, traced_attention)
        AttentionMaskInterface.register(IMPLEMENTATION, eager_mask)
        _REGISTERED = True


def _describe(name: str, model, folder: Path) -> Description:
    config = model.config
    heads = config.num_attention_heads
    kv_heads = getattr(config, "num_key_value_heads", None) or heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // heads
    context = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", 0)
    parameters = sum(p.numel() for p in model.parameters())
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    download = sum(path.stat().st_size for path in folder.iterdir() if path.is_file()) if folder.is_dir() else 0
    return Description(
        name=name,
        family=config.model_type,
        layers=config.num_hidden_layers,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        hidden=config.hidden_size,
        context=int(context),
        parameters=parameters,
        bytes=size,
        download_bytes=download,
    )


def _hook_attention(name: str, model) -> None:
    """Hook the modules transformers passes to the registered attention (one per layer, or the
    model is refused: a layer it never passes could not be traced)."""
    try:
        modules = attention_modules(model)
    except Exception as error:  # noqa: BLE001 - a model that cannot read one token is not one the app can show
        reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
        raise InputError("model_unsupported", name=name, reason=reason) from error
    if len(modules) != model.config.num_hidden_layers:
        raise InputError("model_unsupported", name=name, reason="attention not traced")
    hook_inputs_and_outputs(modules.values())


def load(name: str, progress: Progress | None = None) -> RealModel:
    """Model ``name`` (a Hugging Face id or a local folder) in eval mode, float32, traced
    through this package's attention, with its tokenizer and description. Downloads it first
    when needed (see ``fetch``). Raises ``InputError`` with a message that names the model."""
    folder = fetch(name, progress)
    _register()
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging

    logging.disable_progress_bar()  # gpt_core never prints: a caller shows its own progress
    logging.set_verbosity_error()

    try:
        model = AutoModelForCausalLM.from_pretrained(
            folder,
            attn_implementation=IMPLEMENTATION,
            dtype=torch.float32,
            trust_remote_code=False,
            use_safetensors=True,
        )
        tokenizer = AutoTokenizer.from_pretrained(folder, trust_remote_code=False)
    except Exception as error:  # noqa: BLE001 - an unknown architecture, missing files, remote code
        raise InputError("model_unsupported", name=name, reason=str(error).splitlines()[0][:200]) from error
    if not getattr(tokenizer, "is_fast", False):
        raise InputError("model_unsupported", name=name, reason="no fast tokenizer")
    model.eval()
    model.requires_grad_(False)  # shared by every session: read only
    _hook_attention(name, model)
    return RealModel(model, tokenizer, _describe(name, model, folder), folder, spelling(tokenizer))


def adopt(model, tokenizer, name: str | None = None) -> RealModel:
    """A model and tokenizer the caller loaded with transformers, made traceable as ``load``'s
    are: its attention implementation becomes this package's (the numbers are eager attention's),
    eval mode, its attention modules hooked. Its dtype is kept. Raises ``InputError`` for a model
    this cannot trace."""
    _register()
    name = name or getattr(model.config, "_name_or_path", "") or type(model).__name__
    if not getattr(tokenizer, "is_fast", False):
        raise InputError("model_unsupported", name=name, reason="no fast tokenizer")
    try:
        model.set_attn_implementation(IMPLEMENTATION)
    except Exception as error:  # noqa: BLE001 - an architecture without the attention registry
        raise InputError("model_unsupported", name=name, reason=str(error).splitlines()[0][:200]) from error
    model.eval()
    _hook_attention(name, model)
    folder = Path(getattr(model.config, "_name_or_path", "") or ".")
    return RealModel(model, tokenizer, _describe(name, model, folder), folder, spelling(tokenizer))
