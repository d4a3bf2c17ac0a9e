"""Strings: the page that works offline from one file (``seeing-attention export``, the
playground's "Download as a page", ``seeing_attention.show`` in a notebook)."""

STRINGS: dict[str, dict[str, str]] = {
    "page.title": {"en": "Multi-head causal attention: {text}", "zh": "多头因果注意力：{text}"},
    "page.lead": {
        "en": "Every head's four stages, computed with gpt_core (PyTorch). Choose a stage; hover a cell to see it in "
        "every stage of its head; click a cell to outline it in every stage and work out its row's softmax by hand.",
        "zh": "每个头的四个阶段，由 gpt_core（PyTorch）计算。选择一个阶段；把鼠标移到格子上，可在该头的每个阶段看到同一格；"
        "点击格子，会在每个阶段描出它，并手算这一行的 softmax。",
    },
    "page.tokens": {"en": "The tokens, as the model reads them ({n})", "zh": "模型读到的词元（{n} 个）"},
    "page.cut": {
        "en": "The text has {total} tokens: this page shows its first {shown}. A page holds up to {limit} tokens "
        "with these heads (at most {mb} MB): ask for more with max_tokens= in a notebook, --max-tokens on the command "
        "line.",
        "zh": "这段文本有 {total} 个词元：本页只显示前 {shown} 个。用这些头，一个页面最多容纳 {limit} 个词元（不超过 {mb} MB）："
        "在 notebook 中用 max_tokens=，在命令行中用 --max-tokens 可以要求更多。",
    },
    "page.cut_model": {
        "en": "The text has {total} tokens: {name} reads its first {shown} (as many as it was built for, or as the "
        "app reads of any text), and this page shows those.",
        "zh": "这段文本有 {total} 个词元：{name} 只读取前 {shown} 个（它能处理的最多词元数，或本应用对任何文本读取的上限），本页显示的就是这些。",
    },
    "page.stage": {"en": "Stage", "zh": "阶段"},
    "page.layer": {"en": "Layer {layer}", "zh": "第 {layer} 层"},
    "page.layer_choice": {"en": "Layer", "zh": "层"},
    "page.window": {
        "en": "A long text: the charts show queries {first}–{last} and keys {key_first}–{key_last} of its {T} "
        "tokens. The map shows the whole text: click it to move there.",
        "zh": "长文本：图中显示 {T} 个词元中的查询 {first}–{last} 和键 {key_first}–{key_last}。小地图显示整段文本：点击它即可移到那里。",
    },
    "page.window_slide": {"en": "Move along the diagonal", "zh": "沿对角线移动"},
    "page.map": {"en": "Head {head}, the whole text ({T} tokens)", "zh": "头 {head}，整段文本（{T} 个词元）"},
    "page.heads": {"en": "Every head", "zh": "所有头"},
    "page.head": {"en": "Head {head}", "zh": "头 {head}"},
    "page.detail": {"en": "Head {head}, stage by stage", "zh": "头 {head}：逐个阶段"},
    "page.query": {"en": "query", "zh": "查询"},
    "page.key": {"en": "key", "zh": "键"},
    "page.value": {"en": "value", "zh": "数值"},
    "page.masked": {"en": "−∞ (masked)", "zh": "−∞（被掩码）"},
    "page.masked_note": {"en": "Grey cells: −∞, a key after the query.", "zh": "灰色格子：−∞，即查询之后的键。"},
    "page.choose": {
        "en": "Click a cell to outline it in every stage and see its row's softmax by hand.",
        "zh": "点击一个格子，在每个阶段描出它，并查看这一行的 softmax 手算过程。",
    },
    "page.softmax": {
        "en": "Softmax by hand: head {head}, row {row} (query {token})",
        "zh": "手算 softmax：头 {head}，第 {row} 行（查询 {token}）",
    },
    "page.softmax.key": {"en": "key", "zh": "键"},
    "page.softmax.score": {"en": "masked score s", "zh": "掩码后分数 s"},
    "page.softmax.exp": {"en": "exp(s − max)", "zh": "exp(s − max)"},
    "page.softmax.weight": {"en": "exp(s − max) / sum", "zh": "exp(s − max) / 总和"},
    "page.softmax.stored": {"en": "weight (PyTorch)", "zh": "权重（PyTorch）"},
    "page.softmax.sum": {"en": "sum of exp: {sum}; max: {max}", "zh": "exp 之和：{sum}；最大值：{max}"},
    "page.shapes": {"en": "The shapes, as the heads are split and merged", "zh": "拆分与合并各头时的形状"},
    "page.made": {"en": "How this page was made", "zh": "本页如何生成"},
    "page.made.settings": {"en": "Settings", "zh": "设置"},
    "page.made.model": {"en": "Weights", "zh": "权重"},
    "page.made.random": {"en": "random, from seed {seed}", "zh": "随机，种子 {seed}"},
    "page.unit.block": {"en": "block", "zh": "块"},
    "page.unit.layer": {"en": "layer", "zh": "层"},
    "page.made.mask": {"en": "Mask", "zh": "掩码"},
    "page.made.mask_added": {
        "en": "causal mask added: torch.nn.MultiheadAttention was called with attn_mask (True above the diagonal), "
        "so a query sees no later key; without it the module attends to every key",
        "zh": "已加上因果掩码：调用 torch.nn.MultiheadAttention 时传入了 attn_mask（对角线以上为 True），"
        "查询看不到后面的键；不加它，这个模块会关注所有的键",
    },
    "page.made.folder": {
        "en": "your model in the folder {folder}: transformers' {family} architecture, {layers} × {heads} heads, "
        "h_kv = {kv_heads}, d = {head_dim} (not the {family} model of the Hugging Face Hub)",
        "zh": "你在文件夹 {folder} 中的模型：transformers 的 {family} 架构，{layers} × {heads} 个头，"
        "h_kv = {kv_heads}，d = {head_dim}（不是 Hugging Face Hub 上的 {family} 模型）",
    },
    "page.made.command": {"en": "The command that writes it again", "zh": "重新生成本页的命令"},
    "page.made.link": {"en": "The same view in the app", "zh": "在应用中打开同一视图"},
    "page.made.versions": {
        "en": "Made with torch {torch} by Seeing Attention {version}.",
        "zh": "由 Seeing Attention {version} 使用 torch {torch} 生成。",
    },
    "page.no_plotly": {
        "en": "The charts need Plotly's script, which this notebook holds once, in the output of its first view: "
        "run that view's cell again.",
        "zh": "图表需要 Plotly 的脚本，本 notebook 只在第一个视图的输出里保存一份：请重新运行那个视图所在的单元格。",
    },
    "page.offline": {
        "en": "This page works offline: everything it shows is in this one file.",
        "zh": "本页可离线使用：所显示的一切都在这一个文件里。",
    },
    "page.gen.title": {"en": "Generation with the key/value cache: {text}", "zh": "用键值缓存生成：{text}"},
    "page.gen.lead": {
        "en": "Each step computes one new query, key and value per layer and key/value head; its query's row of "
        "weights reads every key in the cache. Step through the generation: the rows per head, and the full causal "
        "matrix with that row outlined (the same numbers a pass over the whole text computes).",
        "zh": "每一步在每层、每个键/值头只计算一个新的查询、键和值；新查询的一行权重读取缓存中的所有键。逐步查看生成过程："
        "每个头的这一行，以及描出这一行的完整因果矩阵（与对整段文本一次计算得到的数字相同）。",
    },
    "page.gen.previous": {"en": "◀ Previous step", "zh": "◀ 上一步"},
    "page.gen.next": {"en": "Next step ▶", "zh": "下一步 ▶"},
    "page.gen.step": {"en": "Step", "zh": "步骤"},
    "page.gen.shown": {
        "en": "Step {step} of {steps}: the query at position {position} ({query}) chose {token}",
        "zh": "第 {step} 步（共 {steps} 步）：位置 {position} 的查询（{query}）选择了 {token}",
    },
    "page.gen.cache": {
        "en": "The cache after this step, in this layer: keys and values, each (h_kv, t, d) = ({h_kv}, {t}, {d}); "
        "{bytes} bytes in all the layers together.",
        "zh": "这一步之后本层的缓存：键和值，形状都是 (h_kv, t, d) = ({h_kv}, {t}, {d})；所有层共 {bytes} 字节。",
    },
    "page.gen.rows": {
        "en": "Step {step}, {layer}: the new query's row per head over the {t} cached keys",
        "zh": "第 {step} 步，{layer}：每个头的新查询对 {t} 个缓存键的一行权重",
    },
    "page.gen.matrix": {
        "en": "The full causal matrix of these {t} tokens, the new row outlined",
        "zh": "这 {t} 个词元的完整因果矩阵，新的一行已描出",
    },
    "page.gen.bound": {
        "en": "This page holds steps 1–{steps} of {total} and layers 1–{layers} of {all_layers} (at most {most} "
        "steps × layers, to keep the file small); the notebook's object holds every number.",
        "zh": "为使文件不致过大，本页只包含第 1–{steps} 步（共 {total} 步）和第 1–{layers} 层（共 {all_layers} 层）"
        "（步数 × 层数至多 {most}）；notebook 中的对象保存了全部数字。",
    },
    "page.gen.greedy": {
        "en": "greedy (temperature 0)",
        "zh": "贪心（温度 0）",
    },
    "page.gen.sampled": {
        "en": "drawn at temperature {temperature}, seed {seed}",
        "zh": "以温度 {temperature} 抽样，种子 {seed}",
    },
    "page.gen.choice": {"en": "Choice", "zh": "选择方式"},
    "page.gen.call": {"en": "The call that makes it again", "zh": "重新生成本页的调用"},
}
