"""Bounded memory and time: every cache with arguments has a bound, every text box a
length limit, every training a wall-time cap, and a link for any accepted text reopens."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gpt_core import GPT, GPTConfig, TrainConfig, build_corpus, synthetic_text, train
from ui.markdown import WORD_JOINER, literal
from ui.playground.state import MAX_PASTE_CHARS, defaults, parse_query, to_query

UI = Path(__file__).resolve().parents[2] / "ui"
CACHES = {"cache_resource", "cache_data"}
BOUNDS = {"max_entries", "ttl"}


def _decorators(node: ast.FunctionDef):
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in CACHES:
            yield decorator


def test_every_cache_that_takes_arguments_is_bounded():
    checked = 0
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in _decorators(node):
                checked += 1
                if not node.args.args:
                    continue  # one entry at most
                keywords = {keyword.arg for keyword in getattr(decorator, "keywords", [])}
                assert keywords & BOUNDS, f"{path.name}:{node.name} caches per argument without a bound"
    assert checked >= 5


def test_every_text_box_has_a_length_limit():
    boxes = 0
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("text_area", "text_input"):
                boxes += 1
                assert "max_chars" in {keyword.arg for keyword in node.keywords}, f"{path.name} line {node.lineno}"
    assert boxes >= 3


def test_a_steps_budget_is_capped_in_wall_time():
    corpus = build_corpus("copy", synthetic_text("copy", 3000), context_length=8)
    model = GPT(GPTConfig(vocab_size=corpus.vocabulary.size, context_length=8, embedding_dim=8, heads=2, blocks=1))
    config = TrainConfig(steps=20_000, batch_size=4, eval_every=10_000, max_seconds=0.3)
    result = train(model, corpus, config)
    assert result.elapsed >= 0.3 and 0 < result.steps < config.steps


@pytest.mark.parametrize("tokenizer", ["char", "word"])
def test_a_link_for_any_accepted_text_reopens_it(tokenizer):
    long_words = " ".join("supercalifragilistic" * 5 for _ in range(128))  # 128 word tokens, ~13 k chars
    for text in (long_words, "字" * 128, "x" * MAX_PASTE_CHARS):
        values = defaults() | {"text": text, "tok": tokenizer}
        reopened, notes = parse_query(to_query(values))
        assert not notes and reopened["text"] == text


def test_markdown_and_html_in_user_text_are_shown_literally():
    text = "**bold** <b>x</b> [link](http://example.com) `code` # title"
    shown = literal(text)
    unescaped = [i for i, char in enumerate(shown) if char in "*<>[]()`#" and shown[i - 1] != "\\"]
    assert not unescaped, shown
    assert shown.replace("\\", "").replace(WORD_JOINER, "") == text, "nothing else changes but invisible joiners"
