"""A built figure in the form the browser receives: Plotly's ``Figure.to_dict()`` (numpy
arrays as base64 typed arrays), without its deep copy of every label list and nested dict.

A figure is serialized once per view and then only read (ui/charts.py shares it between
every student who sees the same view), so its lists of labels need no copy; only the
containers on the way to an array are new. ``to_dict()`` deep-copies everything first,
which was a third of a chart's cost on the server.
"""

from __future__ import annotations

import base64
import functools

import numpy as np
import orjson
import plotly.graph_objects as go
import plotly.io as pio
from _plotly_utils.utils import is_skipped_key, plotlyjsShortTypes
from _plotly_utils.utils import to_typed_array_spec as _plotly_typed_array_spec

from .display_precision import display_traces
from .style import FigureSpec

_SCALARS = (str, int, float, bool, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)
_skipped = functools.cache(is_skipped_key)  # a figure's few property names, asked about thousands of times


def to_typed_array_spec(value: np.ndarray):
    """Plotly's typed array of a numpy array (``_plotly_utils.utils.to_typed_array_spec``),
    the same dict, made directly for the dtypes plotly.js reads as they are: Plotly's own
    first passes every array through narwhals and a read-only copy, a tenth of a chart's
    cost on the server for nothing here. Other arrays (int64, strings, empty) go to Plotly's."""
    short = plotlyjsShortTypes.get(value.dtype.name) if type(value) is np.ndarray and value.size else None
    if short is None or value.dtype.byteorder == ">":
        return _plotly_typed_array_spec(value)
    spec = {"dtype": short, "bdata": base64.b64encode(np.ascontiguousarray(value)).decode("ascii")}
    if value.ndim > 1:
        spec["shape"] = str(value.shape)[1:-1]
    return spec


_TEMPLATES: dict[str, dict] = {}


def _wire(value):
    if isinstance(value, np.ndarray):
        return to_typed_array_spec(value)
    if isinstance(value, dict):
        return {key: item if is_skipped_key(key) else _wire(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        if all(type(item) in _SCALARS for item in value):
            return value  # labels or numbers as Python values: sent as they are, never changed
        return [_wire(item) for item in value]
    return value


def _default_template() -> dict:
    """The template a Figure is given when its layout names none (made once per name)."""
    name = pio.templates.default
    if name not in _TEMPLATES:
        _TEMPLATES[name] = pio.templates[name].to_plotly_json() if name else {}
    return _TEMPLATES[name]


def _spec_wire(value, key: str = ""):
    """A builder's own value as Plotly's Figure would give it: no None-valued properties,
    a title given as text becomes {"text": …}."""
    kind = type(value)
    if kind in _SCALAR_TYPES:  # most values: checked first, by their exact type
        return {"text": value} if kind is str and key == "title" else value
    if isinstance(value, np.ndarray):
        return to_typed_array_spec(value)
    if isinstance(value, dict):
        return {
            name: item if _skipped(name) else _spec_wire(item, name) for name, item in value.items() if item is not None
        }
    if key == "title" and isinstance(value, str):
        return {"text": value}
    if isinstance(value, (list, tuple)):
        if _SCALAR_TYPES.issuperset(map(type, value)):
            return list(value)
        return [_spec_wire(item) for item in value]
    return value


def wire_dict(figure: go.Figure | FigureSpec, display: bool = False) -> dict:
    """``figure.to_dict()``'s content, built without copying what is only read: the figure
    itself is left as it was. Arrays the figures hold are numpy arrays (lists of numbers
    stay lists, as JSON sends them). A FigureSpec is serialized straight from its dicts.
    ``display``: for the browser's chart, heatmaps' values at the precision their hover and
    written values print (figures/display_precision.py); without, every number exact."""
    traces = figure.data if isinstance(figure, FigureSpec) else figure._data
    data = display_traces(traces) if display else traces
    if isinstance(figure, FigureSpec):
        layout = _spec_wire(figure.layout)
        if "template" not in layout:  # what a Figure adds: Plotly's default template, as it is now
            layout["template"] = _default_template()
        return {"data": [_spec_wire(trace) for trace in data], "layout": layout}
    result = {"data": [_wire(trace) for trace in data], "layout": _wire(figure._layout)}
    frames = [_wire(frame._props) for frame in figure._frame_objs]
    if frames:
        result["frames"] = frames
    return result


# What Plotly's to_json escapes so that a spec can stand inside HTML: "<", ">" (no "</script>"
# can close a tag) and the two line separators JavaScript once read as line ends.
_HTML_SAFE = ((b"<", b"\\u003c"), (b">", b"\\u003e"), ("\u2028".encode(), b"\\u2028"), ("\u2029".encode(), b"\\u2029"))


def wire_json(spec: dict) -> str:
    """The JSON Plotly's ``to_json(spec, validate=False)`` gives (orjson engine), parsed to
    the same value and as safe inside HTML, made in one pass: Plotly also writes every "/"
    as "\\u002f", a copy of the whole string for the base64 of every array, which "<" being
    escaped already makes needless."""
    data = orjson.dumps(spec, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS)
    for unsafe, safe in _HTML_SAFE:
        if unsafe in data:
            data = data.replace(unsafe, safe)
    return data.decode("utf-8")
