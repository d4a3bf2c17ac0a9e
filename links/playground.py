"""The playground's controls as URL query parameters: parse, validate, write back.

Pure Python (no Streamlit), so every rule is unit-tested. A shared link holds every
control; opening it reproduces the same numbers. Malformed or out-of-range values fall
back to the default and produce a note the page shows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from gpt_core import MAX_HEAD_DIM, MAX_HEADS, MAX_INPUT_DIM, MAX_TOKENS, STAGES, TOKENIZERS, PlaygroundConfig
from gpt_core.playground import MAX_SEED
from gpt_core.window import LONGEST_TEXT_TOKENS

from . import rules
from .rules import SHELL_PARAMS, VERSION_PARAM, Note, Param, version_notes  # noqa: F401  # re-exported

BOOK_EXAMPLE = "动手学大模型"
# Short enough to read on a projector: six tokens each, the English ones as words.
PRESETS: dict[str, str] = {
    "book": BOOK_EXAMPLE,
    "english": "the cat sat on the mat",
    "repeat": "to be or not to be",
}
PRESET_TOKENIZERS: dict[str, str] = {"book": "char", "english": "word", "repeat": "word"}
CUSTOM_PRESET = "custom"
# The text box takes a long paste whole (a browser drops a paste over the box's limit
# without a word); the page then uses the first MAX_TOKENS tokens and says so.
MAX_PASTE_CHARS = 200_000
# A link carries only the tokens shown, but 128 long words can make that long: a link may
# carry any text the page accepts, so every view it shows can be shared.
MAX_TEXT_CHARS = MAX_PASTE_CHARS
MAX_DROPOUT = 0.9
DROPOUT_STEP = 0.05
MODES = ("eval", "train")
# The weights: random (seeded), a shipped model of the heads experiment (h1 … h8), the model
# this session trained, or a real model the server offers, by its Hugging Face id: a source's
# name (ui/shared/sources.py). The page checks the name against what is here.
RANDOM_WEIGHTS = "random"
MAX_WEIGHTS_CHARS = 200
MAX_BLOCKS = 64  # a trained model's blocks, a real model's layers
# The last position a link may name: a real model reads up to LONGEST_TEXT_TOKENS (random
# weights MAX_TOKENS); the page then keeps it inside the text shown.
LAST_POSITION = max(MAX_TOKENS, LONGEST_TEXT_TOKENS) - 1
LAST_ROW = -1  # "row" default: the last query, the one that sees every key
FIRST_KEY = -1  # "col" default: chosen with the row (gpt_core.window.first_key: a long text's diagonal)
# The views below the charts, one open at a time (ui/lazy_tabs.py): the link says which.
VIEWS = ("qk", "softmax", "token", "combined", "shapes", "stats", "share")
LAST_TOKEN = -1  # "token" default: the last token (the token view's)
TOKEN_DIRECTIONS = ("reads", "read_by", "both")  # the token's row, its column, or both
# Compare mode (ui/playground/compare.py): cmp=1 shows a set-up B beside the controls' set-up A,
# its own parameters prefixed b_ (the text, tokens, input width, positions and bias are A's).
# B's defaults are A's but 8 heads: the default comparison is the book's 4 vs 8 heads.
COMPARE_PARAMS: tuple[Param, ...] = (
    Param("cmp", "bool", False),
    Param("b_weights", "text", RANDOM_WEIGHTS, max_chars=MAX_WEIGHTS_CHARS),  # random, or a shipped/trained model
    Param("b_block", "int", 1, 1, MAX_BLOCKS),
    Param("b_heads", "int", 8, 1, MAX_HEADS),
    Param("b_head_dim", "int", 8, 1, MAX_HEAD_DIM),
    Param("b_seed", "int", 0, 0, MAX_SEED),
    Param("b_scale", "bool", True),
    Param("b_dropout", "float", 0.0, 0.0, MAX_DROPOUT),
    Param("b_mode", "choice", "eval", choices=MODES),
)
COMPARE_NAMES = tuple(param.name for param in COMPARE_PARAMS)
B_RANDOM_ONLY = ("b_heads", "b_head_dim", "b_seed", "b_scale", "b_dropout", "b_mode")


PARAMS: tuple[Param, ...] = (
    Param("text", "text", BOOK_EXAMPLE, max_chars=MAX_TEXT_CHARS),
    Param("tok", "choice", "char", choices=tuple(TOKENIZERS)),
    Param("heads", "int", 4, 1, MAX_HEADS),
    Param("head_dim", "int", 8, 1, MAX_HEAD_DIM),
    Param("input_dim", "int", 0, 0, MAX_INPUT_DIM),  # 0: the same as C
    Param("seed", "int", 0, 0, MAX_SEED),
    Param("pos", "bool", True),
    Param("dropout", "float", 0.0, 0.0, MAX_DROPOUT),
    Param("mode", "choice", "eval", choices=MODES),
    Param("bias", "bool", False),
    Param("scale", "bool", True),
    Param("head", "int", 1, 1, MAX_HEADS),  # the head shown in detail, 1-based
    Param("stage", "choice", "weights", choices=STAGES),  # the stage of the overview
    Param("row", "int", LAST_ROW, LAST_ROW, LAST_POSITION),  # query row of the calculator
    Param("col", "int", FIRST_KEY, FIRST_KEY, LAST_POSITION),  # key column highlighted
    Param("cells", "bool", True),  # the detail view writes each value in its cell (while it fits)
    Param("weights", "text", RANDOM_WEIGHTS, max_chars=MAX_WEIGHTS_CHARS),  # random, a trained or a real model
    Param("block", "int", 1, 1, MAX_BLOCKS),  # a trained model's block (a real model's layer), 1-based
    Param("view", "choice", "softmax", choices=VIEWS),  # the open tab below the charts
    Param("token", "int", LAST_TOKEN, LAST_TOKEN, LAST_POSITION),  # the token view's token
    Param("token_dir", "choice", "both", choices=TOKEN_DIRECTIONS),  # what the token view draws of it
    # Predict first (ui/playground/predict.py): the chosen query's row hidden until guessed; in
    # the link only while on.
    Param("predict", "bool", False),
    *COMPARE_PARAMS,
)
PARAMS_BY_NAME = {param.name: param for param in PARAMS}
# The controls that decide the numbers; the others only choose what is looked at.
NUMBER_PARAMS = (
    "text",
    "tok",
    "heads",
    "head_dim",
    "input_dim",
    "seed",
    "pos",
    "dropout",
    "mode",
    "bias",
    "scale",
    "weights",
    "block",
)
# What only random weights use: a trained model brings its own (and reads characters).
RANDOM_ONLY = ("tok", "heads", "head_dim", "input_dim", "seed", "pos", "dropout", "mode", "bias", "scale")


def defaults() -> dict[str, Any]:
    return rules.defaults(PARAMS)


def parse_query(
    query: Mapping[str, str | list[str]], settings_of: Callable[[str], Collection[str]]
) -> tuple[dict[str, Any], list[Note]]:
    """Values for every control from a query string, and notes about what was not used: each
    parameter's own rules, then the head within the link's heads where the weights it names
    take ``heads`` as a setting (``settings_of``: a source's settings by name, as
    ui/shared/sources.py says them; a model's heads are its own, and the page keeps the head
    inside them once the model is loaded). The page reads its link through this function
    (controls.PAGE)."""
    values, notes = rules.parse_query(PARAMS, query)
    if "heads" in settings_of(values["weights"]) and values["head"] > values["heads"]:
        notes.append(Note("head", str(values["head"]), "invalid", f"1 … {values['heads']}", "1"))
        values["head"] = 1
    return values, notes


def repairs(current: Mapping[str, Any], last_good: Mapping[str, Any]) -> dict[str, Any]:
    """Replacements for controls holding a value they can't hold (see rules.repairs)."""
    return rules.repairs(PARAMS, current, last_good)


def to_query(values: Mapping[str, Any]) -> dict[str, str]:
    """The query string for ``values``: every control, and the numbers version."""
    return rules.to_query(PARAMS, values)


def values_of(text: str, config: PlaygroundConfig) -> dict[str, Any]:
    """The controls that give ``config``'s computation of ``text`` (config_of's inverse),
    every other control at its default."""
    return {
        **defaults(),
        "text": text,
        "tok": config.tokenizer,
        "heads": config.heads,
        "head_dim": config.head_dim,
        "input_dim": config.input_dim or 0,
        "seed": config.seed,
        "pos": config.positional,
        "dropout": config.dropout,
        "mode": "train" if config.training else "eval",
        "bias": config.qkv_bias,
        "scale": config.scale,
    }


def config_of(values: dict[str, Any]) -> PlaygroundConfig:
    """The computation the controls describe."""
    return PlaygroundConfig(
        heads=values["heads"],
        head_dim=values["head_dim"],
        input_dim=values["input_dim"] or None,
        seed=values["seed"],
        tokenizer=values["tok"],
        positional=values["pos"],
        dropout=values["dropout"],
        training=values["mode"] == "train",
        qkv_bias=values["bias"],
        scale=values["scale"],
    )
