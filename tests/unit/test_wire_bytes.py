"""The roundtrip benchmark's byte breakdown: a recorded rerun's messages attributed to each
figure's data arrays, layout and rest, and to the page's other elements, adding up."""

from __future__ import annotations

import json

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.wire_bytes import OTHER_MESSAGES, attribute, breakdown_rows

Z = [[0.25, 0.5], [0.75, 1.0]]
X = ["a", "b"]
LAYOUT = {"height": 300, "title": {"text": "heads"}}


def chart_message(spec: str, element_id: str = "$$ID-abc123-overview") -> bytes:
    forward = ForwardMsg()
    chart = forward.delta.new_element.plotly_chart
    chart.id = element_id
    chart.spec = spec
    chart.config = '{"displaylogo":false}'
    return forward.SerializeToString()


def markdown_message(body: str) -> bytes:
    forward = ForwardMsg()
    forward.delta.new_element.markdown.body = body
    return forward.SerializeToString()


def finished_message() -> bytes:
    forward = ForwardMsg()
    forward.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    return forward.SerializeToString()


def test_parts_add_up_and_name_the_figure_data_and_layout():
    spec = json.dumps({"data": [{"type": "heatmap", "z": Z, "x": X}], "layout": LAYOUT}, separators=(",", ":"))
    messages = [chart_message(spec), markdown_message("hello"), finished_message()]
    result = attribute(messages)
    assert result["total"] == sum(len(raw) for raw in messages)
    figure = result["figures"]["overview"]
    # Compact JSON written by hand: [[0.25,0.5],[0.75,1.0]] and ["a","b"].
    assert figure["data.z"] == len("[[0.25,0.5],[0.75,1.0]]")
    assert figure["data.x"] == len('["a","b"]')
    assert figure["data.y"] == 0
    data = '[{"type":"heatmap","z":[[0.25,0.5],[0.75,1.0]],"x":["a","b"]}]'
    assert figure["data.z"] + figure["data.x"] + figure["data other"] == len(data)
    assert figure["layout"] == len('{"height":300,"title":{"text":"heads"}}')
    # The spec's rest is its wrapper: {"data":…,"layout":…} less the two values.
    assert figure["spec rest"] == len('{"data":,"layout":}')
    assert figure["element rest"] == len(messages[0]) - len(spec)
    assert result["elements"] == {"markdown": len(messages[1]), OTHER_MESSAGES: len(messages[2])}
    figure_bytes = sum(figure.values())
    assert figure_bytes == len(messages[0])


def test_spaced_json_puts_its_spacing_in_the_rest_and_rows_add_up():
    spec = json.dumps({"data": [{"z": Z}, {"z": Z, "y": [1, 2]}], "layout": LAYOUT})  # ", " and ": "
    messages = [chart_message(spec, "detail"), chart_message(spec, "$$ID-f00-detail"), markdown_message("é")]
    result = attribute(messages)
    figure = result["figures"]["detail"]  # one key: both messages are the same chart's
    assert figure["data.z"] == 4 * len("[[0.25,0.5],[0.75,1.0]]")
    assert figure["data.y"] == 2 * len("[1,2]")
    assert figure["spec rest"] > 2 * len('{"data":,"layout":}')  # the spaces are counted there
    rows = dict(breakdown_rows(result))
    assert rows["total"] == sum(len(raw) for raw in messages)
    assert sum(count for name, count in rows.items() if name != "total") == rows["total"]
    assert "detail: data.x" not in rows  # no x array: no row


def test_a_spec_that_is_not_json_is_all_rest():
    raw = chart_message("not json", "broken")
    figure = attribute([raw])["figures"]["broken"]
    assert figure == {"spec rest": len("not json"), "element rest": len(raw) - len("not json")}
