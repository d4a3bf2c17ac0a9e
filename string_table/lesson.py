"""Strings: the guided lesson (the chapter, step by step) and presentation mode."""

STRINGS: dict[str, dict[str, str]] = {
    "ls.step_of": {"en": "Step {n} of {total}", "zh": "第 {n} 步，共 {total} 步"},
    "ls.steps": {"en": "Steps", "zh": "步骤"},
    "ls.previous": {"en": "Previous", "zh": "上一步"},
    "ls.next": {"en": "Next", "zh": "下一步"},
    "ls.predict": {"en": "Predict first", "zh": "先预测"},
    "ls.keys_help": {
        "en": "Keys: → or Page Down for the next step, ← or Page Up for the previous one.",
        "zh": "按键：→ 或 Page Down 到下一步，← 或 Page Up 回上一步。",
    },
    "ls.check": {"en": "Check my answer", "zh": "检查我的答案"},
    "ls.choose_first": {"en": "Choose an answer first.", "zh": "请先选择一个答案。"},
    "ls.right": {"en": "Right: {why}", "zh": "正确：{why}"},
    "ls.wrong": {"en": "Not quite. {hint}", "zh": "不完全对。{hint}"},
    "ls.try_again": {
        "en": "Change your answer and check again, or show the answer.",
        "zh": "改一改答案再检查一次，或者直接看答案。",
    },
    "ls.show_answer": {"en": "Show the answer", "zh": "显示答案"},
    "ls.the_answer": {"en": "The answer: **{answer}**. {why}", "zh": "答案：**{answer}**。{why}"},
    "ls.after_answer": {"en": "What the numbers show", "zh": "数值说明了什么"},
    "ls.note_invalid": {
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
    "ls.1.lead": {
        "en": "Each token's vector x is multiplied by three weight matrices: Q = x W_q (*what am I looking for?*), K = x W_k (*what do I contain?*) and V = x W_v (*what do I pass on?*). Below are one head's Q, K and V for your text: T = {T} tokens, d = {d} numbers each. The scores and the softmax appear once you have answered.",
        "zh": "每个词元的向量 x 分别乘以三个权重矩阵：Q = x W_q（“我在找什么？”）、K = x W_k（“我包含什么？”）、V = x W_v（“我要传递什么？”）。下面是一个头对你的文字算出的 Q、K、V：T = {T} 个词元，每个 d = {d} 个数。回答之后才会显示分数和 softmax。",
    },
    "ls.1.hint": {
        "en": "QKᵀ multiplies Q, which is T × d, by Kᵀ, which is d × T: which sizes are left?",
        "zh": "QKᵀ 是 Q（T × d）乘以 Kᵀ（d × T）：剩下的是哪两个维度？",
    },
    "ls.2.lead": {
        "en": "One Linear layer makes the queries of all h = {h} heads at once: C = h × d = {C} channels per token, coloured by head below. The code then reshapes them so that each head works on its own; the traced shapes appear once you have answered.",
        "zh": "一个 Linear 层一次算出全部 h = {h} 个头的查询：每个词元 C = h × d = {C} 个通道，下图按头着色。接着代码改变它们的形状，让每个头各算各的；回答之后才会显示追踪到的形状。",
    },
    "ls.2.hint": {
        "en": "`.view(B, T, h, d)` gives (B, T, h, d); `.transpose(1, 2)` swaps the dimensions at positions 1 and 2.",
        "zh": "`.view(B, T, h, d)` 得到 (B, T, h, d)；`.transpose(1, 2)` 交换第 1 维和第 2 维。",
    },
    "ls.3.lead": {
        "en": "A language model predicts the next token. Below are one head's raw and scaled scores for 动手学大模型 (6 tokens, positions 0 to 5); the masked scores and the weights appear once you have answered.",
        "zh": "语言模型要预测下一个词元。下面是一个头对“动手学大模型”（6 个词元，位置 0 到 5）算出的原始分数和缩放后的分数；回答之后才会显示掩码后的分数和权重。",
    },
    "ls.3.hint": {
        "en": "A query may look at itself and at every key before it, never after it.",
        "zh": "一个查询可以看它自己和它之前的每一个键，但不能看它之后的键。",
    },
    "ls.4.lead": {
        "en": "Each of the h = {h} heads returns weights @ V, one T × d block per head. Before the output projection, the heads are put back together; the traced shapes appear once you have answered.",
        "zh": "h = {h} 个头各自返回 weights @ V，每个头一个 T × d 的块。在输出投影之前，要把这些头重新拼起来；回答之后才会显示追踪到的形状。",
    },
    "ls.4.hint": {
        "en": "The merge undoes the split: the tokens first again, then the h blocks of d numbers side by side.",
        "zh": "合并是拆分的逆过程：先把词元放回前面，再把 h 个 d 维的块并排拼起来。",
    },
    "ls.5.lead": {
        "en": "Does cutting attention into more heads cost parameters? The four Linear layers are built live for h = 1, 2, 4 and 8 at embedding C = {C}; their counts appear once you have answered.",
        "zh": "把注意力切成更多的头，会多花参数吗？下面在嵌入维度 C = {C} 下实时构建 h = 1、2、4、8 的四个 Linear 层；回答之后才会显示它们的参数量。",
    },
    "ls.5.hint": {
        "en": "Look at the shapes of W_q, W_k, W_v and the output projection: does any of them depend on h?",
        "zh": "看看 W_q、W_k、W_v 和输出投影的形状：有哪一个与 h 有关吗？",
    },
    "ls.6.lead": {
        "en": "Are the heads computed one after another, or all at once? Once you have answered, the same layer's output is computed twice: by the layer itself, and head by head from each head's own slice of the weights.",
        "zh": "这些头是一个接一个地算，还是一次全部算完？回答之后，同一层的输出会被算两遍：一遍由层本身计算，一遍逐个头用各自那一份权重计算。",
    },
    "ls.6.hint": {
        "en": "Each head uses its own slice of the same weight matrices, and the slices do not overlap.",
        "zh": "每个头用的是同一组权重矩阵中属于自己的一份，这些份互不重叠。",
    },
    "ls.7.lead": {
        "en": "A score is a sum of d products of a query's and a key's numbers. What happens to a row's softmax when d grows and nothing divides the scores? The measurements appear once you have answered.",
        "zh": "一个分数是查询与键的 d 个数两两相乘再相加。如果 d 变大而分数不做除法，一行的 softmax 会怎样？回答之后才会显示测量结果。",
    },
    "ls.7.hint": {
        "en": "Without the division the scores spread further apart as d grows; think of what a softmax does with numbers far apart.",
        "zh": "不做除法时，d 越大分数越分散；想一想 softmax 遇到相差很大的数时会怎样。",
    },
    "ls.8.hint": {
        "en": "Move the slider and look at the trained heads: they split the work, one following the previous character, another the recent past. One head can follow one such pattern at a time; more heads share the same C = {C} channels, d = C / h each.",
        "zh": "拖动滑块，看看训练后的头：它们分了工，有的跟着前一个字符，有的看最近的一段。一个头一次只能跟一种这样的模式；头更多时，它们分的是同样的 C = {C} 个通道，每个头 d = C / h 个。",
    },
    "ls.1.title": {
        "en": "One head: queries, keys, values and the weighted sum",
        "zh": "一个头：查询、键、值与加权求和",
    },
    "ls.1.body": {
        "en": "Each token's vector x is multiplied by three weight matrices: Q = x W_q asks *what am I looking for?*, K = x W_k says *what do I contain?*, V = x W_v is *what I pass on*. The scores QKᵀ compare every query with every key; they are divided by √d, the future is masked, and the softmax turns each row into weights that sum to 1. The output of a token is the weighted sum of the values. Here: T = {T} tokens, d = {d}: Q, K and V are {T}×{d}.",
        "zh": "每个词元的向量 x 分别乘以三个权重矩阵：Q = x W_q 表示“我在找什么”，K = x W_k 表示“我包含什么”，V = x W_v 表示“我要传递什么”。分数 QKᵀ 把每个查询与每个键作比较；再除以 √d、遮住未来，softmax 把每一行变成和为 1 的权重。一个词元的输出就是各个值的加权和。这里 T = {T} 个词元，d = {d}：Q、K、V 都是 {T}×{d}。",
    },
    "ls.1.q": {"en": "What shape does the score matrix QKᵀ have?", "zh": "分数矩阵 QKᵀ 的形状是什么？"},
    "ls.1.why": {
        "en": "QKᵀ has one row per query and one column per key: {shape}, as computed here.",
        "zh": "QKᵀ 每个查询一行、每个键一列：这里算出的形状是 {shape}。",
    },
    "ls.1.output": {
        "en": "Output of the head: {shape} (one vector of d numbers per token).",
        "zh": "这个头的输出：{shape}（每个词元一个 d 维向量）。",
    },
    # 2. split
    "ls.2.title": {"en": "One big projection, split into heads", "zh": "一次大投影，再拆分成多个头"},
    "ls.2.body": {
        "en": "The book does not build h small layers. One Linear layer makes Q for all heads at once (C = h × d = {C} channels); `.view(B, T, h, d)` cuts the channels into h blocks of d, and `.transpose(1, 2)` puts the heads first so each head is a separate batch of T×d. Channels {first}–{last} belong to head 2 (when there is one): each head sees only its own block.",
        "zh": "书中并没有建立 h 个小层。一个 Linear 层一次算出所有头的 Q（C = h × d = {C} 个通道）；`.view(B, T, h, d)` 把通道切成 h 块、每块 d 个，`.transpose(1, 2)` 把头移到前面，这样每个头都是一组独立的 T×d。通道 {first}–{last} 属于第 2 个头（如果有的话）：每个头只看自己的那一块。",
    },
    "ls.2.q": {"en": "What shape comes out of the transpose?", "zh": "transpose 之后得到什么形状？"},
    "ls.2.why": {
        "en": "`.transpose(1, 2)` swaps T and h: {shape}, as traced here.",
        "zh": "`.transpose(1, 2)` 交换了 T 和 h：这里追踪到的形状是 {shape}。",
    },
    # 3. mask
    "ls.3.title": {"en": "The causal mask on 动手学大模型", "zh": "在“动手学大模型”上的因果掩码"},
    "ls.3.body": {
        "en": "A language model predicts the next token, so token t may only look at tokens 0…t: if it saw the future it could copy the answer. The mask sets every score above the diagonal to −∞, and since e^(−∞) = 0 the softmax gives those cells exactly 0, while each row still sums to 1. The book's example has 6 tokens; row 3 is the query 大 (counting from 0).",
        "zh": "语言模型要预测下一个词元，所以第 t 个词元只能看 0…t：如果它看得见未来，就能直接抄答案。掩码把对角线以上的分数都设为 −∞，因为 e^(−∞) = 0，softmax 在这些位置给出的权重恰好是 0，而每一行的和仍然是 1。书中的例子有 6 个词元；第 3 行是查询“大”（从 0 开始数）。",
    },
    "ls.3.q": {
        "en": "Which cells of row 3 will be exactly 0 after the softmax?",
        "zh": "softmax 之后，第 3 行哪些位置恰好为 0？",
    },
    "ls.3.why": {
        "en": "the weights of row 3 are exactly 0 at key positions {zeros}, the keys after position 3.",
        "zh": "第 3 行在键位置 {zeros} 上的权重恰好为 0，也就是位置 3 之后的键。",
    },
    # 4. merge
    "ls.4.title": {"en": "Merging the heads and the output projection", "zh": "合并各个头，再做输出投影"},
    "ls.4.body": {
        "en": "Each head returns weights @ V, a T×d block. `.transpose(1, 2)` puts the tokens first again, `.contiguous().view(B, T, C)` lays the h blocks side by side (C = {C}), and a last Linear layer (the output projection) mixes the heads' channels. The output has the input's shape, so blocks can be stacked.",
        "zh": "每个头返回 weights @ V，一个 T×d 的块。`.transpose(1, 2)` 再把词元放回前面，`.contiguous().view(B, T, C)` 把 h 个块并排拼起来（C = {C}），最后一个 Linear 层（输出投影）把各个头的通道混合起来。输出与输入形状相同，所以可以一层层堆叠。",
    },
    "ls.4.q": {
        "en": "What shape do the merged heads have, before the output projection?",
        "zh": "输出投影之前，合并后的结果是什么形状？",
    },
    "ls.4.why": {
        "en": "the merge gives {shape}: every token gets all heads' channels back.",
        "zh": "合并后是 {shape}：每个词元重新拥有所有头的通道。",
    },
    # 5. parameters
    "ls.5.title": {"en": "More heads: how many parameters?", "zh": "头更多，参数量会怎样？"},
    "ls.5.body": {
        "en": "W_q, W_k and W_v are C×C whatever h is: more heads only cut the same channels into more, thinner blocks (d = C / h). Counted live on the built layers, embedding C = {C}:",
        "zh": "无论 h 是多少，W_q、W_k、W_v 都是 C×C：头更多只是把同样的通道切成更多、更窄的块（d = C / h）。下面是在构建好的层上实时数出的参数量，嵌入维度 C = {C}：",
    },
    "ls.5.q": {
        "en": "At the same C, how many parameters does 8-head attention have compared with 1 head?",
        "zh": "在同样的 C 下，8 个头的注意力层与 1 个头相比，参数量如何？",
    },
    "ls.5.more": {"en": "more", "zh": "更多"},
    "ls.5.same": {"en": "the same", "zh": "一样多"},
    "ls.5.fewer": {"en": "fewer", "zh": "更少"},
    "ls.5.why": {
        "en": "1 head: {one:,} parameters, 8 heads: {eight:,}.",
        "zh": "1 个头：{one:,} 个参数；8 个头：{eight:,} 个。",
    },
    # 6. parallel
    "ls.6.title": {"en": "Head by head, or all at once?", "zh": "逐个头计算，还是一次算完？"},
    "ls.6.body": {
        "en": "The heads do not run one after another: they are one batched matrix product. Below, the same layer's output is computed twice: by the layer itself, and head by head, each head from its own slice of W_q, W_k and W_v, then concatenated and projected. Largest difference: **{diff}**.",
        "zh": "这些头并不是一个接一个地运行：它们是一次批量的矩阵乘法。下面把同一层的输出算两遍：一遍由层本身计算，一遍逐个头计算（每个头用 W_q、W_k、W_v 中属于自己的切片），再拼接并投影。最大差异：**{diff}**。",
    },
    "ls.6.q": {"en": "Computing head by head and concatenating gives…", "zh": "逐个头计算再拼接，得到的是……"},
    "ls.6.same": {"en": "the same output (up to rounding)", "zh": "相同的输出（只差舍入误差）"},
    "ls.6.different": {"en": "a different output", "zh": "不同的输出"},
    "ls.6.why": {
        "en": "the largest difference is {diff}, rounding of float32.",
        "zh": "最大差异是 {diff}，只是 float32 的舍入误差。",
    },
    # 7. scaling
    "ls.7.title": {"en": "Why divide by √head_dim", "zh": "为什么要除以 √head_dim"},
    "ls.7.body": {
        "en": "A score is a sum of d products. With unit-variance queries and keys its spread grows like √d (here {spread} at d = {d}); the softmax of large scores puts nearly all weight on one key and its gradients vanish. Dividing by √d brings the spread back to about 1 ({scaled} here).",
        "zh": "一个分数是 d 个乘积之和。查询和键的方差为 1 时，分数的离散程度约为 √d（这里 d = {d} 时为 {spread}）；分数很大时，softmax 几乎把全部权重给一个键，梯度也随之消失。除以 √d 把离散程度拉回到 1 左右（这里是 {scaled}）。",
    },
    "ls.7.line_note": {
        "en": "The line chart averages {samples} random rows of {T} keys.",
        "zh": "折线图是 {samples} 个随机行（每行 {T} 个键）的平均。",
    },
    "ls.7.q": {
        "en": "Without the division, as head_dim grows, the largest weight of a row goes towards…",
        "zh": "不做除法时，随着 head_dim 增大，一行中最大的权重趋向于……",
    },
    "ls.7.one": {"en": "1 (one key takes everything)", "zh": "1（一个键拿走全部权重）"},
    "ls.7.uniform": {"en": "1/T (every key the same)", "zh": "1/T（每个键都一样）"},
    "ls.7.zero": {"en": "0", "zh": "0"},
    "ls.7.why": {
        "en": "the mean largest weight rises from {low} at d = {d_low} to {high} at d = {d_high}.",
        "zh": "最大权重的平均值从 d = {d_low} 时的 {low} 升到 d = {d_high} 时的 {high}。",
    },
    # 8. trained heads
    "ls.8.title": {
        "en": "What trained heads do, and are more heads better?",
        "zh": "训练后的头在做什么？头越多越好吗？",
    },
    "ls.8.body": {
        "en": "Random weights give pale, nearly uniform rows. After training on Tiny Shakespeare (the shipped model, h = {heads}, step {step}), heads specialise: some look at the previous character, some spread over the recent past. The book's question, answered by the shipped heads experiment (1, 2, 4 and 8 heads, the same parameters: C = {C} channels, d = C / h per head; {seeds} seeds each):",
        "zh": "随机权重下，每一行都浅淡、几乎均匀。在 Tiny Shakespeare 上训练之后（随附模型，h = {heads}，第 {step} 步），各个头开始分工：有的看前一个字符，有的分散在最近的一段上。书中的问题，由随附的多头实验回答（1、2、4、8 个头，参数量相同：C = {C} 个通道，每个头 d = C / h 个；每种 {seeds} 个随机种子）：",
    },
    "ls.8.q": {
        "en": "At the same parameters, which head count learns best, judged by its held-out loss after training?",
        "zh": "参数量相同时，按训练后的验证损失来看，哪一种头数学得最好？",
    },
    "ls.8.why": {
        "en": "after {steps} steps, h = {best} has the lowest mean held-out loss ({mean}).",
        "zh": "训练 {steps} 步之后，h = {best} 的平均验证损失最低（{mean}）。",
    },
    "ls.8.tied": {
        "en": "{tied}: within the seed spread of it, so the experiment cannot tell {all} apart, and each is a right answer.",
        "zh": "{tied}：与它的差距在随机种子的波动之内，所以实验无法区分 {all}，它们都算对。",
    },
    "ls.8.worse": {
        "en": "{worse}: clearly worse (by more than the seed spread).",
        "zh": "{worse}：明显更差（差距超过随机种子的波动）。",
    },
    "ls.8.no_model": {
        "en": "The shipped model is missing from assets/: this step cannot show trained heads.",
        "zh": "assets/ 中缺少随附模型：这一步无法显示训练后的头。",
    },
    # 9. generation with the key/value cache
    "ls.9.title": {"en": "Generating with the key/value cache", "zh": "用键值缓存生成"},
    "ls.9.step": {"en": "generation step", "zh": "生成的第几步"},
    "ls.9.lead": {
        "en": "The shipped tiny GPT ({layers} layers; h = {h} heads, each with its own key/value head: h_kv = {h_kv}; d = {d}) continues {prompt} one character at a time. Step 0 reads the prompt's {P} characters at once and keeps every layer's keys and values: the cache (the figure: its last layer's weights). At step {i} the text is {text}: t = {t} tokens, and the last one, {label}, asks for the next.",
        "zh": "随附的小 GPT（{layers} 层；h = {h} 个头，每个头有自己的键/值头：h_kv = {h_kv}；d = {d}）逐个字符地续写 {prompt}。第 0 步一次读入提示的 {P} 个字符，并保存每一层的键和值：这就是缓存（图：最后一层的权重）。到第 {i} 步，文本是 {text}：t = {t} 个词元，最后一个 {label} 去预测下一个。",
    },
    "ls.9.q": {
        "en": "At step {i} (t = {t}), how many new key vectors does one layer compute?",
        "zh": "在第 {i} 步（t = {t}），一层要新算多少个键向量？",
    },
    "ls.9.one": {"en": "1 × h_kv = {n}", "zh": "1 × h_kv = {n}"},
    "ls.9.all": {"en": "t × h_kv = {n}", "zh": "t × h_kv = {n}"},
    "ls.9.square": {"en": "t² × h_kv = {n}", "zh": "t² × h_kv = {n}"},
    "ls.9.hint": {
        "en": "Which positions are new at this step? Can an earlier token's key change when a later token arrives, if no token reads a later one?",
        "zh": "这一步哪些位置是新的？如果没有哪个词元读后面的词元，后来的词元到达时，前面词元的键会变吗？",
    },
    "ls.9.why": {
        "en": "no token reads a later one (the causal mask), so the keys and values of the {past} earlier positions never change when a token is added: they are read from the cache, and step {i} computes only position {pos}'s, {new} key vectors in one layer ({vectors} keys and values over the {layers} layers, against {full} recomputing all {t} positions).",
        "zh": "没有哪个词元读后面的词元（因果掩码），所以添加一个词元时，前面 {past} 个位置的键和值不会改变：它们从缓存中读出，第 {i} 步只计算位置 {pos} 的，一层 {new} 个键向量（{layers} 层共 {vectors} 个键和值向量，而全部重算 {t} 个位置要 {full} 个）。",
    },
    "ls.9.body": {
        "en": "The outlined row is the new query's, over the {t} keys of the cache; it is the last row of the full causal matrix, which never needs the rows above it again. Each layer's cache now holds keys and values of shape (h_kv, t, d) = ({h_kv}, {t}, {d}): {per_token} bytes per token (2 × {layers} layers × {h_kv} × {d} × 4 bytes), {total} bytes for these {t} tokens.",
        "zh": "框出的一行是新查询在缓存中 {t} 个键上的权重；它就是完整因果矩阵的最后一行，上面的各行不必再算。现在每一层缓存的键和值形状为 (h_kv, t, d) = ({h_kv}, {t}, {d})：每个词元 {per_token} 字节（2 × {layers} 层 × {h_kv} × {d} × 4 字节），这 {t} 个词元共 {total} 字节。",
    },
    "ls.9.no_model": {
        "en": "The shipped model is missing from assets/: this step cannot generate with its cache.",
        "zh": "assets/ 中缺少随附模型：这一步无法用它的缓存生成。",
    },
    # presentation mode
    "app.present": {"en": "Presentation mode", "zh": "演示模式"},
    "app.present_on": {"en": "Presenting", "zh": "演示"},
    "app.present_off": {"en": "Normal", "zh": "普通"},
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
    "lsfig.qkv_title": {"en": "One head's queries Q, keys K and values V", "zh": "一个头的查询 Q、键 K 和值 V"},
    "lsfig.token_axis": {"en": "token", "zh": "词元"},
    "lsfig.output_title": {"en": "The layer's output, all heads at once", "zh": "这一层的输出，所有头一起算"},
    "lsfig.scores_title": {
        "en": "One query's scores over 6 keys, not divided",
        "zh": "一个查询在 6 个键上的分数（不做除法）",
    },
    "lsfig.score_axis": {"en": "score", "zh": "分数"},
}
