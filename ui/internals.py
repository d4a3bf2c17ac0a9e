"""Every private name of Streamlit or Python the app relies on, in one place, each behind a
guard: when an upgrade removes or renames one, the app logs one line and carries on with
the public behaviour (it never raises on a page), and ``tests/unit/test_internals.py``
fails with a message that names the internal.

docs/contributing.md lists them ("Private internals") with the versions they were checked against.
"""

from __future__ import annotations

import asyncio.base_events
import logging
import zlib
from collections.abc import Callable
from dataclasses import dataclass

LOG = logging.getLogger(__name__)
CHECKED_STREAMLIT = "1.67.0"
CHECKED_PYTHON = "3.11"


@dataclass(frozen=True)
class Internal:
    name: str  # the private name, as a reader would search for it
    used_for: str
    without_it: str  # what happens when it is gone


ASYNCIO_NODELAY = Internal(
    "asyncio.base_events._set_nodelay",
    "TCP_NODELAY on the websocket connections the server accepts (ui/runtime.py)",
    "Nagle stays on: the last small messages of a run may wait ~40 ms for a delayed ACK",
)
NEW_WIDGET_STATE = Internal(
    "streamlit SessionState._new_widget_state (and widget ids '$$ID-<hash>-<key>')",
    "after a server restart, the values an open page sends win over its link (ui/playground/controls.py)",
    "after a restart a student's first change is replaced by the link's value",
)
HISTORY_NAVIGATION = Internal(
    "streamlit ScriptRunContext.is_history_navigation",
    "a run started by the browser's Back or Forward shows the page as it was left (ui/page_state/state.py)",
    "after Back a box may show a value older than the one the student left",
)
FRAGMENT_RERUN = Internal(
    "streamlit AppSession.request_rerun (and AppSession.has_fragment)",
    "a change made in a part of a page (a fragment) the server does not hold yet, as after a "
    "restart, reruns the whole page with it (ui/runtime.py)",
    "such a change is dropped: the control shows it, the page does not, until the next change",
)
DEFLATE_LEVEL = Internal(
    "websockets PerMessageDeflate.encode (and its encoder, compress_settings, local_max_window_bits)",
    "the server deflates its websocket messages at a faster level than the library's default (ui/runtime.py)",
    "messages are deflated at zlib's default level: a few milliseconds more of the server's time a change",
)
INTERNALS: tuple[Internal, ...] = (ASYNCIO_NODELAY, NEW_WIDGET_STATE, HISTORY_NAVIGATION, FRAGMENT_RERUN, DEFLATE_LEVEL)
WIDGET_ID_PREFIX = "$$ID-"  # Streamlit's id of a keyed widget: "$$ID-<hash>-<key>"
_warned: set[str] = set()


def _missing(internal: Internal, error: BaseException) -> None:
    if internal.name not in _warned:
        _warned.add(internal.name)
        LOG.warning("%s is not available (%s: %s): %s", internal.name, type(error).__name__, error, internal.without_it)


def asyncio_set_nodelay() -> Callable | None:
    """asyncio's own ``_set_nodelay``, or None when this Python has none."""
    function = getattr(asyncio.base_events, "_set_nodelay", None)
    return function if callable(function) else None


def replace_asyncio_set_nodelay(replacement: Callable) -> bool:
    """Make asyncio call ``replacement`` for each connection it accepts; False (and a log
    line) when this Python's asyncio has no such hook."""
    if asyncio_set_nodelay() is None:
        _missing(ASYNCIO_NODELAY, AttributeError("asyncio.base_events has no callable _set_nodelay"))
        return False
    asyncio.base_events._set_nodelay = replacement  # noqa: SLF001  # read at call time by asyncio
    return True


def widget_states_sent() -> dict[str, object]:
    """The widget states the browser sent with this run, by widget id (Streamlit's
    ``SessionState._new_widget_state.states``); empty, with a log line, when unreadable."""
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        inner = get_session_state()._state  # noqa: SLF001
        states = inner._new_widget_state.states  # noqa: SLF001
        return dict(states)
    except Exception as error:  # noqa: BLE001  # any change of these internals: degrade, say so
        _missing(NEW_WIDGET_STATE, error)
        return {}


