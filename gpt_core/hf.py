"""Real language models from Hugging Face, traced stage by stage with the book's names.

Any causal decoder that transformers runs (GPT-2, Llama, Qwen2, Mistral, …) is traced through
transformers' public attention registry: ``AttentionInterface.register`` puts this module's
attention function in place of the model's own (and ``AttentionMaskInterface.register`` the
eager mask beside it). The function receives every layer's query ``(B, h, T, d)`` and
key/value ``(B, h_kv, T, d)`` after rotary positions and computes exactly what transformers'
eager attention computes, keeping each layer's tensors while a trace is being taken.

transformers is imported only when a real model is loaded: a server that never offers one
never loads it. Nothing here runs a model's own code (``trust_remote_code`` is never set).

    loaded = load("gpt2")              # a Hugging Face id (downloaded once) or a local folder
    traced = trace(loaded, "the cat")  # traced.layers[i]: an AttentionTrace, as the playground draws
"""

from __future__ import annotations

import contextvars
import json
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from .attention import AttentionTrace, ShapeStep
from .errors import InputError
from .tokens import display_label

IMPLEMENTATION = "seeing_attention_trace"  # the name this module's attention is registered under
MAX_REAL_TOKENS = 512  # the app reads at most this many tokens of a text (or the model's context)
# What a model folder needs: its config, safetensors weights and tokenizer. Never a pickle
# (*.bin, *.pt): loading one could run code.
MODEL_FILES = ("*.json", "*.safetensors", "*.txt", "*.model", "*.tiktoken")
DEFAULT_MODELS = ("gpt2", "distilgpt2", "HuggingFaceTB/SmolLM2-135M", "Qwen/Qwen2.5-0.5B")
HUB_TIMEOUT_S = 10.0
Progress = Callable[[int, int], None]  # (bytes done, bytes in all), while a model downloads

_RECORDER: contextvars.ContextVar[_Recorder | None] = contextvars.ContextVar("hf_recorder", default=None)
_REGISTER_LOCK = threading.Lock()
_REGISTERED = False


@dataclass(frozen=True)
class ModelDescription:
    """What a loaded model is, in the book's letters."""

    name: str  # as it was asked for: a Hugging Face id or a folder
    family: str  # transformers' model_type: "gpt2", "llama", "qwen2", …
    layers: int
    heads: int  # h: query heads
    kv_heads: int  # h_kv: key/value heads (fewer than h: grouped-query attention)
    head_dim: int  # d
    hidden: int  # the width of the stream between layers
    context: int  # the most tokens the model was built for
    parameters: int
    bytes: int  # the weights in memory (float32)
    download_bytes: int  # the files of its folder

    @property
    def groups(self) -> int:
        """Query heads per key/value head (1 without grouped-query attention)."""
        return self.heads // self.kv_heads

    @property
    def width(self) -> int:
        """C = h × d: the queries' width before the split."""
        return self.heads * self.head_dim

    def layer_config(self) -> RealConfig:
        return RealConfig(self.heads, self.head_dim, self.hidden, self.name, self.kv_heads)


@dataclass(frozen=True)
class RealConfig:
    """A real layer's sizes under the names of ``PlaygroundConfig`` (what a view of one
    layer reads): fixed by the model, never chosen."""

    heads: int
    head_dim: int
    input_dim: int  # the stream's width
    tokenizer: str  # the model's name: it reads with its own tokenizer
    kv_heads: int
    dropout: float = 0.0
    training: bool = False
    qkv_bias: bool = False
    scale: bool = True

    @property
    def output_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def embedding_dim(self) -> int:
        return self.input_dim


@dataclass(frozen=True)
class Spelling:
    """How a tokenizer spells its tokens, read once when its model is loaded (not per token)."""

    byte_level: bool  # GPT-2's byte alphabet (a ByteLevel pre-tokenizer or decoder): "Ġthe", "åĬ"
    special: frozenset[int]  # the ids of its special tokens (BOS, EOS, …)
    size: int  # len(tokenizer): ids from here on (a padded embedding's extra rows) are no token


