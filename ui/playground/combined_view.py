"""Two playground views of the computed layer: all heads combined (their mean, and the
one-layer attention rollout), and the chosen cell's score computed by hand, q · k channel
by channel, then scaled."""

from __future__ import annotations

import math

import streamlit as st

from figures import ChartSize
from figures.combined import combined_figure, qk_figure
from gpt_core import position_label, qk_products
from gpt_core.explore import attention_rollout, mean_over_heads
from string_table import t
from string_table.figure_words import figure_words

from ..charts import page_width, show_chart, type_scale
from ..markdown import literal
from .controls import widget_key
from .views import SCORE_DECIMALS, View, chosen_window, file_name, shared_key

MEAN_CHART_KEY = "pg_combined_mean_chart"
ROLLOUT_CHART_KEY = "pg_combined_rollout_chart"
QK_CHART_KEY = "pg_qk_chart"
SHOWN_TERMS = 8  # the sum written out term by term up to this many channels


def combined(view: View, lang: str) -> None:
    """The heads' mean, and this one layer's rollout (½ mean + ½ identity, renormalised)."""
    weights = view.stages["weights"]  # (h, T, T)
    heads, labels = weights.shape[0], view.result.labels
    width, scale = page_width(), type_scale()
    st.markdown(t("cb.pg_intro", lang, heads=heads))
    mean = mean_over_heads([weights])[0].numpy()
    mean_title = t("cb.mean_title", lang, heads=heads)
    window = chosen_window(view)
    show_chart(
        lambda: combined_figure(
            mean,
            labels,
            "mean",
            figure_words(lang),
            title=mean_title,
            size=ChartSize(width_px=width, scale=scale),
            window=window,
        ),
        MEAN_CHART_KEY,
        sized=True,
        share=shared_key(view, "combined", "mean", width, scale, window),
        file_name=file_name(view, "mean"),
    )
    st.markdown(t("cb.pg_rollout", lang))
    rollout = attention_rollout([weights]).numpy()
    rollout_title = t("cb.one_layer_title", lang)
    show_chart(
        lambda: combined_figure(
            rollout,
            labels,
            "rollout",
            figure_words(lang),
            title=rollout_title,
            size=ChartSize(width_px=width, scale=scale),
            window=window,
        ),
        ROLLOUT_CHART_KEY,
        sized=True,
        share=shared_key(view, "combined", "rollout", width, scale, window),
        file_name=file_name(view, "rollout"),
    )
    with st.expander(t("cbfig.rollout", lang)):
        st.markdown(t("cb.rollout_note", lang))


def _number(value: float) -> str:
    return f"{value:.{SCORE_DECIMALS}f}"


def _terms(products: list[float], lang: str) -> str:
    """``0.1234 + (−0.0567) + …``: the products as a sum, the first few of them."""
    shown = [_number(p) if p >= 0 else f"({_number(p)})" for p in products[:SHOWN_TERMS]]
    more = len(products) - SHOWN_TERMS
    return " + ".join(shown) + (" + " + t("qk.more_terms", lang, more=more) if more > 0 else "")


def qk(view: View, lang: str) -> None:
    """The chosen cell's raw score as the sum of q_i[c] × k_j[c], then ÷ √d: the numbers of
    the heatmap's raw and scaled stages. A masked cell's score is shown too, with why its
    weight is 0."""
    ss = st.session_state
    head, row, col = ss[widget_key("head")] - 1, ss[widget_key("row")], ss[widget_key("col")]
    labels = view.result.labels
    numbers = qk_products(view.result.trace, head, row, col)
    d = numbers.q.shape[0]
    query, key = position_label(row, labels[row]), position_label(col, labels[col])
    st.markdown(t("qk.intro", lang, head=head + 1, query=literal(query), key_label=literal(key), d=d))
    if numbers.masked:
        st.info(t("qk.masked", lang, row=row, col=col), icon=":material/block:")
    q, k, products = (values.numpy() for values in (numbers.q, numbers.k, numbers.products))
    scale = type_scale()
    show_chart(
        lambda: qk_figure(q, k, products, head, query, key, figure_words(lang), scale=scale),
        QK_CHART_KEY,
        share=shared_key(view, "qk", head, row, col, scale),
        file_name=file_name(view, "qk", head=head + 1, q=row, k=col),
    )
    total, scaled = _number(numbers.total), _number(numbers.scaled)
    st.markdown(t("qk.sum", lang, terms=_terms(numbers.products.tolist(), lang), total=total))
    if numbers.divisor == 1.0:
        st.markdown(t("qk.unscaled", lang, scaled=scaled))
    elif math.isclose(numbers.divisor, math.sqrt(d)):
        st.markdown(t("qk.scaled", lang, total=total, d=d, root=f"{numbers.divisor:.4f}", scaled=scaled))
    else:
        st.markdown(t("qk.scaled_other", lang, total=total, root=f"{numbers.divisor:.4g}", scaled=scaled))
    st.caption(t("qk.next", lang, tab=t("pg.tab.softmax", lang), row=row))
