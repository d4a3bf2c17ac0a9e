"""The private names of Streamlit and Python the app relies on (ui/internals.py): each one
still exists in the installed versions (a test fails naming it after an upgrade that
removes it), and without it the app degrades with a log line instead of raising."""

from __future__ import annotations

import asyncio.base_events
import logging

import pytest
from streamlit.testing.v1 import AppTest

from ui import internals

GUIDE = internals.__file__.replace("ui/internals.py", "docs/contributing.md")  # its "Private internals" section


def test_asyncio_still_has_set_nodelay():
    assert callable(getattr(asyncio.base_events, "_set_nodelay", None)), (
        f"{internals.ASYNCIO_NODELAY.name} is gone in this Python: ui/runtime.py can no longer turn Nagle off "
        "for new connections; find asyncio's new hook or drop the replacement"
    )


def test_replacing_set_nodelay_without_the_hook_logs_and_does_nothing(monkeypatch, caplog):
    monkeypatch.delattr(asyncio.base_events, "_set_nodelay")
    monkeypatch.setattr(internals, "_warned", set())
    with caplog.at_level(logging.WARNING, logger=internals.LOG.name):
        assert internals.replace_asyncio_set_nodelay(lambda sock: None) is False
    assert not hasattr(asyncio.base_events, "_set_nodelay")
    assert internals.ASYNCIO_NODELAY.name in caplog.text


SCRIPT = """
import streamlit as st
from ui.internals import keys_sent_by_browser, widget_states_sent
st.session_state.setdefault("seen", [])
st.session_state["seen"].append(sorted(keys_sent_by_browser()))
st.text_input("name", key="name_box")
"""


def test_streamlit_still_tells_which_widget_values_the_browser_sent():
    at = AppTest.from_string(SCRIPT, default_timeout=30)
    at.run()
    at.text_input(key="name_box").input("Ada").run()
    seen = at.session_state["seen"]
    assert seen[0] == [], "nothing sent on the first run"
    assert "name_box" in seen[1], (
        f"{internals.NEW_WIDGET_STATE.name}: Streamlit no longer exposes the widget states sent with a run "
        f"(checked on {internals.CHECKED_STREAMLIT}); a page restored after a server restart would lose the "
        "student's first change"
    )


def test_unreadable_widget_states_degrade_to_none_sent(monkeypatch, caplog):
    import streamlit.runtime.state.session_state_proxy as proxy

    def broken():
        raise AttributeError("no _state here")

    monkeypatch.setattr(proxy, "get_session_state", broken)
    monkeypatch.setattr(internals, "_warned", set())
    with caplog.at_level(logging.WARNING, logger=internals.LOG.name):
        assert internals.keys_sent_by_browser() == set()
    assert "_new_widget_state" in caplog.text


HISTORY_SCRIPT = """
import streamlit as st
from ui.internals import is_history_navigation
st.session_state["back"] = is_history_navigation()
"""


def test_streamlit_still_tells_a_run_started_by_back_or_forward():
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    assert "is_history_navigation" in ScriptRunContext.__dataclass_fields__, (
        f"{internals.HISTORY_NAVIGATION.name}: Streamlit no longer says which run Back or Forward started "
        f"(checked on {internals.CHECKED_STREAMLIT}); after Back a box may show an older value"
    )
    at = AppTest.from_string(HISTORY_SCRIPT, default_timeout=30)
    at.run()
    assert at.session_state["back"] is False, "a plain run is not a history navigation"


def test_an_unreadable_run_context_is_no_history_navigation(monkeypatch, caplog):
    import streamlit.runtime.scriptrunner as scriptrunner

    def broken():
        raise AttributeError("no context here")

    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", broken)
    with caplog.at_level("WARNING"):
        assert internals.is_history_navigation() is False
    assert "is_history_navigation" in caplog.text


@pytest.mark.parametrize("internal", internals.INTERNALS, ids=lambda internal: internal.name.split()[0])
def test_every_internal_is_listed_in_the_contributors_guide(internal):
    with open(GUIDE, encoding="utf-8") as handle:
        guide = handle.read()
    assert internal.name in guide, f"docs/contributing.md's 'Private internals' section does not list {internal.name}"


from streamlit.proto.ClientState_pb2 import ClientState  # noqa: E402
from streamlit.runtime.app_session import AppSession  # noqa: E402


class _Session:
    """Stands in for an AppSession: the parts it holds, and the requests it was given."""

    def __init__(self, parts: set[str]) -> None:
        self.parts = parts
        self.requests: list = []

    def has_fragment(self, fragment_id: str) -> bool:
        return fragment_id in self.parts


def _record(session, client_state=None):
    session.requests.append(client_state)


def _client_state(fragment_id: str, auto: bool = False) -> ClientState:
    state = ClientState(query_string="seed=7", fragment_id=fragment_id, is_auto_rerun=auto)
    state.widget_states.widgets.add(id="$$ID-abc-pg_seed", int_value=7)
    return state


def test_a_change_in_a_part_the_session_does_not_hold_reruns_the_whole_page_with_its_values():
    session = _Session(parts={"held"})
    whole_page_for_unknown = internals.whole_page_for_unknown_parts(_record)
    whole_page_for_unknown(session, _client_state("gone"))
    (sent,) = session.requests
    assert sent.fragment_id == "", "a rerun of the whole page"
    assert [(w.id, w.int_value) for w in sent.widget_states.widgets] == [("$$ID-abc-pg_seed", 7)], "the new value kept"
    assert sent.query_string == "seed=7"


