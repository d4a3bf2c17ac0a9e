"""What every page shares: page config, the language switch and the page links.

Pages live in ``pages/`` and use Streamlit's own page discovery (no ``st.navigation``),
so a deep link that is the first request to a freshly started server still gets this
shell: every page calls ``setup_page`` first.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import streamlit as st

from seeing_attention.paths import ASSETS
from string_table import DEFAULT_LANGUAGE, LANGUAGES, t

from .charts import ALT_TEXT_SUFFIX
from .charts import LANGUAGE_STATE as LANGUAGE_STATE_KEY
from .charts import PRESENT_STATE as PRESENT_STATE_KEY
from .export import EXPORT_CSS, export_settings
from .runtime import configure_process

LANGUAGE_PARAM = "lang"
# A local file: a Material icon as page_icon would be fetched from a font server, which a
# classroom network may block.
FAVICON = str(ASSETS / "favicon.png")
LANGUAGE_STATE = LANGUAGE_STATE_KEY  # one name with ui/charts.py
PRESENT_PARAM = "present"
PRESENT_STATE = PRESENT_STATE_KEY  # one name with ui/charts.py
# Every page: the copy button of a code block is always shown (Streamlit shows it only on
# hover, which a student on a touch screen or a projector never sees); a chart's text
# alternative (ui/charts.py) is out of sight and out of the layout (its wrapper too: no gap
# under the chart), but read by a screen reader. A fixed style, no user text. Its --attention-styled
# tells a test the page's styles have arrived (Streamlit loads the part drawing them lazily).
BASE_CSS = """<style>
:root { --attention-styled: 1; }
[data-testid='stCode'] > pre + div { opacity: 1; visibility: visible; }
[data-testid='stMainBlockContainer'] { padding-top: 3.5rem; }
[class*='ALT'], [data-testid='stLayoutWrapper']:has(> [class*='ALT']) { position: absolute !important; width: 1px !important; height: 1px !important;
  margin: -1px !important; padding: 0 !important; border: 0 !important; overflow: hidden !important;
  clip: rect(0 0 0 0) !important; clip-path: inset(50%) !important; white-space: nowrap !important; }
</style>""".replace("ALT", ALT_TEXT_SUFFIX)
# Every page: keyboard focus is visible on every control (WCAG 2.4.7), a ring in the theme's
# primary colour around what the eye sees as the control. Streamlit draws none on page links,
# only a border colour on text, number and select boxes, and none that shows on radio
# buttons, switches and slider thumbs (their inputs are hidden in a 1-pixel box); Plotly's and
# the tables' toolbars and the headings' link icons stay transparent until hovered, so Tab
# would reach buttons and links nobody sees.
# A fixed style, no user text; {ring} is the theme's colour.
FOCUS_CSS = """<style>
:is(a, button, summary, [role='tab']):focus-visible,
[data-testid='stSelectbox'] div:has(> input:focus-visible),
[data-testid='stTextInputRootElement']:has(input:focus-visible),
[data-testid='stTextAreaRootElement']:has(textarea:focus-visible),
[data-testid='stNumberInputContainer']:has(input:focus-visible),
[data-testid='stRadioOption']:has(input:focus-visible),
[data-testid='stCheckbox'] label:has(input:focus-visible),
[data-testid='stSlider'] [data-rac]:has(> div > input:focus-visible) {{ outline: 3px solid {ring}; outline-offset: 2px; }}
[data-testid='stMain']:focus-visible {{ outline: 3px solid {ring}; outline-offset: -3px; }}
.js-plotly-plot .plotly .modebar:focus-within, [data-testid='stElementToolbar']:focus-within,
[data-testid='stHeaderActionElements'] a:focus-visible {{ opacity: 1; }}
</style>"""
FALLBACK_RING = "#a8303c"  # .streamlit/config.toml's primary colour
# Presentation mode: larger type for a projector (a fixed style, no user text in it).
PRESENT_CSS = """<style>
html { font-size: 21px; }
[data-testid='stMainBlockContainer'] { max-width: 100%; padding-top: 4.5rem; }
[data-testid='stMainBlockContainer'] .stButton button { min-height: 3.2rem; font-size: 1.15rem; }
</style>"""


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


def browser_language() -> str | None:
    """The browser's preferred language, when the app speaks it (``zh-CN`` -> ``zh``)."""
    locale = (st.context.locale or "").lower()
    return next((code for code in LANGUAGES if locale == code or locale.startswith(code + "-")), None)


