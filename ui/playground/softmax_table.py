"""The softmax by hand's numbers for one query row, as the playground's table shows them:
made once per (view, head, row, language) for every session of the server, not again on
every rerun that shows the same row (a table of T rows of formatted numbers). The table is
an Arrow table, the form Streamlit sends: no pandas frame is made and converted on each
draw."""

from __future__ import annotations

import math

import pyarrow as pa
import torch

from gpt_core import position_label, softmax_steps
from string_table import t

from ..shared.shared_cache import SharedResults
from ..step_timing import timed

SCORE_DECIMALS = 4
WEIGHT_DECIMALS = 6
SHARED_TABLES = 512  # rows kept for every session (a few KB each)

# (view's share key, language) -> (the table, the row's max, the sum of exponentials): only read.
TABLES: SharedResults[tuple[pa.Table, float, float]] = SharedResults(SHARED_TABLES)


def _made(masked_row: torch.Tensor, labels: list[str], lang: str) -> tuple[pa.Table, float, float]:
    steps = softmax_steps(masked_row)
    table = pa.table(
        {
            t("pg.col.key", lang): [position_label(j, label) for j, label in enumerate(labels)],
            t("pg.col.score", lang): [
                "−∞" if s == -math.inf else f"{s:.{SCORE_DECIMALS}f}" for s in steps.scores.tolist()
            ],
            t("pg.col.exp", lang): [f"{e:.{WEIGHT_DECIMALS}f}" for e in steps.exps.tolist()],
            t("pg.col.weight", lang): [f"{w:.{WEIGHT_DECIMALS}f}" for w in steps.weights.tolist()],
        }
    )
    return table, steps.row_max, steps.total


def softmax_table(
    masked_row: torch.Tensor, labels: list[str], lang: str, share: tuple | None
) -> tuple[pa.Table, float, float]:
    """``masked_row``'s softmax by hand as a table (key, score, exp, weight), its max and its
    sum; ``share``: the key naming the view, head and row it is of (None: never shared)."""
    make = lambda: timed("description", lambda: _made(masked_row, labels, lang))  # noqa: E731
    return make() if share is None else TABLES.get((share, lang), make)
