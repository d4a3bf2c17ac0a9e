"""Every user-facing string of the app, in English and Chinese: one table.

Adding a language is adding a column. ``t(key, lang, **params)`` formats a string;
``error_text(error, lang)`` shows a ``gpt_core.InputError`` in the chosen language.
"""

from __future__ import annotations

from typing import Any

LANGUAGES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"

STRINGS: dict[str, dict[str, str]] = {
    # App and navigation
    "app.name": {"en": "Seeing Attention", "zh": "看见注意力"},
    "app.tagline": {
        "en": "Type a sequence and watch every head of GPT's multi-head causal attention, step by step.",
        "zh": "输入一段文字，逐步观察 GPT 多头因果注意力的每一个头。",
    },
    "app.language": {"en": "Language", "zh": "语言"},
    "app.pages": {"en": "Pages", "zh": "页面"},
    "app.error": {
        "en": "Something went wrong on this page. Your settings are kept; try again or change a control.",
        "zh": "页面出错了。你的设置已保留；请重试或调整一个控件。",
    },
    "page.home": {"en": "Home", "zh": "首页"},
    "page.playground": {"en": "Attention playground", "zh": "注意力游乐场"},
    "page.train": {"en": "Train a tiny GPT", "zh": "训练一个小 GPT"},
    "page.explorer": {"en": "Trained heads explorer", "zh": "训练后的注意力头"},
    "page.lesson": {"en": "Guided lesson", "zh": "导学课程"},
    "page.playground.blurb": {
        "en": "Scores QKᵀ, the causal mask and the softmax weights of every head, with the shapes of the split and merge.",
        "zh": "每个头的分数 QKᵀ、因果掩码和 softmax 权重，以及拆分与合并时的形状。",
    },
    "page.train.blurb": {
        "en": "Train a tiny GPT on Tiny Shakespeare and compare 1, 2, 4 and 8 heads.",
        "zh": "在 Tiny Shakespeare 上训练一个小 GPT，比较 1、2、4、8 个头。",
    },
    "page.explorer.blurb": {
        "en": "What do the heads of a trained model attend to?",
        "zh": "训练好的模型中，各个头在关注什么？",
    },
    "page.lesson.blurb": {
        "en": "The chapter, step by step: implement GPT's multi-head attention layer.",
        "zh": "按章节一步步实现 GPT 的多头注意力层。",
    },
    "page.coming_soon": {
        "en": "This page is being built. Meanwhile, the attention playground is ready.",
        "zh": "此页面正在建设中。注意力游乐场已经可以使用。",
    },
    "page.open": {"en": "Open", "zh": "打开"},
    # Errors from gpt_core, by code (English comes from gpt_core itself)
    "error.heads_not_divisor": {
        "zh": "output_dim（{output_dim}）必须能被 num_heads（{num_heads}）整除：每个头分到 output_dim / num_heads 个通道。",
    },
    "error.heads_too_few": {"zh": "num_heads 至少为 1（当前为 {num_heads}）。"},
    "error.dim_too_small": {"zh": "{name} 至少为 1（当前为 {value}）。"},
    "error.context_too_small": {"zh": "context_length 至少为 1（当前为 {context_length}）。"},
    "error.dropout_range": {"zh": "dropout 必须在 [0, 1) 之间（当前为 {dropout}）。"},
    "error.input_rank": {"zh": "输入的形状必须是 (B, T, C)。当前有 {ndim} 维，形状为 {shape}。"},
    "error.input_width": {
        "zh": "每个词元向量必须有 input_dim = {input_dim} 个数，但输入有 {width} 个（形状 {shape}）。"
    },
    "error.sequence_too_long": {
        "zh": "序列有 {tokens} 个词元，但这个注意力层最多支持 context_length = {context_length}。"
    },
    "error.empty_text": {"zh": "没有可以切分的文字：请先输入几个字或词。"},
    "error.out_of_range": {"zh": "{name} 必须在 {low} 到 {high} 之间（当前为 {value}）。"},
    "error.unknown_choice": {"zh": "{name} 必须是 {choices} 之一（当前为 {value!r}）。"},
    "error.no_tokens": {"zh": "这段文字没有 {tokenizer} 词元（只有空格或分隔符？）。"},
}


def t(key: str, lang: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """The string ``key`` in ``lang`` (English when missing), formatted with ``params``."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    return template.format(**params) if params else template


def error_text(error: Exception, lang: str = DEFAULT_LANGUAGE) -> str:
    """A gpt_core InputError in ``lang``; its own English message otherwise."""
    code = getattr(error, "code", None)
    entry = STRINGS.get(f"error.{code}", {})
    if lang in entry:
        return entry[lang].format(**getattr(error, "params", {}))
    return str(error)
