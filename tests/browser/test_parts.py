"""What a change sends, against a real server: a control whose change touches one chart reruns
that chart only (``st.fragment``), and a seed change sends no figure of the playground's closed
tabs. Each run's charts are listed by key, as the websocket client (speaking for the browser,
harness/streamlit_client.py) or Chromium's own websocket received them."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlencode, urlparse

import numpy as np
import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from gpt_core import PlaygroundConfig, trace_attention
from gpt_core.playground import MAX_SEED
from harness.browser import IDLE, exceptions_shown, wait_for_rerun
from harness.charts import (
    assert_displays,
    cell_centre,
    read_traces,
    traces_by_name,
    wait_for_charts,
    wait_for_trace,
)
from harness.streamlit_client import StreamlitClient
from links.explorer import COMBINE_KINDS
from links.explorer import VIEWS as EXPLORER_VIEWS
from links.playground import VIEWS
from string_table import t

LINK = {"text": "to be or not", "heads": "3", "head_dim": "4", "seed": "11"}
OVERVIEW, DETAIL = "pg_overview_chart", "pg_detail_chart"


def _in_thread(coroutine):
    # Playwright's sync API may be running an event loop in this thread: the client runs in its own.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _opened(url: str, **query: str) -> StreamlitClient:
    client = StreamlitClient(url, "playground", urlencode({**LINK, **query}))
    await client.connect()
    for _ in range(2):  # the first screen, then the rest of the page
        opened = await client.open_page()
        assert opened.ok, opened.exceptions
    return client


async def _part_changes(url: str) -> dict:
    client = await _opened(url)
    try:
        raw = t("stage_short.scores", "en")  # a segmented control's value travels as its label
        stage = await client.set_widget("pg_stage", string_array_value={"data": [raw]})
        crafted = await client.set_widget("pg_stage", string_array_value={"data": ["<b>zzz</b>"]})
        cells = await client.set_widget("pg_cells", bool_value=False)
        seed = await client.set_widget("pg_seed", int_value=12)
    finally:
        await client.close()
    return {"stage": stage, "crafted": crafted, "cells": cells, "seed": seed}


async def _setup_changes(url: str) -> dict:
    client = await _opened(url)
    client.keep_frames = True
    try:
        seed = await client.set_widget("pg_seed", int_value=12)
        heads = await client.set_widget("pg_heads", int_value=2)
        too_large = await client.set_widget("pg_seed", int_value=MAX_SEED + 5)
        back = await client.set_widget("pg_seed", int_value=3)
    finally:
        await client.close()
    return {"seed": seed, "heads": heads, "too_large": too_large, "back": back}


def _widgets_sent(run) -> set[str]:
    """The keys of the widgets a run drew (a widget's id ends in its key)."""
    keys = set()
    for data in run.frames:
        message = ForwardMsg()
        message.ParseFromString(data)
        if message.WhichOneof("type") != "delta" or message.delta.WhichOneof("type") != "new_element":
            continue
        element = message.delta.new_element
        element_id = getattr(getattr(element, element.WhichOneof("type")), "id", "")
        if element_id.startswith("$$ID-"):
            keys.add(element_id.split("-", 2)[2])
    return keys


CONTROLS = {"pg_preset", "pg_text", "pg_weights", "pg_tok", "pg_heads", "pg_head_dim", "pg_seed", "pg_predict"}


def test_a_seed_change_reruns_the_charts_not_the_controls_nor_the_shell(shared_server):
    """A seed change reruns what the numbers draw (the charts' part): its charts, the open
    tab and the link, with the new numbers; the controls and the page's shell stay as drawn."""
    run = _in_thread(_setup_changes(shared_server.url))["seed"]
    assert run.ok, run.exceptions
    assert run.status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    assert {OVERVIEW, DETAIL} <= set(run.chart_keys), "every chart of the set-up"
    assert not _widgets_sent(run) & CONTROLS, "no control"
    assert "pg_head" in _widgets_sent(run), "the detail's own choices are the charts'"
    assert _query(run.query_strings[-1])["seed"] == "12", "the link follows"
    said = "\n".join(run.texts)
    last = len(LINK["text"]) - 1  # the default row: the last token (characters)
    assert t("pg.softmax_intro", "en", head=1, row=last).split(":")[0] in said, "the open tab too"
    assert t("app.name", "en") not in said and t("page.playground.blurb", "en") not in said, "no shell"
    detail = json.loads(run.chart_specs[run.chart_keys.index(DETAIL)])
    config = PlaygroundConfig(heads=int(LINK["heads"]), head_dim=int(LINK["head_dim"]), seed=12)
    expected = trace_attention(LINK["text"], config).trace.weights[0, 0].numpy()
    assert_displays(traces_by_name(detail)["softmax weights · head 1"], expected)


def test_a_seed_out_of_range_reruns_the_set_up_whose_box_says_so_and_the_next_one_too(shared_server):
    """A seed the box can't hold is clamped, and the box says so under it: that is the set-up's
    rerun, its controls with it; so is the next seed's, which takes the note away again."""
    runs = _in_thread(_setup_changes(shared_server.url))
    clamped = t("note.box_clamped", "en", name=t("pg.seed", "en"), low=0, high=MAX_SEED, used=MAX_SEED)
    for name, note_shown in (("too_large", True), ("back", False)):
        run = runs[name]
        assert run.ok, run.exceptions
        assert "pg_seed" in _widgets_sent(run), name
        assert (clamped in "\n".join(run.texts)) is note_shown, name
    assert _query(runs["too_large"].query_strings[-1])["seed"] == str(MAX_SEED)
    assert _query(runs["back"].query_strings[-1])["seed"] == "3"


async def _seed_after_a_link_with_notes(url: str):
    client = StreamlitClient(url, "playground", urlencode({**LINK, "heads": "zzz"}))
    await client.connect()
    try:
        opened = [await client.open_page() for _ in range(2)]  # the first screen, then the rest
        return opened, await client.set_widget("pg_seed", int_value=14)
    finally:
        await client.close()


def test_a_seed_change_after_a_link_with_notes_takes_the_notes_away(shared_server):
    """A link's notes (a value it held that could not be used) are drawn by the set-up; the
    first change of a number makes them old news, so that change reruns the set-up, not only
    the charts."""
    opened, changed = _in_thread(_seed_after_a_link_with_notes(shared_server.url))
    assert any("zzz" in text for run in opened for text in run.texts), "the note is shown first"
    assert changed.ok, changed.exceptions
    assert changed.status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    assert t("pg.c_equals", "en", h=4, d=4, C=16) in changed.texts, "the set-up's controls again"
    assert not any("zzz" in text for text in changed.texts), "and the note gone"
    assert _query(changed.query_strings[-1])["seed"] == "14"


def test_a_size_change_reruns_the_set_up_with_its_controls_not_the_pages_shell(shared_server):
    """A change of the heads reruns the set-up's part, its controls too (C = h × d under
    them says the new size), without the page's shell."""
    run = _in_thread(_setup_changes(shared_server.url))["heads"]
    assert run.ok, run.exceptions
    assert run.status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    assert CONTROLS <= _widgets_sent(run)
    assert {OVERVIEW, DETAIL} <= set(run.chart_keys)
    assert _query(run.query_strings[-1])["heads"] == "2"
    said = "\n".join(run.texts)
    assert t("pg.c_equals", "en", h=2, d=int(LINK["head_dim"]), C=2 * int(LINK["head_dim"])) in said
    assert t("app.name", "en") not in said and t("page.playground.blurb", "en") not in said, "no shell"


async def _change_in_a_part_not_held(url: str, key: str, value: int):
    client = await _opened(url)
    try:
        client.widget_fragments[key] = "a-part-this-session-never-drew"  # as after a server restart
        return await client.set_widget(key, int_value=value)
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("key", "name", "value", "status"),
    [
        ("pg_head_dim", "head_dim", 5, ForwardMsg.FINISHED_SUCCESSFULLY),  # the whole page
        ("pg_seed", "seed", 13, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY),  # its callback: the charts
    ],
)
def test_a_change_in_a_part_the_server_does_not_hold_reruns_the_whole_page_with_it(
    shared_server, key, name, value, status
):
    """Streamlit drops a rerun of a part its session does not hold (a server that restarted
    under an open page, before its first run drew the part), and with it the control's new
    value; here the whole page reruns with it instead (ui/internals.py), or, for a control of
    the numbers only, the charts' part its callback names."""
    run = _in_thread(_change_in_a_part_not_held(shared_server.url, key, value))
    assert run.ok, run.exceptions
    assert run.status == status
    assert _query(run.query_strings[-1])[name] == str(value), "the new value was not lost"
    assert {OVERVIEW, DETAIL} <= set(run.chart_keys)


