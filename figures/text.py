"""The words a figure draws arrive from its caller, already translated: the figure
builders know no language and no string table (the UI fills these records)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class AttentionText:
    """Every word of the attention figures. Templates are filled with numbers only."""

    stage_titles: Mapping[str, str]  # stage (a field of gpt_core.AttentionTrace) -> its title
    not_scaled: str  # the title of "scaled_scores" when the division by √d is off
    head: str  # "head", as in "head 2"
    query: str  # hover: the query token
    key: str  # hover: the key token
    query_axis: str  # axis title of the rows
    key_axis: str  # axis title of the columns
    minus_inf: str  # the name of the −∞ layer
    masked_reason: str  # hover on a −∞ cell: why it is −∞
    legend_masked: str  # legend entry of the −∞ colour
    dropped: str  # cells dropout set to 0: their layer and legend entry
    range_own: str  # under a colour bar: this panel's range is its own
    range_shared: str  # ... shared by the scaled and the masked scores
    range_weights: str  # ... the weights, 0 to 1
    range_dropped: str  # ... after dropout: 0 to the largest kept weight
    channel_axis: str  # channel map: the axis
    channel_map: str  # channel map title, template with {C}, {h}, {d}
    channels_of_head: str  # one head's channels, template with {head}, {first}, {last}


@dataclass(frozen=True)
class TrainingText:
    """Every word of the training figures."""

    loss: str  # the y axis
    train_loss: str
    test_loss: str
    step: str  # x axis by step
    seconds: str  # x axis by wall time
    curve_title: str
    experiment_by_step: str
    experiment_by_time: str
    heads_label: str  # a head count's line, template with {heads}
    band: str  # the band around a mean curve, template with {heads}
    seed_label: str  # one seed's point, template with {seed}
    final_title: str  # final held-out loss per head count
    mean_sd: str  # the mean ± sd marker's name
    heads_axis: str  # x axis of the final-loss figure
    head: str  # a snapshot panel's title, as in "head 2"
    query: str  # snapshot hover: the query token (a row)
    key: str  # snapshot hover: the key token (a column)
    query_axis: str  # snapshot axis title of the rows
    key_axis: str  # snapshot axis title of the columns
    weight: str  # snapshot hover: a softmax weight


@dataclass(frozen=True)
class LessonText:
    """Every word of the lesson's own figures."""

    heads_label: str  # a head count, template with {heads}
    heads_axis: str
    layer_names: Mapping[str, str]  # query_layer, key_layer, value_layer, output_layer -> name
    parameters_title: str
    parameters_axis: str
    scaled: str  # a line or bar: with ÷ √head_dim
    unscaled: str  # ... without
    scaling_title: str
    head_dim_axis: str
    max_weight_axis: str
    row_title: str  # one row's softmax with and without scaling
    key_axis: str
    query_axis: str
    weight_axis: str
    two_ways_title: str
    batched: str  # the layer's own output
    by_head: str  # the output computed head by head
    channel: str