@dataclass(frozen=True)
class RealModel:
    """A loaded model (eval mode, shared read-only), its tokenizer and its description."""

    model: Any  # a transformers PreTrainedModel
    tokenizer: Any
    description: ModelDescription
    folder: Path
    spelling: Spelling


@dataclass(frozen=True)
class Piece:
    """One token as the model reads it."""

    token_id: int
    kind: str  # "text" (whole characters), "bytes" (a piece of a character), "special" (BOS, …)
    # or "none" (an id the tokenizer has no token for: a padded embedding's extra row)
    text: str  # what it stands for: its characters, its bytes as hex, the special token's name, "<id N>"
    label: str  # a visible label: a leading space as ␣, a byte piece with its character
    source: str  # the characters of the text it was read from (a byte piece: its whole character)


@dataclass
class _LayerRecord:
    x: torch.Tensor | None = None  # (B, T, hidden) the attention's input
    queries: torch.Tensor | None = None  # (B, h, T, d)
    keys: torch.Tensor | None = None  # (B, h_kv, T, d)
    values: torch.Tensor | None = None  # (B, h_kv, T, d)
    scaling: float = 1.0
    blocked: torch.Tensor | None = None  # (B, 1, T, T) True where the model's mask blocks
    weights: torch.Tensor | None = None  # (B, h, T, T)
    context_heads: torch.Tensor | None = None  # (B, h, T, d)
    output: torch.Tensor | None = None  # (B, T, hidden) after the output projection


class _Recorder:
    def __init__(self) -> None:
        self.layers: dict[int, _LayerRecord] = {}

    def layer(self, module: Any) -> _LayerRecord:
        return self.layers.setdefault(int(module.layer_idx), _LayerRecord())


def _stages(query, keys, scaling, attention_mask):
    """Raw, scaled scores and weights, as transformers' eager attention computes them."""
    scores = torch.matmul(query, keys.transpose(2, 3))  # (B, h, T, T) raw Q Kᵀ
    scaled = scores * scaling
    masked = scaled + attention_mask if attention_mask is not None else scaled
    weights = torch.nn.functional.softmax(masked, dim=-1, dtype=torch.float32).to(query.dtype)
    return scores, scaled, weights


def _repeat(states: torch.Tensor, groups: int) -> torch.Tensor:
    """(B, h_kv, T, d) -> (B, h, T, d): each key/value head once per query head of its group."""
    if groups == 1:
        return states
    B, h_kv, T, d = states.shape
    return states[:, :, None].expand(B, h_kv, groups, T, d).reshape(B, h_kv * groups, T, d)


def _blocked(attention_mask: torch.Tensor | None, dtype: torch.dtype, T: int) -> torch.Tensor:
    """The cells the model masks (it adds a very large negative number there, not −∞)."""
    if attention_mask is None:
        return torch.zeros(1, 1, T, T, dtype=torch.bool)
    return attention_mask <= torch.finfo(dtype).min / 2


def _attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    """The model's attention, computed as transformers' eager attention does (and kept while
    a trace is being taken). Returns (output (B, T, h, d), weights (B, h, T, T))."""
    groups = query.shape[1] // key.shape[1]
    scaling = query.shape[-1] ** -0.5 if scaling is None else scaling
    keys, values = _repeat(key, groups), _repeat(value, groups)
    _, _, weights = _stages(query, keys, scaling, attention_mask)
    weights = torch.nn.functional.dropout(weights, p=dropout, training=module.training)
    output = torch.matmul(weights, values)  # (B, h, T, d)
    recorder = _RECORDER.get()
    if recorder is not None:
        record = recorder.layer(module)
        record.queries, record.keys, record.values = query.detach(), key.detach(), value.detach()
        record.scaling = float(scaling)
        record.blocked = _blocked(attention_mask, query.dtype, query.shape[2])
        record.weights, record.context_heads = weights.detach(), output.detach()
    return output.transpose(1, 2).contiguous(), weights


