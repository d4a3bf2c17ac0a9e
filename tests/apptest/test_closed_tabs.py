"""A choice made in one lazy tab survives work in another: Streamlit drops a widget's value on
a run that does not draw the widget (a closed tab's), and the page state must not let an older
value show through (ui/page_state/state.py, restore)."""

from __future__ import annotations

from tests.apptest.conftest import open_page, open_tab

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"


def query(at) -> dict[str, str]:
    return {key: value[0] if isinstance(value, list) else value for key, value in at.query_params.items()}


def test_a_playground_tabs_choice_outlives_another_tab_and_a_number_change():
    at = open_page(PLAYGROUND, text="the cat sat", view="token")
    at.button_group(key="pg_token_dir").set_value("read_by").run()
    assert query(at)["token_dir"] == "read_by"
    open_tab(at, "softmax")  # the token tab closes: its controls are not drawn
    at.number_input(key="pg_seed").set_value(3).run()
    assert not at.exception, at.exception
    assert query(at)["token_dir"] == "read_by"
    open_tab(at, "token")
    assert at.button_group(key="pg_token_dir").value == "read_by"


def test_an_explorer_tabs_choice_outlives_another_tab_and_its_controls():
    at = open_page(EXPLORER, model="h4", view="metrics")
    at.segmented_control(key="ex_metric").set_value("entropy").run()
    at.session_state["ex_view"] = "training"
    at.run()
    at.select_slider(key="ex_step").set_value(at.select_slider(key="ex_step").options[1]).run()
    assert not at.exception, at.exception
    assert query(at)["metric"] == "entropy"
    at.session_state["ex_view"] = "metrics"
    at.run()
    assert at.segmented_control(key="ex_metric").value == "entropy"


def test_the_cache_views_step_outlives_another_tab_and_its_controls():
    at = open_page(EXPLORER, model="h4", view="cache", prompt="ROMEO:\nBut soft")  # 8 steps fit its context
    at.slider(key="ex_cache_step").set_value(4).run()
    assert query(at)["cache_step"] == "4"
    at.session_state["ex_view"] = "training"  # the cache tab closes: its slider is not drawn
    at.run()
    at.select_slider(key="ex_step").set_value(at.select_slider(key="ex_step").options[1]).run()
    assert not at.exception, at.exception
    assert query(at)["cache_step"] == "4" and query(at)["step"] == str(at.select_slider(key="ex_step").options[1])
    at.session_state["ex_view"] = "cache"
    at.run()
    assert not at.exception, at.exception
    assert at.slider(key="ex_cache_step").value == 4
