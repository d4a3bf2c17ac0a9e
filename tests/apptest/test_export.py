"""Every chart downloads as the student chose in the sidebar (SVG or PNG, scale 1-4), named
after what it shows: the config each chart is drawn with, as the browser receives it."""

from __future__ import annotations

import json

from figures.export import DEFAULT_FORMAT, DEFAULT_SCALE
from string_table import t
from tests.apptest.conftest import open_page, open_tab
from ui.charts import SHARED_FIGURES
from ui.explorer.views import DETAIL_CHART_KEY as EX_DETAIL
from ui.explorer.views import GRID_CHART_KEY as EX_GRID
from ui.export import FORMAT_WIDGET, PLOTLY_TITLES, SCALE_WIDGET
from ui.playground.views import DETAIL_CHART_KEY as PG_DETAIL
from ui.playground.views import OVERVIEW_CHART_KEY

PLAYGROUND = "pages/1_playground.py"
EXPLORER = "pages/4_explorer.py"


def configs(at) -> dict[str, dict]:
    """Each chart's Plotly config, by the chart's key (the end of its element id)."""
    found = {}
    for chart in at.get("plotly_chart"):
        key = chart.proto.id.rsplit("-", 1)[-1]
        found[key] = json.loads(chart.proto.config)
    return found


def choose(at, image_format: str, scale: int):
    at.button_group(key=FORMAT_WIDGET).set_value(image_format).run()
    at.button_group(key=SCALE_WIDGET).set_value(scale).run()
    assert not at.exception, at.exception
    return at


def assert_every_chart(at, image_format: str, scale: int, lang: str) -> dict[str, dict]:
    found = configs(at)
    assert found, "the page drew charts"
    title = (
        t("export.button", lang, format="SVG")
        if image_format == "svg"
        else t("export.button_scaled", lang, format="PNG", scale=scale)
    )
    for key, config in found.items():
        options = config["toImageButtonOptions"]
        assert options["format"] == image_format and options["scale"] == scale, key
        assert "width" not in options and "height" not in options, "the chart's own size, as shown"
        assert config["displaylogo"] is False
        dictionary = config["locales"][config["locale"]]["dictionary"]
        assert {dictionary[english] for english in PLOTLY_TITLES} == {title}, key
        assert dictionary["Image download succeeded"] == t("export.done", lang)
    return found


def test_the_default_is_png_at_twice_the_size_with_names_of_what_is_shown():
    at = open_page(PLAYGROUND, text="abcdef", heads="4", head_dim="8", head="3", row="2", col="1")
    assert not at.exception, at.exception
    found = assert_every_chart(at, DEFAULT_FORMAT, DEFAULT_SCALE, "en")
    assert found[OVERVIEW_CHART_KEY]["toImageButtonOptions"]["filename"] == "heads_weights_T6_h4_d8"
    assert found[PG_DETAIL]["toImageButtonOptions"]["filename"] == "detail_head3_q2_k1_T6_h4_d8"
    open_tab(at, "shapes")
    assert configs(at)["pg_channel_chart"]["toImageButtonOptions"]["filename"] == "channels_h4_d8"


def test_the_setting_changes_every_chart_in_both_languages_and_survives_a_page_switch():
    at = open_page(PLAYGROUND, text="abcdef", heads="2")
    choose(at, "svg", 1)
    assert_every_chart(at, "svg", 1, "en")
    assert t("export.button", "en", format="SVG") == "Download as SVG"
    at.sidebar.selectbox(key="language_select").set_value("zh").run()
    assert not at.exception, at.exception
    assert_every_chart(at, "svg", 1, "zh")
    assert at.button_group(key=FORMAT_WIDGET).label == t("export.format", "zh")
    choose(at, "png", 4)
    found = assert_every_chart(at, "png", 4, "zh")
    overview = found[OVERVIEW_CHART_KEY]
    assert overview["locales"][overview["locale"]]["dictionary"]["Download plot as a PNG"] == "下载为 PNG（4×）"
    at.switch_page(EXPLORER).run()
    if not at.exception and not at.get("plotly_chart"):
        at.run()  # the first screen asked for the rest
    assert not at.exception, at.exception
    assert at.button_group(key=FORMAT_WIDGET).value == "png" and at.button_group(key=SCALE_WIDGET).value == 4
    assert_every_chart(at, "png", 4, "zh")


