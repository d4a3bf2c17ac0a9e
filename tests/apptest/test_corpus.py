"""The Train page on a server without Tiny Shakespeare: it says so, offers the download, and
never switches to another corpus silently."""

from __future__ import annotations

import hashlib

import pytest
from streamlit.testing.v1 import AppTest

import gpt_core.data
from gpt_core import synthetic_text
from gpt_core.data import TINY_SHAKESPEARE_FILE
from harness.file_server import serve_folder, unused_local_url
from string_table import error_text, t
from tests.apptest.conftest import APPTEST_TIMEOUT_S, ROOT, asks_for_the_rest, chart_traces, open_page
from ui.markdown import literal

PAGE = "pages/3_train.py"
STAND_IN = synthetic_text("copy", 20_000)  # served as "Tiny Shakespeare", with its own checksum


@pytest.fixture
def no_corpus(monkeypatch, tmp_path):
    """A server where the corpus is nowhere; downloads go to a fresh cache folder."""
    from ui.shared import resources

    cache = tmp_path / "cache"
    monkeypatch.setenv("GPT_CACHE_DIR", str(cache))
    monkeypatch.setattr(gpt_core.data, "tiny_shakespeare_candidates", lambda: [cache / TINY_SHAKESPEARE_FILE])
    monkeypatch.setattr(gpt_core.data, "TINY_SHAKESPEARE_SHA256", hashlib.sha256(STAND_IN.encode()).hexdigest())
    resources.tiny_shakespeare.clear()
    resources.shared_corpus.clear()
    yield cache
    resources.tiny_shakespeare.clear()
    resources.shared_corpus.clear()


def _warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


def _everything_said(at) -> list[str]:
    """The text of every message, caption and Markdown block on the page."""
    kinds = (at.error, at.warning, at.info, at.success, at.caption, at.markdown)
    return [element.value for kind in kinds for element in kind]


def test_the_page_says_the_corpus_is_missing_and_keeps_the_choice(no_corpus):
    at = open_page(PAGE)
    assert at.radio(key="tr_corpus").value == "tinyshakespeare", "never a silent switch to another corpus"
    said = _warnings(at)
    assert "TINY_SHAKESPEARE" in said and "GPT_DATA_DIR" in said and "data/" in said
    assert at.button(key="tr_download").label.startswith("Download Tiny Shakespeare")
    at.number_input(key="tr_steps").set_value(10).run()
    at.button(key="tr_start").click().run()
    assert not at.exception and "tr_model" not in at.session_state
    assert [e.value for e in at.error] == [t("tr.shakespeare_first", tab=t("tr.tab.train"))], "what to do here"
    assert all("Train page" not in said for said in _everything_said(at)), "the reader is on the Train page"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_missing_corpus_message_names_what_to_do_on_this_page(no_corpus, lang):
    at = open_page(PAGE, lang=lang)
    for button in ("tr_start", "tr_exp_start"):  # either tab
        at.button(key=button).click().run()
        assert not at.exception
        assert [e.value for e in at.error] == [t("tr.shakespeare_first", lang, tab=t("tr.tab.train", lang))]
    assert t("tr.download", lang) in [button.label for button in at.button], "the button it speaks of is there"
    assert all("训练页面" not in said and "Train page" not in said for said in _everything_said(at))


