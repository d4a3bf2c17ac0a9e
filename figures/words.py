"""The words a figure draws, by string-table key (``string_table/``), already in the
student's language: figure builders know no language and no table, only keys.

Each figure module declares the keys it reads (its ``WORDS``); ``FIGURE_WORDS`` is all of
them, and the UI fills every one with one function (``ui/figure_text.figure_words``).
Changing a chart's label is then a change of one string in the table. Reading a key that
was not filled raises a ``KeyError`` that names it, so a figure cannot use a word nobody
translated (a unit test checks every key exists in both languages).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gpt_core import DETAIL_STAGES

STAGE_WORDS = tuple(f"stage.{stage}" for stage in DETAIL_STAGES)
ATTENTION_WORDS = (
    *STAGE_WORDS,
    "stage.not_scaled",
    "fig.head",
    "fig.query",
    "fig.key",
    "fig.query_axis",
    "fig.key_axis",
    "fig.minus_inf",
    "fig.masked_reason",
    "fig.legend_masked",
    "fig.dropped",
    "fig.range_own",
    "fig.range_shared",
    "fig.range_weights",
    "fig.range_dropped",
    "fig.channel_axis",
    "fig.channel_map",
    "fig.channels_of_head",
    "fig.kv_channels",
    "fig.kv_row",
    "fig.q_row",
    "fig.channel_map_gqa",
    "fig.head_colors_repeat",
    "win.title",
    "win.overview_title",
    "win.block_hover",
)
METRICS = ("previous", "first", "self", "induction", "entropy")
EXPLORER_WORDS = (
    "ex.col.block",
    "ex.col.layer",
    "fig.head",
    "fig.query",
    "fig.key",
    "fig.query_axis",
    "fig.key_axis",
    "ex.weight",
    "ex.grid_title",
    "ex.queries",
    "ex.keys",
    *(f"ex.metric.{metric}" for metric in METRICS),
    "ex.generated_axis",
    "ex.position_axis",
    "ex.step_label",
    "fig.masked_reason",
    "win.title",
)
TRAINING_WORDS = (
    "train.loss",
    "train.train_loss",
    "train.test_loss",
    "train.step",
    "train.seconds",
    "train.curve_title",
    "train.experiment_by_step",
    "train.experiment_by_time",
    "train.heads_label",
    "train.band",
    "train.seed_label",
    "train.final_title",
    "train.mean_sd",
    "train.heads_axis",
)
LAYERS = ("query_layer", "key_layer", "value_layer", "output_layer")
LESSON_WORDS = (
    "lsfig.heads_label",
    "lsfig.heads_axis",
    *(f"lsfig.{layer}" for layer in LAYERS),
    "lsfig.parameters_title",
    "lsfig.parameters_axis",
    "lsfig.scaled",
    "lsfig.unscaled",
    "lsfig.scaling_title",
    "lsfig.head_dim_axis",
    "lsfig.max_weight_axis",
    "lsfig.row_title",
    "fig.key_axis",
    "fig.query_axis",
    "lsfig.weight_axis",
    "lsfig.two_ways_title",
    "lsfig.batched",
    "lsfig.by_head",
    "lsfig.channel",
    "lsfig.qkv_title",
    "lsfig.token_axis",
    "lsfig.output_title",
    "lsfig.scores_title",
    "lsfig.score_axis",
)
ODDS_WORDS = ("odds.before", "odds.after", "odds.prob_axis")
DESCRIBE_WORDS = (
    "alt.chart",
    "alt.heatmap",
    "alt.heatmaps",
    "alt.series_chart",
    "alt.grid",
    "alt.token_cell",
    "alt.cell",
    "alt.separator",
    "alt.minus_inf",
    "alt.no_values",
    "alt.series",
    "alt.point",
    "alt.corner_tokens",
    "alt.value",
    "fig.head",
)
COMPARE_WORDS = ("cmp.fig.b_minus_a", "cmp.fig.mean_panel", "cmp.fig.title", "cmp.fig.mean_title", "win.title")
COMBINED_WORDS = (
    "cbfig.mean",
    "cbfig.rollout",
    "fig.query",
    "fig.key",
    "fig.query_axis",
    "fig.key_axis",
    "qkfig.title",
    "qkfig.q",
    "qkfig.k",
    "qkfig.products",
    "qkfig.positive",
    "qkfig.negative",
    "qkfig.channel_axis",
    "win.title",
)
TOKEN_VIEW_WORDS = (
    "fig.head",
    "ex.col.block",
    "ex.col.layer",
    "ex.weight",
    "tv.reads",
    "tv.read_by",
    "tv.title_reads",
    "tv.title_read_by",
    "tv.title_both",
)
ROOM_WORDS = ("rmfig.title", "rmfig.count_axis", "rmfig.right")
TOKEN_QUESTION_WORDS = (
    "tqfig.title",
    "tqfig.class",
    "tqfig.weights",
    "tqfig.share_axis",
    "tqfig.weight_axis",
    "tqfig.yours",
)
FIGURE_WORDS = tuple(
    dict.fromkeys(
        (
            *ATTENTION_WORDS,
            *EXPLORER_WORDS,
            *TRAINING_WORDS,
            *LESSON_WORDS,
            *DESCRIBE_WORDS,
            *COMPARE_WORDS,
            *ODDS_WORDS,
            *COMBINED_WORDS,
            *TOKEN_VIEW_WORDS,
            *ROOM_WORDS,
            *TOKEN_QUESTION_WORDS,
        )
    )
)


class Words(Mapping[str, str]):
    """A figure's words: string-table key -> text (templates keep their ``{fields}``)."""

    def __init__(self, table: Mapping[str, str]) -> None:
        self._table = dict(table)

    def __getitem__(self, key: str) -> str:
        try:
            return self._table[key]
        except KeyError:
            raise KeyError(f"figure word {key!r} was not filled in (figures/words.py lists the keys)") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def __hash__(self) -> int:  # a cache key (ui/figure_text caches one per language)
        return hash(tuple(sorted(self._table.items())))
