"""The websocket client reads each chart's spec only when a caller asks for its height: a
round trip it times holds the server's work, not the client's JSON parsing."""

from __future__ import annotations

import json

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from harness import streamlit_client
from harness.streamlit_client import RunResult, StreamlitClient


def _chart(spec: str) -> ForwardMsg:
    message = ForwardMsg()
    message.delta.new_element.plotly_chart.spec = spec
    return message


def test_specs_are_parsed_only_when_heights_are_asked_for(monkeypatch):
    parsed = []
    loads = json.loads
    monkeypatch.setattr(streamlit_client.json, "loads", lambda text, **kw: parsed.append(text) or loads(text, **kw))
    client, result = StreamlitClient("http://127.0.0.1:1", "playground"), RunResult(seconds=0.0, bytes=0, messages=0)
    for spec in ('{"data": [], "layout": {"height": 321}}', '{"data": [], "layout": {}}', "not json"):
        client._read_delta(_chart(spec), result)
    assert result.charts == 3
    assert parsed == [], "the client parsed chart specs while the run was timed"
    assert result.chart_heights == [321, 0, 0]
    assert len(parsed) == 3
