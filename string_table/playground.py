"""Strings: The attention playground."""

STRINGS: dict[str, dict[str, str]] = {
    "pg.preset": {"en": "Example", "zh": "示例"},
    "pg.preset.book": {"en": "The book: 动手学大模型", "zh": "书中的例子：动手学大模型"},
    "pg.preset.english": {
        "en": "A sentence (words): the cat sat on the mat",
        "zh": "英文句子（按词）：the cat sat on the mat",
    },
    "pg.preset.repeat": {
        "en": "A repeated phrase (words): to be or not to be",
        "zh": "重复的短语（按词）：to be or not to be",
    },
    "pg.preset.custom": {"en": "Your own text", "zh": "你自己的文字"},
    "pg.text": {"en": "Sequence", "zh": "序列"},
    "pg.text_help": {
        "en": "Any text: Chinese, English, emoji. The first {max_tokens} tokens are used.",
        "zh": "任意文字：中文、英文、表情符号都可以。只使用前 {max_tokens} 个词元。",
    },
    "pg.tokenizer": {"en": "Tokens", "zh": "词元"},
    "pg.tokenizer.char": {"en": "characters", "zh": "按字符"},
    "pg.tokenizer.word": {"en": "words", "zh": "按词"},
    "pg.heads": {"en": "heads h", "zh": "头数 h"},
    "pg.head_dim": {"en": "head_dim d", "zh": "每头维度 d"},
    "pg.c_equals": {"en": "C = h × d = {h} × {d} = **{C}**", "zh": "C = h × d = {h} × {d} = **{C}**"},
    "pg.input_dim": {"en": "input width (0 = C)", "zh": "输入宽度（0 = C）"},
    "pg.input_dim_help": {
        "en": "The width of each token vector going in; the layer projects it to C.",
        "zh": "输入的每个词元向量的宽度；注意力层把它投影到 C。",
    },
    "pg.seed": {"en": "seed", "zh": "随机种子"},
    "pg.seed_help": {
        "en": "Fixes the random weights and token vectors: the same seed gives the same numbers anywhere.",
        "zh": "固定随机权重和词元向量：同一个种子在任何机器上得到同样的数字。",
    },
    "pg.more": {"en": "More settings", "zh": "更多设置"},
    "pg.scale": {"en": "divide by √head_dim", "zh": "除以 √head_dim"},
    "pg.scale_help": {
        "en": "Switch it off to see the softmax saturate: without scaling, scores grow with d.",
        "zh": "关闭它，看看 softmax 如何饱和：不缩放时，分数随 d 增大。",
    },
    "pg.positional": {"en": "positional embedding", "zh": "位置嵌入"},
    "pg.positional_help": {
        "en": "Adds a sinusoidal position vector, so repeated tokens differ.",
        "zh": "加上正弦位置向量，让重复的词元也各不相同。",
    },
    "pg.bias": {"en": "qkv_bias", "zh": "qkv_bias（偏置）"},
    "pg.dropout": {"en": "dropout p", "zh": "dropout 概率 p"},
    "pg.mode": {"en": "mode", "zh": "模式"},
    "pg.mode.eval": {"en": "eval", "zh": "评估 eval"},
    "pg.mode.train": {"en": "train", "zh": "训练 train"},
    "pg.mode_help": {
        "en": "Dropout acts only in training mode.",
        "zh": "dropout 只在训练模式下起作用。",
    },
    "pg.all_heads": {"en": "All heads", "zh": "所有的头"},
    "pg.stage": {"en": "Stage", "zh": "阶段"},
    "pg.focus_head": {"en": "Head in detail", "zh": "详细查看的头"},
    "pg.weights": {"en": "Weights", "zh": "权重"},
    "pg.weights_help": {
        "en": "Random weights (from the seed), or a trained GPT: then the input to the chosen block's attention is "
        "the model's real stream for your text (embeddings, earlier blocks, LayerNorm).",
        "zh": "随机权重（由种子决定），或一个训练好的 GPT：这时所选块的注意力输入就是模型对你的文本的真实数据流"
        "（嵌入、前面的块、LayerNorm）。",
    },
    "pg.weights.random": {"en": "Random (seeded)", "zh": "随机（由种子决定）"},
    "pg.block": {"en": "Block", "zh": "块"},
    "pg.block_of": {"en": "block {block} of {blocks}", "zh": "第 {block} 块（共 {blocks} 块）"},
    "pg.layer": {"en": "Layer", "zh": "层"},
    "pg.layer_of": {"en": "layer {block} of {blocks}", "zh": "第 {block} 层（共 {blocks} 层）"},
    "pg.snippet_help": {
        "en": "Python that recomputes these numbers away from the app (with gpt_core; a real model's also with "
        "transformers; a trained model's from its checkpoint file, which the Train page downloads):",
        "zh": "在应用之外重新计算这些数值的 Python 代码（用 gpt_core；真实模型还要 transformers；训练好的模型要用它的检查点文件，"
        "可以在训练页面下载）：",
    },
    "pg.trained_facts": {
        "en": "The model fixes h = {h} heads of d = {d} (C = {C}), a context of {context} characters and a "
        "vocabulary of {chars} characters; it reads characters.",
        "zh": "模型固定了 h = {h} 个头、每头 d = {d}（C = {C}）、{context} 个字符的上下文和 {chars} 个字符的词表；"
        "它按字符读取。",
    },
    "pg.left_out": {
        "en": "The model never saw {count} of these characters, so they are left out: {chars}",
        "zh": "模型从未见过其中 {count} 个字符，因此把它们略去：{chars}",
    },
    "pg.note_session_model_missing": {
        "en": "The link shows a model trained in another session, which is not on this server: showing random weights.",
        "zh": "链接中的模型是在另一个会话中训练的，不在这台服务器上：改为显示随机权重。",
    },
    "pg.note_model_missing": {
        "en": "The link names the model {value}, which is not here: showing random weights.",
        "zh": "链接指定的模型 {value} 不在这里：改为显示随机权重。",
    },
    "pg.overview_help": {
        "en": "Rows are queries, columns are keys. The thick border marks head {head}, shown stage by stage "
        "below. Click a cell of any head to choose that head and that cell.",
        "zh": "行是查询，列是键。粗边框标出头 {head}，它在下方逐个阶段显示。点击任意头的一个单元格，即可选中该头和该单元格。",
    },
    "pg.values": {"en": "Values", "zh": "数值"},
    "pg.values_help": {
        "en": "Write each value in its cell. With a few tokens the cells grow to hold them (the stages may "
        "take two rows); with many tokens the cells are too small to write in.",
        "zh": "把每个数值写在单元格里。词元不多时，单元格会放大以容纳数值（各阶段可能排成两行）；词元很多时，单元格太小，写不下。",
    },
    "pg.dropout_note": {
        "en": "After dropout (p = {p}): the kept weights are multiplied by 1/(1−p) = {factor}, the dropped ones are 0, "
        "so the rows no longer sum to 1. Its colour bar reaches the largest kept weight.",
        "zh": "dropout 之后（p = {p}）：保留的权重乘以 1/(1−p) = {factor}，被丢弃的为 0，"
        "所以每行之和不再是 1。它的颜色条一直延伸到保留下来的最大权重。",
    },
    "pg.detail_title": {"en": "One head, stage by stage", "zh": "一个头，逐个阶段"},
    "pg.detail_help": {
        "en": "Rows are queries, columns are keys. Hover a cell for its tokens and value; click a cell (or use the "
        "boxes) to choose the query and key, outlined in every stage.",
        "zh": "行是查询，列是键。把鼠标移到单元格上可看到词元和数值；点击单元格（或使用下拉框）选择查询和键，"
        "它在每个阶段中都带框显示。",
    },
    "pg.query_row": {"en": "query (row)", "zh": "查询（行）"},
    "pg.key_col": {"en": "key (column)", "zh": "键（列）"},
    "pg.tab.softmax": {"en": "Softmax by hand", "zh": "手算 softmax"},
    "pg.tab.shapes": {"en": "Shapes: split and merge", "zh": "形状：拆分与合并"},
    "pg.tab.stats": {"en": "Per-head table", "zh": "每个头的统计"},
    "pg.tab.share": {"en": "Share and download", "zh": "分享与下载"},
    "pg.softmax_intro": {
        "en": "Head {head}, query row {row}: subtract the row's largest score, take exp, divide by the sum. exp(−∞) = 0, so masked keys get weight 0.",
        "zh": "第 {head} 个头，查询行 {row}：先减去这一行最大的分数，再取 exp，最后除以总和。exp(−∞) = 0，所以被掩码的键权重为 0。",
    },
    "pg.col.key": {"en": "key", "zh": "键"},
    "pg.col.score": {"en": "masked score s", "zh": "掩码后的分数 s"},
    "pg.col.exp": {"en": "exp(s − max)", "zh": "exp(s − max)"},
    "pg.col.weight": {"en": "weight = exp / sum", "zh": "权重 = exp / 总和"},
    "pg.softmax_sum": {
        "en": "max = {max}, sum of exp = **{total}**. Subtracting the max changes no weight; it keeps exp from overflowing, as torch does.",
        "zh": "max = {max}，exp 之和 = **{total}**。减去最大值不会改变权重，只是防止 exp 溢出，torch 也是这样做的。",
    },
    "pg.shapes_intro": {
        "en": "The shapes of this very computation, recorded from the tensors (B batch, T tokens, h heads, d head_dim, C = h × d):",
        "zh": "这次计算中张量的真实形状（B 批大小，T 词元数，h 头数，d 每头维度，C = h × d）：",
    },
    "pg.stat.entropy": {"en": "mean row entropy (nats)", "zh": "平均行熵（nats）"},
    "pg.stat.max_weight": {"en": "mean max weight", "zh": "平均最大权重"},
    "pg.stat.previous_token": {"en": "weight on previous token", "zh": "对前一个词元的权重"},
    "pg.stat.first_token": {"en": "weight on first token", "zh": "对第一个词元的权重"},
    "pg.stats_help": {
        "en": "Averages over query rows. Low entropy: the head looks at few keys. A previous-token head scores near 1 on 'previous token'.",
        "zh": "对所有查询行取平均。熵低：这个头只看少数几个键。“前一个词元”的头在该列接近 1。",
    },
    "pg.share_intro": {
        "en": "This link reproduces exactly this view, numbers included (copy it with the button on the right):",
        "zh": "这个链接可以精确重现当前视图和数字（用右侧按钮复制）：",
    },
    "pg.csv_stage": {"en": "Matrix to download", "zh": "要下载的矩阵"},
    "pg.csv_head": {"en": "of head", "zh": "所属的头"},
    "pg.download_csv": {"en": "Matrix as CSV", "zh": "矩阵 CSV"},
    "pg.download_npz": {"en": "Whole trace as NPZ", "zh": "完整过程 NPZ"},
    "pg.download_py": {"en": "Python that reproduces it", "zh": "重现它的 Python 代码"},
    "pg.download_page": {"en": "Download as a page", "zh": "下载为网页"},
    "pg.download_page_size": {
        "en": "About {mb} MB: Plotly's own script and every cell of every head, so that it needs no network.",
        "zh": "约 {mb} MB：包含 Plotly 自己的脚本和每个头的每个格子，因此无需联网。",
    },
    "pg.download_page_help": {
        "en": "One HTML file that works offline, without this app: every head's stages, hover, a click that outlines a "
        "cell in every stage with its softmax by hand, the shapes, and how it was made. Put it on a course site or "
        "open it on a computer with no network.",
        "zh": "一个可离线使用、无需本应用的 HTML 文件：每个头的各个阶段、悬停查看、点击格子即在每个阶段描出它并手算 softmax、"
        "形状变化，以及它是如何生成的。可以放到课程网站上，也能在没有网络的电脑上打开。",
    },
    "pg.own_example": {
        "en": "This model cannot read your text: {reason} It shows its own example instead: “{example}”. "
        "Your text stays in the box above: edit it to see it here.",
        "zh": "这个模型读不了你的文字：{reason} 这里改为显示它自己的示例：“{example}”。"
        "你的文字还在上面的输入框里：修改后就会显示在这里。",
    },
    "pg.empty": {
        "en": "Type a sequence above (or pick an example) to see its attention.",
        "zh": "在上面输入一段文字（或选择一个示例），就能看到它的注意力。",
    },
    "pg.truncated": {
        "en": "The text has {total} tokens; the first {shown} are shown (the page's limit).",
        "zh": "这段文字有 {total} 个词元；只显示前 {shown} 个（本页的上限）。",
    },
    "pg.tokens_line": {
        "en": "T = {T} tokens, h = {h} heads of d = {d}: C = {C} channels.",
        "zh": "T = {T} 个词元，h = {h} 个头，每个 d = {d}：C = {C} 个通道。",
    },
    "pg.predict": {"en": "Predict first", "zh": "先预测"},
    "pg.predict_help": {
        "en": "Hide the chosen query's row in every head until you guess which earlier token it reads most; "
        "then the row is shown with where your guess ranks in each head. Changing the query, the text or a "
        "setting asks again.",
        "zh": "在你猜出所选查询最关注哪个之前的词元之前，隐藏它在每个头中的那一行；猜完后显示这一行，并告诉你的猜测在每个头中排第几。"
        "更换查询、文字或设置会重新提问。",
    },
    "pg.predict_ask": {
        "en": "Predict first: which earlier token will query {query} read most? Tap one.",
        "zh": "先预测：查询 {query} 最关注哪个之前的词元？点一个。",
    },
    "pg.predict_ask_list": {
        "en": "Predict first: which earlier token will query {query} read most? Choose it in the list.",
        "zh": "先预测：查询 {query} 最关注哪个之前的词元？在列表中选一个。",
    },
    "pg.predict_placeholder": {"en": "Choose a token…", "zh": "选择一个词元…"},
    "pg.predict_hidden": {
        "en": "Its row is hidden (empty) in every head until you choose.",
        "zh": "在你选择之前，这一行在每个头中都是隐藏的（空白）。",
    },
    "pg.predict_tabs_wait": {
        "en": "The softmax by hand, the tables and the downloads hold the hidden row: they appear once you have "
        "predicted (above, beside the controls).",
        "zh": "手算 softmax、表格和下载都包含被隐藏的那一行：预测之后（在上方控件旁边）它们就会出现。",
    },
    "pg.predict_result": {
        "en": "You predicted **{guess}**. Where it ranks among the keys (1 = the strongest):",
        "zh": "你的预测是 **{guess}**。它在各个键中的排名（1 = 最强）：",
    },
    "pg.predict_rank": {
        "en": "head {head}: rank {rank} of {keys}; the strongest is {strongest}",
        "zh": "头 {head}：{keys} 个中排第 {rank}；最强的是 {strongest}",
    },
}
