"""Tiny random Hugging Face models, built offline, that stand in for real ones in tests and
benchmarks: GPT-2, Llama (4 query heads, 1 key/value head) and Qwen2 (4 and 2: grouped-query
attention), each saved with ``save_pretrained`` beside a small byte-level BPE tokenizer
trained here (Llama's adds a BOS token, as SmolLM2's and Llama's tokenizers do).

Two more stand for what real checkpoints do beyond that: "llama-sp" reads with a
SentencePiece-style tokenizer (``▁`` marks a word's start, unknown characters fall back to
``<0xE5>`` byte pieces, BOS ``<s>``: Llama-2's, Mistral's, TinyLlama's kind), and
"qwen2-padded" has more embedding rows than its tokenizer has tokens (Qwen2.5: 151,936 rows
for 151,665 tokens), the extra rows' LM-head weights large enough that one of them is the
likeliest next token for any text."""

from __future__ import annotations

from pathlib import Path

# What the tokenizer learns from: English words become whole tokens, most Chinese
# characters stay byte pieces (as in GPT-2), a few common ones are learned whole.
TRAINING_TEXT = (
    "the cat sat on the mat because it was tired. the dog ran to the cat. "
    "to be or not to be, that is the question. attention is all you need. "
    "大模型 大模型 模型 模型 学习 学习 "
) * 20
VOCAB_SIZE = 300
FAMILIES = ("gpt2", "llama", "qwen2", "llama-sp", "qwen2-padded")
SEED = 0
# The SentencePiece-style tokenizer learns from the same text and one "café" (é then stays a
# piece of its own: a token of characters in GPT-2's byte alphabet that are not bytes).
SENTENCEPIECE_TEXT = TRAINING_TEXT + "café "
SENTENCEPIECE_MERGES = 40  # as few as the byte-level tokenizer learns: "café" is not learned whole
SENTENCEPIECE_SPECIAL = ("<unk>", "<s>", "</s>")
PADDING = 37  # the padded model's embedding rows beyond its tokenizer