def is_history_navigation() -> bool:
    """True when the browser's Back or Forward started this run (Streamlit's
    ``ScriptRunContext.is_history_navigation``); False, with a log line, when unreadable."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        return ctx is not None and bool(ctx.is_history_navigation)
    except Exception as error:  # noqa: BLE001  # any change of these internals: degrade, say so
        _missing(HISTORY_NAVIGATION, error)
        return False


def keys_sent_by_browser() -> set[str]:
    """The user keys of keyed widgets whose values the browser sent with this run."""
    return {
        widget_id.rsplit("-", 1)[-1]
        for widget_id in widget_states_sent()
        if isinstance(widget_id, str) and widget_id.startswith(WIDGET_ID_PREFIX)
    }


def whole_page_for_unknown_parts(request_rerun: Callable) -> Callable:
    """``AppSession.request_rerun`` that turns a rerun of a fragment the session does not
    hold into a rerun of the whole page with the same widget states.

    Streamlit drops such a request (it logs "does not exist anymore"), and with it the new
    value of the control that sent it: the browser shows the new value, the page the old
    one. It happens when the session has not drawn the part yet: a server restarted under
    an open page, whose first run is still under way when the student changes a control.
    The browser sends every widget's state with a fragment's rerun, so a full rerun loses
    nothing. A part's own timer (``run_every``) that outlived it is still dropped."""

    def rerun_whole_page_if_unknown(session, client_state=None):
        fragment_id = getattr(client_state, "fragment_id", "")
        timed = getattr(client_state, "is_auto_rerun", False)  # a part's timer: dropped, as it should be
        if fragment_id and not timed and not session.has_fragment(fragment_id):
            LOG.info("a rerun of part %s, which this session does not hold, reruns the whole page", fragment_id)
            whole = type(client_state)()
            whole.CopyFrom(client_state)
            whole.ClearField("fragment_id")
            client_state = whole
        return request_rerun(session, client_state)

    rerun_whole_page_if_unknown.rerun_of_unknown_parts = True  # marks the replacement: installed once
    return rerun_whole_page_if_unknown


def rerun_unknown_parts_in_full() -> bool:
    """Install ``whole_page_for_unknown_parts`` on Streamlit's AppSession (once); False, with
    a log line, when this Streamlit has no such method."""
    try:
        from streamlit.runtime.app_session import AppSession

        current = AppSession.request_rerun
        AppSession.has_fragment  # noqa: B018  # the check the replacement relies on
    except Exception as error:  # noqa: BLE001  # any change of these internals: degrade, say so
        _missing(FRAGMENT_RERUN, error)
        return False
    if not getattr(current, "rerun_of_unknown_parts", False):
        AppSession.request_rerun = whole_page_for_unknown_parts(current)
    return True


def encode_at_level(encode: Callable, level: int, starts: tuple) -> Callable:
    """``PerMessageDeflate.encode`` that deflates each message at zlib ``level``, the
    connection's other settings (its window, its memory level) kept. The first message a
    connection sends at another level starts a new compressor: a message's first frame
    (its opcode in ``starts``, never a control frame, which may come between a message's
    frames) is a boundary its reader's decompressor takes as it comes, so connections
    opened before this was installed change too. It runs where the library compresses, on
    the server's event loop."""

    def encoded_at_level(extension, frame):
        if frame.opcode in starts and extension.compress_settings.get("level") != level:
            extension.compress_settings = {**extension.compress_settings, "level": level}
            if not extension.local_no_context_takeover:  # otherwise made anew for each message, from the settings
                extension.encoder = zlib.compressobj(
                    wbits=-extension.local_max_window_bits, **extension.compress_settings
                )
        return encode(extension, frame)

    encoded_at_level.deflate_level = level  # marks the replacement
    encoded_at_level.__wrapped__ = encode
    return encoded_at_level


def deflate_at_level(level: int) -> bool:
    """Install ``encode_at_level`` on websockets' PerMessageDeflate; False, with a log line,
    when this websockets has no such class or method."""
    try:
        from websockets.extensions.permessage_deflate import PerMessageDeflate
        from websockets.frames import Opcode

        current = PerMessageDeflate.encode
        starts = (Opcode.TEXT, Opcode.BINARY)
    except Exception as error:  # noqa: BLE001  # any change of these internals: degrade, say so
        _missing(DEFLATE_LEVEL, error)
        return False
    original = current.__wrapped__ if hasattr(current, "deflate_level") else current
    PerMessageDeflate.encode = encode_at_level(original, level, starts)
    return True