def test_the_explorer_charts_follow_the_setting_and_say_model_block_and_head():
    at = open_page(EXPLORER, model="h2", prompt="ROMEO:", block="2", head="1")
    assert not at.exception, at.exception
    choose(at, "svg", 3)
    found = assert_every_chart(at, "svg", 3, "en")
    assert found[EX_GRID]["toImageButtonOptions"]["filename"] == "grid_h2_block2_head1_T6"
    assert found[EX_DETAIL]["toImageButtonOptions"]["filename"] == "detail_h2_block2_head1_T6"
    names = [config["toImageButtonOptions"]["filename"] for config in found.values()]
    assert len(set(names)) == len(names), "every chart has its own name"


def test_a_chart_shared_by_sessions_stays_shared_whatever_each_one_chose():
    link = {"text": "shared export", "heads": "3", "seed": "7"}
    first = open_page(PLAYGROUND, **link)
    spec = {chart.proto.id.rsplit("-", 1)[-1]: chart.proto.spec for chart in first.get("plotly_chart")}
    entries = len(SHARED_FIGURES)
    second = choose(open_page(PLAYGROUND, **link), "svg", 4)
    assert len(SHARED_FIGURES) == entries, "the second session drew the figures the first one made"
    for chart in second.get("plotly_chart"):
        key = chart.proto.id.rsplit("-", 1)[-1]
        assert chart.proto.spec == spec[key]
        assert json.loads(chart.proto.config)["toImageButtonOptions"]["format"] == "svg"
    first.run()
    assert {json.loads(c.proto.config)["toImageButtonOptions"]["format"] for c in first.get("plotly_chart")} == {"png"}


def test_a_crafted_format_or_scale_leaves_the_setting_as_it_was():
    at = choose(open_page(PLAYGROUND, text="abc"), "svg", 2)
    at.session_state[FORMAT_WIDGET] = "exe"
    at.session_state[SCALE_WIDGET] = 99
    at.run()
    assert not at.exception, at.exception
    assert_every_chart(at, "svg", 2, "en")


def test_every_view_and_compare_mode_name_their_charts_for_what_they_show():
    """The views below the playground's charts, compare mode and the explorer's tabs: each
    chart's download name says what it shows and the sizes, never the fallback name."""
    from figures.export import FALLBACK_NAME
    from links.explorer import VIEWS as EX_VIEWS
    from links.playground import VIEWS

    names = {}
    for view in VIEWS:
        at = open_page(PLAYGROUND, view=view, heads="2", seed="3")
        assert not at.exception, at.exception
        names.update({key: config["toImageButtonOptions"]["filename"] for key, config in configs(at).items()})
    at = open_page(PLAYGROUND, cmp="1", heads="2", b_heads="2")
    names.update({f"cmp:{key}": config["toImageButtonOptions"]["filename"] for key, config in configs(at).items()})
    at = open_page(EXPLORER, model="h4")
    for tab in EX_VIEWS:  # the explorer's tabs are lazy: each in turn
        open_tab(at, tab, "ex_view")
        names.update({f"ex:{key}": config["toImageButtonOptions"]["filename"] for key, config in configs(at).items()})
    assert len(names) >= 12, names
    for key, name in names.items():
        assert name != FALLBACK_NAME and key.split(":")[-1] not in name, (key, name)
    expected = (
        "qk_head1_q",
        "token_both_position",
        "mean_T",
        "rollout_T",
        "compare_A_weights",
        "compare_B_weights",
        "b_minus_a_weights_T",
        "odds_h4",
        "mean_h4_block1",
        "token_h4",
    )
    for start in expected:
        assert any(start in name for name in names.values()), (start, sorted(names.values()))
