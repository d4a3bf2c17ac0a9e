"""Strings: gpt_core's InputError messages by code (English comes from gpt_core itself)."""

STRINGS: dict[str, dict[str, str]] = {
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
    "error.no_generation": {
        "zh": "{name} 没有词表，也没有输出层：它不生成词元，所以没有键值缓存（KV cache）。请选择会生成的模型：书中的 GPT 或 Hugging Face 模型。"
    },
    "error.no_snapshot": {"zh": "这个模型在训练第 {step} 步没有保存注意力：它只在训练时保存快照。"},
    "error.own_corpus_empty": {
        "zh": "你的语料是空的：请粘贴一段文字，或上传一个不超过 {limit_mb} MB 的 UTF-8 文本文件（更大的文件会被上传框拒绝，不会被使用）。"
    },
    "error.out_of_range": {"zh": "{name} 必须在 {low} 到 {high} 之间（当前为 {value}）。"},
    "error.unknown_choice": {"zh": "{name} 必须是 {choices} 之一（当前为 {value!r}）。"},
    "error.no_known_characters": {"zh": "这 {characters} 个字符都不在这个模型的词表里：请输入它训练时见过的字符。"},
    "error.no_tokens": {"zh": "这段文字没有 {tokenizer} 词元（只有空格或分隔符？）。"},
    "error.corpus_too_short": {
        "zh": "文字太短，无法训练：只有 {chars} 个字符，而模型一次读 {context_length} 个。请至少提供 {minimum} 个字符。"
    },
    "error.corpus_too_short_for_window": {"zh": "文字太短：只有 {chars} 个字符，而模型一次读 {context_length} 个。"},
    "error.vocab_too_large": {
        "zh": "这段文字有 {size} 种不同的字符；这里的字符模型最多支持 {limit} 种。它真的是纯文本吗？"
    },
    "error.checksum_mismatch": {
        "zh": "文件 {path} 不是预期的语料（校验和以 {actual} 开头，应为 {expected}），没有使用它。"
    },
    "error.corpus_missing": {
        "zh": "没有找到 Tiny Shakespeare：请在训练页面下载它，或把 {env} 设置为该文件的路径（会校验其校验和）。"
    },
    "error.download_failed": {
        "zh": "无法从 {url} 下载 Tiny Shakespeare（{reason}）。这台电脑是否离线？没有做任何改动；可以再试一次，或在 TINY_SHAKESPEARE 中给出文件路径。"
    },
    "error.cache_unwritable": {"zh": "无法写入文件夹 {path}（{reason}）：请把 GPT_CACHE_DIR 设置为可以写入的文件夹。"},
    "error.corpus_too_large": {"zh": "文件太大：{size} 字节（最多 {limit}）。"},
    "error.not_text": {"zh": "这个文件看起来是二进制文件（含有零字节），不是文本。请上传 UTF-8 文本文件。"},
    "error.not_utf8": {"zh": "这个文件不是 UTF-8 文本（位置 {position} 的字节无法读取）。请另存为 UTF-8 后再试。"},
    "error.steps_range": {"zh": "训练预算必须在 {low} 到 {high} {unit} 之间（当前为 {value}）。"},
    "error.budget_kind": {"zh": "请只给一种训练预算：步数或秒数（当前 steps={steps}，seconds={seconds}）。"},
    "error.too_slow_for_cap": {
        "zh": "这个模型太大，无法在这里训练：一步大约要 {step} 秒，而一次训练总共最多 {cap} 秒，不够 {steps} 步加一次评估。它有 {parameters:,} 个参数；大约 {largest:,} 个以内才放得下。请减少头数、head_dim、层数或上下文长度。"
    },
    "error.too_slow_to_stop": {
        "zh": "这个模型太大，无法在这里训练：它的每一层大约要 {block} 秒，而“停止”按钮必须能在 {limit} 秒内结束训练。它有 {parameters:,} 个参数；大约 {largest:,} 个以内才行。请减少头数、head_dim 或上下文长度。"
    },
    "error.too_large_for_memory": {
        "zh": "这个模型太大，无法在这里训练：训练一步大约需要 {estimate_mb} MB 内存，而一次训练最多可用 {budget_mb} MB。它有 {parameters:,} 个参数；大约 {largest:,} 个以内才放得下。请减少头数、head_dim、层数或上下文长度。"
    },
    "error.checkpoint_unreadable": {
        "zh": "这个文件不是本应用训练页保存的模型（无法按模型读取）。请上传训练页下载按钮给你的 .pt 文件。"
    },
    "error.checkpoint_mismatch": {
        "zh": "这个模型文件的权重（{given:,} 个数）与它描述的模型（{expected:,} 个）不符：文件已损坏或被改动。"
    },
    "error.checkpoint_format": {
        "zh": "这个模型文件的格式版本是 {found}；本应用读取版本 {expected}。请重新训练并保存。"
    },
    "error.model_not_found": {
        "zh": "在 Hugging Face Hub 上找不到模型 {name}（拼写错误，或是私有模型？）。主机可以提前下载：{fetch}"
    },
    "error.model_gated": {
        "zh": "模型 {name} 需要授权：请先在 Hugging Face Hub 的模型页面同意其许可并登录（hf auth login），再提前下载：{fetch}"
    },
    "error.model_offline": {"zh": "模型 {name} 不在这台电脑的缓存里，也连不上 Hub。请在有网络的地方提前下载：{fetch}"},
    "error.model_unreachable": {"zh": "模型 {name} 下载失败（{detail}）：这台电脑离线了吗？主机可以提前下载：{fetch}"},
    "error.model_folder_missing": {
        "zh": "这台电脑上没有文件夹 {name}：请检查路径（模型的文件夹里有它的 config.json、safetensors 权重和分词器文件）。"
        "Hugging Face 的模型 id 不是文件夹的写法，而是 owner/name，例如 openai-community/gpt2。"
    },
    "error.model_no_files": {"zh": "模型 {name} 没有本应用能读取的配置、safetensors 权重或分词器文件。"},
    "error.model_unsupported": {"zh": "这里无法展示模型 {name}（{reason}）：请选择一个因果语言模型。"},
    "error.model_not_offered": {"zh": "这个服务器没有提供模型 {name}；它提供的是：{offered}。"},
    "error.module_unsupported": {
        "zh": "这里无法追踪 {kind}（{reason}）。请传入 gpt_core 的 MultiHeadAttention、书中的实现（带有 query_layer、key_layer、"
        "value_layer、output_layer 和 num_heads）或 torch.nn.MultiheadAttention。"
    },
    "error.module_differs": {
        "zh": "这个 {kind} 计算的不是书中基于它自己投影的因果注意力（它的 {part} 相差 {difference}）：它是因果的吗？分数除以 √head_dim 了吗？"
    },
    "error.given_shape": {
        "zh": "注意力权重应是按层排列的张量元组 (1, h, T, T)（如 transformers 的 outputs.attentions）、一个张量 (layers, h, T, T) "
        "或一层的 (h, T, T)；收到的是 {shape}。"
    },
    "error.given_batch": {
        "zh": "第 {layer} 层的权重包含多段文字，形状为 {shape}：请只传入一段文字的权重 (1, h, T, T)。"
    },
    "error.given_no_tokens": {"zh": "注意力权重需要它们的词元：一个含 T 个字符串的列表，每个位置一个。"},
    "error.given_tokens": {
        "zh": "第 {layer} 层的权重形状为 {shape}，但 {tokens} 个词元和第一层的 {heads} 个头需要 ({heads}, {tokens}, {tokens})："
        "这些是计算权重时用的词元吗？"
    },
    "error.given_values": {"zh": "第 {layer} 层的权重并非都是不小于 0 的有限数：它们是 softmax 权重吗？"},
    "error.given_not_causal": {
        "zh": "这些权重不是因果的：第 {layer} 层、头 {head} 中，查询 {row} 给后面的词元 {col} 分了 {weight}。"
        "本应用展示因果注意力（每个词元只读它自己和它之前的词元）。"
    },
    "error.given_rows": {
        "zh": "这些不是 softmax 权重：第 {layer} 层、头 {head} 中，第 {row} 行之和为 {total}，不是 1（传入的是 softmax 之前的分数吗？）。"
    },
}
