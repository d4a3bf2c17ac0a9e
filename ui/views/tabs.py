"""One tab dispatch for the pages' views below their first screen: a table of tab name →
the function that draws it; only the open tab's runs (``ui/lazy_tabs.py``), and a view that
fails says so in its tab (``ui/contained.py``), the rest of the page staying."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from string_table import t

from ..contained import contained
from ..lazy_tabs import lazy_tabs


def check_table(names: Sequence[str], table: Mapping[str, Callable[[], None]]) -> None:
    """Every tab has its view and every view its tab (a page's link names the tabs)."""
    if set(names) != set(table):
        missing, extra = sorted(set(names) - set(table)), sorted(set(table) - set(names))
        raise ValueError(f"tabs without a view: {missing}; views without a tab: {extra}")


def draw_open_tab(
    names: Sequence[str],
    table: Mapping[str, Callable[[], None]],
    key: str,
    lang: str,
    string_prefix: str,
    chosen: str | None = None,
    on_choose: Callable[[str], None] | None = None,
) -> str:
    """Draw the tabs ``names`` (``lazy_tabs``'s arguments) and, in the open one, its view from
    ``table``; return the open tab's name."""
    check_table(names, table)
    open_tab, tabs = lazy_tabs(names, key, lang, string_prefix, chosen=chosen, on_choose=on_choose)
    with tabs[open_tab], contained(t(f"{string_prefix}.{open_tab}", lang), lang):
        table[open_tab]()
    return open_tab
