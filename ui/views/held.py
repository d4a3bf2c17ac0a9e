"""What a part of a page that reruns alone (``st.fragment``) keeps of its view between its
reruns. Streamlit keeps a part's arguments for the session until the next full run, so a
view passed to it directly would stay with every session: a long text's view (a real model's
12 heads of 512 tokens, about 70 MB) is meant to live in the server's bounded shared cache
alone. A ``Held`` keeps a small view itself, and a large one only by a weak reference: while
the shared cache (or the page's run) has it, the part reruns with it; once it is gone, the
whole page runs again and makes or fetches it anew."""

from __future__ import annotations

import weakref
from typing import Generic, TypeVar

import streamlit as st

View = TypeVar("View")

KEEP_MAX_BYTES = 8 * 2**20  # a view a session may keep itself (a short text's)


class Held(Generic[View]):
    """``view`` (of ``nbytes`` bytes) as a part keeps it: itself when small, else weakly."""

    __slots__ = ("_kept", "_weak")

    def __init__(self, view: View, nbytes: int) -> None:
        self._kept = view if nbytes <= KEEP_MAX_BYTES else None
        self._weak = weakref.ref(view)

    def get(self) -> View | None:
        """The view, or None once nothing else holds a large one."""
        return self._kept if self._kept is not None else self._weak()


def in_part(held: Held[View]) -> View:
    """The part's view; should it be gone (a long text's, let go by the shared cache), the
    whole page runs again instead of this part."""
    view = held.get()
    if view is None:
        st.rerun(scope="app")
    return view
