"""Strings: the guided lesson (the chapter, step by step) and presentation mode."""

STRINGS: dict[str, dict[str, str]] = {
    "ls.step_of": {"en": "Step {n} of {total}", "zh": "第 {n} 步，共 {total} 步"},
    "ls.steps": {"en": "Steps", "zh": "步骤"},
    "ls.previous": {"en": "Previous", "zh": "上一步"},
    "ls.next": {"en": "Next", "zh": "下一步"},
    "ls.predict": {"en": "Predict first", "zh": "先预测"},
    "ls.check": {"en": "Check my answer", "zh": "检查我的答案"},
    "ls.choose_first": {"en": "Choose an answer first.", "zh": "请先选择一个答案。"},
    "ls.right": {"en": "Right: {why}", "zh": "正确：{why}"},
    "ls.wrong": {"en": "Not quite: {why}", "zh": "不完全对：{why}"},
    "ls.bad_step": {
        "en": "The link asks for step “{value}”, which is not a step of this lesson (1 to {total}): starting at step 1.",
        "zh": "链接要求的步骤“{value}”不是本课程的步骤（1 到 {total}）：从第 1 步开始。",
    },
    "ls.none": {"en": "none", "zh": "没有"},
    "ls.text": {"en": "Sequence", "zh": "序列"},
    "ls.heads": {"en": "heads h", "zh": "头数 h"},
    "ls.head_dim": {"en": "head_dim d", "zh": "每个头的维度 d"},
    "ls.head": {"en": "head", "zh": "头"},
    "ls.embedding": {"en": "embedding size C", "zh": "嵌入维度 C"},
    "ls.open_playground": {"en": "Open this in the playground", "zh": "在注意力游乐场中打开"},
    "ls.book_code": {"en": "The book's code for this step", "zh": "本步骤对应的书中代码"},
    # 1. one head
    "ls.1.title": {"en": "One head: queries, keys, values and the weighted sum", "zh": "一个头：查询、键、值与加权求和"},
    "ls.1.body": {
        "en": "Each token's vector x is multiplied by three weight matrices: Q = x W_q asks *what am I looking for?*, K = x W_k says *what do I contain?*, V = x W_v is *what I pass on*. The scores QKᵀ compare every query with every key; they are divided by √d, the future is masked, and the softmax turns each row into weights that sum to 1. The output of a token is the weighted sum of the values. Here: T = {T} tokens, d = {d}: Q, K and V are {T}×{d}.",
        "zh": "每个词元的向量 x 分别乘以三个权重矩阵：Q = x W_q 表示“我在找什么”，K = x W_k 表示“我包含什么”，V = x W_v 表示“我要传递什么”。分数 QKᵀ 把每个查询与每个键作比较；再除以 √d、遮住未来，softmax 把每一行变成和为 1 的权重。一个词元的输出就是各个值的加权和。这里 T = {T} 个词元，d = {d}：Q、K、V 都是 {T}×{d}。",
    },
    "ls.1.q": {"en": "What shape does the score matrix QKᵀ have?", "zh": "分数矩阵 QKᵀ 的形状是什么？"},
    "ls.1.why": {
        "en": "QKᵀ has one row per query and one column per key: {shape}, as computed here.",
        "zh": "QKᵀ 每个查询一行、每个键一列：这里算出的形状是 {shape}。",
    },
    "ls.1.output": {"en": "Output of the head: {shape} (one vector of d numbers per token).", "zh": "这个头的输出：{shape}（每个词元一个 d 维向量）。"},
    # 2. split
    "ls.2.title": {"en": "One big projection, split into heads", "zh": "一次大投影，再拆分成多个头"},
    "ls.2.body": {
        "en": "The book does not build h small layers. One Linear layer makes Q for all heads at once (C = h × d = {C} channels); `.view(B, T, h, d)` cuts the channels into h blocks of d, and `.transpose(1, 2)` puts the heads first so each head is a separate batch of T×d. Channels {first}–{last} belong to head 2 (when there is one): each head sees only its own block.",
        "zh": "书中并没有建立 h 个小层。一个 Linear 层一次算出所有头的 Q（C = h × d = {C} 个通道）；`.view(B, T, h, d)` 把通道切成 h 块、每块 d 个，`.transpose(1, 2)` 把头移到前面，这样每个头都是一组独立的 T×d。通道 {first}–{last} 属于第 2 个头（如果有的话）：每个头只看自己的那一块。",
    },
    "ls.2.q": {"en": "What shape comes out of the transpose?", "zh": "transpose 之后得到什么形状？"},
    "ls.2.why": {"en": "`.transpose(1, 2)` swaps T and h: {shape}, as traced here.", "zh": "`.transpose(1, 2)` 交换了 T 和 h：这里追踪到的形状是 {shape}。"},
    # 3. mask
    "ls.3.title": {"en": "The causal mask on 动手学大模型", "zh": "在“动手学大模型”上的因果掩码"},
    "ls.3.body": {
        "en": "A language model predicts the next token, so token t may only look at tokens 0…t: if it saw the future it could copy the answer. The mask sets every score above the diagonal to −∞, and since e^(−∞) = 0 the softmax gives those cells exactly 0, while each row still sums to 1. The book's example has 6 tokens; row 3 is the query 大 (counting from 0).",
        "zh": "语言模型要预测下一个词元，所以第 t 个词元只能看 0…t：如果它看得见未来，就能直接抄答案。掩码把对角线以上的分数都设为 −∞，因为 e^(−∞) = 0，softmax 在这些位置给出的权重恰好是 0，而每一行的和仍然是 1。书中的例子有 6 个词元；第 3 行是查询“大”（从 0 开始数）。",
    },
    "ls.3.q": {"en": "Which cells of row 3 will be exactly 0 after the softmax?", "zh": "softmax 之后，第 3 行哪些位置恰好为 0？"},
    "ls.3.why": {"en": "the weights of row 3 are exactly 0 at key positions {zeros}, the keys after position 3.", "zh": "第 3 行在键位置 {zeros} 上的权重恰好为 0，也就是位置 3 之后的键。"},
    # 4. merge
    "ls.4.title": {"en": "Merging the heads and the output projection", "zh": "合并各个头，再做输出投影"},
    "ls.4.body": {
        "en": "Each head returns weights @ V, a T×d block. `.transpose(1, 2)` puts the tokens first again, `.contiguous().view(B, T, C)` lays the h blocks side by side (C = {C}), and a last Linear layer (the output projection) mixes the heads' channels. The output has the input's shape, so blocks can be stacked.",
        "zh": "每个头返回 weights @ V，一个 T×d 的块。`.transpose(1, 2)` 再把词元放回前面，`.contiguous().view(B, T, C)` 把 h 个块并排拼起来（C = {C}），最后一个 Linear 层（输出投影）把各个头的通道混合起来。输出与输入形状相同，所以可以一层层堆叠。",
    },
    "ls.4.q": {"en": "What shape do the merged heads have, before the output projection?", "zh": "输出投影之前，合并后的结果是什么形状？"},
    "ls.4.why": {"en": "the merge gives {shape}: every token gets all heads' channels back.", "zh": "合并后是 {shape}：每个词元重新拥有所有头的通道。"},
    # 5. parameters
    "ls.5.title": {"en": "More heads, the same number of parameters", "zh": "头更多，参数量却一样"},
    "ls.5.body": {
        "en": "W_q, W_k and W_v are C×C whatever h is: more heads only cut the same channels into more, thinner blocks (d = C / h). Counted live on the built layers, embedding C = {C}:",
        "zh": "无论 h 是多少，W_q、W_k、W_v 都是 C×C：头更多只是把同样的通道切成更多、更窄的块（d = C / h）。下面是在构建好的层上实时数出的参数量，嵌入维度 C = {C}：",
    },
    "ls.5.q": {"en": "At the same C, how many parameters does 8-head attention have compared with 1 head?", "zh": "在同样的 C 下，8 个头的注意力层与 1 个头相比，参数量如何？"},
    "ls.5.more": {"en": "more", "zh": "更多"},
    "ls.5.same": {"en": "the same", "zh": "一样多"},
    "ls.5.fewer": {"en": "fewer", "zh": "更少"},
    "ls.5.why": {"en": "1 head: {one:,} parameters, 8 heads: {eight:,}.", "zh": "1 个头：{one:,} 个参数；8 个头：{eight:,} 个。"},
    # 6. parallel
    "ls.6.title": {"en": "One computation in parallel, not a stack", "zh": "一次并行的计算，而不是一层层堆叠"},
    "ls.6.body": {
        "en": "The heads do not run one after another: they are one batched matrix product. Below, the same layer's output is computed twice: by the layer itself, and head by head, each head from its own slice of W_q, W_k and W_v, then concatenated and projected. Largest difference: **{diff}**.",
        "zh": "这些头并不是一个接一个地运行：它们是一次批量的矩阵乘法。下面把同一层的输出算两遍：一遍由层本身计算，一遍逐个头计算（每个头用 W_q、W_k、W_v 中属于自己的切片），再拼接并投影。最大差异：**{diff}**。",
    },
    "ls.6.q": {"en": "Computing head by head and concatenating gives…", "zh": "逐个头计算再拼接，得到的是……"},
    "ls.6.same": {"en": "the same output (up to rounding)", "zh": "相同的输出（只差舍入误差）"},
    "ls.6.different": {"en": "a different output", "zh": "不同的输出"},
    "ls.6.why": {"en": "the largest difference is {diff}, rounding of float32.", "zh": "最大差异是 {diff}，只是 float32 的舍入误差。"},
    # 7. scaling
    "ls.7.title": {"en": "Why divide by √head_dim", "zh": "为什么要除以 √head_dim"},
    "ls.7.body": {
        "en": "A score is a sum of d products. With unit-variance queries and keys its spread grows like √d (here {spread} at d = {d}); the softmax of large scores puts nearly all weight on one key and its gradients vanish. Dividing by √d brings the spread back to about 1 ({scaled} here). The line chart averages {samples} random rows of {T} keys.",
        "zh": "一个分数是 d 个乘积之和。查询和键的方差为 1 时，分数的离散程度约为 √d（这里 d = {d} 时为 {spread}）；分数很大时，softmax 几乎把全部权重给一个键，梯度也随之消失。除以 √d 把离散程度拉回到 1 左右（这里是 {scaled}）。折线图是 {samples} 个随机行（每行 {T} 个键）的平均。",
    },
    "ls.7.q": {"en": "Without the division, as head_dim grows, the largest weight of a row goes towards…", "zh": "不做除法时，随着 head_dim 增大，一行中最大的权重趋向于……"},
    "ls.7.one": {"en": "1 (one key takes everything)", "zh": "1（一个键拿走全部权重）"},
    "ls.7.uniform": {"en": "1/T (every key the same)", "zh": "1/T（每个键都一样）"},
    "ls.7.zero": {"en": "0", "zh": "0"},
    "ls.7.why": {"en": "the mean largest weight rises from {low} at d = {d_low} to {high} at d = {d_high}.", "zh": "最大权重的平均值从 d = {d_low} 时的 {low} 升到 d = {d_high} 时的 {high}。"},
    # 8. trained heads
    "ls.8.title": {"en": "What trained heads do, and are more heads better?", "zh": "训练后的头在做什么？头越多越好吗？"},
    "ls.8.body": {
        "en": "Random weights give pale, nearly uniform rows. After training on Tiny Shakespeare (the shipped {heads}-head model, step {step}), heads specialise: some look at the previous character, some spread over the recent past. The book's question, answered by the shipped heads experiment (1, 2, 4 and 8 heads, the same parameters, {seeds} seeds each):",
        "zh": "随机权重下，每一行都浅淡、几乎均匀。在 Tiny Shakespeare 上训练之后（随应用提供的 {heads} 头模型，第 {step} 步），各个头开始分工：有的看前一个字符，有的分散在最近的一段上。书中的问题，由随应用提供的多头实验回答（1、2、4、8 个头，参数量相同，每种 {seeds} 个随机种子）：",
    },
    "ls.8.q": {"en": "Which head count reached the lowest mean held-out loss?", "zh": "哪一种头数的平均验证损失最低？"},
    "ls.8.why": {"en": "h = {best} has the lowest mean; see the full answer below.", "zh": "h = {best} 的平均值最低；完整的回答见下文。"},
    "ls.8.no_model": {"en": "The shipped model is missing from assets/: this step cannot show trained heads.", "zh": "assets/ 中缺少随应用提供的模型：这一步无法显示训练后的头。"},
    # presentation mode
    "app.present": {"en": "Presentation mode", "zh": "演示模式"},
    "app.present_help": {
        "en": "Larger type and figures for a projector; the setting stays in the link.",
        "zh": "为投影仪放大文字和图表；这个设置会保留在链接中。",
    },
    # the lesson's figures
    "lsfig.heads_label": {"en": "{heads} heads", "zh": "{heads} 个头"},
    "lsfig.heads_axis": {"en": "number of heads h", "zh": "头数 h"},
    "lsfig.query_layer": {"en": "W_q (queries)", "zh": "W_q（查询）"},
    "lsfig.key_layer": {"en": "W_k (keys)", "zh": "W_k（键）"},
    "lsfig.value_layer": {"en": "W_v (values)", "zh": "W_v（值）"},
    "lsfig.output_layer": {"en": "output projection", "zh": "输出投影"},
    "lsfig.parameters_title": {"en": "Parameters of one attention layer", "zh": "一个注意力层的参数量"},
    "lsfig.parameters_axis": {"en": "parameters", "zh": "参数量"},
    "lsfig.scaled": {"en": "divided by √head_dim", "zh": "除以 √head_dim"},
    "lsfig.unscaled": {"en": "not divided", "zh": "不除"},
    "lsfig.scaling_title": {"en": "Largest softmax weight of a row (mean)", "zh": "一行中最大的 softmax 权重（平均）"},
    "lsfig.head_dim_axis": {"en": "head_dim d", "zh": "每个头的维度 d"},
    "lsfig.max_weight_axis": {"en": "largest weight", "zh": "最大权重"},
    "lsfig.row_title": {"en": "One query's weights over 6 keys", "zh": "一个查询在 6 个键上的权重"},
    "lsfig.weight_axis": {"en": "softmax weight", "zh": "softmax 权重"},
    "lsfig.two_ways_title": {"en": "The layer's output, computed two ways", "zh": "同一层的输出，用两种方法计算"},
    "lsfig.batched": {"en": "all heads at once", "zh": "所有头一起算"},
    "lsfig.by_head": {"en": "head by head, concatenated", "zh": "逐个头计算再拼接"},
    "lsfig.channel": {"en": "channel", "zh": "通道"},
}
