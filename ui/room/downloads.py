"""How one session's download of the class's answers went, so that its page can say so. No
Streamlit here.

Streamlit makes a download button's file when it is clicked (a deferred download), in a
thread of its own, while the same click reruns the page: the file and the run race. The
file's maker tells ``Downloads`` how it went (``made``); the click's run waits, at most
``wait_s``, for the file of its click (``after_click``), then reads ``failure``: the page says
a failure on the very run of the click, whichever of the two finished first.
"""

from __future__ import annotations

import threading


class Downloads:
    """One session's downloads: how the last file's making went, and how many were made
    against how many clicks were seen (a click's run waits for its own file)."""

    def __init__(self) -> None:
        self._done = threading.Condition()
        self._made = 0
        self._clicks = 0
        self._failure: str | None = None

    def made(self, failure: str | None) -> None:
        """A file's making ended: ``failure`` names what went wrong (None: the file was made)."""
        with self._done:
            self._made += 1
            self._failure = failure
            self._done.notify_all()

    def after_click(self, wait_s: float) -> None:
        """On the run of a click: waits until that click's file has been made or has failed,
        at most ``wait_s`` seconds (a file that never comes does not hold the next click)."""
        with self._done:
            self._clicks += 1
            self._done.wait_for(lambda: self._made >= self._clicks, timeout=wait_s)
            self._clicks = self._made

    @property
    def failure(self) -> str | None:
        """What went wrong in the last file's making (None: it was made, or none was asked)."""
        with self._done:
            return self._failure
