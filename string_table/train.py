"""Strings: The Train page."""

STRINGS: dict[str, dict[str, str]] = {
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
        "en": "Tiny Shakespeare is not on this server yet. Download it below (1.1 MB, once; its checksum is verified), or provide the file yourself: set {env} to its path, put tinyshakespeare.txt in the folder named by {data_env} or in data/ next to app.py. Or choose another corpus.",
        "zh": "服务器上还没有 Tiny Shakespeare。可以在下面下载（1.1 MB，只需一次，会校验校验和），或自己提供文件：把 {env} 设置为文件路径，或把 tinyshakespeare.txt 放进 {data_env} 指定的文件夹或 app.py 旁边的 data/ 中。也可以选择其他语料。",
    },
    "tr.no_shakespeare_cache": {
        "en": "Downloads are kept in {cache} on this computer.",
        "zh": "下载的文件保存在这台电脑的 {cache} 中。",
    },
    "tr.shakespeare_first": {
        "en": "Tiny Shakespeare is not on this server yet: download it with the button under the corpus choice (tab “{tab}”), or choose another corpus there.",
        "zh": "服务器上还没有 Tiny Shakespeare：请用语料选项下方的按钮下载它（在“{tab}”标签页），或在那里选择其他语料。",
    },
    "tr.download": {"en": "Download Tiny Shakespeare (1.1 MB)", "zh": "下载 Tiny Shakespeare（1.1 MB）"},
    "tr.downloading": {"en": "Downloading Tiny Shakespeare…", "zh": "正在下载 Tiny Shakespeare…"},
    "tr.own_text": {"en": "Paste your text (UTF-8)", "zh": "粘贴你的文字（UTF-8）"},
    "tr.upload": {"en": "…or upload a UTF-8 text file", "zh": "……或上传一个 UTF-8 文本文件"},
    "tr.generate_cut": {
        "en": "Stopped after {made} of {wanted} characters: one generation may take at most {seconds} s on this server, and a large model writes fewer characters (each costs more).",
        "zh": "在 {wanted} 个字符中生成了 {made} 个后停止：在这台服务器上，一次生成最多 {seconds} 秒，而且模型越大能写的字符越少（每个字符更费算力）。",
    },
    "tr.generate_waiting": {
        "en": "Waiting to generate: {n} ahead of you. Generations run a few at a time so that every page stays quick.",
        "zh": "正在等待生成：前面还有 {n} 位。生成每次只运行少数几个，好让每个页面都保持流畅。",
    },
    "tr.restarted": {
        "en": "The server restarted. Your settings came back from the link, but a model trained before the restart, and any run in progress, is gone. If you downloaded your model, upload it below to use it again.",
        "zh": "服务器重启过。你的设置已从链接恢复，但重启前训练的模型以及正在进行的训练都已丢失。如果你下载过模型，可以在下面上传，继续使用。",
    },
    "tr.upload_model": {
        "en": "Use a model you downloaded here earlier (.pt)",
        "zh": "使用你之前在这里下载的模型（.pt）",
    },
    "tr.upload_model_help": {
        "en": "The file this page's download button gave you, at most {limit_mb} MB: weights only (nothing in it is run), checked for its format version. It becomes your model for generation here and for the playground and the explorer.",
        "zh": "本页下载按钮给你的文件，最大 {limit_mb} MB：只含权重（不会执行其中任何内容），并检查格式版本。它会成为你在这里生成文字以及游乐场和探索页使用的模型。",
    },
    "tr.upload_help": {
        "en": "A plain text file in UTF-8, at most {limit_mb} MB.",
        "zh": "UTF-8 编码的纯文本文件，最大 {limit_mb} MB。",
    },
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
        "en": "Your model: {heads} heads, {params} parameters.",
        "zh": "你的模型：{heads} 个头，{params} 个参数。",
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
        "en": "Trains 1, 2, 4 and 8 heads one after another on the corpus chosen in the first tab. On Tiny Shakespeare, {steps} steps and {seeds} tell head counts apart; the copying, previous-letter and repeated-pairs corpora stay too close to tell.",
        "zh": "在第一个标签页选择的语料上，依次训练 1、2、4、8 个头。在 Tiny Shakespeare 上，{steps} 步、{seeds}就能分出不同头数的高下；复制、前一个字母和重复字母对这几种语料则差别太小，看不出来。",
    },
    "tr.exp_seeds_input": {"en": "seeds per head count", "zh": "每种头数的种子数"},
    "tr.one_seed": {"en": "1 seed", "zh": "1 个种子"},
    "tr.n_seeds": {"en": "{n} seeds", "zh": "{n} 个种子"},
    "tr.about_seconds": {"en": "about {n} seconds", "zh": "约 {n} 秒"},
    "tr.about_minutes": {"en": "about {n} minutes", "zh": "约 {n} 分钟"},
    "tr.exp_plan": {
        "en": "Time needed on this server right now: {duration}, for {runs} runs ({heads} head counts × {seeds}) of {steps} steps; one training step takes {low}–{high} ms here.",
        "zh": "在这台服务器上目前所需时间：{duration}，共 {runs} 次运行（{heads} 种头数 × {seeds}），每次 {steps} 步；这里一个训练步需要 {low}–{high} 毫秒。",
    },
    "tr.exp_too_long": {
        "en": "That is more than the {minutes} minutes an experiment may run here: each run gets {run_cap} s and may stop short of {steps} steps. Choose fewer steps or seeds.",
        "zh": "这超过了这里一次实验最多可运行的 {minutes} 分钟：每次运行只有 {run_cap} 秒，可能达不到 {steps} 步。请减少步数或种子数。",
    },
    "tr.experiment_running": {
        "en": "Heads experiment: run {run} of {runs}, {heads} heads, seed {seed}…",
        "zh": "多头实验：第 {run}/{runs} 次运行，{heads} 个头，种子 {seed}……",
    },
    "tr.experiment_done": {"en": "Experiment finished.", "zh": "实验完成。"},
    "tr.exp_source_mine": {"en": "Your run, on {corpus}.", "zh": "你的运行，语料：{corpus}。"},
    "tr.exp_source_shipped": {
        "en": "Shipped results: Tiny Shakespeare, {steps} steps per head count, {seeds} each, on a 2-core CPU (scripts/heads_experiment.py reproduces them).",
        "zh": "预先运行的结果：Tiny Shakespeare，每种头数 {steps} 步、{seeds}，2 核 CPU（scripts/heads_experiment.py 可重现）。",
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
    "tr.col.seeds": {"en": "seeds", "zh": "种子数"},
    "tr.col.loss_mean": {"en": "held-out loss, mean ± sd", "zh": "验证损失，均值 ± 标准差"},
    "tr.col.loss_range": {"en": "lowest – highest seed", "zh": "各种子最低 – 最高"},
    "tr.col.speed_mean": {"en": "tokens/s (mean)", "zh": "词元/秒（均值）"},
    "tr.col.time_mean": {"en": "wall time (s, mean)", "zh": "用时（秒，均值）"},
    "tr.verdict.title": {"en": "**What the numbers say.**", "zh": "**数据告诉我们什么。**"},
    "tr.verdict.one_seed": {
        "en": "One seed per head count, so the spread between seeds is unknown; differences are judged against the noise of one run, {noise} (half the train loss's step-to-step jumps). The lowest held-out loss this time: h = {best} ({loss}).",
        "zh": "每种头数只有一个种子，种子之间的波动未知；差异以单次运行的噪声 {noise}（训练损失逐步跳动幅度的一半）为准。这一次验证损失最低的是 h = {best}（{loss}）。",
    },
    "tr.verdict.seeds": {
        "en": "{seeds} seeds per head count. The lowest mean held-out loss: h = {best} ({mean} ± {sd}).",
        "zh": "每种头数 {seeds} 个种子。平均验证损失最低的是 h = {best}（{mean} ± {sd}）。",
    },
    "tr.verdict.too_short": {
        "en": "**Too short to tell.** Each run trained only {steps} steps; an answer needs at least {min_steps} (the learning-rate warmup is over by then and the loss has left its starting plateau). At {steps} steps the held-out losses were {losses}, and the speeds ({low} to {high} tokens/s) still include the start-up. These numbers say nothing yet about which head count trains better or faster: run at least {min_steps} steps per head count.",
        "zh": "**训练太短，看不出差别。** 每次运行只训练了 {steps} 步；要下结论至少需要 {min_steps} 步（那时学习率预热早已结束，损失也已离开起始的平台）。在第 {steps} 步，验证损失分别是 {losses}，速度（每秒 {low} 到 {high} 个词元）还包含启动开销。这些数字还不能说明哪种头数训练得更好或更快：请每种头数至少训练 {min_steps} 步。",
    },
    "tr.verdict.too_close_seeds": {
        "en": "**Too close to tell.** {seeds} seeds per head count; the mean held-out losses ({losses}) differ by at most {gap}, no more than the spread between seeds (up to {noise}). These runs show no head count better than another.",
        "zh": "**差别太小，看不出高下。** 每种头数 {seeds} 个种子；平均验证损失（{losses}）最多相差 {gap}，没有超出种子之间的波动（最大 {noise}）。这些运行显示不出哪种头数更好。",
    },
    "tr.verdict.too_close_one_seed": {
        "en": "**Too close to tell.** One seed per head count; the held-out losses ({losses}) differ by at most {gap}, no more than the noise of one run ({noise}: half the train loss's step-to-step jumps; the spread between seeds is unknown). These runs show no head count better than another.",
        "zh": "**差别太小，看不出高下。** 每种头数只有一个种子；验证损失（{losses}）最多相差 {gap}，没有超出单次运行的噪声（{noise}：训练损失逐步跳动幅度的一半；种子之间的波动未知）。这些运行显示不出哪种头数更好。",
    },
    "tr.verdict.loss_item": {"en": "h = {heads}: {loss}", "zh": "h = {heads}：{loss}"},
    "tr.verdict.ties_one_seed": {
        "en": "{heads}: within the noise of one run of it, so a tie.",
        "zh": "{heads}：与它的差距在单次运行的噪声之内，算作平手。",
    },
    "tr.verdict.worse_one_seed": {
        "en": "{heads}: worse by more than the noise of one run.",
        "zh": "{heads}：差距超过单次运行的噪声，更差。",
    },
    "tr.verdict.speed_unclear_seeds": {
        "en": "Speed: from {low} to {high} tokens/s on average, a difference within the spread between seeds: no head count was clearly faster.",
        "zh": "速度：平均每秒 {low} 到 {high} 个词元，差异在种子之间的波动范围内：没有哪种头数明显更快。",
    },
    "tr.verdict.speed_unclear_one_seed": {
        "en": "Speed: from {low} to {high} tokens/s, within {resolution} % of each other, the noise of timing one run: no head count was clearly faster.",
        "zh": "速度：每秒 {low} 到 {high} 个词元，相差不到 {resolution}%，在单次计时的噪声之内：没有哪种头数明显更快。",
    },
    "tr.verdict.time_tie": {
        "en": "At equal wall time (after {seconds} s of training, as long as the shortest run) the head counts are within the noise of each other as well.",
        "zh": "在相同用时下（训练 {seconds} 秒，即最短一次运行的时长），各种头数之间的差异同样在噪声之内。",
    },
    "tr.verdict.more_unknown": {
        "en": "Are more heads better? These runs cannot tell.",
        "zh": "头越多越好吗？这些运行还无法回答。",
    },
    "tr.verdict.more_one_seed": {
        "en": "Are more heads better? One seed per head count cannot answer that: the spread between seeds may be larger than these differences. Run several seeds.",
        "zh": "头越多越好吗？每种头数一个种子无法回答：种子之间的波动可能比这些差异还大。请用多个种子运行。",
    },
    "tr.verdict.ties": {
        "en": "{heads}: within the seed spread of it, so a tie.",
        "zh": "{heads}：与它的差距在种子波动范围之内，算作平手。",
    },
    "tr.verdict.worse": {
        "en": "{heads}: clearly worse (the gap is larger than the seed spread).",
        "zh": "{heads}：明显更差（差距大于种子波动范围）。",
    },
    "tr.verdict.unstable": {
        "en": "h = {heads} varies most between seeds (lowest to highest {spread}).",
        "zh": "h = {heads} 在不同种子之间波动最大（最低到最高相差 {spread}）。",
    },
    "tr.verdict.speed_more_heads": {
        "en": "More heads cost speed: h = {fastest} processed {ratio}× the tokens per second of h = {slowest}.",
        "zh": "头越多越慢：h = {fastest} 每秒处理的词元数是 h = {slowest} 的 {ratio} 倍。",
    },
    "tr.verdict.speed": {
        "en": "The fastest was h = {fastest}, the slowest h = {slowest} ({ratio}× the tokens per second).",
        "zh": "最快的是 h = {fastest}，最慢的是 h = {slowest}（每秒词元数相差 {ratio} 倍）。",
    },
    "tr.verdict.time": {
        "en": "At equal wall time (after {seconds} s of training, as long as the shortest run): the lowest loss is h = {best}",
        "zh": "在相同用时下（训练 {seconds} 秒，即最短一次运行的时长）：损失最低的是 h = {best}",
    },
    "tr.verdict.time_ties": {"en": ", tied with {heads}", "zh": "，与 {heads} 平手"},
    "tr.verdict.time_same": {
        "en": "; the same as at equal steps.",
        "zh": "；与相同步数时的结果一致。",
    },
    "tr.verdict.time_changed": {
        "en": "; at equal steps it was h = {best}: giving every head count the same time changes the ranking.",
        "zh": "；而相同步数时是 h = {best}：给每种头数相同的时间，排名就变了。",
    },
    "tr.verdict.more_yes": {
        "en": "Are more heads better? Here the most heads (h = {most}) did best, by more than the noise.",
        "zh": "头越多越好吗？这一次头数最多的 h = {most} 最好，且差距超过噪声。",
    },
    "tr.verdict.more_tie": {
        "en": "Are more heads better? Not clearly: beyond h = {best}, more heads did no better than the noise allows us to tell. With the same parameters, each extra head gets fewer channels (a smaller head_dim) and costs time.",
        "zh": "头越多越好吗？不明显：超过 h = {best} 之后，更多的头带来的差异在噪声范围之内。参数量相同时，每多一个头，每个头分到的通道（head_dim）就更少，而且更花时间。",
    },
    "tr.verdict.more_no": {
        "en": "Are more heads better? No: h = {most} is clearly worse than h = {best}. With the same parameters, each extra head gets fewer channels (a smaller head_dim) and costs time.",
        "zh": "头越多越好吗？不是：h = {most} 明显比 h = {best} 差。参数量相同时，每多一个头，每个头分到的通道（head_dim）就更少，而且更花时间。",
    },
    "tr.final_help": {
        "en": "Each dot is one seed's run; the diamond is their mean with ± one standard deviation. The bands in the curves span the lowest to the highest seed.",
        "zh": "每个点是一个种子的一次运行；菱形是它们的均值，误差线为 ± 一个标准差。曲线周围的色带覆盖从最低到最高的种子。",
    },
    "tr.samples": {
        "en": 'Samples (prompt "ROMEO:", temperature 0.8, top-k 10)',
        "zh": '生成样例（提示词 "ROMEO:"，温度 0.8，top-k 10）',
    },
    "tr.snapshots": {"en": "What the heads attend to, during training", "zh": "训练过程中，各个头在关注什么"},
    "tr.snapshots_help": {
        "en": "Softmax weights of each head for a fixed prompt, saved at training steps {steps}. The slider is spaced by step and stops at saved steps (an arrow key goes to the next one).",
        "zh": "固定提示词下每个头的 softmax 权重，保存于训练第 {steps} 步。滑块按步数均匀排列，只停在已保存的步数上（方向键移到下一个）。",
    },
    "tr.snap_title": {
        "en": "Softmax weights at training step {step}, block {block}",
        "zh": "训练第 {step} 步、第 {block} 层的 softmax 权重",
    },
    "tr.snap_prompt": {
        "en": "The prompt, as the model read it (its first {T} characters; on the axes {space} is a space and {newline} a newline):",
        "zh": "提示词，即模型读到的内容（前 {T} 个字符；坐标轴上 {space} 表示空格，{newline} 表示换行）：",
    },
    "tr.snap_step": {"en": "training step", "zh": "训练步数"},
    "tr.block": {"en": "block", "zh": "层"},
}
