"""The figures' words in the chosen language, from the string table (figures know none)."""

from __future__ import annotations

from functools import cache

from figures import AttentionText, LessonText, TrainingText
from gpt_core import DETAIL_STAGES

from .strings import t


@cache
def attention_text(lang: str) -> AttentionText:
    return AttentionText(
        stage_titles={stage: t(f"stage.{stage}", lang) for stage in DETAIL_STAGES},
        not_scaled=t("stage.not_scaled", lang),
        head=t("fig.head", lang),
        query=t("fig.query", lang),
        key=t("fig.key", lang),
        query_axis=t("fig.query_axis", lang),
        key_axis=t("fig.key_axis", lang),
        minus_inf=t("fig.minus_inf", lang),
        masked_reason=t("fig.masked_reason", lang),
        legend_masked=t("fig.legend_masked", lang),
        dropped=t("fig.dropped", lang),
        range_own=t("fig.range_own", lang),
        range_shared=t("fig.range_shared", lang),
        range_weights=t("fig.range_weights", lang),
        range_dropped=t("fig.range_dropped", lang),
        channel_axis=t("fig.channel_axis", lang),
        channel_map=t("fig.channel_map", lang),
        channels_of_head=t("fig.channels_of_head", lang),
    )


@cache
def training_text(lang: str) -> TrainingText:
    return TrainingText(
        loss=t("train.loss", lang),
        train_loss=t("train.train_loss", lang),
        test_loss=t("train.test_loss", lang),
        step=t("train.step", lang),
        seconds=t("train.seconds", lang),
        curve_title=t("train.curve_title", lang),
        experiment_by_step=t("train.experiment_by_step", lang),
        experiment_by_time=t("train.experiment_by_time", lang),
        heads_label=t("train.heads_label", lang),
        band=t("train.band", lang),
        seed_label=t("train.seed_label", lang),
        final_title=t("train.final_title", lang),
        mean_sd=t("train.mean_sd", lang),
        heads_axis=t("train.heads_axis", lang),
        head=t("fig.head", lang),
        query=t("fig.query", lang),
        key=t("fig.key", lang),
        query_axis=t("fig.query_axis", lang),
        key_axis=t("fig.key_axis", lang),
        weight=t("tr.fig.weight", lang),
    )


@cache
def lesson_text(lang: str) -> LessonText:
    layers = ("query_layer", "key_layer", "value_layer", "output_layer")
    return LessonText(
        heads_label=t("lsfig.heads_label", lang),
        heads_axis=t("lsfig.heads_axis", lang),
        layer_names={layer: t(f"lsfig.{layer}", lang) for layer in layers},
        parameters_title=t("lsfig.parameters_title", lang),
        parameters_axis=t("lsfig.parameters_axis", lang),
        scaled=t("lsfig.scaled", lang),
        unscaled=t("lsfig.unscaled", lang),
        scaling_title=t("lsfig.scaling_title", lang),
        head_dim_axis=t("lsfig.head_dim_axis", lang),
        max_weight_axis=t("lsfig.max_weight_axis", lang),
        row_title=t("lsfig.row_title", lang),
        key_axis=t("fig.key_axis", lang),
        query_axis=t("fig.query_axis", lang),
        weight_axis=t("lsfig.weight_axis", lang),
        two_ways_title=t("lsfig.two_ways_title", lang),
        batched=t("lsfig.batched", lang),
        by_head=t("lsfig.by_head", lang),
        channel=t("lsfig.channel", lang),
    )
