"""Landing page: the app's name, what it does, and the way to every page."""

import streamlit as st

from string_table import t
from ui.shell import PAGES, carried_params, setup_page

lang = setup_page("home")
st.title(t("app.name", lang))
st.write(t("app.tagline", lang))
for page in PAGES[1:]:
    with st.container(border=True):
        st.page_link(page.path, label=t("page." + page.key, lang), icon=page.icon, query_params=carried_params(lang))
        st.caption(t(f"page.{page.key}.blurb", lang))