def _open_at(url: str) -> AppTest:
    """The Train page as a browser at ``url`` opens it (st.context.url)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=APPTEST_TIMEOUT_S)
    at.context = {"url": url}
    at.switch_page(PAGE)
    at.run()
    if asks_for_the_rest(at):
        at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://localhost:8501/train", True),
        ("http://127.0.0.1:8501/train", True),
        ("http://[::1]:8501/train", True),
        ("http://192.168.1.20:8501/train", False),
        ("https://attention.school.example/train", False),
        ("http://localhost.school.example/train", False),
        (None, False),
    ],
)
def test_the_servers_cache_folder_is_named_only_to_a_browser_on_the_server(no_corpus, url, shown):
    """A student's browser elsewhere has no use for the server's folders (and should not
    learn them); the teacher at the server itself sees where the download goes."""
    at = _open_at(url) if url is not None else open_page(PAGE)
    said = _warnings(at)
    assert "Tiny Shakespeare is not on this server yet" in said
    assert (literal(str(no_corpus)) in said) is shown
    assert ("Downloads are kept in" in said) is shown


def test_the_download_button_fetches_verifies_and_uses_the_corpus(no_corpus, tmp_path, monkeypatch, steady_training):
    www = tmp_path / "www"
    www.mkdir()
    (www / TINY_SHAKESPEARE_FILE).write_text(STAND_IN, encoding="utf-8")
    with serve_folder(www) as url:
        monkeypatch.setenv("TINY_SHAKESPEARE_URL", f"{url}/{TINY_SHAKESPEARE_FILE}")
        at = open_page(PAGE)
        at.button(key="tr_download").click().run()
    assert not at.exception and not at.error
    assert (no_corpus / TINY_SHAKESPEARE_FILE).read_text(encoding="utf-8") == STAND_IN
    assert "tr_download" not in [button.key for button in at.button], "the corpus is here now"
    at.number_input(key="tr_context").set_value(16).run()
    at.number_input(key="tr_steps").set_value(10).run()
    at.button(key="tr_start").click().run()
    assert at.session_state["tr_model"].corpus == "tinyshakespeare"


@pytest.mark.parametrize(("served", "message"), [("corrupted", "not the expected corpus"), ("offline", "offline")])
def test_a_failed_download_says_why_and_changes_nothing(no_corpus, tmp_path, monkeypatch, served, message):
    www = tmp_path / "www"
    www.mkdir()
    (www / TINY_SHAKESPEARE_FILE).write_text(STAND_IN[:-5] + "xxxxx", encoding="utf-8")
    with serve_folder(www) as url:
        where = f"{url}/{TINY_SHAKESPEARE_FILE}" if served == "corrupted" else unused_local_url()
        monkeypatch.setenv("TINY_SHAKESPEARE_URL", where)
        at = open_page(PAGE, lang="en")
        at.button(key="tr_download").click().run()
    assert not at.exception
    assert any(message in e.value for e in at.error)
    assert not (no_corpus / TINY_SHAKESPEARE_FILE).exists()
    assert at.radio(key="tr_corpus").value == "tinyshakespeare"


def test_the_shipped_experiment_shows_without_the_corpus(no_corpus):
    at = open_page(PAGE)
    assert {"h = 1", "h = 8"} <= set(chart_traces(at)), "the shipped curves need no corpus"


def test_a_missing_corpus_is_an_input_error_wherever_it_is_asked_for(no_corpus):
    """The shared corpus itself refuses with the page's message: a caller that forgets to
    look first never hands build_corpus a None."""
    from gpt_core import InputError
    from ui.shared.resources import shared_corpus

    with pytest.raises(InputError) as raised:
        shared_corpus("tinyshakespeare", 32)
    assert raised.value.code == "corpus_missing"
    assert "TINY_SHAKESPEARE" in error_text(raised.value, "en") and "TINY_SHAKESPEARE" in error_text(raised.value, "zh")
    assert shared_corpus("copy", 16).name == "copy", "the generated corpora need no file"


def test_the_stand_in_corpus_is_found_and_verified_like_the_real_one(server_corpus):
    """Every other AppTest runs with the generated stand-in as its server's Tiny Shakespeare
    (tests/apptest/conftest.py): it is found, verified by checksum and has the real alphabet."""
    from ui.shared.resources import shared_corpus

    corpus = shared_corpus("tinyshakespeare", 32)
    assert corpus.text == server_corpus
    assert corpus.vocabulary.size == 65, "Tiny Shakespeare's 65 characters"
