"""Strings: one token, every head (the playground's and the explorer's token view)."""

STRINGS: dict[str, dict[str, str]] = {
    "pg.tab.token": {"en": "One token, every head", "zh": "一个词元，所有头"},
    "ex.tab.token": {"en": "One token, every head", "zh": "一个词元，所有头"},
    "tv.token": {"en": "Token", "zh": "词元"},
    "tv.direction": {"en": "Show", "zh": "显示"},
    "tv.dir.reads": {"en": "What it reads", "zh": "它读取什么"},
    "tv.dir.read_by": {"en": "Who reads it", "zh": "谁读取它"},
    "tv.dir.both": {"en": "Both", "zh": "两者"},
    "tv.window": {
        "en": "A long text: the bars of positions {first}–{last} of {T}, around the token.",
        "zh": "长文本：只画这个词元周围第 {first}–{last} 个位置的柱子（共 {T} 个）。",
    },
    "tv.help": {
        "en": "Each small chart is one head. The bars up to the shaded token are its row as a query: what it reads "
        "(the weights sum to 1). The lighter bars from it on are its column as a key: how much each later token "
        "reads it. Choose a token above.",
        "zh": "每个小图是一个头。阴影标出的词元及其之前的柱子是它作为查询（query）的那一行：它读取什么（权重之和为 1）。"
        "它及之后颜色较浅的柱子是它作为键（key）的那一列：后面每个词元读取它多少。在上方选择一个词元。",
    },
    "tv.reads": {"en": "reads", "zh": "读取"},
    "tv.read_by": {"en": "is read by", "zh": "被读取"},
    "tv.title_reads": {"en": "What {token} reads, in every head", "zh": "每个头中 {token} 读取什么"},
    "tv.title_read_by": {"en": "Who reads {token}, in every head", "zh": "每个头中谁读取 {token}"},
    "tv.title_both": {
        "en": "What {token} reads and who reads it, in every head",
        "zh": "每个头中 {token} 读取什么、被谁读取",
    },
    "tv.links_reads": {"en": "**Strongest links: what it reads**", "zh": "**最强的连接：它读取什么**"},
    "tv.links_read_by": {"en": "**Strongest links: who reads it**", "zh": "**最强的连接：谁读取它**"},
    "tv.where.head": {"en": "head {head}", "zh": "第 {head} 个头"},
    "tv.where.layer": {"en": "layer {layer} head {head}", "zh": "第 {layer} 层第 {head} 个头"},
    "tv.where.block": {"en": "block {layer} head {head}", "zh": "第 {layer} 块第 {head} 个头"},
    "tv.sentence.reads": {
        "en": "{where} reads '{token}' (position {position}) at {weight}",
        "zh": "{where}读取“{token}”（位置 {position}），权重 {weight}",
    },
    "tv.sentence.read_by": {
        "en": "{where} is read by '{token}' (position {position}) at {weight}",
        "zh": "{where}被“{token}”（位置 {position}）读取，权重 {weight}",
    },
    "tv.one_layer": {
        "en": "Layer {layer} of {layers}: choose another in the map above. The strongest links below are of every layer.",
        "zh": "第 {layer} 层（共 {layers} 层）：可在上方的图中选择其他层。下面最强的连接来自所有层。",
    },
    "tv.out_of_range": {
        "en": "Token {value} is not in this text (positions 0 … {last}): showing the last one, {label}.",
        "zh": "词元位置 {value} 不在这段文字中（位置 0 … {last}）：改为显示最后一个，{label}。",
    },
}