def browser_on_this_machine() -> bool:
    """Whether the browser reached the app at a loopback address (``localhost``,
    ``127.0.0.1``, ``[::1]``): then the server's own folders are the reader's own.
    Anything else, or no URL at all, counts as another machine."""
    host = urlsplit(st.context.url or "").hostname or ""
    return host == "localhost" or host.endswith(".localhost") or _is_loopback(host)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def current_language() -> str:
    """The language from the URL (``?lang=zh``), else this session's choice, else the
    browser's preferred language, else English."""
    from_url = st.query_params.get(LANGUAGE_PARAM)
    if from_url in LANGUAGES:
        st.session_state[LANGUAGE_STATE] = from_url
    elif LANGUAGE_STATE not in st.session_state:
        st.session_state[LANGUAGE_STATE] = browser_language() or DEFAULT_LANGUAGE
    return st.session_state[LANGUAGE_STATE]


def is_presenting() -> bool:
    """Presentation mode: from the URL (``present=1``), else this session's choice."""
    from_url = st.query_params.get(PRESENT_PARAM)
    if from_url in ("0", "1"):
        st.session_state[PRESENT_STATE] = from_url == "1"
    return st.session_state.get(PRESENT_STATE, False)


def _on_present_change() -> None:
    on = st.session_state["present_toggle"]
    st.session_state[PRESENT_STATE] = on
    if on:
        st.query_params[PRESENT_PARAM] = "1"
    else:
        st.query_params.pop(PRESENT_PARAM, None)


def carried_params(lang: str) -> dict[str, str]:
    """What a link to another page keeps: the language and presentation mode."""
    # The language is written whenever a link without it could open in another language.
    params = {LANGUAGE_PARAM: lang} if DEFAULT_LANGUAGE != lang or browser_language() not in (None, lang) else {}
    if st.session_state.get(PRESENT_STATE):
        params[PRESENT_PARAM] = "1"
    return params


def _on_language_change() -> None:
    chosen = st.session_state["language_select"]
    if chosen not in LANGUAGES:  # a crafted client may send anything: the language stays
        return
    st.session_state[LANGUAGE_STATE] = chosen
    if LANGUAGE_PARAM in carried_params(chosen):
        st.query_params[LANGUAGE_PARAM] = chosen
    else:
        st.query_params.pop(LANGUAGE_PARAM, None)


def setup_page(page_key: str) -> str:
    """Configure the page, draw the shared sidebar, and return the language code."""
    configure_process()
    lang = current_language()
    presenting = is_presenting()
    st.set_page_config(
        page_title=f"{t('page.' + page_key, lang)} · {t('app.name', lang)}",
        page_icon=FAVICON,
        layout="wide",
        initial_sidebar_state="collapsed" if presenting else "auto",
    )
    st.html(BASE_CSS + EXPORT_CSS + FOCUS_CSS.format(ring=st.get_option("theme.primaryColor") or FALLBACK_RING))
    if presenting:
        st.html(PRESENT_CSS)
    with st.sidebar:
        st.markdown(f"### {t('app.name', lang)}")
        for info in PAGES:
            st.page_link(
                info.path, label=t("page." + info.key, lang), icon=info.icon, query_params=carried_params(lang)
            )
        st.divider()
        # A segmented control, not st.toggle: the playground's first screen already loads its
        # code, while a toggle in view made the browser load and compile more before the
        # first chart (benchmarks/first_visit.py).
        st.session_state["present_toggle"] = presenting
        st.segmented_control(
            t("app.present", lang),
            [False, True],
            key="present_toggle",
            required=True,
            on_change=_on_present_change,
            help=t("app.present_help", lang),
            format_func=lambda on: t("app.present_on" if on else "app.present_off", lang),
        )
        codes = list(LANGUAGES)
        if st.session_state.get("language_select", lang) not in LANGUAGES:
            st.session_state["language_select"] = lang  # a value no option has: the one shown
        st.selectbox(
            t("app.language", lang),
            codes,
            index=codes.index(lang),
            format_func=LANGUAGES.__getitem__,
            key="language_select",
            on_change=_on_language_change,
        )
        # Folded: the sidebar then fits a projector's height without scrolling (a scrolling
        # region with nothing focusable in sight is a keyboard trap for axe-core).
        with st.expander(t("export.box", lang), key="export_box"):
            export_settings(lang)
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
    st.page_link(
        playground.path, label=t("page.playground", lang), icon=playground.icon, query_params=carried_params(lang)
    )