def _query(query_string: str) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(query_string).items()}


def test_the_stage_and_the_values_toggle_send_their_own_chart_only(shared_server):
    runs = _in_thread(_part_changes(shared_server.url))
    for run in runs.values():
        assert run.ok, run.exceptions
    assert runs["stage"].chart_keys == [OVERVIEW]
    assert runs["stage"].status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    assert _query(runs["stage"].query_strings[-1])["stage"] == "scores", "the link follows"
    assert not runs["crafted"].query_strings, "a label no option has: the stage stays, the link too"
    assert runs["crafted"].chart_keys == [OVERVIEW], "a label no option has: the stage shown stays, no error"
    assert runs["cells"].chart_keys == [DETAIL]
    assert _query(runs["cells"].query_strings[-1])["cells"] == "0"
    assert {OVERVIEW, DETAIL} <= set(runs["seed"].chart_keys), "a seed change still redraws both"
    assert runs["stage"].bytes < runs["seed"].bytes and runs["cells"].bytes < runs["seed"].bytes


async def _combine_change(url: str):
    client = StreamlitClient(
        url, "explorer", urlencode({"model": "h2", "prompt": "ROMEO:\nBut soft", "view": "combined"})
    )
    await client.connect()
    try:
        for _ in range(2):  # the first screen, then the rest of the page
            opened = await client.open_page()
            assert opened.ok, opened.exceptions
        rollout = client.widget_options["ex_combine"][COMBINE_KINDS.index("rollout")]
        return await client.set_widget("ex_combine", string_array_value={"data": [rollout]})
    finally:
        await client.close()


