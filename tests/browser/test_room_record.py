"""The teacher's download of the class's answers in a real browser, when the room's store fails
to give them: Streamlit makes the file in its own thread when the button is clicked, while the
click reruns the page, and the page says under the button, in its language, that the answers
could not be downloaded; no file comes and no traceback shows.

The store is a real Redis whose default user may not run SMEMBERS (an ACL set after it starts):
every call the room's page makes works but the record's read, which fails as a broken
connection would, from the click on."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from harness.browser import APP_READY_TIMEOUT_MS, IDLE, exceptions_shown, new_context
from harness.redis_server import need_redis_server, running_redis_server
from harness.server import ARTIFACTS, Server, start_server, stop_server
from string_table import t

PROJECTOR = {"width": 1366, "height": 768}
DOWNLOAD_TIMEOUT_MS = 30_000  # the click's run and its file's thread, on a busy 2-core machine


@pytest.fixture(scope="module")
def failing_record_server(chromium_executable, tmp_path_factory) -> Iterator[Server]:
    need_redis_server()
    with running_redis_server(tmp_path_factory.mktemp("redis")) as redis_server:
        import redis

        client = redis.Redis.from_url(redis_server.url)
        try:
            client.execute_command("ACL", "SETUSER", "default", "-smembers")  # the record's read only
        finally:
            client.close()
        server = start_server("room_record", env={"ROOM_STORE": redis_server.url})
        try:
            yield server
        finally:
            stop_server(server)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_download_the_store_cannot_give_is_said_under_the_button(failing_record_server, playwright_browser, lang):
    context = new_context(playwright_browser, viewport=PROJECTOR, accept_downloads=True)
    try:
        page = context.new_page()
        files: list = []
        page.on("download", lambda download: files.append(download))
        page.goto(f"{failing_record_server.url}/lesson?room=new" + ("&lang=zh" if lang == "zh" else ""))
        page.wait_for_url(re.compile(r"room=[A-Z0-9]{8}&key="), timeout=APP_READY_TIMEOUT_MS)
        said = t("room.record.download_failed.store", lang)
        sidebar = page.get_by_test_id("stSidebar")
        title = sidebar.get_by_text(t("room.record.title", lang), exact=True)
        title.wait_for(timeout=APP_READY_TIMEOUT_MS)  # the whole page drawn, the room's record with it
        page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
        title.click()
        button = sidebar.get_by_role("button", name=t("room.record.download", lang))
        button.wait_for(timeout=APP_READY_TIMEOUT_MS)
        assert sidebar.get_by_text(said).count() == 0, "nothing failed before the click"
        button.click()
        sidebar.get_by_text(said).wait_for(timeout=DOWNLOAD_TIMEOUT_MS)  # the box stays open through the click's run
        page.wait_for_selector(IDLE, timeout=APP_READY_TIMEOUT_MS)
        message = sidebar.get_by_text(said)
        message.scroll_into_view_if_needed()
        assert message.bounding_box()["y"] > button.bounding_box()["y"], "said under the button"
        page.screenshot(path=str(ARTIFACTS / f"room_record_download_failed_{lang}.png"))
        assert exceptions_shown(page) == 0
        assert files == [], "no file for a record the store could not give"
    finally:
        context.close()
