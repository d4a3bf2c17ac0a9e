"""Drawing a built figure on any page, the same way everywhere: the chart, its text
alternative for screen readers and a "show as table" option with its numbers."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from figures.describe import ChartData, Table, chart_data, chart_table, describe, table_names
from figures.sizing import DEFAULT_PRESENTING_WIDTH_PX, DEFAULT_WIDTH_PX, ChartSize
from figures.style import FigureSpec, specs_only
from figures.wire import wire_dict, wire_json
from figures.words import Words
from string_table import DEFAULT_LANGUAGE, t
from string_table.figure_words import figure_words

from .export import image_config
from .first_screen import main_width
from .markdown import literal
from .shared.shared_cache import SharedResults
from .step_timing import timed

PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}
PRESENT_STATE = "presenting"  # ui/shell.py: presentation mode is on
LANGUAGE_STATE = "language"  # ui/shell.py: the page's language
PRESENT_FONT_SCALE = 1.35
PRESENT_HEIGHT_SCALE = 1.25
# A chart's text alternative is in a container whose key ends so: ui/shell.py's CSS hides it
# from sight, not from a screen reader (only fixed keys: no user text in a class name).
ALT_TEXT_SUFFIX = "__alt_text"
TABLE_SUFFIX = "__as_table"  # the chart's "show as table" expander
PART_SUFFIX = "__table_part"  # which panel's table, where the chart has several
TABLE_SCROLL_ROWS = 14  # a longer table scrolls inside this height
TABLE_HEIGHT_PX = 460
# Figures shared by every session of a server (by view): bounds on their number and memory.
SHARED_FIGURE_ENTRIES = 256
SHARED_FIGURE_MB = 48
LABEL_BYTES = 64
SPEC_OVERHEAD_BYTES = 20_000  # a figure's layout, labels and hover templates, about


def enlarged(figure: go.Figure) -> go.Figure:
    """The figure for a projector: every font and the height scaled up."""
    layout = figure.layout
    font = layout.font.size or 12
    figure.update_layout(
        font_size=round(font * PRESENT_FONT_SCALE), hoverlabel_font_size=round(font * PRESENT_FONT_SCALE)
    )
    if layout.title.font.size:
        figure.update_layout(title_font_size=round(layout.title.font.size * PRESENT_FONT_SCALE))
    if layout.height:
        figure.update_layout(height=round(layout.height * PRESENT_HEIGHT_SCALE))
    margin = layout.margin  # the room for titles, legends and tick labels grows with the type
    figure.update_layout(
        margin={
            side: round(getattr(margin, side) * PRESENT_FONT_SCALE)
            for side in ("l", "r", "t", "b")
            if getattr(margin, side) is not None
        }
    )
    figure.update_xaxes(automargin=True)
    figure.update_yaxes(automargin=True)
    for annotation in layout.annotations or ():
        annotation.font.size = round((annotation.font.size or font) * PRESENT_FONT_SCALE)
    return figure


def type_scale() -> float:
    """How much larger type is on this page: presentation mode's, else 1."""
    return PRESENT_FONT_SCALE if st.session_state.get(PRESENT_STATE) else 1.0


# A phone's main column (a 390 px screen less the page's padding), until its browser reports
# the real one: a phone's browser says "Mobi" in its User-Agent, as MDN advises servers to read it.
PHONE_WIDTH_PX = 350
PHONE_AGENT_MARK = "Mobi"


def on_a_phone() -> bool:
    """Whether this session's browser says it runs on a phone (its User-Agent)."""
    agent = (st.context.headers or {}).get("User-Agent") or ""
    return PHONE_AGENT_MARK in agent


def page_width() -> float:
    """The main column's width: as the browser reported it, else a phone's where the browser
    says it is one, else a classroom projector's."""
    if (width := main_width()) is not None:
        return width
    if on_a_phone():
        return PHONE_WIDTH_PX
    return DEFAULT_PRESENTING_WIDTH_PX if st.session_state.get(PRESENT_STATE) else DEFAULT_WIDTH_PX


