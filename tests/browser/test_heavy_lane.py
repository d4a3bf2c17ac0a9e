"""A class opening the explorer at once, each student with a prompt of their own, against a
real server: the new prompts' pages are made a few at a time (ui/shared/lanes.py), the
waiting students are told how many are ahead of them, and every one of them gets the grid
of every head, with no exception."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

from harness.streamlit_client import RunResult, StreamlitClient

STUDENTS = 12
QUEUED_TEXT = "Queued: "  # string_table/common.py, lane.ahead (en)
PROMPT = "ROMEO:\nBut soft, what light through yonder window breaks? It is the east"


async def _open(url: str, student: int) -> RunResult:
    prompt = f"{student:02d} {PROMPT}"  # a prompt no other student has: its trace and figures are new
    client = StreamlitClient(url, "explorer", urlencode({"model": "h4", "prompt": prompt}))
    await client.connect()
    try:
        return await client.open_page()
    finally:
        await client.close()


async def _class(url: str) -> list[RunResult]:
    return await asyncio.gather(*(_open(url, student) for student in range(STUDENTS)))


def test_new_prompts_opened_at_once_queue_visibly_and_all_open(shared_server):
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API may hold an event loop in this thread
        results = pool.submit(asyncio.run, _class(shared_server.url)).result()
    assert all(result.ok for result in results), [result.exceptions for result in results]
    assert all(result.charts >= 1 for result in results), "every student gets the grid of every head"
    queued = [text for result in results for text in result.texts if text.startswith(QUEUED_TEXT)]
    assert queued, "students who waited were told so"
    counts = sorted({int(text.removeprefix(QUEUED_TEXT).split()[0]) for text in queued})
    assert 1 <= counts[0] and counts[-1] < STUDENTS, counts