def _register() -> None:
    """Register the tracing attention and the eager mask with transformers (once)."""
    global _REGISTERED
    with _REGISTER_LOCK:
        if _REGISTERED:
            return
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, eager_mask

        AttentionInterface.register(IMPLEMENTATION, _attention)
        AttentionMaskInterface.register(IMPLEMENTATION, eager_mask)
        _REGISTERED = True


def _attention_modules(model) -> list:
    return [m for m in model.modules() if type(m).__name__.endswith("Attention") and hasattr(m, "layer_idx")]


def _hook_inputs_and_outputs(model) -> None:
    """Keep each attention's input (the normed stream) and its projected output while tracing."""

    def before(module, args, kwargs):
        recorder = _RECORDER.get()
        if recorder is not None:
            hidden = kwargs.get("hidden_states", args[0] if args else None)
            recorder.layer(module).x = hidden.detach()

    def after(module, args, kwargs, output):
        recorder = _RECORDER.get()
        if recorder is not None:
            recorder.layer(module).output = (output[0] if isinstance(output, tuple) else output).detach()

    for module in _attention_modules(model):
        module.register_forward_pre_hook(before, with_kwargs=True)
        module.register_forward_hook(after, with_kwargs=True)


# ---------------------------------------------------------------- finding and fetching


def is_folder(name: str) -> bool:
    return Path(name).expanduser().is_dir()


def short_name(name: str) -> str:
    """A name for a model a link can carry: the id itself, or a local folder's last part."""
    return Path(name).expanduser().name if is_folder(name) else name


def offered_models(setting: str | None = None) -> tuple[str, ...]:
    """The real models a server offers: ``ATTENTION_MODELS`` (comma-separated Hugging Face
    ids or local folders), or the default list. An empty setting offers none."""
    setting = os.environ.get("ATTENTION_MODELS") if setting is None else setting
    if setting is None:
        return DEFAULT_MODELS
    return tuple(dict.fromkeys(part.strip() for part in setting.split(",") if part.strip()))


def _download_error(error: BaseException, name: str) -> InputError:
    """A failed download as a message that names the model and says how to fetch it ahead."""
    from huggingface_hub import errors

    if isinstance(error, errors.GatedRepoError):
        return InputError("model_gated", name=name)
    if isinstance(error, errors.RepositoryNotFoundError):
        return InputError("model_not_found", name=name)
    if isinstance(error, (errors.LocalEntryNotFoundError, errors.OfflineModeIsEnabled)):
        return InputError("model_offline", name=name)
    return InputError("model_unreachable", name=name, detail=type(error).__name__)


def _wanted(path: str) -> bool:
    from fnmatch import fnmatch

    return "/" not in path and any(fnmatch(path, pattern) for pattern in MODEL_FILES)


def _hub() -> dict[str, str | None]:
    """Where the Hub and the cache are, read now (huggingface_hub reads HF_ENDPOINT and
    HF_HUB_CACHE once, when it is first imported)."""
    from huggingface_hub import constants

    endpoint = os.environ.get("HF_ENDPOINT") or constants.ENDPOINT
    cache = os.environ.get("HF_HUB_CACHE") or (
        str(Path(os.environ["HF_HOME"]) / "hub") if os.environ.get("HF_HOME") else constants.HF_HUB_CACHE
    )  # fmt: skip
    return {"endpoint": endpoint.rstrip("/"), "cache_dir": cache}


def local_folder(name: str) -> Path | None:
    """Where model ``name`` is on this computer (a folder, or the cache's complete copy), or None."""
    return Path(name).expanduser() if is_folder(name) else _cached_folder(name)


def _cached_folder(name: str) -> Path | None:
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(name, allow_patterns=list(MODEL_FILES), local_files_only=True, **_hub()))
    except Exception:  # noqa: BLE001 - not cached (or cached in part): it must be fetched
        return None


