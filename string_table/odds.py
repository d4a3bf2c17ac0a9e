"""Strings: the explorer's next-token odds (and their controls' error messages)."""

STRINGS: dict[str, dict[str, str]] = {
    "ex.tab.odds": {"en": "Next-token odds", "zh": "下一个词元的概率"},
    "odds.intro": {
        "en": "The model's probabilities for the token after the prompt. **Temperature** divides the scores before the "
        "softmax (below 1: sharper, above 1: flatter, 0: always the likeliest); **top-k** keeps the k likeliest "
        "tokens; **top-p** then keeps the fewest of them whose probabilities add up to at least p. The kept "
        "tokens' probabilities are scaled up to add up to 1 again (in colour); the cut ones are grey.",
        "zh": "模型对提示文字之后下一个词元给出的概率。分数在 softmax 之前先除以**温度**（小于 1：更尖锐，大于 1：更平缓，0：总是选最可能的）；"
        "**top-k** 只保留最可能的 k 个词元；**top-p** 再从中保留概率之和至少为 p 的最少几个。保留下来的词元的概率重新放大，使总和再次为 1"
        "（彩色）；被截掉的显示为灰色。",
    },
    "odds.temperature": {"en": "Temperature (0: always the likeliest)", "zh": "温度（0：总是选最可能的）"},
    "odds.top_k": {"en": "top-k (0: off)", "zh": "top-k（0：不截断）"},
    "odds.top_k_help": {
        "en": "Keep only the k likeliest tokens (of {vocab}). Tokens with equal scores at the k-th place: the lower id is kept.",
        "zh": "只保留最可能的 k 个词元（共 {vocab} 个）。第 k 位上分数相同的词元：保留编号较小的。",
    },
    "odds.top_p": {"en": "top-p (1: off)", "zh": "top-p（1：不截断）"},
    "odds.seed": {"en": "Seed of the draw", "zh": "抽样的随机种子"},
    "odds.sample": {"en": "Sample: add the drawn token to the prompt", "zh": "抽样：把抽到的词元加到提示文字后"},
    "odds.sample_help": {
        "en": "Draws one token from the coloured bars (with this seed, as Generate does) and adds it to the prompt: "
        "the link keeps the longer prompt.",
        "zh": "从彩色的概率中抽取一个词元（用这个种子，与“生成”相同），加到提示文字后面：链接会记下更长的提示文字。",
    },
    "odds.drawn": {
        "en": "With seed {seed} the draw gives **“{token}”** (probability {p:.1%} after the cut).",
        "zh": "用种子 {seed} 抽到 **“{token}”**（截断后的概率为 {p:.1%}）。",
    },
    "odds.kept": {
        "en": "{kept} of {vocab} tokens kept; the chart shows the {shown} likeliest.",
        "zh": "{vocab} 个词元中保留了 {kept} 个；图中显示最可能的 {shown} 个。",
    },
    "odds.title": {
        "en": "The next token after “{last}” (context of {T} tokens)",
        "zh": "“{last}”之后的下一个词元（上下文 {T} 个词元）",
    },
    "odds.row_title.block": {
        "en": "What the last query read: block {block} · head {head}",
        "zh": "最后一个查询读了什么：块 {block} · 头 {head}",
    },
    "odds.row_title.layer": {
        "en": "What the last query read: layer {block} · head {head}",
        "zh": "最后一个查询读了什么：第 {block} 层 · 头 {head}",
    },
    "odds.row_help": {
        "en": "The attention weights of the last token (the one that predicts the next) over the context, in the "
        "chosen {unit} and head: the row behind these odds.",
        "zh": "最后一个词元（预测下一个词元的那个）在所选{unit}与头中对上下文的注意力权重：这些概率背后的那一行。",
    },
    "odds.no_logits": {
        "en": "This model gives no next-token scores here, so its odds cannot be shown.",
        "zh": "这个模型在这里不给出下一个词元的分数，所以无法显示它的概率。",
    },
    "odds.not_text": {
        "en": "The drawn token “{token}” is part of a character (bytes, not text): it cannot be added to the prompt. "
        "Try another seed.",
        "zh": "抽到的词元“{token}”只是一个字符的一部分（字节，不是文字）：无法加到提示文字后。请换一个种子。",
    },
    "odds.padded": {
        "en": "This model has scores for {rows:,} token ids but its tokenizer has only {vocab:,} tokens: the other "
        "{extra:,} ids (padding rows of the model's vocabulary) stand for no token, so they get no probability "
        "here and are never drawn or generated.",
        "zh": "这个模型为 {rows:,} 个词元编号给出分数，但它的分词器只有 {vocab:,} 个词元：其余 {extra:,} 个编号（模型词表的填充行）"
        "不代表任何词元，所以这里不给它们概率，也永远不会被抽到或生成。",
    },
    "odds.prompt_full": {
        "en": "The prompt is at its longest ({limit} characters): nothing more can be added.",
        "zh": "提示文字已达最长（{limit} 个字符）：不能再添加。",
    },
    "odds.before": {"en": "before the cut", "zh": "截断前"},
    "odds.after": {"en": "kept, renormalised", "zh": "保留并重新归一化"},
    "odds.prob_axis": {"en": "probability", "zh": "概率"},
    "error.temperature_negative": {"zh": "温度必须是不小于 0 的数（当前为 {value}）；0 表示总是选最可能的词元。"},
    "error.top_k_too_small": {"zh": "top-k 必须是不小于 1 的整数（当前为 {value}）：它保留最可能的 k 个词元。"},
    "error.top_p_range": {"zh": "top-p 必须大于 0 且不超过 1（当前为 {value}）：它保留概率累计到该值的最可能词元。"},
}
