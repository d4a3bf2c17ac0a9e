"""Each page is declared once: a script in ``pages/`` and its line in ``ui/shell.py``'s
``PAGES`` (key, script, icon; its title is the string table's ``page.<key>``). Streamlit's own
page discovery reads the folder, the app's sidebar and landing page read ``PAGES``: this test
keeps the two one list, so a page added, renamed or reordered in one place and not the other
fails here rather than as a missing or doubled link in the sidebar."""

from __future__ import annotations

from pathlib import Path

from streamlit.source_util import page_icon_and_name, page_sort_key

from string_table import LANGUAGES, STRINGS
from ui.shell import PAGES

ROOT = Path(__file__).resolve().parents[2]


def _discovered() -> list[Path]:
    """The page scripts in the order Streamlit's discovery lists them."""
    return sorted(
        (path for path in (ROOT / "pages").glob("*.py") if path.name != "__init__.py"),
        key=page_sort_key,
    )


def test_the_registry_lists_the_home_script_then_every_page_script_in_discovery_order():
    assert PAGES[0].path == "app.py"
    registered = [ROOT / page.path for page in PAGES[1:]]
    assert registered == _discovered()


def test_each_page_key_is_the_url_path_streamlit_gives_its_script():
    for page in PAGES[1:]:
        _icon, name = page_icon_and_name(ROOT / page.path)
        assert name == page.key, page.path


def test_keys_are_unique_and_every_page_has_a_title_and_blurb_in_every_language():
    keys = [page.key for page in PAGES]
    assert len(keys) == len(set(keys))
    for lang in LANGUAGES:
        for page in PAGES:
            assert STRINGS[f"page.{page.key}"].get(lang), (page.key, lang)
        for page in PAGES[1:]:
            assert STRINGS[f"page.{page.key}.blurb"].get(lang), (page.key, lang)


def test_every_icon_is_a_material_icon_not_an_emoji():
    for page in PAGES:
        assert page.icon.startswith(":material/") and page.icon.endswith(":"), page.key