def _bar_class(report: Callable[[int], None]):
    from tqdm.auto import tqdm

    class Bar(tqdm):
        def __init__(self, *args, **kwargs):
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            report(int(n or 0))
            return super().update(n)

    return Bar


def fetch(name: str, progress: Progress | None = None) -> Path:
    """The folder of model ``name``: a local folder as it is, else the Hugging Face cache's copy,
    downloaded first when it is not there (config, safetensors and tokenizer files only).
    ``progress(done, total)`` follows the bytes. Raises ``InputError`` (model_gated, model_not_found, model_offline, model_unreachable, model_no_files)."""
    if is_folder(name):
        return Path(name).expanduser()
    cached = _cached_folder(name)
    if cached is not None:
        return cached
    from huggingface_hub import HfApi, hf_hub_download
    from huggingface_hub.hf_api import RepoFile

    hub = _hub()
    try:
        api = HfApi(endpoint=hub["endpoint"])
        api.model_info(name, timeout=HUB_TIMEOUT_S)  # answers at once: no such model, gated, offline
        listing = api.list_repo_tree(name, recursive=True)
        files = [f for f in listing if isinstance(f, RepoFile) and _wanted(f.path)]
        total, done = sum(f.size or 0 for f in files), [0]

        def report(n: int) -> None:
            done[0] += n
            if progress is not None:
                progress(min(done[0], total), total)

        folder = None
        for f in files:
            folder = Path(hf_hub_download(name, f.path, tqdm_class=_bar_class(report), **hub)).parent
    except Exception as error:  # noqa: BLE001 - every failure becomes one message that names the model
        raise _download_error(error, name) from error
    if folder is None:
        raise InputError("model_no_files", name=name)
    return folder


# ---------------------------------------------------------------- loading


def _describe(name: str, model, folder: Path) -> ModelDescription:
    config = model.config
    heads = config.num_attention_heads
    kv_heads = getattr(config, "num_key_value_heads", None) or heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // heads
    context = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", 0)
    parameters = sum(p.numel() for p in model.parameters())
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    download = sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
    return ModelDescription(
        name=name, family=config.model_type, layers=config.num_hidden_layers, heads=heads, kv_heads=kv_heads,
        head_dim=head_dim, hidden=config.hidden_size, context=int(context), parameters=parameters, bytes=size,
        download_bytes=download,
    )  # fmt: skip


def load(name: str, progress: Progress | None = None) -> RealModel:
    """Model ``name`` (a Hugging Face id or a local folder) in eval mode, float32, traced
    through this module's attention, with its tokenizer and description. Downloads it first
    when needed (see ``fetch``). Raises ``InputError`` with a message that names the model."""
    folder = fetch(name, progress)
    _register()
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging

    logging.disable_progress_bar()  # gpt_core never prints: a caller shows its own progress
    logging.set_verbosity_error()

    try:
        model = AutoModelForCausalLM.from_pretrained(
            folder, attn_implementation=IMPLEMENTATION, dtype=torch.float32, trust_remote_code=False,
            use_safetensors=True,
        )  # fmt: skip
        tokenizer = AutoTokenizer.from_pretrained(folder, trust_remote_code=False)
    except Exception as error:  # noqa: BLE001 - an unknown architecture, missing files, remote code
        raise InputError("model_unsupported", name=name, reason=str(error).splitlines()[0][:200]) from error
    if not getattr(tokenizer, "is_fast", False):
        raise InputError("model_unsupported", name=name, reason="no fast tokenizer")
    model.eval()
    model.requires_grad_(False)  # shared by every session: read only
    _hook_inputs_and_outputs(model)
    return RealModel(model, tokenizer, _describe(name, model, folder), folder, spelling(tokenizer))