def test_the_explorers_combine_choice_sends_its_own_chart_only(shared_server):
    changed = _in_thread(_combine_change(shared_server.url))
    assert changed.ok, changed.exceptions
    assert changed.chart_keys == ["ex_combined_chart"]
    assert _query(changed.query_strings[-1])["combine"] == "rollout"


async def _change_charts(url: str, page: str, query: dict, change: tuple) -> set[str]:
    """The keys of the charts a change sends, the page opened with ``query``."""
    client = StreamlitClient(url, page, urlencode(query))
    await client.connect()
    try:
        for _ in range(2):  # the first screen, then the rest of the page
            opened = await client.open_page()
            assert opened.ok, opened.exceptions
        key, value = change
        changed = await client.set_widget(key, **value)
        assert changed.ok, changed.exceptions
    finally:
        await client.close()
    return set(changed.chart_keys)


def _assert_own_charts(sent: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each tab's charts (what a change with it open sends beyond what every tab's sends):
    no tab's change sends a chart of another tab."""
    always = set.intersection(*sent.values())
    own = {view: keys - always for view, keys in sent.items()}
    for view, keys in own.items():
        for other, other_keys in own.items():
            if other != view:
                assert not keys & other_keys, f"{other} open sends a chart of {view}: {keys & other_keys}"
    return own


