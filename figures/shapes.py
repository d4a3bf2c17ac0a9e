"""The split/merge shape trace as code a learner reads beside the chapter."""

from __future__ import annotations

from gpt_core import ShapeStep

COLUMN_GAP = "  "  # between the code, the shape, the letters and the step's name
# The longest line, at the largest settings (h=16, d=64, T=128, input width 1024), is 87
# characters: it fits the playground's code block in a 1366 px window, with the sidebar
# open or in presentation mode (its sidebar folded), checked in Chromium.
MAX_LINE_CHARS = 88


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(size) for size in shape) + ")"


def _letters(letters: str) -> str:
    return "(" + ", ".join(letters.split()) + ")"


def shape_trace_code(
    steps: list[ShapeStep],
    input_shape: tuple[int, ...],
    input_name: str = "x",
    input_letters: str = "B T C_in",
    names: bool = True,
) -> str:
    """Python-like lines, one per recorded step, with the user's numbers and the letters,
    in columns as wide as their widest entry (so the lines stay short):

    query_layer(x)  # (1, 6, 32)  (B, T, C)  project Q, K, V

    The first line is the tensor going in: ``input_name`` with ``input_shape`` and its letters
    (the input x unless told, e.g. the weights for an excerpt that starts at the context).
    ``names=False`` leaves out the steps' names (a narrow column: the lines fit whole).
    """
    rows = [(input_name, _shape(input_shape), _letters(input_letters), "")]
    for step in steps:
        code = step.code if not step.code.startswith(".") else f"  {step.code}"
        rows.append((code, _shape(step.after), _letters(step.letters), step.name if names else ""))
    code_width, shape_width, letters_width = (max(len(row[column]) for row in rows) for column in range(3))
    return "\n".join(
        f"{code:<{code_width}}{COLUMN_GAP}# {shape:<{shape_width}}{COLUMN_GAP}{letters:<{letters_width}}"
        f"{COLUMN_GAP}{name}".rstrip()
        for code, shape, letters, name in rows
    )
