"""A failure stays in its place: one view that raises never takes its page down.

``with contained(what, lang):`` around a view's drawing catches any ``Exception`` it raises,
logs the traceback, and shows a short message in the view's place (what failed, what to
try) in the page's language; what was drawn before and after it stays. Streamlit's own
control flow (``st.stop``, ``st.rerun``, ``st.switch_page``) passes through untouched."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

import streamlit as st
from streamlit.runtime.scriptrunner import RerunException, StopException

from string_table import t

LOG = logging.getLogger(__name__)
# st.stop and st.rerun end a run by raising these; in Streamlit 1.67 they derive from
# BaseException (not Exception), but they are named here so no version can turn them into a message.
CONTROL_FLOW = (StopException, RerunException)


@contextmanager
def contained(what: str, lang: str) -> Iterator[None]:
    """Draw the body; should it raise, log it and say in its place that ``what`` (the view's
    own label, already in ``lang``) could not be drawn."""
    try:
        yield
    except CONTROL_FLOW:
        raise
    except Exception:  # noqa: BLE001  # any failure of one view: said in its place, logged in full
        LOG.exception("the view %r failed to draw", what)
        st.error(t("contained.failed", lang, what=what), icon=":material/error:")


def contained_part(what_key: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``contained`` around a whole view function called as ``draw(view, lang, …)``, its
    label the string table's ``what_key``: for a part of the page that reruns alone
    (``st.fragment``), where the page's own ``contained`` around it does not run."""

    def around(draw: Callable[..., None]) -> Callable[..., None]:
        @wraps(draw)
        def drawn(view, lang: str, *args, **kwargs) -> None:
            with contained(t(what_key, lang), lang):
                draw(view, lang, *args, **kwargs)

        return drawn

    return around
