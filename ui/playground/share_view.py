"""The playground's share tab: the link that reproduces the view, and its downloads (the
offline page, the chosen stage's matrix, the whole trace and the code that computes it)."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from figures.export import export_name
from gpt_core import DETAIL_STAGES, STAGES
from seeing_attention.engine import page_bytes, playground_page_html
from string_table import t

from .controls import CSV_HEAD, CSV_STAGE, keep_share_choices, share_choices
from .exports import matrix_csv, trace_npz
from .views import View, head_label

CSV_MIME = "text/csv"
# A download's click reruns nothing: Streamlit makes a file beside the click's rerun, and a
# rerun that ends first drops the file's maker (the browser then gets no file at all).
NO_RERUN = "ignore"


def share(view: View, query: dict[str, str], text: str, lang: str) -> None:
    """The link (``query``: a text too long for a link is not in it) and the downloads,
    which carry ``text``, the text shown, whatever its length."""
    base = (st.context.url or "").split("?")[0]
    link = f"{base}?{urlencode(query)}"
    st.markdown(t("pg.share_intro", lang))
    st.code(link, language=None, wrap_lines=True)
    result = view.result
    stage_col, head_col = st.columns(2)
    share_choices(result.config.heads)
    stage = stage_col.selectbox(
        t("pg.csv_stage", lang), DETAIL_STAGES, key=CSV_STAGE, format_func=lambda s: t(f"stage.{s}", lang)
    )
    head = head_col.selectbox(
        t("pg.csv_head", lang), list(range(1, result.config.heads + 1)), key=CSV_HEAD, format_func=head_label(lang)
    )
    keep_share_choices()
    buttons = st.columns(3)
    block = int(query.get("block", 1))
    _page_download(view, text, link, block, stage, head, lang)
    _file_downloads(view, text, block, stage, head, buttons, lang)


def _page_download(view: View, text: str, link: str, block: int, stage: str, head: int, lang: str) -> None:
    """The whole view as one offline page (``seeing_attention.engine``), with its size."""
    result = view.result
    page_stage = stage if stage in STAGES else "weights"
    st.download_button(
        t("pg.download_page", lang),
        lambda: playground_page_html(
            text=text,
            result=result,
            stages=view.stages,
            source=view.source,
            lang=lang,
            link=link,
            block=block,
            stage=page_stage,
            head=head - 1,
        ),
        file_name=export_name("attention_page", view.about.name, h=result.config.heads, d=result.config.head_dim)
        + ".html",
        mime="text/html",
        key="pg_download_page",
        on_click=NO_RERUN,
        icon=":material/web:",
        help=t("pg.download_page_help", lang),
    )
    heads, tokens = view.stages["weights"].shape[0], view.stages["weights"].shape[-1]
    st.caption(t("pg.download_page_size", lang, mb=f"{page_bytes(heads, tokens) / 1e6:.1f}"))


def _file_downloads(view: View, text: str, block: int, stage: str, head: int, buttons, lang: str) -> None:
    """The chosen stage's matrix (CSV), the whole trace (NumPy) and the code that computes it."""
    result = view.result
    matrix = getattr(result.trace, stage)[0, head - 1].numpy()
    buttons[0].download_button(
        t("pg.download_csv", lang),
        lambda: matrix_csv(matrix, result.labels),
        file_name=f"{stage}_head{head}.csv",
        mime=CSV_MIME,
        key="pg_download_csv",
        on_click=NO_RERUN,
        icon=":material/table:",
    )
    buttons[1].download_button(
        t("pg.download_npz", lang),
        lambda: trace_npz(result),
        file_name="attention_trace.npz",
        mime="application/octet-stream",
        key="pg_download_npz",
        on_click=NO_RERUN,
        icon=":material/data_array:",
    )
    reproduction = view.source.reproduction(text, block - 1)
    st.caption(t("pg.snippet_help", lang))
    buttons[2].download_button(
        t("pg.download_py", lang),
        reproduction.code,
        file_name="reproduce_attention.py",
        mime="text/x-python",
        key="pg_download_py",
        on_click=NO_RERUN,
        icon=":material/code:",
    )
    st.code(reproduction.code, language="python")
