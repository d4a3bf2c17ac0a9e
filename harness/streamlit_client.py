"""A client that speaks Streamlit's websocket protocol as a browser does, for load tests
and round-trip benchmarks against a server on this machine (loopback only).

It opens ``/_stcore/stream`` (subprotocol ``streamlit``), asks for a page with a
``rerun_script`` BackMsg (page name and query string), reads ForwardMsgs until
``script_finished``, and changes a widget by sending another ``rerun_script`` whose widget
states hold the new value (a widget drawn inside a fragment, ``st.fragment``, reruns only
that fragment: the client sends its ``fragment_id`` as the browser's frontend does). It never renders anything: what it measures is the server's
side of what a student waits for (the run, its figures and their bytes on the wire).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlparse

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState

STREAM_PATH = "/_stcore/stream"
SUBPROTOCOL = "streamlit"
RUN_TIMEOUT_S = 120.0
MAX_MESSAGE_BYTES = 200 * 2**20  # Streamlit's own default for server.maxMessageSize
ELEMENT_KINDS_WITH_IDS = (
    "number_input",
    "selectbox",
    "text_area",
    "radio",
    "slider",
    "checkbox",
    "button",
    "button_group",
    "text_input",
    "select_slider",
    "toggle",
    "multiselect",
)


@dataclass
class RunResult:
    """One script run as the client saw it."""

    seconds: float  # from sending the request to script_finished
    bytes: int  # of every ForwardMsg received for it, as Streamlit serialized it
    messages: int
    exceptions: list[str] = field(default_factory=list)  # messages of st.exception elements
    status: int = ForwardMsg.FINISHED_SUCCESSFULLY
    charts: int = 0  # Plotly charts drawn
    # Each chart's spec as sent (JSON), read only when asked for (``chart_heights``): parsing
    # every spec while the run is timed would add the client's milliseconds to the server's.
    chart_specs: list[str] = field(default_factory=list)
    chart_keys: list[str] = field(default_factory=list)  # each chart's user key ("" where it has none)
    query_strings: list[str] = field(default_factory=list)  # each link the page wrote (page_info_changed)
    texts: list[str] = field(default_factory=list)  # bodies of markdown and alert elements
    frames: list[bytes] = field(default_factory=list)  # every ForwardMsg's bytes, when the client keeps them
    # What the socket delivered while the run was awaited: the websocket frames as sent,
    # compressed where the server compresses, with their headers.
    wire_bytes: int = 0

    @property
    def chart_heights(self) -> list[int]:
        """Each chart's layout height, in px (0: not set)."""
        return [_layout_height(spec) for spec in self.chart_specs]

    @property
    def ok(self) -> bool:
        done = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
        return not self.exceptions and self.status in done


def _layout_height(spec: str) -> int:
    try:
        return int(json.loads(spec).get("layout", {}).get("height") or 0)
    except ValueError:
        return 0


