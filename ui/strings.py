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
    # Playground
    "pg.preset": {"en": "Example", "zh": "示例"},
    "pg.preset.book": {"en": "The book: 动手学大模型", "zh": "书中的例子：动手学大模型"},
    "pg.preset.english": {"en": "An English sentence", "zh": "一个英文句子"},
    "pg.preset.repeat": {"en": "A repeated phrase", "zh": "重复的短语"},
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
    "pg.note_unknown": {
        "en": "The link has a setting this page does not know, “{name}”: it was ignored.",
        "zh": "链接里有本页不认识的设置“{name}”，已忽略。",
    },
    "pg.note_invalid": {
        "en": "The link's {name} = {value} can't be used (allowed: {allowed}); the default {default} is shown instead.",
        "zh": "链接中的 {name} = {value} 无法使用（允许：{allowed}）；已改用默认值 {default}。",
    },
    "pg.all_heads": {"en": "All heads", "zh": "所有的头"},
    "pg.stage": {"en": "Stage", "zh": "阶段"},
    "pg.focus_head": {"en": "Head in detail", "zh": "详细查看的头"},
    "pg.detail_title": {"en": "One head, stage by stage", "zh": "一个头，逐个阶段"},
    "pg.detail_help": {
        "en": "Rows are queries, columns are keys. Hover a cell for its tokens and value; the outlined cell is the one chosen below.",
        "zh": "行是查询，列是键。把鼠标移到单元格上可看到词元和数值；带框的单元格是下面选中的那个。",
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
    # Train page
    "tr.tab.train": {"en": "Train a model", "zh": "训练模型"},
    "tr.tab.experiment": {"en": "The heads experiment", "zh": "多头实验"},
    "tr.corpus": {"en": "Corpus", "zh": "语料"},
    "tr.corpus.tinyshakespeare": {"en": "Tiny Shakespeare", "zh": "Tiny Shakespeare"},
    "tr.corpus.copy": {"en": "copying", "zh": "复制"},
    "tr.corpus.previous": {"en": "previous letter", "zh": "前一个字母"},
    "tr.corpus.induction": {"en": "repeated pairs", "zh": "重复的字母对"},
    "tr.corpus.own": {"en": "your own text", "zh": "你自己的文字"},
    "tr.corpus.copy.help": {
        "en": "A word, '=', the same word again: to predict the copy, a head must look back at the first word.",
        "zh": "一个词、“=”、再把这个词写一遍：要预测复制的部分，某个头必须回看第一个词。",
    },
    "tr.corpus.previous.help": {
        "en": "Runs of the alphabet: the next letter follows from the previous one, a previous-token head's job.",
        "zh": "按字母表顺序的片段：下一个字母由前一个决定，这正是“前一个词元”头的工作。",
    },
    "tr.corpus.induction.help": {
        "en": "Random letter pairs, repeated later in the line: an induction pattern.",
        "zh": "随机的字母对，在同一行后面再出现一次：一种归纳（induction）模式。",
    },
    "tr.no_shakespeare": {
        "en": "Tiny Shakespeare is not on this server. Set TINY_SHAKESPEARE to the file's path (or put tinyshakespeare.txt in data/), or choose another corpus.",
        "zh": "服务器上没有 Tiny Shakespeare。请把 TINY_SHAKESPEARE 设置为文件路径（或把 tinyshakespeare.txt 放进 data/），或选择其他语料。",
    },
    "tr.own_text": {"en": "Paste your text (UTF-8)", "zh": "粘贴你的文字（UTF-8）"},
    "tr.upload": {"en": "…or upload a UTF-8 text file", "zh": "……或上传一个 UTF-8 文本文件"},
    "tr.heads": {"en": "heads", "zh": "头数"},
    "tr.head_dim": {"en": "head_dim", "zh": "每头维度"},
    "tr.blocks": {"en": "blocks", "zh": "层数（blocks）"},
    "tr.context": {"en": "context", "zh": "上下文长度"},
    "tr.embedding": {
        "en": "embedding = heads × head_dim = {h} × {d} = **{C}**",
        "zh": "嵌入维度 = 头数 × 每头维度 = {h} × {d} = **{C}**",
    },
    "tr.budget": {"en": "Budget in", "zh": "训练预算单位"},
    "tr.budget.steps": {"en": "steps", "zh": "步数"},
    "tr.budget.seconds": {"en": "seconds", "zh": "秒"},
    "tr.steps": {"en": "steps", "zh": "步数"},
    "tr.seconds": {"en": "seconds", "zh": "秒"},
    "tr.start": {"en": "Train", "zh": "开始训练"},
    "tr.stop": {"en": "Stop", "zh": "停止"},
    "tr.waiting": {
        "en": "Waiting for a free training slot: other students are training right now…",
        "zh": "正在等待空闲的训练名额：其他同学正在训练……",
    },
    "tr.running": {"en": "Training…", "zh": "训练中……"},
    "tr.live": {
        "en": "step {step} · train loss {loss} · {speed} tokens/s · {elapsed} s",
        "zh": "第 {step} 步 · 训练损失 {loss} · 每秒 {speed} 个词元 · {elapsed} 秒",
    },
    "tr.done": {"en": "Trained {steps} steps: held-out loss {loss}.", "zh": "训练了 {steps} 步：验证损失 {loss}。"},
    "tr.no_model": {
        "en": "No model yet: choose a corpus and press Train.",
        "zh": "还没有模型：选择语料后点击“开始训练”。",
    },
    "tr.model_ready": {
        "en": "Your model: {heads} heads, {params} parameters, {steps} steps, held-out loss {loss}.",
        "zh": "你的模型：{heads} 个头，{params} 个参数，{steps} 步，验证损失 {loss}。",
    },
    "tr.model_stopped": {
        "en": "Your model (stopped at step {steps}): {heads} heads, {params} parameters, last held-out loss {loss}.",
        "zh": "你的模型（在第 {steps} 步停止）：{heads} 个头，{params} 个参数，最近的验证损失 {loss}。",
    },
    "tr.download_model": {"en": "Download your model", "zh": "下载你的模型"},
    "tr.download_model_help": {
        "en": "Weights and a small record (config, corpus checksum, steps, loss). In Python: gpt_core.load_checkpoint(path).",
        "zh": "权重和一份简短记录（配置、语料校验和、步数、损失）。在 Python 中：gpt_core.load_checkpoint(path)。",
    },
    "tr.generate": {"en": "Generate text", "zh": "生成文字"},
    "tr.generate_none": {"en": "Train a model first.", "zh": "请先训练一个模型。"},
    "tr.generate_with": {"en": "Model", "zh": "模型"},
    "tr.model_mine": {"en": "the model you trained", "zh": "你训练的模型"},
    "tr.model_shipped": {
        "en": "pretrained on Tiny Shakespeare, h = {heads}",
        "zh": "在 Tiny Shakespeare 上预训练，h = {heads}",
    },
    "tr.prompt": {"en": "Prompt", "zh": "提示词"},
    "tr.temperature": {"en": "temperature", "zh": "温度"},
    "tr.top_k": {"en": "top-k", "zh": "top-k"},
    "tr.length": {"en": "characters", "zh": "字符数"},
    "tr.seed": {"en": "seed", "zh": "随机种子"},
    "tr.generate_button": {"en": "Generate", "zh": "生成"},
    "tr.prompt_dropped": {
        "en": "Left out of the prompt (the model never saw them): {chars}",
        "zh": "提示词中这些字符被略过（模型从没见过）：{chars}",
    },
    "tr.experiment_intro": {
        "en": "The book asks: change HEADS from 2 to 4 or 8 — how do training speed and quality change? Are more heads always better? Every run below has the same embedding size (64), the same data and the same number of steps.",
        "zh": "书中的问题：把 HEADS 从 2 改成 4 或 8，训练速度和效果会怎样变化？头越多越好吗？下面每次运行的嵌入维度（64）、数据和步数都相同。",
    },
    "tr.exp_steps": {"en": "steps per head count", "zh": "每种头数的步数"},
    "tr.exp_run": {"en": "Run it yourself", "zh": "自己运行"},
    "tr.exp_run_help": {
        "en": "Trains 1, 2, 4 and 8 heads one after another on the corpus chosen in the first tab.",
        "zh": "在第一个标签页选择的语料上，依次训练 1、2、4、8 个头。",
    },
    "tr.experiment_running": {
        "en": "Heads experiment: training {heads} heads…",
        "zh": "多头实验：正在训练 {heads} 个头……",
    },
    "tr.experiment_done": {"en": "Experiment finished.", "zh": "实验完成。"},
    "tr.exp_source_mine": {"en": "Your run, on {corpus}.", "zh": "你的运行，语料：{corpus}。"},
    "tr.exp_source_shipped": {
        "en": "Shipped results: Tiny Shakespeare, {steps} steps per head count, on a 2-core CPU (scripts/heads_experiment.py reproduces them).",
        "zh": "预先运行的结果：Tiny Shakespeare，每种头数 {steps} 步，2 核 CPU（scripts/heads_experiment.py 可重现）。",
    },
    "tr.exp_missing": {
        "en": "No shipped results on this server; run the experiment yourself.",
        "zh": "服务器上没有预先运行的结果；请自己运行实验。",
    },
    "tr.col.heads": {"en": "heads", "zh": "头数"},
    "tr.col.head_dim": {"en": "head_dim", "zh": "每头维度"},
    "tr.col.params": {"en": "parameters", "zh": "参数量"},
    "tr.col.steps": {"en": "steps", "zh": "步数"},
    "tr.col.time": {"en": "wall time (s)", "zh": "用时（秒）"},
    "tr.col.speed": {"en": "tokens/s", "zh": "词元/秒"},
    "tr.col.loss": {"en": "held-out loss", "zh": "验证损失"},
    "tr.same_params": {
        "en": "Every head count has exactly {params} parameters: splitting C channels into more heads adds no weights, it only changes how they are grouped.",
        "zh": "每种头数的参数量都正好是 {params}：把 C 个通道拆成更多的头不会增加权重，只是改变了分组方式。",
    },
    "tr.answer": {
        "en": "**What the numbers say.** The lowest held-out loss came from h = {best} ({best_loss}); h = {most} reached {most_loss}. All head counts lie within {spread} of each other. h = {fastest} trained fastest, {ratio}× the tokens per second of h = {slowest}.",
        "zh": "**数据告诉我们什么。** 验证损失最低的是 h = {best}（{best_loss}）；h = {most} 为 {most_loss}。各种头数之间相差不超过 {spread}。h = {fastest} 训练最快，每秒词元数是 h = {slowest} 的 {ratio} 倍。",
    },
    "tr.answer_more_yes": {
        "en": "Here more heads did help at every step up, but by little, and each head is slower to compute.",
        "zh": "这一次，头数每增加一次效果都有所提升，但幅度很小，而且计算更慢。",
    },
    "tr.answer_more_no": {
        "en": "So more heads are not always better: with the same parameters, each extra head gets fewer channels (a smaller head_dim) and costs time.",
        "zh": "所以头并不是越多越好：参数量相同时，每多一个头，每个头分到的通道（head_dim）就更少，而且更花时间。",
    },
    "tr.samples": {
        "en": 'Samples (prompt "ROMEO:", temperature 0.8, top-k 10)',
        "zh": '生成样例（提示词 "ROMEO:"，温度 0.8，top-k 10）',
    },
    "tr.snapshots": {"en": "What the heads attend to, during training", "zh": "训练过程中，各个头在关注什么"},
    "tr.snapshots_help": {
        "en": "Softmax weights of each head for a fixed prompt, taken at several steps of training.",
        "zh": "固定提示词下每个头的 softmax 权重，在训练的不同步数时记录。",
    },
    "tr.snap_step": {"en": "training step", "zh": "训练步数"},
    "tr.block": {"en": "block", "zh": "层"},
    # Training
    "train.loss": {"en": "cross-entropy loss", "zh": "交叉熵损失"},
    "train.train_loss": {"en": "train loss", "zh": "训练损失"},
    "train.test_loss": {"en": "held-out loss", "zh": "验证损失"},
    "train.step": {"en": "step", "zh": "步数"},
    "train.seconds": {"en": "wall time (s)", "zh": "用时（秒）"},
    "train.curve_title": {"en": "Loss while training", "zh": "训练中的损失"},
    "train.heads_label": {"en": "h = {heads}", "zh": "h = {heads}"},
    "train.experiment_by_step": {"en": "Held-out loss by step", "zh": "按步数的验证损失"},
    "train.experiment_by_time": {"en": "Held-out loss by wall time", "zh": "按用时的验证损失"},
    # Figures
    "stage.scores": {"en": "raw scores QKᵀ", "zh": "原始分数 QKᵀ"},
    "stage.scaled_scores": {"en": "scaled ÷ √d", "zh": "缩放 ÷ √d"},
    "stage.not_scaled": {"en": "not scaled (switch off)", "zh": "未缩放（开关已关闭）"},
    "stage.masked_scores": {"en": "masked (−∞ above the diagonal)", "zh": "掩码（对角线上方为 −∞）"},
    "stage.weights": {"en": "softmax weights", "zh": "softmax 权重"},
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
    "fig.channels_of_head": {
        "en": "head {head}: channels {first}–{last}",
        "zh": "头 {head}：通道 {first}–{last}",
    },
    "fig.channel_map": {
        "en": "The C = {C} channels, split into h = {h} heads of d = {d}",
        "zh": "C = {C} 个通道，拆成 h = {h} 个头，每个 d = {d}",
    },
    "fig.channel_axis": {"en": "channel", "zh": "通道"},
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
    "error.corpus_too_short": {
        "zh": "文字太短，无法训练：只有 {chars} 个字符，而模型一次读 {context_size} 个。请至少提供 {minimum} 个字符。"
    },
    "error.corpus_too_short_for_window": {"zh": "文字太短：只有 {chars} 个字符，而模型一次读 {context_size} 个。"},
    "error.vocab_too_large": {
        "zh": "这段文字有 {size} 种不同的字符；这里的字符模型最多支持 {limit} 种。它真的是纯文本吗？"
    },
    "error.checksum_mismatch": {
        "zh": "文件 {path} 不是预期的语料（校验和以 {actual} 开头，应为 {expected}），没有使用它。"
    },
    "error.corpus_missing": {"zh": "没有找到 Tiny Shakespeare：请把 {env} 设置为该文件的路径（会校验其校验和）。"},
    "error.corpus_too_large": {"zh": "文件太大：{size} 字节（最多 {limit}）。"},
    "error.not_text": {"zh": "这个文件看起来是二进制文件（含有零字节），不是文本。请上传 UTF-8 文本文件。"},
    "error.not_utf8": {"zh": "这个文件不是 UTF-8 文本（位置 {position} 的字节无法读取）。请另存为 UTF-8 后再试。"},
    "error.steps_range": {"zh": "训练预算必须在 {low} 到 {high} {unit} 之间（当前为 {value}）。"},
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