def test_a_part_the_session_holds_a_whole_page_rerun_and_a_parts_timer_pass_unchanged():
    session = _Session(parts={"held"})
    whole_page_for_unknown = internals.whole_page_for_unknown_parts(_record)
    held, timer, whole = _client_state("held"), _client_state("gone", auto=True), _client_state("")
    for state in (held, timer, whole):
        whole_page_for_unknown(session, state)
    whole_page_for_unknown(session)  # no client state: Streamlit's own rerun
    assert session.requests == [held, timer, whole, None]
    assert session.requests[1].fragment_id == "gone", "a timer of a part no longer drawn is still Streamlit's to drop"


def test_the_replacement_is_installed_on_streamlits_session_once(monkeypatch):
    monkeypatch.setattr(AppSession, "request_rerun", AppSession.request_rerun)  # restored after the test
    assert internals.rerun_unknown_parts_in_full() is True
    installed = AppSession.request_rerun
    assert getattr(installed, "rerun_of_unknown_parts", False), (
        f"{internals.FRAGMENT_RERUN.name}: the replacement is not installed (checked on {internals.CHECKED_STREAMLIT})"
    )
    assert internals.rerun_unknown_parts_in_full() is True
    assert AppSession.request_rerun is installed, "installed once, not wrapped again"


def test_without_streamlits_session_method_the_replacement_says_so_and_changes_nothing(monkeypatch, caplog):
    monkeypatch.delattr(AppSession, "has_fragment")
    monkeypatch.setattr(AppSession, "request_rerun", AppSession.request_rerun)
    before = AppSession.request_rerun
    monkeypatch.setattr(internals, "_warned", set())
    with caplog.at_level(logging.WARNING, logger=internals.LOG.name):
        assert internals.rerun_unknown_parts_in_full() is False
    assert AppSession.request_rerun is before
    assert "AppSession.request_rerun" in caplog.text


import zlib  # noqa: E402

from websockets.extensions.permessage_deflate import PerMessageDeflate  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402

# What uvicorn gives the server's side of a connection (its window of 2**12, memLevel 5).
WINDOW_BITS, MEM_LEVEL = 12, 5
MESSAGES = [bytes(range(256)) * 40 + str(i).encode() * 500 for i in range(4)]


def _pair(no_context_takeover: bool = False) -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's side of a deflated connection and the browser's, which reads it."""
    server = PerMessageDeflate(
        no_context_takeover, no_context_takeover, WINDOW_BITS, WINDOW_BITS, {"memLevel": MEM_LEVEL}
    )
    browser = PerMessageDeflate(no_context_takeover, no_context_takeover, WINDOW_BITS, WINDOW_BITS)
    return server, browser


def _read(browser: PerMessageDeflate, frames: list[Frame]) -> list[bytes]:
    return [bytes(browser.decode(frame).data) for frame in frames]


@pytest.fixture
def deflate_patch(monkeypatch):
    """The library's own encode for the test, whatever a page run in this process installed
    before (ui/runtime.py's configure_process), and what was there restored after it."""
    library = getattr(PerMessageDeflate.encode, "__wrapped__", PerMessageDeflate.encode)
    monkeypatch.setattr(PerMessageDeflate, "encode", library)


@pytest.mark.parametrize("no_context_takeover", [False, True])
def test_a_connection_open_before_the_level_changes_deflates_at_it_and_reads_the_same(
    deflate_patch, no_context_takeover
):
    server, browser = _pair(no_context_takeover)
    before = [server.encode(Frame(Opcode.BINARY, message)) for message in MESSAGES[:2]]
    assert internals.deflate_at_level(1) is True
    after = [server.encode(Frame(Opcode.BINARY, message)) for message in MESSAGES[2:]]
    assert _read(browser, before + after) == MESSAGES, "the browser reads every message, before and after"
    level_one = zlib.compressobj(1, zlib.DEFLATED, -WINDOW_BITS, MEM_LEVEL)
    expected = level_one.compress(MESSAGES[2]) + level_one.flush(zlib.Z_SYNC_FLUSH)
    assert bytes(after[0].data) == expected[:-4], "the first message after: zlib's level 1 from a fresh compressor"
    default = zlib.compressobj(6, zlib.DEFLATED, -WINDOW_BITS, MEM_LEVEL)
    assert len(after[0].data) != len((default.compress(MESSAGES[2]) + default.flush(zlib.Z_SYNC_FLUSH))[:-4])


def test_a_control_frame_between_a_messages_frames_keeps_its_compressor(deflate_patch):
    """A ping may come between two frames of one message: the level changes only where a
    message starts, so the message's frames stay one deflate stream."""
    server, browser = _pair()
    first = server.encode(Frame(Opcode.BINARY, MESSAGES[0][:5000], fin=False))
    assert internals.deflate_at_level(1) is True
    ping = server.encode(Frame(Opcode.PING, b"ping"))
    rest = server.encode(Frame(Opcode.CONT, MESSAGES[0][5000:]))
    following = server.encode(Frame(Opcode.BINARY, MESSAGES[1]))
    assert bytes(ping.data) == b"ping"
    read = _read(browser, [first, rest, following])
    assert [read[0] + read[1], read[2]] == MESSAGES[:2]


def test_installing_the_level_twice_wraps_the_library_once(deflate_patch):
    original = PerMessageDeflate.encode
    internals.deflate_at_level(1)
    internals.deflate_at_level(3)
    assert PerMessageDeflate.encode.__wrapped__ is original and PerMessageDeflate.encode.deflate_level == 3
