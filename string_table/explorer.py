"""Strings: the trained-heads explorer."""

STRINGS: dict[str, dict[str, str]] = {
    "ex.model": {"en": "Model", "zh": "模型"},
    "ex.prompt": {"en": "Prompt", "zh": "提示文字"},
    "ex.prompt_help": {
        "en": "The model reads these characters one by one (at most its context). The default is a text it reads well.",
        "zh": "模型逐个读取这些字符（最多读满它的上下文长度）。默认文字是它读得好的一段。",
    },
    "ex.reset_prompt": {"en": "Back to the model's prompt", "zh": "恢复模型的默认文字"},
    "ex.read_line.character": {
        "en": "The model read **{T}** characters · {blocks} blocks × {heads} heads · head_dim d = {d} · context {context}",
        "zh": "模型读了 **{T}** 个字符 · {blocks} 个块 × {heads} 个头 · head_dim d = {d} · 上下文 {context}",
    },
    "ex.no_models": {
        "en": "No trained model is here: the shipped models are missing (assets/heads_experiment).",
        "zh": "这里没有训练好的模型：随附模型缺失（assets/heads_experiment）。",
    },
    "ex.block": {"en": "Block", "zh": "块"},
    "ex.head": {"en": "Head", "zh": "头"},
    "ex.block_n": {"en": "block {n}", "zh": "块 {n}"},
    "ex.layer": {"en": "Layer", "zh": "层"},
    "ex.layer_n": {"en": "layer {n}", "zh": "第 {n} 层"},
    "ex.head_n": {"en": "head {n}", "zh": "头 {n}"},
    "ex.grid_title": {"en": "Softmax weights of every head in every block", "zh": "每个块中每个头的 softmax 权重"},
    "ex.grid_title.block": {
        "en": "Softmax weights of every head in every block",
        "zh": "每个块中每个头的 softmax 权重",
    },
    "ex.grid_title.layer": {
        "en": "Softmax weights of every head in every layer",
        "zh": "每一层中每个头的 softmax 权重",
    },
    "ex.grid_help.block": {
        "en": "Rows are blocks, columns are heads. Click a panel (or choose above) to look at that head; its border is thicker.",
        "zh": "每行是一个块，每列是一个头。点击某个小图（或在上方选择）来查看那个头；选中的头边框更粗。",
    },
    "ex.grid_help.layer": {
        "en": "Rows are layers, columns are heads. Click a panel (or choose above) to look at that head; its border is thicker.",
        "zh": "每行是一层，每列是一个头。点击某个小图（或在上方选择）来查看那个头；选中的头边框更粗。",
    },
    "ex.tab.detail": {"en": "Stage by stage", "zh": "逐步查看"},
    "ex.tab.lines": {"en": "Lines", "zh": "连线图"},
    "ex.tab.metrics": {"en": "What each head does", "zh": "每个头在做什么"},
    "ex.tab.training": {"en": "During training", "zh": "训练过程中"},
    "ex.tab.generate": {"en": "Generate", "zh": "生成"},
    # The book's GPT has blocks, a real model layers (the source's words.unit): .block or .layer.
    "ex.detail_title.block": {"en": "Block {block} · head {head}: {kind}", "zh": "块 {block} · 头 {head}：{kind}"},
    "ex.detail_title.layer": {"en": "Layer {block} · head {head}: {kind}", "zh": "第 {block} 层 · 头 {head}：{kind}"},
    "ex.detail_help": {
        "en": "The same stages as in the playground, for this trained head: raw scores, scaled, masked, softmax weights.",
        "zh": "与游乐场中相同的各个阶段，这次是训练好的头：原始分数、缩放、掩码、softmax 权重。",
    },
    "ex.lines_help": {
        "en": "Queries on the left, keys on the right: a line from a query to each key it gives at least {threshold} of its weight; the darker and thicker, the more weight. Each head has its own colour and its own dash pattern.",
        "zh": "左边是查询，右边是键：查询向每个分到至少 {threshold} 权重的键连一条线；颜色越深、线越粗，权重越大。每个头有自己的颜色和自己的线型。",
    },
    "ex.lines_window": {
        "en": "A long text: the lines of queries {q0}–{q1} into keys {k0}–{k1} of {T} (the query chosen, or the "
        "window's row and column in the link).",
        "zh": "长文本：只画查询 {q0}–{q1} 到键 {k0}–{k1} 的连线（共 {T} 个词元；以所选的词元，或链接中的行和列为中心）。",
    },
    "ex.lines_none": {
        "en": "No line is drawn: no query here gives a key {threshold} of its weight or more (the largest weight is {strongest}): the weights are spread thin over many keys, which the heatmaps show.",
        "zh": "没有画出连线：这里没有哪个查询给某个键分到 {threshold} 或更多的权重（最大的权重是 {strongest}）：权重分散在许多键上，热力图能显示出来。",
    },
    "ex.lines_left_out": {
        "en": "{n} lines are not drawn: {outside} go to keys outside the window, {cut} are weaker than the ones drawn.",
        "zh": "有 {n} 条连线没有画出：{outside} 条连到窗口之外的键，{cut} 条比画出的更弱。",
    },
    "ex.generation_window": {
        "en": "A long context: the chart shows positions {first}–{last}; the earlier ones hold at most {share} of a "
        "generated token's attention.",
        "zh": "上下文很长：图中只显示第 {first}–{last} 个位置；更早的位置最多占一个生成词元注意力的 {share}。",
    },
    "ex.lines_mode": {"en": "Lines of", "zh": "显示"},
    "ex.lines_mode.head": {"en": "this head", "zh": "这个头"},
    "ex.lines_mode.block": {
        "en": "every head of the {unit}",
        "zh": "这个{unit}的所有头",
    },  # unit: ex.col.block or .layer
    "ex.token": {"en": "Query token", "zh": "查询词元"},
    "ex.all_tokens": {"en": "every token", "zh": "所有词元"},
    "ex.queries": {"en": "queries", "zh": "查询"},
    "ex.keys": {"en": "keys", "zh": "键"},
    "ex.metrics_intro": {
        "en": "Averaged over the queries that have a choice (every one but the first). A head is of a kind when, on "
        "average, at least 40% of its weight goes there, more than to any other kind's place, and at least twice what "
        "attention spread evenly over the visible keys would give it (on a short text even attention already gives "
        "each place much).",
        "zh": "对有选择的查询（除第一个外）取平均。若一个头平均至少 40% 的权重落在某处、多于落在其他类型的位置上，"
        "并且至少是“把注意力平均分给所有可见键”时那里所得的两倍（文字很短时，平均分配也会给每个位置不少权重），"
        "就称它为那一类。",
    },
    "ex.metric": {"en": "Metric", "zh": "指标"},
    "ex.metric.previous": {"en": "weight on the previous token", "zh": "前一个词元上的权重"},
    "ex.metric.first": {"en": "weight on the first token", "zh": "第一个词元上的权重"},
    "ex.metric.self": {"en": "weight on itself", "zh": "自身上的权重"},
    "ex.metric.induction": {
        "en": "induction score (a repeated random sequence)",
        "zh": "归纳分数（重复一遍的随机序列）",
    },
    "ex.metric.entropy": {"en": "mean row entropy (nats)", "zh": "平均行熵（nat）"},
    "ex.metric_short.induction": {"en": "induction", "zh": "归纳"},
    "ex.metric_short.previous": {"en": "previous", "zh": "前一个"},
    "ex.metric_short.first": {"en": "first", "zh": "第一个"},
    "ex.metric_short.self": {"en": "itself", "zh": "自身"},
    "ex.metric_short.entropy": {"en": "entropy", "zh": "熵"},
    "ex.entropy_limit": {
        "en": "Entropy 0: all weight on one key; ln T = {limit} for T = {T}: spread evenly over every key.",
        "zh": "熵为 0：全部权重在一个键上；T = {T} 时 ln T = {limit}：权重平均分给所有键。",
    },
    "ex.col.block": {"en": "block", "zh": "块"},
    "ex.col.layer": {"en": "layer", "zh": "层"},
    "ex.col.head": {"en": "head", "zh": "头"},
    "ex.col.kind": {"en": "kind", "zh": "类型"},
    "ex.kind.previous": {"en": "previous-token head", "zh": "前一词元头"},
    "ex.kind.first": {"en": "first-token sink", "zh": "首词元汇聚头"},
    "ex.kind.self": {"en": "self head", "zh": "自身头"},
    "ex.kind.broad": {"en": "broad head", "zh": "广泛关注头"},
    "ex.kind.induction": {"en": "induction head", "zh": "归纳头"},
    "ex.induction_help": {
        "en": "Induction score: the model reads {n} random tokens twice; in the second copy, the mean weight each "
        "query puts on the token that came after its earlier occurrence (“A B … A → look at B”). It is measured "
        "on that sequence, not on your prompt.",
        "zh": "归纳分数：模型把 {n} 个随机词元读两遍；在第二遍中，每个查询放在“它上一次出现时后面那个词元”上的平均权重"
        "（“A B … A → 看 B”）。它是在这个序列上测量的，不是在你的提示文字上。",
    },
    "ex.map_title": {
        "en": "Every layer × head by “{metric}”: click a cell to open that head",
        "zh": "按“{metric}”看每一层 × 每个头：点击一个格子打开那个头",
    },
    "ex.map_help": {
        "en": "{layers} layers × {heads} heads are too many for one picture each: the map gives one number per head; "
        "below, every head of the chosen layer. Choose the map's number with the metric buttons.",
        "zh": "{layers} 层 × {heads} 个头太多，无法每个都画一张图：这张图给每个头一个数；下面是所选层的每一个头。"
        "用指标按钮选择图中的数。",
    },
    "ex.layer_heads_title": {"en": "Layer {layer}: every head", "zh": "第 {layer} 层：每一个头"},
    "ex.read_line.token": {
        "en": "The model read **{T}** tokens · {blocks} layers × {heads} heads · head_dim d = {d} · context {context}",
        "zh": "模型读了 **{T}** 个词元 · {blocks} 层 × {heads} 个头 · head_dim d = {d} · 上下文 {context}",
    },
    "ex.tab.cache": {"en": "Generation with the cache", "zh": "用缓存生成"},
    "cache.intro": {
        "en": "Generating token by token, a model keeps every earlier token's keys and values (the KV cache): no "
        "token reads a later one, so they never change. Each step computes one new query, key and value per layer "
        "and key/value head, and the new query's row of weights over every key so far. Step 0 reads the prompt at once.",
        "zh": "逐个生成词元时，模型保留之前每个词元的键和值（KV 缓存）：没有词元读取它后面的词元，所以它们永远不变。"
        "每一步在每层、每个键/值头只计算一个新的查询、键和值，以及新查询对目前所有键的一行权重。第 0 步一次读完整个提示。",
    },
    "cache.n": {"en": "Steps to generate", "zh": "生成的步数"},
    "cache.step": {"en": "Step", "zh": "步骤"},
    "cache.step_help": {
        "en": "0: the prompt's last query. Each later step reads the token the step before chose.",
        "zh": "0：提示的最后一个查询。之后每一步读取前一步选出的词元。",
    },
    "cache.step_line": {
        "en": "**Step {step}** (of 0–{last}): the query at position {position} ({label}) reads **{t}** cached keys "
        "and chooses **{token}**.",
        "zh": "**第 {step} 步**（共 0–{last} 步）：位置 {position}（{label}）的查询读取缓存中的 **{t}** 个键，"
        "选出 **{token}**。",
    },
    "cache.text": {
        "en": "The text so far, with the token this step chooses:",
        "zh": "目前的文字，加上这一步选出的词元：",
    },
    "cache.shape": {
        "en": "The cache after this step: keys and values of shape (h_kv, t, d) = **({kv_heads}, {t}, {d})** each, "
        "in each of the {layers} {units}: **{bytes}** ({per_token} per token × {t} tokens, float32).",
        "zh": "这一步之后的缓存：键和值的形状各为 (h_kv, t, d) = **({kv_heads}, {t}, {d})**，"
        "{layers} 个{units}每个都有：共 **{bytes}**（每个词元 {per_token} × {t} 个词元，float32）。",
    },
    "cache.grouped": {
        "en": "Grouped-query attention: {heads} query heads share {kv_heads} key/value heads, so a token costs "
        "{per_token} instead of {ungrouped}.",
        "zh": "分组查询注意力：{heads} 个查询头共用 {kv_heads} 个键/值头，所以每个词元只占 {per_token}，而不是 {ungrouped}。",
    },
    "cache.cost": {
        "en": "Computed this step: **{new}** key and value vectors (new positions: {positions}). Without the "
        "cache this step recomputes all {t} positions: **{full}** vectors.",
        "zh": "这一步计算了 **{new}** 个键和值向量（新位置：{positions} 个）。没有缓存时，这一步要重新计算全部 "
        "{t} 个位置：**{full}** 个向量。",
    },
    "cache.cut": {
        "en": "A cache cannot slide (its keys keep their positions), so the model reads only the prompt's "
        "last {kept} of {shown}: its context of {context} then holds all {n} steps.",
        "zh": "缓存不能滑动（键保留着各自的位置），所以模型只读提示的最后 {kept} 个（共 {shown} 个）：这样 {context} 的上下文才容得下全部 {n} 步。",
    },
    "cache.full": {
        "en": "The context is full after step {last}: a cache cannot slide (its keys carry their positions), so "
        "the generation stops there. A shorter prompt leaves room for more steps.",
        "zh": "第 {last} 步之后上下文已满：缓存不能滑动（键带着它们的位置），所以生成到此为止。提示短一些，就能多走几步。",
    },
    "cache.row_help": {
        "en": "The new query's row in every head: its weights over the {t} keys in the cache (they sum to 1).",
        "zh": "新查询在每个头中的那一行：它对缓存中 {t} 个键的权重（和为 1）。",
    },
    "cache.one_layer": {
        "en": "Too many heads for one chart: {unit} {layer}'s heads only (choose it in the grid).",
        "zh": "头太多，一张图放不下：只画{unit} {layer} 的头（在上方网格中选择）。",
    },
    "cache.matrix_title": {
        "en": "Full causal attention of {t} tokens · {unit} {layer} · this step's row outlined",
        "zh": "{t} 个词元的完整因果注意力 · {unit} {layer} · 框出的是这一步的行",
    },
    "cache.matrix_help": {
        "en": "The whole matrix of the same {t} tokens as the cache built it: the prompt's rows (computed at step "
        "0) and one new row a step. The outlined row is this step's: the same numbers as the bars above.",
        "zh": "同样 {t} 个词元的完整矩阵，按缓存的方式构建：提示的各行（第 0 步算出）加上每一步新的一行。"
        "框出的那一行就是这一步的行：和上面的柱子是同样的数字。",
    },
    "ex.no_generation": {
        "en": "This model gives no next-token scores, so it cannot predict or generate: the other views still show "
        "its attention.",
        "zh": "这个模型不给出下一个词元的分数，所以无法预测或生成：其他视图仍然显示它的注意力。",
    },
    "ex.generate_intro.token": {
        "en": "The model continues the text, one token at a time. Each row shows where the chosen head looked (the "
        "last query's weights) when it chose that token.",
        "zh": "模型接着这段文字往下写，一次一个词元。每一行显示所选的头在选出那个词元时看向哪里（最后一个查询的权重）。",
    },
    "ex.kinds_help": {
        "en": (
            "- **previous-token head**: mostly looks one step back (the character just before).\n"
            "- **first-token sink**: puts most weight on the first character, a place to park attention when nothing else matters.\n"
            "- **self head**: mostly looks at its own position.\n"
            "- **induction head**: in a repeated sequence, looks at the token that followed the current one last time.\n"
            "- **broad head**: spreads its weight over several keys (no single place gets 40%, or twice its even share)."
        ),
        "zh": (
            "- **前一词元头**：主要看向前一步（紧挨着的前一个字符）。\n"
            "- **首词元汇聚头**：把大部分权重放在第一个字符上，没有别的可看时就“停放”在那里。\n"
            "- **自身头**：主要看自己所在的位置。\n"
            "- **归纳头**：在重复的序列中，看向当前词元上一次出现时紧跟其后的那个词元。\n"
            "- **广泛关注头**：权重分散在多个键上（没有哪个位置拿到 40%，或平均分配时所得的两倍）。"
        ),
    },
    "ex.training_intro": {
        "en": "The shipped model, h = {heads}, was photographed while it trained: the softmax weights of block {block} for the prompt below, at the chosen step.",
        "zh": "随附模型，h = {heads}，在训练时被拍下了快照：下面这段提示文字在块 {block} 中、所选步数时的 softmax 权重。",
    },
    "ex.training_step": {"en": "Training step", "zh": "训练步数"},
    "ex.snapshot_prompt": {
        "en": "The snapshot prompt (the characters the model read):",
        "zh": "快照用的提示文字（模型读入的字符）：",
    },
    "ex.no_snapshots": {
        "en": "This model kept no attention while it trained: choose a shipped model to watch heads form during "
        "training.",
        "zh": "这个模型在训练时没有保存注意力快照：请选择随附模型，观察注意力头在训练中如何形成。",
    },
    "ex.generate_intro.character": {
        "en": "The model continues the text it read, one character at a time. Each row shows where the chosen head looked (the last query's weights) when it chose that character.",
        "zh": "模型接着它读到的文字往下写，一次一个字符。每一行显示所选的头在选出那个字符时看向哪里（最后一个查询的权重）。",
    },
    "ex.generate_n": {"en": "Characters to generate", "zh": "生成的字符数"},
    "ex.temperature": {"en": "Temperature (0: always the likeliest)", "zh": "温度（0：总是选最可能的）"},
    "ex.seed": {"en": "Seed", "zh": "随机种子"},
    "ex.generated_text": {
        "en": "The text read, then what the model wrote:",
        "zh": "读入的文字，以及模型接着写出的内容：",
    },
    "ex.generated_axis": {"en": "generated character", "zh": "生成的字符"},
    "ex.position_axis": {"en": "position in the context it read", "zh": "在读入上下文中的位置"},
    "ex.step_label": {"en": "{step}: {char}", "zh": "{step}：{char}"},
    "ex.weight": {"en": "weight", "zh": "权重"},
    "ex.note_session_model_missing": {
        "en": "That model was trained in another session; showing the shipped model, h = {fallback}.",
        "zh": "那个模型是在另一个会话中训练的；改为显示随附模型，h = {fallback}。",
    },
    "ex.note_model_missing": {
        "en": "The link names the model {value}, which is not here (there are: {allowed}); showing the shipped model, h = {fallback}.",
        "zh": "链接指定的模型 {value} 不在这里（现有：{allowed}）；改为显示随附模型，h = {fallback}。",
    },
}
