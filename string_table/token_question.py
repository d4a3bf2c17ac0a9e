"""The token question's strings: the lesson's steps 10 and 11, its figure, and what a room's
teacher and students see of it."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "ls.10.title": {"en": "Which token does a random head read?", "zh": "随机的头读哪个词元？"},
    "ls.10.lead": {
        "en": "The book's layer with random weights, h = {h} heads. Token {n}, the last, compares its query "
        "with every key up to its own. Before seeing a weight: which token will it read most?",
        "zh": "书中那一层，权重随机，h = {h} 个头。最后一个词元 {n} 用它的查询和自己及之前每个词元的键比较；"
        "softmax 把分数变成权重。在看到任何权重之前：它最多读哪个词元？",
    },
    "ls.10.hint": {
        "en": "The largest score q·k/√d wins; random weights follow no rule of language. Choose again, or see the answer.",
        "zh": "最大的分数 q·k/√d 得到最大的权重。权重随机时，没有任何语言规律决定是哪个键：再选一次，或查看答案。",
    },
    "ls.11.title": {"en": "Which token does a trained head read?", "zh": "训练后的头读哪个词元？"},
    "ls.11.lead": {
        "en": "The shipped tiny GPT (h = {h} heads), trained on Shakespeare, reads {prompt}. The figure shows "
        "the weights of layer {layer}'s heads for every token but the last, {n}. Look at head {head}: "
        "where does each row put its largest weight?",
        "zh": "随附的小 GPT（h = {h} 个头）在莎士比亚文本上训练过，读入 {prompt}。"
        "图中是第 {layer} 层各头除最后一个词元 {n} 之外每一行的权重。看头 {head}：每一行把最大的权重放在哪里？",
    },
    "ls.11.hint": {
        "en": "Look at the head's rows above: where is each row's darkest cell, counted from its own token?",
        "zh": "看上面这个头的各行：每一行最深的格子在哪里？从这一行自己的词元数起。",
    },
    "ls.11.body": {
        "en": "Head {head} is a previous-token head: on this prompt {share} of its {rows} rows with an earlier "
        "token put their largest weight on the token just before them. Training made the pattern; "
        "the row below is the last token's.",
        "zh": "头 {head} 是一个“前一个词元”头：在这段提示上，它有前一个词元的 {rows} 行中，{share} 把最大的权重"
        "放在紧挨着的前一个词元上。这个规律是训练出来的；下面是最后一个词元的那一行。",
    },
    "ls.11.no_model": {
        "en": "The shipped model is missing from assets/: this step cannot show a trained head.",
        "zh": "assets/ 中缺少随附模型：这一步无法显示训练后的头。",
    },
    "ls.tq.q": {
        "en": "Which earlier token will token {n} ({token}) read most in head {head}?",
        "zh": "在头 {head} 中，词元 {n}（{token}）最多读哪个词元？",
    },
    "ls.tq.in_layer": {"en": "{head} of layer {layer}", "zh": "{head}（第 {layer} 层）"},
    "ls.tq.why": {
        "en": "In head {head}, token {n}'s largest weight, {weight}, is on {keys}: {lead} more than on any other key.",
        "zh": "在头 {head} 中，词元 {n} 最大的权重 {weight} 在 {keys} 上：比任何其他键多 {lead}。",
    },
    "ls.tq.why_tie": {
        "en": "In head {head}, token {n}'s largest weight, {weight}, is on {keys} alike: each of them is right.",
        "zh": "在头 {head} 中，词元 {n} 最大的权重 {weight} 同样落在 {keys} 上：每一个都算对。",
    },
    "ls.tq.body": {
        "en": "Head {head}'s real row for token {n}: one bar per key, its weight after the softmax (they add up to 1).",
        "zh": "头 {head} 中词元 {n} 真实的一行：每个键一根条，是它在 softmax 之后的权重（总和为 1）。",
    },
    "room.tq_share": {
        "en": "{share} of the class ({n} of {answered}) chose the strongest key, {keys}.",
        "zh": "全班 {share}（{answered} 人中的 {n} 人）选了最强的键 {keys}。",
    },
    "tqfig.title": {"en": "Which token does it read most?", "zh": "它最多读哪个词元？"},
    "tqfig.class": {"en": "the class's choices (share)", "zh": "全班的选择（比例）"},
    "tqfig.weights": {"en": "head {head}'s real weights", "zh": "头 {head} 真实的权重"},
    "tqfig.share_axis": {"en": "share of the class · weight", "zh": "全班比例 · 权重"},
    "tqfig.weight_axis": {"en": "weight", "zh": "权重"},
    "tqfig.yours": {"en": "your choice", "zh": "你的选择"},
}
