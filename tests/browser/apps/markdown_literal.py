"""A page that shows each trap of tests/markup.py through ui.markdown.literal in every kind
of element the app puts user text in (tests/browser/test_markdown_rendering.py)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from tests.markup import MARKDOWN_TRAPS  # noqa: E402
from ui.markdown import literal  # noqa: E402

for index, trap in enumerate(MARKDOWN_TRAPS):
    shown = f"trap{index}: {literal(trap)} end"
    with st.container(key=f"trap_{index}"):
        st.markdown(shown)
        st.caption(shown)
        st.warning(shown)
        st.info(shown)
        st.error(shown)
        st.success(shown)
