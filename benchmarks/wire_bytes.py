"""What a rerun's bytes on the wire are made of: the ForwardMsgs a client received, each
attributed to a figure's data (and within it its numeric arrays), its layout and the rest
of its element, to the page's other elements by kind, or to Streamlit's other messages.

Pure: it reads recorded ForwardMsg bytes and never talks to a server. The parts of every
message add up to its size exactly (``attribute`` checks it), so a table of them is a
breakdown of the total, not an estimate beside it.
"""

from __future__ import annotations

import json
from collections import defaultdict

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ARRAY_KEYS = ("z", "x", "y", "customdata", "text")
OTHER_MESSAGES = "other messages"  # session state, script status, script_finished, blocks…


def json_size(value) -> int:
    """Bytes of ``value`` as compact UTF-8 JSON (no larger than any JSON writing of it)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def figure_key(element_id: str) -> str:
    """A chart's user key from Streamlit's element id (``$$ID-<hash>-<key>``)."""
    return element_id.rsplit("-", 1)[-1] if element_id.startswith("$$ID-") else element_id


def spec_parts(spec: str) -> dict[str, int]:
    """A Plotly spec's bytes: each numeric array of its traces, the traces' other fields,
    the layout, and the spec's rest (frames, its JSON's punctuation and spacing)."""
    size = len(spec.encode())
    try:
        figure = json.loads(spec)
    except ValueError:
        return {"spec rest": size}
    traces = figure.get("data") or []
    arrays = {name: 0 for name in ARRAY_KEYS}
    for trace in traces:
        for name in ARRAY_KEYS:
            if name in trace:
                arrays[name] += json_size(trace[name])
    data = json_size(traces)
    layout = json_size(figure.get("layout", {}))
    parts = {f"data.{name}": count for name, count in arrays.items()}
    parts["data other"] = data - sum(arrays.values())
    parts["layout"] = layout
    parts["spec rest"] = size - data - layout
    return parts


def message_parts(raw: bytes) -> tuple[str, dict[str, int]]:
    """The owner of one ForwardMsg (a figure's key, an element kind or ``OTHER_MESSAGES``)
    and its bytes by part."""
    forward = ForwardMsg()
    forward.ParseFromString(raw)
    if forward.WhichOneof("type") != "delta" or forward.delta.WhichOneof("type") != "new_element":
        return OTHER_MESSAGES, {"bytes": len(raw)}
    element = forward.delta.new_element
    kind = element.WhichOneof("type")
    if kind != "plotly_chart":
        return kind, {"bytes": len(raw)}
    chart = element.plotly_chart
    parts = spec_parts(chart.spec)
    parts["element rest"] = len(raw) - len(chart.spec.encode())  # config, alt, id, framing
    return "figure " + figure_key(chart.id), parts


def attribute(messages: list[bytes]) -> dict:
    """One rerun's bytes: ``total``, ``figures`` (key -> part -> bytes) and ``elements``
    (element kind or ``OTHER_MESSAGES`` -> bytes). The parts add up to ``total``."""
    figures: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    elements: dict[str, int] = defaultdict(int)
    for raw in messages:
        owner, parts = message_parts(raw)
        if owner.startswith("figure "):
            for part, count in parts.items():
                figures[owner.removeprefix("figure ")][part] += count
        else:
            elements[owner] += parts["bytes"]
    total = sum(len(raw) for raw in messages)
    counted = sum(sum(parts.values()) for parts in figures.values()) + sum(elements.values())
    assert counted == total, (counted, total)
    return {
        "total": total,
        "figures": {key: dict(parts) for key, parts in figures.items()},
        "elements": dict(sorted(elements.items(), key=lambda item: -item[1])),
    }


def breakdown_rows(attributed: dict) -> list[tuple[str, int]]:
    """Rows for a table: each figure's data arrays, other data, layout and rest, then the
    other elements, then the total; parts of zero bytes left out."""
    rows = []
    for key, parts in attributed["figures"].items():
        rest = parts.get("spec rest", 0) + parts.get("element rest", 0)
        for part, count in parts.items():
            if part.startswith("data") or part == "layout":
                rows.append((f"{key}: {part}", count))
        rows.append((f"{key}: rest (config, alt, JSON framing)", rest))
    rows.extend(attributed["elements"].items())
    rows.append(("total", attributed["total"]))
    return [(name, count) for name, count in rows if count]