def sized_for_page() -> ChartSize:
    """The attention figures' sizes for this page: its width and type scale."""
    return ChartSize(width_px=page_width(), scale=type_scale())


@dataclass(frozen=True)
class Drawn:
    """A figure made ready to send: its wire form (shared, read only), its name and text
    alternative for assistive technology, what the "show as table" option reads, and its
    layout's ``meta`` (figures/events.py)."""

    sent: go.Figure  # a Figure whose to_dict() is the wire form: st.plotly_chart serializes it as is
    label: str
    text: str
    data: ChartData
    meta: dict

    @property
    def spec(self) -> dict:
        return self.sent.to_dict()


class _WireSpec(dict):
    """A figure's wire form with its JSON, made once when the figure is drawn first and
    then only read by every session that shows it (see ``_to_json``)."""

    __slots__ = ("json",)


class _Sent(go.Figure):
    """A figure already in its wire form (figures/wire.py). Streamlit's plotly_chart takes a
    Figure's ``to_dict()`` and serializes that (it asks nothing else of it); this one hands
    over the form made once, not a fresh deep copy (the dict is only read: Plotly's to_json
    drops trace uids, which these figures do not have). It is made without Plotly's
    ``__init__``, which copies the whole default template (2 ms) for nothing here."""

    _spec: _WireSpec

    @classmethod
    def of(cls, spec: dict) -> _Sent:
        wire = _WireSpec(spec)
        wire.json = wire_json(wire)
        sent = object.__new__(cls)
        object.__setattr__(sent, "_spec", wire)
        return sent

    def to_dict(self) -> dict:
        return self._spec


_plotly_to_json = pio.to_json


def _to_json(fig, validate=True, pretty=False, remove_uids=True, engine=None):
    """Plotly's ``to_json``, which Streamlit's plotly_chart calls with the figure's dict:
    for a figure drawn here, the JSON made once (figures/wire.py ``wire_json``, the same
    value as Plotly's), not a new serialization for every session that shows it."""
    if type(fig) is _WireSpec and not pretty:
        return fig.json
    return _plotly_to_json(fig, validate=validate, pretty=pretty, remove_uids=remove_uids, engine=engine)


pio.to_json = _to_json


def _spec_bytes(drawn: Drawn) -> int:
    """About how much memory a drawn figure holds: its typed arrays' base64, the numbers its
    table reads, its labels (a few dozen bytes each as Python strings), its JSON and the rest."""
    total = SPEC_OVERHEAD_BYTES
    for trace in drawn.spec["data"]:
        for value in trace.values():
            if isinstance(value, dict) and "bdata" in value:
                total += len(value["bdata"])
            elif isinstance(value, list):
                total += LABEL_BYTES * len(value)
    total += len(drawn.sent.to_dict().json)
    total += sum(grid.values.nbytes for grid in drawn.data.grids)
    return total + sum(series.y.nbytes for series in drawn.data.series)


SHARED_FIGURES: SharedResults[Drawn] = SharedResults(SHARED_FIGURE_ENTRIES, SHARED_FIGURE_MB * 2**20, _spec_bytes)


def _drawn(figure: go.Figure | FigureSpec, sized: bool, presenting: bool, lang: str) -> Drawn:
    if presenting and not sized:
        figure = enlarged(figure.figure() if isinstance(figure, FigureSpec) else figure)
    words = figure_words(lang)
    data = timed("description", lambda: chart_data(figure, words))
    description = timed("description", lambda: describe(data, words))
    meta = figure.layout.get("meta") if isinstance(figure, FigureSpec) else figure.layout.meta
    return Drawn(
        timed("serialization", lambda: _Sent.of(wire_dict(figure, display=True))),
        description.label,
        description.text,
        data,
        dict(meta) if isinstance(meta, dict) else {},
    )