def test_a_seed_change_sends_no_chart_of_a_closed_tab(shared_server):
    seed = ("pg_seed", {"int_value": 12})
    sent = {
        view: _in_thread(_change_charts(shared_server.url, "playground", {**LINK, "view": view}, seed))
        for view in VIEWS
    }
    assert {OVERVIEW, DETAIL} <= set.intersection(*sent.values())
    own = _assert_own_charts(sent)
    assert own["shapes"] and own["combined"] and own["qk"] and own["token"], own


def test_a_prompt_change_in_the_explorer_sends_no_chart_of_a_closed_tab(shared_server):
    prompt = ("ex_prompt", {"string_value": "ROMEO:\nBut hard"})
    query = {"model": "h2", "prompt": "ROMEO:\nBut soft"}
    sent = {
        view: _in_thread(_change_charts(shared_server.url, "explorer", {**query, "view": view}, prompt))
        for view in EXPLORER_VIEWS
    }
    own = _assert_own_charts(sent)
    assert all(own.values()), own  # every tab of the explorer has a chart of its own


def _drawn(payload) -> list[str]:
    """What one websocket frame from the server draws: a chart's key; "cached" for an element
    the browser holds already (the server sends only its hash, and the browser redraws it);
    "full run" or "part run" for a run's end."""
    if not isinstance(payload, bytes):
        return []
    message = ForwardMsg()
    message.ParseFromString(payload)
    kind = message.WhichOneof("type")
    if kind == "ref_hash":
        return ["cached"]
    if kind == "script_finished":
        return ["part run" if message.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY else "full run"]
    if kind != "delta" or message.delta.WhichOneof("type") != "new_element":
        return []
    element = message.delta.new_element
    return [element.plotly_chart.id.rsplit("-", 1)[-1]] if element.WhichOneof("type") == "plotly_chart" else []


def test_clicking_another_stage_redraws_the_overview_and_the_link_not_the_detail(shared_server, browser_page):
    received: list[str] = []
    browser_page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.extend(_drawn(frame))))
    browser_page.goto(f"{shared_server.url}/playground?{urlencode(LINK)}")
    wait_for_charts(browser_page)
    wait_for_trace(browser_page, "raw scores QKᵀ · head 1")  # the detail: the whole page is drawn
    browser_page.wait_for_selector(IDLE)  # the first visit's runs are over
    received.clear()
    buttons, raw = browser_page.locator(".st-key-pg_stage"), t("stage_short.scores", "en")
    buttons.get_by_role("radio", name=raw).or_(buttons.get_by_role("button", name=raw)).first.click()
    wait_for_rerun(browser_page)
    wait_for_trace(browser_page, "raw scores QKᵀ · head 3")  # the overview's heads, now raw scores
    browser_page.wait_for_function("() => new URLSearchParams(location.search).get('stage') === 'scores'")
    expected = trace_attention(LINK["text"], PlaygroundConfig(heads=3, head_dim=4, seed=11)).trace
    shown = np.array(read_traces(browser_page)["raw scores QKᵀ · head 3"]["z"], dtype=np.float64)
    np.testing.assert_allclose(shown, expected.scores[0, 2].double().numpy(), atol=1e-3, rtol=1e-3)
    assert received == [OVERVIEW, "part run"], f"the click's run drew {received}"
    assert parse_qs(urlparse(browser_page.url).query)["seed"] == ["11"], "the rest of the link stays"
    # The redrawn overview still answers a click (its third head, axis 3): head 3, query 2, key 1.
    x, y = cell_centre(browser_page, OVERVIEW, "3", 2, 1)
    browser_page.mouse.move(x, y)
    browser_page.mouse.click(x, y)
    browser_page.wait_for_function("() => /head=3.*row=2.*col=1/.test(location.search)")
    wait_for_trace(browser_page, "masked (−∞ above the diagonal) · head 3")  # the detail, now head 3
    assert parse_qs(urlparse(browser_page.url).query)["stage"] == ["scores"], "the stage stays after a full run"
    assert exceptions_shown(browser_page) == 0
