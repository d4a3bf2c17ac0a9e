"""The lesson's link: the step it shows (``?step=3``), and the parameters of a class's room
that ride on it (ui/room/seat.py reads them): ``room`` (a room's code, or ``new`` to make
one), ``key`` (the teacher's key), ``me`` (an older link's student id, ignored), and
``view``, what a presenting teacher's screen shows in the figure's place. The room's
parameters are the room's, not a step's: reading the link leaves them out, so they are not
noted as unknown. Pure Python (no Streamlit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import rules
from .rules import Note, Param

STEP_PARAM = "step"
ROOM_PARAM, KEY_PARAM, ME_PARAM = "room", "key", "me"
ROOM_PARAMS = (ROOM_PARAM, KEY_PARAM, ME_PARAM)
NEW_ROOM = "new"  # ?room=new: the page makes a room and this session is its teacher
# The teacher's link keeps what the figure's place shows across a reload.
VIEW_PARAM = "view"
VIEW_FIGURE, VIEW_ANSWERS, VIEW_JOIN = "figure", "answers", "join"
VIEWS = (VIEW_FIGURE, VIEW_ANSWERS, VIEW_JOIN)
LINK_ONLY = (*ROOM_PARAMS, VIEW_PARAM)


def params(steps: int) -> tuple[Param, ...]:
    """The lesson's parameters for a lesson of ``steps`` steps (ui/lesson/steps.py)."""
    return (Param(STEP_PARAM, "int", 1, 1, steps),)


def parse_query(params: tuple[Param, ...], query: Mapping[str, str | list[str]]) -> tuple[dict[str, Any], list[Note]]:
    """The step from a query string, and notes about what was not used; the room's
    parameters are left to the room."""
    return rules.parse_query(params, query, ignored=rules.SHELL_PARAMS | frozenset(LINK_ONLY))
