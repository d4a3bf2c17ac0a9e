"""Strings: The app, its pages, the figures and the training curves."""

STRINGS: dict[str, dict[str, str]] = {
    "app.name": {"en": "Seeing Attention", "zh": "看见注意力"},
    "app.tagline": {
        "en": "Type a sequence and watch every head of GPT's multi-head causal attention, step by step.",
        "zh": "输入一段文字，逐步观察 GPT 多头因果注意力的每一个头。",
    },
    "app.language": {"en": "Language", "zh": "语言"},
    "lane.ahead": {
        "en": "Queued: {n} ahead of you. New views are computed a few at a time, so that every "
        "student's page stays quick; yours opens by itself.",
        "zh": "排队中：前面还有 {n} 位。新的视图每次只计算少数几个，好让每位同学的页面都保持流畅；轮到你时会自动打开。",
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
    "models.shipped": {"en": "Shipped model, h = {heads}", "zh": "随附模型，h = {heads}"},
    # Trained on the Train page, or uploaded there: the student's own.
    "models.session": {"en": "Your model", "zh": "你的模型"},
    "page.lesson.blurb": {
        "en": "The chapter, step by step: implement GPT's multi-head attention layer.",
        "zh": "按章节一步步实现 GPT 的多头注意力层。",
    },
    "page.coming_soon": {
        "en": "This page is being built. Meanwhile, the attention playground is ready.",
        "zh": "此页面正在建设中。注意力游乐场已经可以使用。",
    },
    "note.unknown": {
        "en": "The link has a setting this page does not know, “{name}”: it was ignored.",
        "zh": "链接里有本页不认识的设置“{name}”，已忽略。",
    },
    "note.older_version": {
        "en": "This link was made with an earlier version of the app (numbers version {value}; this server computes version {current}): the numbers may differ from what the sender saw.",
        "zh": "这个链接是用较早版本的应用生成的（数值版本 {value}；本服务器计算的是版本 {current}）：数值可能与发送者看到的不同。",
    },
    "note.newer_version": {
        "en": "This link was made with a newer version of the app (numbers version {value}) than this server runs (version {current}): the numbers may differ from what the sender saw.",
        "zh": "这个链接是用比本服务器（版本 {current}）更新的应用版本生成的（数值版本 {value}）：数值可能与发送者看到的不同。",
    },
    "note.invalid": {
        "en": "The link's {name} = {value} can't be used (allowed: {allowed}); the default {default} is shown instead.",
        "zh": "链接中的 {name} = {value} 无法使用（允许：{allowed}）；已改用默认值 {default}。",
    },
    "note.past_text": {
        "en": "The link's {name} = {value} is past the end of this text (its tokens are {allowed}): the last token, {default}, is shown.",
        "zh": "链接中的 {name} = {value} 超出了这段文字的末尾（词元位置为 {allowed}）：已显示最后一个词元 {default}。",
    },
    "note.too_long_for_link": {
        "en": "This page's {name} is too long to share by link ({chars} characters; a link carries at most {limit}), so the link in the address bar leaves it out. To share it, send the text itself, or the page's download.",
        "zh": "本页的 {name} 太长，无法通过链接分享（{chars} 个字符；链接最多容纳 {limit} 个），所以地址栏里的链接不包含它。要分享它，请直接发送文本，或本页的下载文件。",
    },
    "note.box_clamped": {
        "en": "{name} must be {low}–{high}; using {used}.",
        "zh": "{name} 必须在 {low}–{high} 之间；现在用 {used}。",
    },
    "contained.failed": {
        "en": "“{what}” could not be drawn: something went wrong on the server (it was logged). The rest of the page still works: try other settings here, or reload the page.",
        "zh": "“{what}”无法显示：服务器上出了错（已记录到日志）。页面的其余部分仍可使用：请换一种设置再试，或刷新页面。",
    },
    "list_sep": {"en": ", ", "zh": "、"},
    "train.loss": {"en": "cross-entropy loss", "zh": "交叉熵损失"},
    "train.train_loss": {"en": "train loss", "zh": "训练损失"},
    "train.test_loss": {"en": "held-out loss", "zh": "验证损失"},
    "train.step": {"en": "step", "zh": "步数"},
    "train.seconds": {"en": "wall time (s)", "zh": "用时（秒）"},
    "train.curve_title": {"en": "Loss while training", "zh": "训练中的损失"},
    "train.heads_label": {"en": "h = {heads}", "zh": "h = {heads}"},
    "train.experiment_by_step": {"en": "Held-out loss by step", "zh": "按步数的验证损失"},
    "train.experiment_by_time": {"en": "Held-out loss by wall time", "zh": "按用时的验证损失"},
    "train.band": {"en": "h = {heads}: lowest–highest seed", "zh": "h = {heads}：各种子的最低–最高"},
    "train.seed_label": {"en": "seed {seed}", "zh": "种子 {seed}"},
    "train.final_title": {
        "en": "Final held-out loss by seed",
        "zh": "各种子的最终验证损失",
    },
    "train.mean_sd": {"en": "mean ± sd", "zh": "均值 ± 标准差"},
    "train.heads_axis": {"en": "heads h", "zh": "头数 h"},
    "stage.scores": {"en": "raw scores QKᵀ", "zh": "原始分数 QKᵀ"},
    "stage.scaled_scores": {"en": "scaled ÷ √d", "zh": "缩放 ÷ √d"},
    "stage.not_scaled": {"en": "not scaled (switch off)", "zh": "未缩放（开关已关闭）"},
    "stage.masked_scores": {"en": "masked (−∞ above the diagonal)", "zh": "掩码（对角线上方为 −∞）"},
    "stage.weights": {"en": "softmax weights", "zh": "softmax 权重"},
    "stage_short.scores": {"en": "QKᵀ", "zh": "QKᵀ"},
    "stage_short.scaled_scores": {"en": "÷ √d", "zh": "÷ √d"},
    "stage_short.masked_scores": {"en": "masked", "zh": "掩码"},
    "stage_short.weights": {"en": "softmax", "zh": "softmax"},
    "stage.dropped_weights": {"en": "weights after dropout", "zh": "dropout 之后的权重"},
    "fig.head": {"en": "head", "zh": "头"},
    "fig.query": {"en": "query", "zh": "查询"},
    "fig.key": {"en": "key", "zh": "键"},
    "fig.query_axis": {"en": "query (row)", "zh": "查询（行）"},
    "fig.key_axis": {"en": "key (column)", "zh": "键（列）"},
    "fig.minus_inf": {"en": "−∞ cells", "zh": "−∞ 单元格"},
    "fig.masked_reason": {
        "en": "masked: this key comes after the query",
        "zh": "已掩码：这个键在查询之后",
    },
    "fig.legend_masked": {"en": "−∞ (masked future)", "zh": "−∞（被掩码的未来位置）"},
    "fig.dropped": {"en": "dropped by dropout (0)", "zh": "被 dropout 丢弃（0）"},
    "fig.range_own": {"en": "own colour range", "zh": "独立的颜色范围"},
    "fig.range_shared": {"en": "scaled and masked: one range", "zh": "缩放与掩码共用一个范围"},
    "fig.range_weights": {"en": "0 to 1", "zh": "0 到 1"},
    "fig.range_dropped": {"en": "0 to the largest kept weight", "zh": "0 到保留的最大权重"},
    "fig.channels_of_head": {
        "en": "head {head}: channels {first}–{last}",
        "zh": "头 {head}：通道 {first}–{last}",
    },
    "fig.channel_map": {
        "en": "The C = {C} channels, split into h = {h} heads of d = {d}",
        "zh": "C = {C} 个通道，拆成 h = {h} 个头，每个 d = {d}",
    },
    "fig.channel_axis": {"en": "channel", "zh": "通道"},
    "fig.kv_channels": {
        "en": "key/value head {kv}: channels {first}–{last}, read by query heads {heads}",
        "zh": "键/值头 {kv}：通道 {first}–{last}，由查询头 {heads} 共用",
    },
    "fig.kv_row": {"en": "K, V", "zh": "K、V"},
    "fig.q_row": {"en": "Q", "zh": "Q"},
    "fig.channel_map_gqa": {
        "en": "Q: h = {h} heads of d = {d} · K, V: h_kv = {h_kv} heads, each shared by {groups} query heads",
        "zh": "Q：h = {h} 个头，每个 d = {d} · K、V：h_kv = {h_kv} 个头，每个由 {groups} 个查询头共用",
    },
    "win.note": {
        "en": "A long text: {T} tokens are too many for one legible chart, so the charts show a window of {n} "
        "queries and {n} keys around the chosen cell. The map shows the whole text; click it to move the window.",
        "zh": "长文本：{T} 个词元放不进一张看得清的图，所以图中只显示所选格子周围 {n} 个查询 × {n} 个键的窗口。"
        "左边的小图是整段文本，点击它即可移动窗口。",
    },
    "win.note_above": {
        "en": "A long text: {T} tokens are too many for one legible chart, so the charts show a window of {n} "
        "queries and {n} keys around the chosen cell. The map of the whole text is at the top of the page; "
        "click it to move the window.",
        "zh": "长文本：{T} 个词元放不进一张看得清的图，所以图中只显示所选格子周围 {n} 个查询 × {n} 个键的窗口。"
        "整段文本的小图在页面顶部，点击它即可移动窗口。",
    },
    "win.outside": {
        "en": "Query {row} gives **{share}** of its attention to keys outside the window.",
        "zh": "查询 {row} 有 **{share}** 的注意力落在窗口之外的键上。",
    },
    "win.title": {
        "en": "queries {q0}–{q1} × keys {k0}–{k1} of {T}",
        "zh": "查询 {q0}–{q1} × 键 {k0}–{k1}（共 {T} 个词元）",
    },
    "win.overview_title": {
        "en": "The whole text in blocks of {b} × {b} tokens (each its largest value); the box is the window",
        "zh": "整段文本，每块 {b} × {b} 个词元（取块内最大值）；方框是当前窗口",
    },
    "win.block_hover": {
        "en": "queries from {q}, keys from {k}<br>largest value: {v}",
        "zh": "查询从 {q} 起，键从 {k} 起<br>最大值：{v}",
    },
    "fig.head_colors_repeat": {
        "en": "Head colours repeat after {n}: head {n_next} has head 1's colour, head {n_next2} head 2's, and so on.",
        "zh": "头的颜色每 {n} 个重复一次：头 {n_next} 与头 1 同色，头 {n_next2} 与头 2 同色，依此类推。",
    },
    "alt.chart": {"en": "Chart", "zh": "图表"},
    "alt.heatmap": {
        "en": "{title}: a heatmap of {rows} × {cols} cells.",
        "zh": "{title}：一张 {rows} × {cols} 个单元格的热力图。",
    },
    "alt.heatmaps": {
        "en": "{title}: {count} heatmaps of {rows} × {cols} cells.",
        "zh": "{title}：{count} 张热力图，每张 {rows} × {cols} 个单元格。",
    },
    "alt.series_chart": {
        "en": "{title}: a chart of {count} data series.",
        "zh": "{title}：包含 {count} 组数据的图表。",
    },
    "alt.grid": {"en": "{name}: largest {cells}.", "zh": "{name}：最大的是 {cells}。"},
    "alt.token_cell": {"en": "{value} (query {row}, key {col})", "zh": "{value}（查询 {row}，键 {col}）"},
    "alt.cell": {"en": "{value} ({row}, {col})", "zh": "{value}（{row}，{col}）"},
    "alt.separator": {"en": "; ", "zh": "；"},
    "alt.minus_inf": {"en": " {count} cells are −∞ (masked).", "zh": "{count} 个单元格为 −∞（已掩码）。"},
    "alt.no_values": {"en": "{name}: no values.", "zh": "{name}：没有数值。"},
    "alt.series": {
        "en": "{name}: {count} points; first {first} ({first_x}), last {last} ({last_x}), lowest {low} ({low_x}), "
        "highest {high} ({high_x}).",
        "zh": "{name}：{count} 个点；第一个 {first}（{first_x}），最后一个 {last}（{last_x}），最低 {low}（{low_x}），"
        "最高 {high}（{high_x}）。",
    },
    "alt.point": {"en": "{name}: {value} ({x}).", "zh": "{name}：{value}（{x}）。"},
    "alt.corner_tokens": {"en": "query ↓ · key →", "zh": "查询 ↓ · 键 →"},
    "alt.value": {"en": "value", "zh": "数值"},
    "chart.table": {"en": "Show as table", "zh": "以表格显示"},
    "chart.table_part": {"en": "Part of the chart", "zh": "图表的部分"},
    "models.real": {"en": "{name} (real model)", "zh": "{name}（真实模型）"},
    "models.real_not_here": {
        "en": "{name} (real model, not downloaded here: {command})",
        "zh": "{name}（真实模型，这里尚未下载：{command}）",
    },
    "real.downloading": {
        "en": "Downloading {name} from Hugging Face, once for this server: {done} of {total}",
        "zh": "正在从 Hugging Face 下载 {name}（本服务器只下载一次）：{done} / {total}",
    },
    "real.loading": {"en": "Loading {name} …", "zh": "正在加载 {name} …"},
    "real.facts.folder": {
        "en": "**{name}**, a model in a folder of this server (transformers' {family} architecture, not the {family} "
        "model of the Hugging Face Hub) · {layers} layers · h = {h} query heads, h_kv = {h_kv} key/value heads · "
        "d = {d} (C = {C}) · stream width {hidden} · context {context} tokens · {params} parameters ({size} in memory)",
        "zh": "**{name}**，本服务器文件夹中的模型（transformers 的 {family} 架构，不是 Hugging Face Hub 上的 {family} 模型）"
        " · {layers} 层 · h = {h} 个查询头，h_kv = {h_kv} 个键/值头 · d = {d}（C = {C}） · 数据流宽度 {hidden}"
        " · 上下文 {context} 个词元 · {params} 个参数（内存 {size}）",
    },
    "real.facts": {
        "en": "**{family}** · {layers} layers · h = {h} query heads, h_kv = {h_kv} key/value heads · d = {d} "
        "(C = {C}) · stream width {hidden} · context {context} tokens · {params} parameters ({size} in memory)",
        "zh": "**{family}** · {layers} 层 · h = {h} 个查询头，h_kv = {h_kv} 个键/值头 · d = {d}（C = {C}）"
        " · 数据流宽度 {hidden} · 上下文 {context} 个词元 · {params} 个参数（内存 {size}）",
    },
    "real.gqa": {
        "en": "Grouped-query attention: the {h} query heads share {h_kv} key/value heads, {groups} query heads per "
        "key/value head (the keys and values are repeated before the scores).",
        "zh": "分组查询注意力：{h} 个查询头共用 {h_kv} 个键/值头，每个键/值头对应 {groups} 个查询头（计算分数前先把键和值重复）。",
    },
    "context_cut": {  # the playground's and the explorer's one note for a text cut to a tiny GPT's context
        "en": "The model reads at most {context} characters: the last {cut} are not shown.",
        "zh": "模型最多读取 {context} 个字符：最后 {cut} 个没有显示。",
    },
    "real.cut": {
        "en": "The model reads at most {tokens} tokens here: the last {cut} tokens of the text are not shown.",
        "zh": "这里模型最多读 {tokens} 个词元：文字最后的 {cut} 个词元没有显示。",
    },
    "real.tokens_note": {
        "en": "The tokens as {name} reads them: ␣ is a leading space, ‹e5 8a›动 is a byte piece of the character "
        "动, <s> and the like are tokens the model adds.",
        "zh": "这是 {name} 读到的词元：␣ 表示前导空格，‹e5 8a›动 表示字符“动”的一个字节片段，<s> 之类是模型自己加上的词元。",
    },
}
