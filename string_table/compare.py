"""Strings: the playground's compare mode (two set-ups side by side)."""

STRINGS: dict[str, dict[str, str]] = {
    "cmp.toggle": {"en": "Compare two set-ups", "zh": "对比两种设置"},
    "cmp.toggle_help": {
        "en": "Set-up A is the controls above; set-up B has its own heads, head_dim, weights, seed, scaling and "
        "dropout. Both read the same text.",
        "zh": "设置 A 就是上面的控件；设置 B 有自己的头数、每头维度、权重、种子、缩放和 dropout。两者读同一段文字。",
    },
    "cmp.a_title": {"en": "Set-up A", "zh": "设置 A"},
    "cmp.b_title": {"en": "Set-up B", "zh": "设置 B"},
    "cmp.shared_note": {
        "en": "Shared with A: the text, the tokens, the input width, positions and bias.",
        "zh": "与 A 共用：文字、词元、输入宽度、位置编码和偏置。",
    },
    "cmp.b_weights_real": {
        "en": "Set-up B takes random weights, a shipped model or your model (real models only in A).",
        "zh": "设置 B 可用随机权重、随附模型或你的模型（真实模型只能用于 A）。",
    },
    "cmp.focus_help": {
        "en": "Click a cell in either chart: the same cell (query row, key column) is outlined in both.",
        "zh": "点击任一图中的格子：两张图中同一个格子（查询行、键列）都会被框出。",
    },
    "cmp.column_line": {
        "en": "**{name}**: T = {T} tokens, h = {h} heads of d = {d}, C = {C}",
        "zh": "**{name}**：T = {T} 个词元，h = {h} 个头，每头 d = {d}，C = {C}",
    },
    "cmp.cell_outside": {
        "en": "The chosen cell (row {row}, column {col}) is outside this set-up's {T} tokens.",
        "zh": "所选格子（第 {row} 行，第 {col} 列）超出了此设置的 {T} 个词元。",
    },
    "cmp.diff_title": {"en": "Difference B − A", "zh": "差值 B − A"},
    "cmp.map_head": {
        "en": "The map shows set-up A's head {head}; its box is the window both set-ups show.",
        "zh": "小图显示设置 A 的头 {head}；方框是两个设置共同显示的窗口。",
    },
    "cmp.diff_help": {
        "en": "Each cell: B's value minus A's. Red: B is larger; blue: A is larger; white: equal.",
        "zh": "每个格子：B 的值减去 A 的值。红色：B 更大；蓝色：A 更大；白色：相等。",
    },
    "cmp.diff_means": {
        "en": "A has {ha} heads and B has {hb}: no head of one matches a head of the other, so the difference is "
        "of each set-up's mean over its heads.",
        "zh": "A 有 {ha} 个头，B 有 {hb} 个头：两边的头无法一一对应，所以这里比较的是各自所有头的平均值之差。",
    },
    "cmp.diff_tokens": {
        "en": "A reads {ta} tokens and B reads {tb} (or other tokens): the matrices have different shapes, so there "
        "is no cell-by-cell difference. Compare the two charts above by eye.",
        "zh": "A 读到 {ta} 个词元，B 读到 {tb} 个（或词元不同）：矩阵形状不同，无法逐格相减。请直接对比上面两张图。",
    },
    "cmp.fig.b_minus_a": {"en": "B − A", "zh": "B − A"},
    "cmp.fig.mean_panel": {"en": "mean of heads", "zh": "各头平均"},
    "cmp.fig.title": {"en": "B − A · {stage}", "zh": "B − A · {stage}"},
    "cmp.fig.mean_title": {"en": "B − A of the mean over heads · {stage}", "zh": "各头平均的 B − A · {stage}"},
    "pg.note_b_model_missing": {
        "en": "The link names the model {value} for set-up B, which is not here: B shows random weights.",
        "zh": "链接为设置 B 指定的模型 {value} 不在这里：B 改为显示随机权重。",
    },
    "cmp.error_b": {"en": "Set-up B cannot read this text: {error}", "zh": "设置 B 无法读取这段文字：{error}"},
}
