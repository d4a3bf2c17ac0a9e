"""Downloading a chart as an image: the student's choice of format and scale (made once, in
the sidebar of every page, kept in the session) and the Plotly config each chart gets from
it (Plotly's own modebar button, which draws the chart as shown), with the page's font in
the file (``assets/chart_export.js``)."""

from __future__ import annotations

from functools import cache

import streamlit as st

from figures.export import DEFAULT_FORMAT, DEFAULT_SCALE, EXPORT_FORMATS, EXPORT_SCALES, image_options
from figures.style import WEB_FONT
from seeing_attention.paths import ASSETS
from string_table import t

FORMAT_STATE = "export_format"  # the chosen format, kept across pages
SCALE_STATE = "export_scale"
FORMAT_WIDGET = "export_format_select"
SCALE_WIDGET = "export_scale_select"
CHART_EXPORT_JS = ASSETS / "chart_export.js"
FONTS_KEY = "chart_export_fonts"
# Plotly's English titles of its download button (png, as older and newer Plotly spell it;
# any other format): this config's dictionary says the format (and scale) in the page's
# language instead; and its notes while and after it makes the file.
PLOTLY_TITLES = ("Download plot as a PNG", "Download plot as a png", "Download plot")
PLOTLY_NOTES = {
    "Preparing image - this may take a few seconds": "export.preparing",
    "Image download succeeded": "export.done",
    "Sorry, there was a problem downloading your image!": "export.failed",
}

# Plotly shows its modebar only while the pointer is over a chart: its first group, the
# download button, stays in sight on every chart, so that a student on a touch screen or at
# a projector finds it; its camera a grey dark enough to see (3:1 on white, WCAG 1.4.11),
# not Plotly's faint one. The toolbar has a strip of its own above the chart (MODEBAR_STRIP_PX,
# inside the chart's box), where it covers none of the chart's titles, legend or labels
# (tests/browser/test_modebar.py); Streamlit sizes the chart's element to the figure alone, so
# the element keeps as much room below it, and the element after it starts below the chart.
# A fixed style.
MODEBAR_STRIP_PX = 30
EXPORT_CSS = f"""<style>
.js-plotly-plot {{ padding-top: {MODEBAR_STRIP_PX}px; }}
[data-testid="stElementContainer"]:has(.js-plotly-plot) {{ margin-bottom: {MODEBAR_STRIP_PX}px; overflow: visible; }}
.js-plotly-plot .plotly .modebar-container {{ top: -{MODEBAR_STRIP_PX}px !important; }}
.js-plotly-plot .plotly .modebar.modebar--hover > .modebar-group:first-child {{ opacity: 1; }}
.js-plotly-plot .plotly .modebar > .modebar-group:first-child .modebar-btn:not(:hover) path {{ fill: #767676 !important; }}
</style>"""


def chosen_format() -> str:
    chosen = st.session_state.get(FORMAT_STATE)
    return chosen if chosen in EXPORT_FORMATS else DEFAULT_FORMAT


def chosen_scale() -> int:
    chosen = st.session_state.get(SCALE_STATE)
    return chosen if chosen in EXPORT_SCALES else DEFAULT_SCALE


def button_title(image_format: str, scale: int, lang: str) -> str:
    """The download button's title: the format (and a raster's scale) in ``lang``."""
    if image_format == "svg":
        return t("export.button", lang, format="SVG")
    return t("export.button_scaled", lang, format=image_format.upper(), scale=scale)


def image_config(file_name: str, lang: str) -> dict:
    """What a chart's Plotly config adds: the download as chosen, named ``file_name``, and the
    button's title. Plotly rebuilds its modebar only when the config's locale changes, so the
    locale's name carries the language, format and scale (its number formats are Plotly's
    English ones: a locale without its own falls back to them)."""
    image_format, scale = chosen_format(), chosen_scale()
    title = button_title(image_format, scale, lang)
    locale = f"{lang}-{image_format}{scale}"
    return {
        "toImageButtonOptions": image_options(file_name, image_format, scale),
        "locale": locale,
        "locales": {
            locale: {
                "dictionary": dict.fromkeys(PLOTLY_TITLES, title)
                | {english: t(key, lang) for english, key in PLOTLY_NOTES.items()}
            }
        },
    }


@cache  # registered once per process
def _fonts_component():
    return st.components.v2.component("chart_export", js=CHART_EXPORT_JS.read_text(encoding="utf-8"))


def embed_fonts() -> None:
    """Every chart downloaded from this page carries the page's web font (WEB_FONT) in its
    SVG, and its PNG is drawn with it: the file is laid out for that font's sizes, and
    opened on its own it would fall back to another font, whose texts overlap and are cut."""
    if st.session_state.get(FONTS_KEY + "_mounted"):  # its script patches the window once; later runs need not send it
        return
    _fonts_component()(key=FONTS_KEY, data={"family": WEB_FONT})
    st.session_state[FONTS_KEY + "_mounted"] = True


def _on_change(widget: str, state: str, allowed: tuple) -> None:
    chosen = st.session_state.get(widget)
    if chosen in allowed:  # a crafted client may send anything: the setting stays
        st.session_state[state] = chosen


def export_settings(lang: str) -> None:
    """The sidebar's setting: the format and scale of every chart's download."""
    st.session_state[FORMAT_WIDGET] = chosen_format()
    st.session_state[SCALE_WIDGET] = chosen_scale()
    st.segmented_control(
        t("export.format", lang),
        list(EXPORT_FORMATS),
        key=FORMAT_WIDGET,
        required=True,
        format_func=str.upper,
        on_change=_on_change,
        args=(FORMAT_WIDGET, FORMAT_STATE, EXPORT_FORMATS),
    )
    st.segmented_control(
        t("export.scale", lang),
        list(EXPORT_SCALES),
        key=SCALE_WIDGET,
        required=True,
        format_func=lambda n: t("export.scale_n", lang, n=n),
        on_change=_on_change,
        args=(SCALE_WIDGET, SCALE_STATE, EXPORT_SCALES),
    )
    st.caption(t("export.help", lang))
    embed_fonts()
