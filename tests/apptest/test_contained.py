"""A view that raises stays in its place (ui/contained.py): the page says what failed and
what to try in its language, the elements drawn before and after it are still there, the
traceback is logged, and Streamlit's own control flow (st.stop, st.rerun) passes through."""

from __future__ import annotations

import logging

import pytest
from streamlit.runtime.scriptrunner import RerunException, StopException
from streamlit.testing.v1 import AppTest

from ui.contained import contained

# Written here, not read from the strings table: what a student reads.
FAILED = {
    "en": "“Next-token odds” could not be drawn: something went wrong on the server (it was logged). "
    "The rest of the page still works: try other settings here, or reload the page.",
    "zh": "“下一个词元的概率”无法显示：服务器上出了错（已记录到日志）。页面的其余部分仍可使用：请换一种设置再试，或刷新页面。",
}
VIEW = {"en": "Next-token odds", "zh": "下一个词元的概率"}


def _failing_page(lang: str, what: str) -> None:
    import streamlit as st

    from ui.contained import contained

    st.markdown("before")
    with contained(what, lang):
        st.markdown("drawn inside, before the failure")
        raise ValueError("a view's own bug")
    st.markdown("after")  # reached: the failure stayed inside


def _stopping_page() -> None:
    import streamlit as st

    from ui.contained import contained

    st.markdown("before")
    with contained("a view", "en"):
        st.stop()
    st.markdown("after")


def _rerunning_page() -> None:
    import streamlit as st

    from ui.contained import contained

    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    with contained("a view", "en"):
        if st.session_state["runs"] == 1:
            st.rerun()
    st.markdown(f"runs: {st.session_state['runs']}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_failing_view_says_so_in_its_place_and_the_page_stays(lang, caplog):
    at = AppTest.from_function(_failing_page, args=(lang, VIEW[lang]), default_timeout=30)
    with caplog.at_level(logging.ERROR, logger="ui.contained"):
        at.run()
    assert not at.exception, at.exception
    assert [element.value for element in at.markdown] == ["before", "drawn inside, before the failure", "after"]
    assert [element.value for element in at.error] == [FAILED[lang]]
    records = [record for record in caplog.records if record.name == "ui.contained"]
    assert len(records) == 1 and records[0].levelno == logging.ERROR
    assert VIEW[lang] in records[0].getMessage()
    assert records[0].exc_info is not None and records[0].exc_info[0] is ValueError
    assert "a view's own bug" in caplog.text  # the traceback, with the error's own words


def test_st_stop_inside_a_contained_view_still_stops_the_run_without_a_message():
    at = AppTest.from_function(_stopping_page, default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    assert [element.value for element in at.markdown] == ["before"]
    assert not at.error


def test_st_rerun_inside_a_contained_view_still_reruns_without_a_message():
    at = AppTest.from_function(_rerunning_page, default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["runs"] == 2
    assert [element.value for element in at.markdown] == ["runs: 2"]
    assert not at.error


@pytest.mark.parametrize("control", [StopException(), RerunException(None)])
def test_streamlits_control_flow_exceptions_pass_through_unlogged(control, caplog):
    with caplog.at_level(logging.DEBUG, logger="ui.contained"), pytest.raises(type(control)):
        with contained("a view", "en"):
            raise control
    assert not [record for record in caplog.records if record.name == "ui.contained"]


def _failing_part_page(lang: str) -> None:
    import streamlit as st

    from ui.contained import contained_part

    @st.fragment
    @contained_part("ex.tab.odds")
    def part(view: str, lang: str) -> None:
        if st.toggle("fail", key="fail"):
            raise ValueError(f"{view} failed")
        st.markdown("the part")

    st.markdown("before")
    part("a view", lang)
    st.markdown("after")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_part_that_reruns_alone_says_so_in_its_place_too(lang):
    """A fragment's body (a part of the page that reruns alone, outside the page's own
    ``contained``) is contained with its own label, the string table's."""
    at = AppTest.from_function(_failing_part_page, args=(lang,), default_timeout=30)
    at.run()
    assert [element.value for element in at.markdown] == ["before", "the part", "after"]
    at.toggle(key="fail").set_value(True).run()
    assert not at.exception, at.exception
    assert [element.value for element in at.error] == [FAILED[lang]]
    assert [element.value for element in at.markdown] == ["before", "after"]