def tiny_tokenizer(bos: bool):
    """A byte-level BPE tokenizer of 300 tokens trained here (with a BOS token: ``bos``)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    special = ["<|endoftext|>", "<s>"]
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=special,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator([TRAINING_TEXT], trainer)
    if bos:
        core.post_processor = processors.TemplateProcessing(
            single="<s> $A", special_tokens=[("<s>", core.token_to_id("<s>"))]
        )
    else:
        core.post_processor = processors.ByteLevel(trim_offsets=False)
    names = (
        dict(bos_token="<s>", eos_token="<|endoftext|>")
        if bos
        else dict(bos_token="<|endoftext|>", eos_token="<|endoftext|>")
    )
    return PreTrainedTokenizerFast(tokenizer_object=core, **names)


def sentencepiece_tokenizer():
    """A SentencePiece-style BPE tokenizer, as Llama-2's tokenizer.json is: ``▁`` for spaces
    (and before the text), byte fallback to the 256 ``<0x..>`` pieces (ids 3 to 258, after
    ``<unk> <s> </s>``), no pre-tokenizer, BOS ``<s>`` added by the post-processor."""
    import json

    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    byte_pieces = [f"<0x{byte:02X}>" for byte in range(256)]
    spaces = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    # Learned word by word (SentencePiece splits at spaces when it learns), then read whole.
    learner = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    learner.normalizer = spaces
    learner.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="never")
    alphabet = sorted(set(SENTENCEPIECE_TEXT.replace(" ", "▁")) | {"▁"})
    trainer = trainers.BpeTrainer(
        vocab_size=len(SENTENCEPIECE_SPECIAL) + 256 + len(alphabet) + SENTENCEPIECE_MERGES,
        special_tokens=[*SENTENCEPIECE_SPECIAL, *byte_pieces],
        initial_alphabet=alphabet,
        show_progress=False,
    )
    learner.train_from_iterator([SENTENCEPIECE_TEXT], trainer)
    learned = json.loads(learner.to_str())["model"]
    merges = [tuple(merge) if isinstance(merge, list) else tuple(merge.split(" ")) for merge in learned["merges"]]
    core = Tokenizer(
        models.BPE(vocab=learned["vocab"], merges=merges, byte_fallback=True, unk_token="<unk>", fuse_unk=True)
    )
    core.normalizer = spaces
    core.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    core.add_special_tokens(list(SENTENCEPIECE_SPECIAL))  # the byte pieces stay ordinary tokens, as in Llama-2
    core.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", core.token_to_id("<s>"))]
    )
    return PreTrainedTokenizerFast(tokenizer_object=core, bos_token="<s>", eos_token="</s>", unk_token="<unk>")


def _tokenizer(family: str):
    if family == "llama-sp":
        return sentencepiece_tokenizer()
    return tiny_tokenizer(bos=family == "llama")


def _model(family: str, vocab: int, bos: int, eos: int):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(SEED)
    if family == "gpt2":
        return GPT2LMHeadModel(
            GPT2Config(
                n_layer=2, n_head=4, n_embd=32, n_positions=64, vocab_size=vocab, bos_token_id=bos, eos_token_id=eos
            )
        )
    common = dict(
        num_hidden_layers=2,
        num_attention_heads=4,
        hidden_size=32,
        intermediate_size=64,
        vocab_size=vocab,
        max_position_embeddings=64,
        bos_token_id=bos,
        eos_token_id=eos,
    )
    if family in ("llama", "llama-sp"):
        return LlamaForCausalLM(LlamaConfig(num_key_value_heads=1, **common))
    return Qwen2ForCausalLM(Qwen2Config(num_key_value_heads=2, **common))


def _pad(model, tokens: int) -> None:
    """The LM-head rows past ``tokens`` (no token of the tokenizer) 50 times the others' size:
    the likeliest next token is then one of them, for any text (37 random directions of
    weights 1 against the real tokens' 0.02)."""
    import torch

    generator = torch.Generator().manual_seed(SEED)
    head = model.get_output_embeddings().weight
    with torch.no_grad():
        head[tokens:] = torch.randn(head.shape[0] - tokens, head.shape[1], generator=generator)


def build_tiny_model(family: str, folder: Path) -> Path:
    """A tiny random ``family`` model with its tokenizer, saved in ``folder``."""
    tokenizer = _tokenizer(family)
    padding = PADDING if family == "qwen2-padded" else 0
    model = _model(family, len(tokenizer) + padding, tokenizer.bos_token_id, tokenizer.eos_token_id)
    if padding:
        _pad(model, len(tokenizer))
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_tiny_models(root: Path) -> dict[str, Path]:
    """One folder per family under ``root`` (named tiny-gpt2, tiny-llama, tiny-qwen2,
    tiny-llama-sp, tiny-qwen2-padded)."""
    return {family: build_tiny_model(family, root / f"tiny-{family}") for family in FAMILIES}


# The attention shapes of real models (public model cards), for benchmarks of time and memory:
# random weights, the real layer, head, width and vocabulary sizes, this module's tokenizer.
REAL_SHAPES: dict[str, dict] = {
    "gpt2-shape": dict(family="gpt2", n_layer=12, n_head=12, n_embd=768, n_positions=1024, vocab_size=50257),
    "smollm2-135m-shape": dict(
        family="llama",
        num_hidden_layers=30,
        num_attention_heads=9,
        num_key_value_heads=3,
        hidden_size=576,
        intermediate_size=1536,
        vocab_size=49152,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
    ),
    "qwen2.5-0.5b-shape": dict(
        family="qwen2",
        num_hidden_layers=24,
        num_attention_heads=14,
        num_key_value_heads=2,
        hidden_size=896,
        intermediate_size=4864,
        vocab_size=151936,
        max_position_embeddings=32768,
        tie_word_embeddings=True,
    ),
}


# The layer × head counts of real models on tiny widths (4 channels per head), for tests of
# how every layer and head is drawn: GPT-2 small's 12 × 12, Qwen2.5-0.5B's 24 × 14 (2 key/value).
WIDE_SHAPES: dict[str, dict] = {
    "wide-gpt2": dict(family="gpt2", n_layer=12, n_head=12, n_embd=48, n_positions=128, vocab_size=VOCAB_SIZE),
    "wide-qwen2": dict(
        family="qwen2",
        num_hidden_layers=24,
        num_attention_heads=14,
        num_key_value_heads=2,
        hidden_size=56,
        intermediate_size=64,
        vocab_size=VOCAB_SIZE,
        max_position_embeddings=128,
    ),
}


def build_shaped_model(shape: str, folder: Path) -> Path:
    """A random model with the attention shapes of a real one (``REAL_SHAPES``, or its layer and
    head counts on a tiny width: ``WIDE_SHAPES``), saved in ``folder``."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    settings = dict(REAL_SHAPES.get(shape) or WIDE_SHAPES[shape])
    family = settings.pop("family")
    config_class, model_class = {
        "gpt2": (GPT2Config, GPT2LMHeadModel),
        "llama": (LlamaConfig, LlamaForCausalLM),
        "qwen2": (Qwen2Config, Qwen2ForCausalLM),
    }[family]
    tokenizer = tiny_tokenizer(bos=family == "llama")
    torch.manual_seed(SEED)
    model = model_class(
        config_class(bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id, **settings)
    )
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
