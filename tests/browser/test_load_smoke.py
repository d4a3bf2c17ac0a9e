"""A short version of the classroom load test, against a real server: five students over
Streamlit's websocket protocol open the same link and change the seed; nobody gets an
error or a script exception, and every change comes back with the charts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from benchmarks.classroom import SCENARIOS, run_scenario


def test_five_students_on_one_link_get_every_run_without_errors(chromium_executable):
    # In a thread: Playwright's sync API (a session fixture) keeps an event loop running in
    # the main thread, where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        report = pool.submit(run_scenario, "smoke", None).result()
    smoke = SCENARIOS["smoke"]
    assert report["errors"] == 0, report["error_examples"]
    assert report["script_exceptions"] == 0
    assert report["first_render"]["count"] == smoke["students"]
    assert report["interaction"]["count"] == smoke["students"] * smoke["changes"]
    assert report["megabytes_sent"] > 0.3 * report["interaction"]["count"], "each change sends its figures"