class StreamlitClient:
    """One simulated student: one websocket session, one page."""

    def __init__(self, base_url: str, page_name: str, query_string: str = "", cookies: dict | None = None) -> None:
        parsed = urlparse(base_url)
        self.cookies = dict(cookies or {})  # what a browser would send with the websocket's request
        self.ws_url = f"ws://{parsed.netloc}{STREAM_PATH}"
        self.page_name = page_name
        self.query_string = query_string
        self.widget_ids: dict[str, str] = {}  # user key -> widget id, learned from the page
        self.widget_kinds: dict[str, str] = {}  # user key -> element kind ("selectbox", "select_slider", …)
        self.widget_states: dict[str, WidgetState] = {}  # what this client has set
        self.widget_fragments: dict[str, str] = {}  # user key -> id of the fragment that drew it
        self.widget_options: dict[str, list[str]] = {}  # user key -> a segmented control's or radio's labels, as sent
        # Fragments the page asked the browser to rerun every so often (``st.fragment(run_every=…)``):
        # fragment id -> seconds. A browser's frontend drives them; so must a client.
        self.auto_reruns: dict[str, float] = {}
        self.keep_frames = False  # record each run's raw ForwardMsgs in its result's ``frames``
        self.connection = None
        self.wire_bytes = 0  # read from the socket since connecting

    async def connect(self) -> None:
        import websockets

        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        self.connection = await websockets.connect(
            self.ws_url,
            subprotocols=[SUBPROTOCOL],
            max_size=MAX_MESSAGE_BYTES,
            open_timeout=RUN_TIMEOUT_S,
            additional_headers={"Cookie": cookie} if cookie else None,
        )
        self._count_wire_bytes()

    def _count_wire_bytes(self) -> None:
        """Count what the socket hands the connection (``asyncio.Protocol.data_received``):
        the bytes on the wire, which the websocket library then decompresses and unframes."""
        received = self.connection.data_received

        def counted(data: bytes) -> None:
            self.wire_bytes += len(data)
            received(data)

        self.connection.data_received = counted

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self.connection = None

    async def open_page(self) -> RunResult:
        """The first run of the page, as a browser's first visit asks for it."""
        return await self._rerun()

    async def set_widget(self, key: str, **value) -> RunResult:
        """Change the widget with user key ``key`` (e.g. ``int_value=3``) and wait for the run.

        A widget drawn inside a fragment reruns that fragment only, as in a browser (its
        frontend sends the fragment's id with the widget states)."""
        state = WidgetState(id=self.widget_ids[key], **value)
        self.widget_states[key] = state
        return await self._rerun(fragment_id=self.widget_fragments.get(key, ""), auto=False)

    async def press(self, key: str) -> RunResult:
        """Click the button with user key ``key`` and wait for the run it starts.

        A button's trigger is sent with this run only, as a browser does."""
        trigger = WidgetState(id=self.widget_ids[key], trigger_value=True)
        return await self._rerun(extra=[trigger])

    async def run_fragment(self, fragment_id: str) -> RunResult:
        """Rerun one fragment as the browser does when its ``run_every`` comes round."""
        return await self._rerun(fragment_id=fragment_id, auto=True)

    async def _rerun(
        self, extra: list[WidgetState] | None = None, fragment_id: str = "", auto: bool = False
    ) -> RunResult:
        message = BackMsg()
        rerun = message.rerun_script
        rerun.query_string = self.query_string
        rerun.page_name = self.page_name
        if fragment_id:
            rerun.fragment_id = fragment_id
            rerun.is_auto_rerun = auto
        rerun.widget_states.widgets.extend([*self.widget_states.values(), *(extra or [])])
        start, wire_before = time.perf_counter(), self.wire_bytes
        await self.connection.send(message.SerializeToString())
        result = RunResult(seconds=0.0, bytes=0, messages=0)
        async with asyncio.timeout(RUN_TIMEOUT_S):
            while True:
                data = await self.connection.recv()
                result.bytes += len(data)
                result.messages += 1
                if self.keep_frames:
                    result.frames.append(data)
                forward = ForwardMsg()
                forward.ParseFromString(data)
                kind = forward.WhichOneof("type")
                if kind == "delta":
                    self._read_delta(forward, result)
                elif kind == "page_info_changed":
                    result.query_strings.append(forward.page_info_changed.query_string)
                elif kind == "auto_rerun":
                    self.auto_reruns[forward.auto_rerun.fragment_id] = forward.auto_rerun.interval
                elif kind == "stop_auto_rerun":
                    for stopped in forward.stop_auto_rerun.fragment_ids:
                        self.auto_reruns.pop(stopped, None)
                elif kind == "script_finished":
                    result.status = forward.script_finished
                    if result.status != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        break
        result.seconds = time.perf_counter() - start
        result.wire_bytes = self.wire_bytes - wire_before
        return result

    def _read_delta(self, forward: ForwardMsg, result: RunResult) -> None:
        delta = forward.delta
        if delta.WhichOneof("type") == "add_block" and delta.add_block.WhichOneof("type") == "tab_container":
            widget_id = delta.add_block.tab_container.id  # tabs that rerun when chosen are a widget
            if widget_id:
                user_key = widget_id.rsplit("-", 1)[-1] if widget_id.startswith("$$ID-") else widget_id
                self.widget_ids[user_key] = widget_id
                self.widget_kinds[user_key] = "tabs"
            return
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            result.exceptions.append(element.exception.message)
        elif kind in ("markdown", "alert"):
            result.texts.append(getattr(element, kind).body)
        elif kind == "plotly_chart":
            result.charts += 1
            result.chart_specs.append(element.plotly_chart.spec)
            chart_id = element.plotly_chart.id
            result.chart_keys.append(chart_id.rsplit("-", 1)[-1] if chart_id.startswith("$$ID-") else "")
        elif kind in ELEMENT_KINDS_WITH_IDS:
            widget_id = getattr(element, kind).id
            user_key = widget_id.rsplit("-", 1)[-1] if widget_id.startswith("$$ID-") else widget_id
            self.widget_ids[user_key] = widget_id
            self.widget_fragments[user_key] = forward.delta.fragment_id
            if kind == "button_group":  # its value travels as the chosen option's label
                self.widget_options[user_key] = [option.content for option in element.button_group.options]
            elif kind == "radio":  # and a radio's as the chosen option's formatted text
                self.widget_options[user_key] = list(element.radio.options)
            select_slider = kind == "slider" and element.slider.type == Slider.SELECT_SLIDER
            self.widget_kinds[user_key] = "select_slider" if select_slider else kind
