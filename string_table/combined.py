"""Strings: heads and layers combined (mean over heads, attention rollout) and q·k by hand."""

STRINGS: dict[str, dict[str, str]] = {
    # The tabs.
    "pg.tab.combined": {"en": "All heads combined", "zh": "所有头合并"},
    "pg.tab.qk": {"en": "q·k by hand", "zh": "手算 q·k"},
    "ex.tab.combined": {"en": "Heads and layers combined", "zh": "头与层合并"},
    # The figures' words.
    "cbfig.mean": {"en": "mean over heads", "zh": "各头平均"},
    "cbfig.rollout": {"en": "attention rollout", "zh": "注意力展开（rollout）"},
    "qkfig.title": {
        "en": "Head {head}: q of query {query} and k of key {key}, channel by channel",
        "zh": "头 {head}：查询 {query} 的 q 与键 {key} 的 k，逐通道",
    },
    "qkfig.q": {"en": "q (query {query})", "zh": "q（查询 {query}）"},
    "qkfig.k": {"en": "k (key {key})", "zh": "k（键 {key}）"},
    "qkfig.products": {"en": "q[c] × k[c], channel by channel", "zh": "q[c] × k[c]，逐通道相乘"},
    "qkfig.positive": {"en": "positive product", "zh": "正的乘积"},
    "qkfig.negative": {"en": "negative product", "zh": "负的乘积"},
    "qkfig.channel_axis": {"en": "channel c", "zh": "通道 c"},
    # The playground: all heads combined.
    "cb.pg_intro": {
        "en": (
            "The {heads} heads' softmax weights, averaged cell by cell: one T × T map of where this layer looks "
            "as a whole. Each row still sums to 1."
        ),
        "zh": "把 {heads} 个头的 softmax 权重逐格取平均：一张 T × T 的图，表示这一层整体在看哪里。每一行的和仍然是 1。",
    },
    "cb.mean_title": {"en": "Mean over the {heads} heads", "zh": "{heads} 个头的平均"},
    "cb.one_layer_title": {
        "en": "Attention rollout of this one layer: ½ mean + ½ identity",
        "zh": "这一层的注意力展开：½ 平均 + ½ 单位矩阵",
    },
    "cb.pg_rollout": {
        "en": (
            "The playground shows one attention layer, so its rollout is one step: ½ × the mean above + ½ × the "
            "identity (the residual stream: each token keeps half of itself), rows renormalised to sum 1. Through "
            "several layers, rollout multiplies these maps: the explorer's tab “Heads and layers combined” does it "
            "for a trained model's every block."
        ),
        "zh": (
            "游乐场只有一个注意力层，所以展开只有一步：½ × 上面的平均 + ½ × 单位矩阵（残差流：每个词元保留一半的自己），"
            "再把每行归一化为 1。多层时，展开把这些图相乘：探索器的“头与层合并”标签页对训练好的模型的所有块这样做。"
        ),
    },
    "cb.pg_rollout_layers": {
        "en": (
            "This model has {blocks} {units}, so its rollout runs through all of them, from the first up: in each, "
            "½ × its heads' mean + ½ × the identity (the residual stream: each token keeps half of itself), rows "
            "renormalised to sum 1, and the {units}' maps multiplied one after the other. The mean above is "
            "{where}'s alone."
        ),
        "zh": (
            "这个模型有 {blocks} 个{units}，所以展开贯穿全部{units}，从第一个起：每一个都取其各头平均的 ½ 加单位矩阵的 ½"
            "（残差流：每个词元保留一半的自己），每行归一化为 1，再把各{units}的图依次相乘。上面的平均只属于{where}。"
        ),
    },
    # The explorer.
    "cb.blocks": {"en": "blocks", "zh": "块"},
    "cb.layers": {"en": "layers", "zh": "层"},
    "ex.combine": {"en": "Combine", "zh": "合并方式"},
    "ex.combine.mean": {"en": "Mean over the chosen {unit}'s heads", "zh": "所选{unit}各头的平均"},
    "ex.combine.rollout": {"en": "Rollout through all {units}", "zh": "贯穿所有{units}的展开"},
    "ex.combined_mean_title": {
        "en": "Mean over the {heads} heads of {where}",
        "zh": "{where} 的 {heads} 个头的平均",
    },
    "ex.combined_rollout_title": {
        "en": "Attention rollout through all {blocks} {units}",
        "zh": "贯穿全部 {blocks} 个{units}的注意力展开",
    },
    "ex.combined_help": {
        "en": (
            "Mean: the heads of one {unit} averaged cell by cell. Rollout: in every {unit}, the heads' mean "
            "½ + identity ½, rows renormalised, then multiplied from the first {unit} up: how much each query "
            "position draws on each input token after all of them (Abnar & Zuidema, 2020)."
        ),
        "zh": (
            "平均：一个{unit}的各头逐格取平均。展开：每个{unit}取各头平均的 ½ 加单位矩阵的 ½，每行归一化，"
            "再从第一个{unit}起逐层相乘：经过所有{unit}之后，每个查询位置从每个输入词元取了多少（Abnar 与 Zuidema，2020）。"
        ),
    },
    "cb.rollout_note": {
        "en": (
            "**What rollout assumes.** The residual stream is modelled as half identity; the heads are averaged "
            "(each gets the same say); the values, the output projections and the MLPs are ignored; the layers mix "
            "tokens linearly.\n\n"
            "**Where it misleads.** It is not an explanation of the model's output: it says where attention flows, "
            "not what was carried or why a token was predicted. Multiplying many layers blurs the map toward the "
            "early tokens, above all the first one. It has no sign: every number is a share of attention, never "
            "“against”."
        ),
        "zh": (
            "**展开的假设。** 把残差流当作一半的单位矩阵；各头取平均（每个头分量相同）；忽略值向量、输出投影和 MLP；"
            "假设各层对词元的混合是线性的。\n\n"
            "**它会误导的地方。** 它不是对模型输出的解释：它说明注意力流向哪里，而不是传递了什么，也不是为什么预测出某个词元。"
            "许多层相乘会让图向前面的词元模糊，尤其是第一个词元。它没有正负：每个数都是注意力的份额，从不表示“反对”。"
        ),
    },
    # The playground: q·k by hand.
    "qk.intro": {
        "en": (
            "Head {head}, query {query}, key {key_label} (the cell chosen above): the raw score is the dot product of "
            "q of the query and k of the key, {d} channels multiplied pairwise and added up."
        ),
        "zh": "头 {head}，查询 {query}，键 {key_label}（上面选中的格子）：原始分数是查询的 q 与键的 k 的点积，{d} 个通道两两相乘再相加。",
    },
    "qk.sum": {
        "en": "q · k = Σ q[c] × k[c] = {terms} = **{total}**: the raw score QKᵀ of this cell.",
        "zh": "q · k = Σ q[c] × k[c] = {terms} = **{total}**：这个格子的原始分数 QKᵀ。",
    },
    "qk.scaled": {
        "en": "{total} ÷ √{d} = {total} ÷ {root} = **{scaled}**: the scaled score.",
        "zh": "{total} ÷ √{d} = {total} ÷ {root} = **{scaled}**：缩放后的分数。",
    },
    "qk.scaled_other": {
        "en": "{total} ÷ {root} = **{scaled}**: the scaled score (this model scales by its own factor).",
        "zh": "{total} ÷ {root} = **{scaled}**：缩放后的分数（这个模型用自己的缩放因子）。",
    },
    "qk.unscaled": {
        "en": "Scaling is off: the score goes on unchanged, **{scaled}**.",
        "zh": "缩放已关闭：分数原样进入下一步，**{scaled}**。",
    },
    "qk.masked": {
        "en": (
            "Key {col} comes after query {row}: the score exists (it is computed like any other), but the causal "
            "mask sets it to −∞ before the softmax, so its weight is 0. Choose a key at or before the query to see "
            "a score that counts."
        ),
        "zh": "键 {col} 在查询 {row} 之后：这个分数存在（和其他分数一样计算），但因果掩码在 softmax 之前把它设为 −∞，所以它的权重是 0。选择查询之前或同位置的键，就能看到起作用的分数。",
    },
    "qk.next": {
        "en": "Next: the tab “{tab}” turns row {row}'s scaled scores into weights.",
        "zh": "下一步：“{tab}”标签页把第 {row} 行的缩放分数变成权重。",
    },
    "qk.more_terms": {"en": "… ({more} more)", "zh": "……（还有 {more} 项）"},
}