def _built(build: Build) -> go.Figure | FigureSpec:
    """What ``build`` makes, as a FigureSpec where its builder can give one (no Plotly
    Figure is made: the page sends the builder's dicts)."""
    with specs_only():
        return timed("figures", build)


Build = Callable[[], go.Figure]


def prepared(figure: go.Figure | Build, sized: bool = False, share: Hashable | None = None) -> Drawn:
    """A figure ready to draw on this page. With ``share``, a key naming everything the
    figure depends on besides the page's language and presentation mode (the view's
    numbers, its focus, the width and type scale it was built for), ``figure`` is a
    function that builds it, called only when no session of this server has drawn that
    view yet: a class on one link then builds each figure once."""
    presenting = bool(st.session_state.get(PRESENT_STATE))
    lang = st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)
    if share is None:
        return _drawn(_built(figure) if callable(figure) else figure, sized, presenting, lang)
    build = (lambda: _built(figure)) if callable(figure) else (lambda: figure)
    return SHARED_FIGURES.get((share, sized, presenting, lang), lambda: _drawn(build(), sized, presenting, lang))


def show_chart(
    figure: go.Figure | Build | Drawn,
    key: str,
    sized: bool = False,
    table: bool = True,
    share: Hashable | None = None,
    file_name: str | None = None,
) -> None:
    """Draw a figure exactly as built: our colours (theme=None), full width, a stable key;
    larger in presentation mode, unless the figure was ``sized`` for it by its builder.
    ``share``: see ``prepared`` (a figure shared by every session that shows the same view).

    The chart is named for assistive technology by what it shows (its ``alt``), and under
    it a visually hidden paragraph says the same and reads out its strongest cells; with
    ``table``, a "show as table" expander gives its numbers once opened (a chart redrawn
    many times in one run, such as a live curve, passes False: its keys are not stable).

    The modebar's download button saves the chart as shown, in the format and scale chosen
    in the sidebar (ui/export.py), as ``file_name`` (figures/export.py ``export_name``; the
    key when none): the config is this call's, never part of a shared figure."""
    drawn = figure if isinstance(figure, Drawn) else prepared(figure, sized, share)
    lang = st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)
    config = {**PLOTLY_CONFIG, **image_config(file_name or key, lang)}
    timed(
        "serialization",
        lambda: st.plotly_chart(drawn.sent, key=key, config=config, width="stretch", theme=None, alt=drawn.label),
    )
    with st.container(key=key + ALT_TEXT_SUFFIX):
        st.markdown(literal(drawn.text))
    if table:
        table_option(drawn.data, key, figure_words(lang), lang)


def table_option(data: ChartData, key: str, words: Words, lang: str) -> None:
    """An expander that shows the chart's numbers as a table: built only while it is open
    (it reruns the page when opened); a chart of several panels chooses one."""
    names = table_names(data, words)
    if not names:
        return
    box = st.expander(t("chart.table", lang), key=key + TABLE_SUFFIX, on_change="rerun")
    if not box.open:
        return
    with box:
        part = 0
        if len(names) > 1:
            part_key = key + PART_SUFFIX
            if st.session_state.get(part_key) not in range(len(names)):
                st.session_state.pop(part_key, None)  # fewer panels than before: the first
            part = st.selectbox(
                t("chart.table_part", lang), list(range(len(names))), format_func=names.__getitem__, key=part_key
            )
        shown = chart_table(data, part, words)
        height = TABLE_HEIGHT_PX if len(shown.index) > TABLE_SCROLL_ROWS else "content"
        st.table(table_frame(shown), height=height, alt=shown.name)


def table_frame(table: Table) -> pd.DataFrame:
    """A table's cells as a DataFrame: its rows named, repeated column names told apart."""
    columns, seen = [], {}
    for name in table.columns:
        seen[name] = seen.get(name, 0) + 1
        columns.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return pd.DataFrame(table.cells, index=pd.Index(table.index, name=table.corner or None), columns=columns)
