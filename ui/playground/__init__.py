"""The attention playground page: controls (``controls``), one computation per change of
the numbers (``page``), the views (``views``), its URL state (``state``) and downloads
(``exports``).

``render`` is imported when asked for, so that ``state`` (the link's rules, pure Python)
can be read without Streamlit: the installed command's offline page writes its app link
with it."""

from __future__ import annotations

__all__ = ["render"]


def __getattr__(name: str):
    if name == "render":
        from .page import render

        return render
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
