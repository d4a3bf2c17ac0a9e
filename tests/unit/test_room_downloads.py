"""A download of the class's answers (ui/room/downloads.py): the run of a click waits for that
click's file, made in another thread, and then knows whether it failed; the wait is bounded
when no file comes; a later file made well clears an earlier failure."""

from __future__ import annotations

import threading
import time

from ui.room.downloads import Downloads

LATE_S = 0.3  # how long after the click its file's making ends
WAIT_S = 30.0  # far longer than LATE_S: a busy machine's thread still ends within it
NEVER_WAIT_S = 0.2


def test_the_run_of_a_click_waits_for_its_file_and_knows_it_failed():
    downloads = Downloads()
    maker = threading.Timer(LATE_S, downloads.made, args=("store",))
    started = time.monotonic()
    maker.start()
    downloads.after_click(WAIT_S)
    waited = time.monotonic() - started
    maker.join()
    assert downloads.failure == "store"
    assert LATE_S * 0.9 <= waited < WAIT_S, waited


def test_a_file_made_before_the_run_reached_the_button_is_not_waited_for():
    downloads = Downloads()
    downloads.made("no_room")  # the file's thread finished first
    started = time.monotonic()
    downloads.after_click(WAIT_S)
    assert time.monotonic() - started < WAIT_S / 2
    assert downloads.failure == "no_room"


def test_a_click_whose_file_never_comes_waits_only_so_long_and_holds_no_later_click():
    downloads = Downloads()
    started = time.monotonic()
    downloads.after_click(NEVER_WAIT_S)  # no file for this click
    assert NEVER_WAIT_S * 0.9 <= time.monotonic() - started < WAIT_S
    assert downloads.failure is None
    downloads.made("store")  # the next click's file
    started = time.monotonic()
    downloads.after_click(WAIT_S)
    assert time.monotonic() - started < WAIT_S / 2
    assert downloads.failure == "store"


def test_a_file_made_well_clears_the_failure_before_it():
    downloads = Downloads()
    downloads.made("store")
    downloads.made(None)
    assert downloads.failure is None
