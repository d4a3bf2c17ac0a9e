"""A student is one browser: the student's anonymous id lives in a cookie this app sets in the
browser (``assets/room_student.js``), not in the link. The cookie comes with every page the
browser opens on this site (every process behind nginx reads it), so a reload or a second
scan of the QR code is the same student; the link opened in another browser (a shared
screenshot) is another student, and no id in a link makes anyone someone else."""

from __future__ import annotations

from functools import cache

import streamlit as st

from classroom.model import is_student_id
from seeing_attention.paths import ASSETS

STUDENT_JS = ASSETS / "room_student.js"
COOKIE = "sa_student"
COMPONENT_KEY = "rm_student_cookie"


@cache  # registered once per process
def _component():
    return st.components.v2.component("room_student", js=STUDENT_JS.read_text(encoding="utf-8"))


def browser_student() -> str | None:
    """The id this browser was given, from its cookie (None when it has none)."""
    cookies = st.context.cookies
    given = cookies.get(COOKIE) if hasattr(cookies, "get") else None
    return given if is_student_id(given) else None


def keep(student: str, max_age_s: float) -> None:
    """Writes (or renews) the browser's cookie for ``student``."""
    _component()(key=COMPONENT_KEY, data={"name": COOKIE, "id": student, "maxAge": int(max_age_s)})
