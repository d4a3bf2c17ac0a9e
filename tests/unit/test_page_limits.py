"""A text longer than a page's default 128 tokens: the cut is said on the terminal, in the
page, in the view's text and in --help, and the reader may ask for more tokens, up to the
most a page holds (its size is known before it is written: ``seeing_attention.limits``)."""

from __future__ import annotations

import pytest
import torch

import seeing_attention as sa
from gpt_core import InputError
from seeing_attention.cli import main
from seeing_attention.limits import PAGE_LIMIT_BYTES, most_tokens, page_bytes
from tests.unit.test_offline_page import read_page

LONG = "abcdefghij" * 20  # 200 characters: 200 tokens read as characters


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


def test_a_cut_text_is_said_on_the_terminal_in_the_page_and_in_the_views_text(tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["export", "--text", LONG, "-o", str(out)]) == 0
    said = capsys.readouterr().err
    assert "200 tokens" in said and "first 128" in said and "--max-tokens" in said
    data = read_page(out.read_text(encoding="utf-8"))
    assert len(data["tokens"]) == 128
    assert "200 tokens" in data["words"]["cut"] and "first 128" in data["words"]["cut"]
    view = sa.show(LONG, lang="zh")
    assert "200 个词元" in repr(view) and "前 128 个" in repr(view)

    short = tmp_path / "short.html"
    assert main(["export", "--text", "abc", "-o", str(short)]) == 0
    assert capsys.readouterr().err == "", "nothing cut, nothing said"
    assert read_page(short.read_text(encoding="utf-8"))["words"]["cut"] == ""


def test_the_help_says_the_limit_and_how_to_raise_it(capsys):
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "longer than 128 tokens is cut" in text and "--max-tokens" in text
    assert main(["--help"]) == 0
    assert "128 tokens" in " ".join(capsys.readouterr().out.split())


def test_the_limit_is_raised_up_to_the_most_a_page_holds(tmp_path, capsys):
    view = sa.show(LONG, max_tokens=200)
    assert len(view.tokens) == 200 and view.note == ""
    for heads in (1, 4, 8):
        ceiling = most_tokens(heads)
        assert page_bytes(heads, ceiling) <= PAGE_LIMIT_BYTES < page_bytes(heads, ceiling + 1)
    assert most_tokens(4) > 512, "a 4-head page holds the app's longest text"
    ceiling = most_tokens(4)
    with pytest.raises(InputError) as refused:
        sa.show(LONG, max_tokens=ceiling + 1)
    assert refused.value.code == "out_of_range" and str(ceiling) in str(refused.value)
    assert main(["export", "--text", LONG, "--max-tokens", str(ceiling + 1), "-o", str(tmp_path / "no.html")]) == 2
    assert f"between 1 and {ceiling}" in capsys.readouterr().err
    assert not (tmp_path / "no.html").exists()


def test_a_real_models_cut_is_said_too(tiny_model_folders, tmp_path, capsys):
    """A real model reads a text up to its context (64 tokens for the tiny model): the rest is
    cut, and the command, the page and the view say so."""
    folder = str(tiny_model_folders["gpt2"])
    text = "the cat sat on the mat " * 30
    out = tmp_path / "model.html"
    assert main(["export", "--model", folder, "--text", text, "-o", str(out)]) == 0
    said = capsys.readouterr().err
    data = read_page(out.read_text(encoding="utf-8"))
    assert len(data["tokens"]) == 64
    for where in (said, data["words"]["cut"], repr(sa.show(text, model=folder))):
        assert "reads its first 64" in where and folder in where, where
