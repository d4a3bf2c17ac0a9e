"""Where a lesson step draws: in normal mode one column, top to bottom (the explanation,
the figure, the question, what the answer reveals); in presentation mode one 1366×768
screen, the explanation, controls and question in a column beside the step's one figure
slot (what the answer reveals replaces the figure before it) and previous/next in a bar
fixed at the screen's bottom."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import streamlit as st

from figures.export import export_name
from figures.overview import plan_overview
from figures.sizing import ChartSize

from ..charts import page_width, show_chart, type_scale
from ..export import MODEBAR_STRIP_PX

TEXT_SHARE, FIGURE_SHARE = 5, 6  # presentation mode: the columns' widths
# The columns' gap and the figure column's padding, in CSS pixels at presentation mode's
# type (st.columns gap="medium" is 2rem).
COLUMN_GAP_PX = 42
NAV_BAR_KEY = "ls_nav_bar"
TEXT_COLUMN_KEY = "ls_text_column"
FIGURE_COLUMN_KEY = "ls_figure_column"
# The fixed bar's height (a button of 2.6rem and its padding): the page's bottom padding, so
# that a step which fits above the bar needs no scrolling.
NAV_BAR_REM = 3.6
# The traced shapes in the figure column (their steps' names left out): the longest line,
# about 64 characters, whole and without sideways scrolling.
CODE_REM = 0.68
PRESENT_MAX_COLUMNS = 4  # the heads overview: in one row up to 4 heads, so it fits the screen's height
# Presentation mode's heads overview: up to 4 heads in two rows of two (panels large enough to
# read from the back of a room), more in rows of PRESENT_MAX_COLUMNS; the tallest figure that
# leaves the step's title and the bar of previous/next on a 768-pixel screen.
PRESENT_PAIRED_HEADS = 4
PRESENT_FIGURE_MAX_PX = 560
WIDTH_STEP_PX = 10
# Presentation mode: the step starts near the top (the header holds only the sidebar's
# button, at the left, beside the content's margin), and the bar stays on screen. The bar is
# fixed to the main area, not the window (layout containment on the main area's frame, which
# does not scroll, makes it the bar's containing block): an open sidebar stands beside the
# bar instead of covering its left end, the previous step's button.
PRESENT_LESSON_CSS = f"""<style>
[data-testid='stMainBlockContainer'] {{ padding-top: 1.2rem; padding-bottom: {NAV_BAR_REM}rem; }}
[data-testid='stHeader'], [data-testid='stHeader'] div {{ background: transparent; pointer-events: none; }}
[data-testid='stHeading'] h3 {{ padding-top: 0; }}
[data-testid='stHeader'] button {{ pointer-events: auto; }}
.st-key-{TEXT_COLUMN_KEY} p, .st-key-{FIGURE_COLUMN_KEY} p {{ font-size: 0.92rem; }}
.st-key-{TEXT_COLUMN_KEY} {{ gap: 0.6rem; }}
.st-key-{FIGURE_COLUMN_KEY} pre code {{ font-size: {CODE_REM}rem; }}
[data-testid='stAppViewContainer'] > div:has(> [data-testid='stMain']) {{ contain: layout; }}
.st-key-{NAV_BAR_KEY} {{ position: fixed; left: 0; right: 0; bottom: 0; z-index: 999; background: #ffffff;
  border-top: 1px solid #d5d5d5; padding: 0.45rem 5rem; }}
.st-key-{NAV_BAR_KEY} .stButton button {{ min-height: 2.6rem; }}
</style>"""


class StepLayout:
    """The containers a step draws into: ``text`` (controls, explanation, question),
    ``figure()`` (one chart or a pair; in presentation mode each call replaces the last)."""

    def __init__(self, presenting: bool, revealed: bool = False, retrying: bool = False, locked: bool = False) -> None:
        self.presenting = presenting
        self.locked = locked  # in a room: the step's inputs are the class's, not to be changed
        # Presentation mode, once answered: the screen shows the answer in place of the
        # question and its lead (both were read), so the step still fits the screen.
        self.compact = presenting and revealed
        # Presentation mode, after a wrong answer: the hint takes the lead's place (read).
        self.hinted = presenting and retrying and not revealed
        if presenting:
            st.html(PRESENT_LESSON_CSS)
            left, right = st.columns([TEXT_SHARE, FIGURE_SHARE], gap="medium")
            self.text = left.container(key=TEXT_COLUMN_KEY)
            self._slot = right.container(key=FIGURE_COLUMN_KEY).empty()
        else:
            self.text = st.container()
            self._slot = None

    @contextmanager
    def figure(self) -> Iterator[None]:
        if self._slot is None:
            with self.text:
                yield
        else:
            with self._slot.container():
                yield

    def chart(self, build, key: str, share: tuple, sized: bool = False, width_px: float | None = None) -> None:
        """A step's chart, ``build`` called only when no session of this server has drawn it
        with the same ``share``: the step's inputs the figure reads besides the page's
        language and presentation mode (its sizes among them). Presenting, without the "show
        as table" option (the step is one screen, and the table is there in normal mode; the
        text alternative stays). ``width_px``: drawn that wide (a figure planned narrower
        than its column)."""
        with st.container(width=int(width_px)) if width_px and self.presenting else st.container():
            show_chart(
                build,
                key,
                sized=sized,
                table=not self.presenting,
                share=("lesson", key, *share),
                file_name=export_name("lesson", key.removeprefix("ls_chart_")),
            )

    def answer_text(self, text: str) -> None:
        """A longer answer in Markdown: in presentation mode it takes the figure's place (the
        figure was the question's; the answer is what the screen is for now)."""
        with self.figure():
            st.markdown(text)

    def sized(self) -> ChartSize:
        """The sizes of a figure drawn in the figure slot: its width and type scale."""
        width = page_width()
        if self.presenting:  # less the height of the toolbar's strip above it, in width (about two stages wide)
            width = (width - COLUMN_GAP_PX) * FIGURE_SHARE / (TEXT_SHARE + FIGURE_SHARE) - 2 * MODEBAR_STRIP_PX
        return ChartSize(width_px=width, scale=type_scale())

    def overview(self, heads: int, labels: list[str]) -> ChartSize:
        """The heads overview's sizes; presentation mode's as large as fits the
        screen's height, in two columns up to PRESENT_PAIRED_HEADS heads."""
        sized = self.sized()
        if not self.presenting:
            return sized
        cols = min(heads, 2) if heads <= PRESENT_PAIRED_HEADS else PRESENT_MAX_COLUMNS
        sized = replace(sized, cols=cols)
        while (
            sized.width_px > WIDTH_STEP_PX and plan_overview(heads, labels, sized).frame.height > PRESENT_FIGURE_MAX_PX
        ):
            sized = replace(sized, width_px=sized.width_px - WIDTH_STEP_PX)
        return sized

    def lead(self, text: str) -> None:
        """The step's lead: what to look at before answering (not drawn in ``compact`` or
        ``hinted``)."""
        if not (self.compact or self.hinted):
            st.markdown(text)

    def stages(self, stages: dict, shown: tuple[str, ...]) -> dict:
        """Presentation mode's figure slot holds the stages ``shown`` (the step's point: one
        row that fits the screen); normal mode all of them."""
        return {name: stages[name] for name in shown} if self.presenting else stages
