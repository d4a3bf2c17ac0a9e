"""Widget values a crafted client sends (a websocket client speaks for the browser, with the
wire type each widget uses): a choice no option has, numbers far out of range, a text over
every limit. Each page falls back to values its parameters accept, with no exception.
(A value in another wire type than the widget's, a string for a slider, fails inside
Streamlit's own widget registration before any page code runs; that is not tested here.)"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from harness.streamlit_client import StreamlitClient

# What a browser could never send, in the wire type of each kind of widget.
CRAFTED = {
    "selectbox": dict(string_value="zzz"),
    "radio": dict(string_value="zzz"),
    "number_input": dict(double_value=1e12),
    "slider": dict(double_array_value={"data": [1e9]}),
    "select_slider": dict(string_array_value={"data": ["zzz"]}),
    "text_area": dict(string_value="x" * 300_000),
    "text_input": dict(string_value="x" * 300_000),
}


async def _crafted_run(url: str, page: str) -> tuple[list[str], list[str]]:
    client = StreamlitClient(url, page)
    await client.connect()
    try:
        for _ in range(2):  # the first screen, then the rest of the page
            opened = await client.open_page()
            assert opened.ok, opened.exceptions
        crafted = [key for key, kind in client.widget_kinds.items() if kind in CRAFTED]
        for key in crafted:  # all at once: one run with every widget crafted
            client.widget_states[key] = WidgetState(id=client.widget_ids[key], **CRAFTED[client.widget_kinds[key]])
        result = await client.open_page()
        again = await client.open_page()  # and the run after it, on the repaired values
        return crafted, [*result.exceptions, *again.exceptions]
    finally:
        await client.close()


@pytest.mark.parametrize("page", ["playground", "lesson", "train", "explorer"])
def test_crafted_widget_values_fall_back_without_an_exception(shared_server, page):
    # Playwright's sync API may be running an event loop in this thread (another browser
    # test ran first), where asyncio.run() is refused: the client runs in a thread of its own.
    with ThreadPoolExecutor(1) as pool:
        crafted, exceptions = pool.submit(asyncio.run, _crafted_run(shared_server.url, page)).result()
    assert len(crafted) >= 3, crafted
    assert not exceptions, f"{page}: {exceptions}"
