"""Strings: what a learner's own sources say beside their views (``gpt_core.given``'s weights
a learner already has, ``gpt_core.module_source``'s own module), as ``Note`` keys."""

STRINGS: dict[str, dict[str, str]] = {
    "source.weights_only": {
        "en": "Only the softmax weights were given: the scores, the scaled scores and the masked scores before the "
        "softmax are not known, so those stages are not shown.",
        "zh": "这里只给出了 softmax 权重：softmax 之前的分数、缩放后的分数和掩码后的分数都不知道，所以不显示这些阶段。",
    },
    "source.fixed_text": {
        "en": "These {tokens} tokens are the ones the numbers were computed for: typing another text does not change them.",
        "zh": "这些数值是针对这 {tokens} 个词元计算的：输入别的文字不会改变它们。",
    },
    "source.given.facts": {
        "en": "Attention weights given: {layers} layers × {heads} heads over {tokens} tokens.",
        "zh": "给定的注意力权重：{layers} 层 × {heads} 个头，共 {tokens} 个词元。",
    },
    "source.module.facts": {
        "en": "{kind}: h = {heads}, d = {head_dim}, {parameters} parameters, input x of shape {shape}",
        "zh": "{kind}: h = {heads}, d = {head_dim}，{parameters} 个参数，输入 x 的形状为 {shape}",
    },
    "source.module.eval": {
        "en": "Traced in eval mode: its dropout (p = {p}) is off, as when it predicts.",
        "zh": "在评估模式下追踪：它的 dropout（p = {p}）关闭，与预测时相同。",
    },
    "page.lead.some_stages": {
        "en": "Every head's stages that were given. Choose a layer; hover a cell to see its weight; click a cell to "
        "outline it.",
        "zh": "每个头已给出的阶段。选择一层；把鼠标移到格子上可看到它的权重；点击格子可描出它。",
    },
    "models.given": {"en": "{name} (weights you gave)", "zh": "{name}（你给出的权重）"},
}