# ---------------------------------------------------------------- reading text


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level alphabet: the printable character that stands for each byte."""
    visible = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = list(visible)
    extra = 0
    for byte in range(256):
        if byte not in visible:
            visible.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(char): byte for byte, char in zip(visible, chars, strict=True)}


_BYTE_DECODER = _byte_decoder()
_BYTE_TOKEN = re.compile(r"<0x([0-9A-Fa-f]{2})>")
_SENTENCEPIECE_SPACE = "▁"


def _types(component: Any) -> Iterator[str]:
    """The types of a tokenizers component and of the steps of a Sequence of them."""

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("type"), str):
                yield node["type"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    if component is None:
        return iter(())
    return walk(json.loads(component.__getstate__()))


def spelling(tokenizer) -> Spelling:
    """How ``tokenizer`` spells its tokens: byte-level (GPT-2, Qwen2, Llama-3, SmolLM2: a
    ByteLevel pre-tokenizer or decoder) or not (SentencePiece's ``▁the`` and ``<0xE5>``, whose
    "é" is the character é, not the byte 0xE9 of GPT-2's alphabet)."""
    backend = tokenizer.backend_tokenizer
    byte_level = any(kind == "ByteLevel" for part in (backend.pre_tokenizer, backend.decoder) for kind in _types(part))
    return Spelling(byte_level, frozenset(tokenizer.all_special_ids), len(tokenizer))


def _token_bytes(token: str, byte_level: bool) -> bytes | None:
    """The bytes a token stands for, when its spelling says: every character of a byte-level
    token (GPT-2's alphabet), a SentencePiece ``<0x..>`` byte piece. None: its characters."""
    if byte_level:
        if token and all(char in _BYTE_DECODER for char in token):
            return bytes(_BYTE_DECODER[char] for char in token)
        return None
    match = _BYTE_TOKEN.fullmatch(token)
    return bytes([int(match.group(1), 16)]) if match else None


def no_token_label(token_id: int) -> str:
    """``<id 300>``: an id the tokenizer has no token for (a padded embedding's extra row)."""
    return f"<id {token_id}>"


def piece(loaded: RealModel, token_id: int, source: str = "") -> Piece:
    """Token ``token_id`` of ``loaded``'s tokenizer as the app shows it (``source``: the
    characters of the text it was read from; a lone byte piece has none)."""
    return _piece(loaded.tokenizer, loaded.spelling, token_id, source)


def _piece(tokenizer, spelling: Spelling, token_id: int, source: str) -> Piece:
    token = tokenizer.convert_ids_to_tokens(token_id) if 0 <= token_id < spelling.size else None
    if token is None:  # past the tokenizer: a padded embedding's extra row
        label = no_token_label(token_id)
        return Piece(token_id, "none", label, label, "")
    if token_id in spelling.special:
        return Piece(token_id, "special", token, token, "")
    raw = _token_bytes(token, spelling.byte_level)
    if raw is None:  # its spelling is its text: SentencePiece's ▁ is a space
        text = token.replace(_SENTENCEPIECE_SPACE, " ")
        return Piece(token_id, "text", text, display_label(text), source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        hex_bytes = " ".join(f"{byte:02x}" for byte in raw)
        label = f"‹{hex_bytes}›{display_label(source) if source else ''}"
        return Piece(token_id, "bytes", hex_bytes, label, source)
    return Piece(token_id, "text", text, display_label(text), source)


def read(loaded: RealModel, text: str, max_tokens: int = MAX_REAL_TOKENS) -> tuple[list[Piece], int, str]:
    """The tokens the model reads of ``text`` (its BOS included when its tokenizer adds one), at
    most its context or ``max_tokens``; how many more the text had; the text they cover."""
    if not text.strip():
        raise InputError("empty_text")
    encoded = loaded.tokenizer(text, add_special_tokens=True, return_offsets_mapping=True)
    ids, offsets = list(encoded["input_ids"]), list(encoded["offset_mapping"])
    if not ids:
        raise InputError("no_tokens", tokenizer=loaded.description.family)
    limit = min(loaded.description.context or max_tokens, max_tokens)
    special = loaded.spelling.special
    kept = ids[:limit]
    pieces = [piece(loaded, i, text[a:b]) for i, (a, b) in zip(kept, offsets[:limit], strict=True)]
    end = max((b for i, (_, b) in zip(kept, offsets[:limit], strict=True) if i not in special), default=0)
    return pieces, len(ids) - len(kept), text[:end] if len(ids) > limit else text


# ---------------------------------------------------------------- tracing


def shape_steps(B: int, T: int, description: ModelDescription) -> list[ShapeStep]:
    """The split and the merge of a real model's attention, with grouped-query attention's
    repeat of the key/value heads where it has one."""
    h, h_kv, d, hidden = description.heads, description.kv_heads, description.head_dim, description.hidden
    steps = [
        ShapeStep("project Q, K, V", "q_proj(x), k_proj(x), v_proj(x)", (B, T, hidden), (B, T, h * d), "B T C"),
        ShapeStep("split heads", ".view(B, T, h, d)", (B, T, h * d), (B, T, h, d), "B T h d"),
        ShapeStep("heads first", ".transpose(1, 2)", (B, T, h, d), (B, h, T, d), "B h T d"),
    ]
    if h_kv != h:
        steps += [
            ShapeStep("key/value heads", "k_proj(x).view(B, T, h_kv, d).transpose(1, 2)", (B, T, hidden),
                      (B, h_kv, T, d), "B h_kv T d"),
            ShapeStep("repeat", f"repeat_kv(keys, {h // h_kv})", (B, h_kv, T, d), (B, h, T, d), "B h T d"),
        ]  # fmt: skip
    steps += [
        ShapeStep("scores", "queries @ keys.transpose(-2, -1)", (B, h, T, d), (B, h, T, T), "B h T T"),
        ShapeStep("scale", f"* scaling  (1/√{d})", (B, h, T, T), (B, h, T, T), "B h T T"),
        ShapeStep("causal mask", "+ mask  (shown as -inf)", (B, h, T, T), (B, h, T, T), "B h T T"),
        ShapeStep("softmax", "torch.softmax(dim=-1)", (B, h, T, T), (B, h, T, T), "B h T T"),
        ShapeStep("context", "weights @ values", (B, h, T, T), (B, h, T, d), "B h T d"),
        ShapeStep("tokens first", ".transpose(1, 2)", (B, h, T, d), (B, T, h, d), "B T h d"),
        ShapeStep("merge heads", ".reshape(B, T, C)", (B, T, h, d), (B, T, h * d), "B T C"),
        ShapeStep("output projection", "o_proj(context)", (B, T, h * d), (B, T, hidden), "B T C_out"),
    ]
    return steps


def _flat(heads: torch.Tensor) -> torch.Tensor:
    """(B, n, T, d) -> (B, T, n·d): heads side by side, as before the split."""
    B, n, T, d = heads.shape
    return heads.transpose(1, 2).reshape(B, T, n * d)


def layer_trace(record: _LayerRecord, description: ModelDescription) -> AttentionTrace:
    """Every stage of one layer, from what the model's attention received: the scores are
    recomputed from its q and k by the very operations it ran, so they are its numbers."""
    groups = description.groups
    keys, values = _repeat(record.keys, groups), _repeat(record.values, groups)
    scores, scaled, _ = _stages(record.queries, keys, record.scaling, None)
    masked = scaled.masked_fill(record.blocked, float("-inf"))
    B, _, T, _ = record.queries.shape
    return AttentionTrace(
        x=record.x, queries=_flat(record.queries), keys=_flat(record.keys), values=_flat(record.values),
        queries_heads=record.queries, keys_heads=keys, values_heads=values, scores=scores, scaled_scores=scaled,
        masked_scores=masked, weights=record.weights, dropped_weights=record.weights,
        context_heads=record.context_heads, context=_flat(record.context_heads), output=record.output,
        shape_steps=shape_steps(B, T, description),
    )  # fmt: skip


class LayerTraces(Sequence[AttentionTrace]):
    """One ``AttentionTrace`` per layer, built when asked for (four (h, T, T) stages of every
    layer would hold 600 MB for GPT-2 at 512 tokens; the weights are kept, the rest is rebuilt)."""

    def __init__(self, records: list[_LayerRecord], description: ModelDescription) -> None:
        self._records, self._description = records, description

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [layer_trace(record, self._description) for record in self._records[index]]
        return layer_trace(self._records[index], self._description)

    def __iter__(self) -> Iterator[AttentionTrace]:
        return (layer_trace(record, self._description) for record in self._records)


@dataclass
class RealTrace:
    """One text through a real model: what it read and every layer's attention."""

    description: ModelDescription
    pieces: list[Piece]
    cut: int  # tokens of the text after the ones read (over the context or the app's limit)
    text_used: str  # the text the pieces cover (all of it unless cut)
    weights: list[torch.Tensor]  # per layer (B, h, T, T), the model's softmax weights
    layers: LayerTraces = field(repr=False)
    logits: torch.Tensor | None = None  # (B, T, vocabulary), when asked for

    @property
    def tokens(self) -> list[str]:
        return [piece.text for piece in self.pieces]

    @property
    def labels(self) -> list[str]:
        return [piece.label for piece in self.pieces]

    @property
    def token_ids(self) -> list[int]:
        return [piece.token_id for piece in self.pieces]

    @property
    def h_kv(self) -> int:
        return self.description.kv_heads

    def shared_kv_head(self, head: int) -> int:
        """The key/value head query head ``head`` (0-based) reads with."""
        return head // self.description.groups


def _run(loaded: RealModel, ids: list[int], logits: bool, **kwargs) -> tuple[list[_LayerRecord], Any]:
    """One forward pass with the recorder on: every layer's record, and the model's output."""
    recorder = _Recorder()
    token = _RECORDER.set(recorder)
    try:
        with torch.inference_mode():
            runner = loaded.model if logits else loaded.model.base_model
            out = runner(input_ids=torch.tensor([ids]), **kwargs)
    finally:
        _RECORDER.reset(token)
    records = [recorder.layers[i] for i in sorted(recorder.layers)]
    if len(records) != loaded.description.layers or any(r.queries is None for r in records):
        raise InputError("model_unsupported", name=loaded.description.name, reason="attention not traced")
    return records, out


def trace(loaded: RealModel, text: str, *, logits: bool = False, max_tokens: int = MAX_REAL_TOKENS) -> RealTrace:
    """Run ``text`` through the model (no gradients) and keep every layer's attention.
    ``logits=True`` runs the language-model head too (the next-token scores)."""
    pieces, cut, used = read(loaded, text, max_tokens)
    records, out = _run(loaded, [piece.token_id for piece in pieces], logits, use_cache=False)
    return RealTrace(
        loaded.description, pieces, cut, used, [r.weights for r in records], LayerTraces(records, loaded.description),
        out.logits if logits else None,
    )  # fmt: skip


def trace_ids(loaded: RealModel, ids: list[int], *, logits: bool = False) -> RealTrace:
    """Like ``trace``, for token ids (a generated sequence need not survive decoding and
    encoding again)."""
    if not ids:
        raise InputError("empty_text")
    pieces = [piece(loaded, i) for i in ids]
    records, out = _run(loaded, list(ids), logits, use_cache=False)
    return RealTrace(
        loaded.description, pieces, 0, loaded.tokenizer.decode(ids), [r.weights for r in records],
        LayerTraces(records, loaded.description), out.logits if logits else None,
    )  # fmt: skip


INDUCTION_TOKENS = 24  # the random sequence of the induction test, repeated once


def induction_weights(loaded: RealModel, n: int = INDUCTION_TOKENS, seed: int = 0) -> tuple[list[torch.Tensor], int]:
    """The standard test for induction heads: ``n`` random tokens (seeded, no special ones),
    then the same ``n`` again, after the BOS token where the tokenizer adds one. Returns every
    layer's weights (B, h, T, T) and where the first copy starts (for
    ``gpt_core.explore.induction_scores``)."""
    special = set(loaded.tokenizer.all_special_ids)
    vocabulary = [i for i in range(len(loaded.tokenizer)) if i not in special]
    generator = torch.Generator().manual_seed(seed)
    picks = torch.randint(len(vocabulary), (n,), generator=generator).tolist()
    tokens = [vocabulary[i] for i in picks]
    bos = loaded.tokenizer("a", add_special_tokens=True)["input_ids"][:1]
    prefix = bos if bos and bos[0] in special else []
    records, _ = _run(loaded, [*prefix, *tokens, *tokens], False, use_cache=False)
    return [r.weights for r in records], len(prefix)


def token_logits(loaded: RealModel, logits: torch.Tensor) -> torch.Tensor:
    """``logits`` (..., embedding rows) restricted to the tokenizer's ids: the first
    ``len(tokenizer)``. A padded embedding's extra rows (Qwen2.5: 151,936 rows for 151,665
    tokens) are no token, so odds and generation give them no probability; the ids of the
    rest are unchanged."""
    return logits[..., : loaded.spelling.size]


@dataclass
class GeneratedToken:
    """One generated token and the attention that chose it."""

    piece: Piece
    context: list[str]  # the labels of the tokens the model read to choose it
    rows: torch.Tensor  # (layers, h, T_ctx): the last query's softmax weights over the context


def generate_with_attention(
    loaded: RealModel, text: str, n: int, temperature: float = 0.0, seed: int = 0
) -> list[GeneratedToken]:
    """Continue ``text`` by up to ``n`` tokens (greedy at temperature 0, else sampled with a
    generator seeded by ``seed``), keeping for each the attention row of the last query in
    every layer. Stops at the context (or the app's limit). Uses the model's key/value cache,
    so each step computes one new query. Only the tokenizer's ids are chosen (``token_logits``)."""
    pieces, _, _ = read(loaded, text)
    limit = min(loaded.description.context or MAX_REAL_TOKENS, MAX_REAL_TOKENS)
    n = max(0, min(n, limit - len(pieces)))
    ids, labels = [piece.token_id for piece in pieces], [piece.label for piece in pieces]
    generator = torch.Generator().manual_seed(seed)
    steps: list[GeneratedToken] = []
    records, out = _run(loaded, ids, True, use_cache=True)
    for _ in range(n):
        scores = token_logits(loaded, out.logits[0, -1].float())
        if temperature > 0:
            new = int(torch.multinomial(torch.softmax(scores / temperature, -1), 1, generator=generator))
        else:
            new = int(scores.argmax())
        rows = torch.stack([r.weights[0, :, -1, :] for r in records])  # (layers, h, T_ctx)
        chosen = piece(loaded, new)  # a new byte piece has no character yet
        steps.append(GeneratedToken(chosen, list(labels), rows))
        ids.append(new)
        labels.append(chosen.label)
        records, out = _run(loaded, [new], True, use_cache=True, cache=out.cache)
    return steps


def format_bytes(count: int) -> str:
    """1.2 GB, 548 MB, 12 kB: sizes a person reads."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.{1 if count < 10 * size else 0}f} {unit}"
    return f"{count} B"


def parameters_text(count: int) -> str:
    """124M, 0.5B, 98k parameters."""
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if count >= size:
            value = count / size
            return f"{value:.{1 if value < 10 else 0}f}{unit}"
    return str(count)


__all__ = [
    "DEFAULT_MODELS",
    "MAX_REAL_TOKENS",
    "ModelDescription",
    "Piece",
    "RealConfig",
    "RealModel",
    "RealTrace",
    "fetch",
    "generate_with_attention",
    "induction_weights",
    "format_bytes",
    "load",
    "local_folder",
    "no_token_label",
    "offered_models",
    "parameters_text",
    "piece",
    "read",
    "shape_steps",
    "short_name",
    "spelling",
    "Spelling",
    "token_logits",
    "trace",
    "trace_ids",
]
