"""What every page shares: page config, the language switch and the page links.

Pages live in ``pages/`` and use Streamlit's own page discovery (no ``st.navigation``),
so a deep link that is the first request to a freshly started server still gets this
shell: every page calls ``setup_page`` first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from .runtime import configure_process
from .strings import DEFAULT_LANGUAGE, LANGUAGES, t

LANGUAGE_PARAM = "lang"
# A local file: a Material icon as page_icon would be fetched from a font server, which a
# classroom network may block.
FAVICON = str(Path(__file__).resolve().parents[1] / "assets" / "favicon.png")
LANGUAGE_STATE = "language"


@dataclass(frozen=True)
class PageInfo:
    key: str  # strings key suffix and id
    path: str  # script path, relative to app.py
    icon: str  # a Material icon (Streamlit ships the font): no emoji fonts needed


PAGES: tuple[PageInfo, ...] = (
    PageInfo("home", "app.py", ":material/home:"),
    PageInfo("playground", "pages/1_playground.py", ":material/grid_on:"),
    PageInfo("lesson", "pages/2_lesson.py", ":material/menu_book:"),
    PageInfo("train", "pages/3_train.py", ":material/model_training:"),
    PageInfo("explorer", "pages/4_explorer.py", ":material/travel_explore:"),
)
PAGES_BY_KEY = {page.key: page for page in PAGES}


def current_language() -> str:
    """The language from the URL (``?lang=zh``), else this session's choice, else English."""
    from_url = st.query_params.get(LANGUAGE_PARAM)
    if from_url in LANGUAGES:
        st.session_state[LANGUAGE_STATE] = from_url
    return st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)


def _on_language_change() -> None:
    chosen = st.session_state["language_select"]
    st.session_state[LANGUAGE_STATE] = chosen
    if chosen == DEFAULT_LANGUAGE:
        st.query_params.pop(LANGUAGE_PARAM, None)
    else:
        st.query_params[LANGUAGE_PARAM] = chosen


def setup_page(page_key: str) -> str:
    """Configure the page, draw the shared sidebar, and return the language code."""
    configure_process()
    lang = current_language()
    st.set_page_config(
        page_title=f"{t('page.' + page_key, lang)} · {t('app.name', lang)}",
        page_icon=FAVICON,
        layout="wide",
    )
    with st.sidebar:
        st.markdown(f"### {t('app.name', lang)}")
        for info in PAGES:
            st.page_link(info.path, label=t("page." + info.key, lang), icon=info.icon)
        st.divider()
        codes = list(LANGUAGES)
        st.selectbox(
            t("app.language", lang),
            codes,
            index=codes.index(lang),
            format_func=LANGUAGES.__getitem__,
            key="language_select",
            on_change=_on_language_change,
        )
    return lang


def page_title(page_key: str, lang: str) -> None:
    """The page's own visible title."""
    st.title(t("page." + page_key, lang))


def coming_soon(page_key: str) -> None:
    """A page not built yet: its title, what it will show, and a way on."""
    lang = setup_page(page_key)
    page_title(page_key, lang)
    st.write(t(f"page.{page_key}.blurb", lang))
    st.info(t("page.coming_soon", lang))
    playground = PAGES_BY_KEY["playground"]
    st.page_link(playground.path, label=t("page.playground", lang), icon=playground.icon)
