"""The split/merge shape trace as code a learner reads beside the chapter."""

from __future__ import annotations

from gpt_core import ShapeStep

CODE_WIDTH = 46  # the comment column


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(size) for size in shape) + ")"


def _letters(letters: str) -> str:
    return "(" + ", ".join(letters.split()) + ")"


def shape_trace_code(steps: list[ShapeStep], input_shape: tuple[int, ...]) -> str:
    """Python-like lines, one per recorded step, with the user's numbers and the letters:

    queries = query_layer(x)              # (1, 6, 32)   (B, T, C)
    """
    lines = [f"{'x':<{CODE_WIDTH}}# {_shape(input_shape):<16} (B, T, C_in)"]
    for step in steps:
        code = step.code if not step.code.startswith(".") else f"  {step.code}"
        lines.append(f"{code:<{CODE_WIDTH}}# {_shape(step.after):<16} {_letters(step.letters)}   {step.name}")
    return "\n".join(lines)
