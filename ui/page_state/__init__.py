"""One way for every page to keep its view: the rules, pure Python, in ``rules.py``; the
page's state in Streamlit's session, in ``state.py`` (``PageState``)."""
