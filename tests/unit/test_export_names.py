"""A chart's download name and image options (figures/export.py)."""

from __future__ import annotations

import re

import pytest

from figures.export import (
    DEFAULT_FORMAT,
    DEFAULT_SCALE,
    EXPORT_FORMATS,
    EXPORT_SCALES,
    FALLBACK_NAME,
    HASH_CHARS,
    MAX_NAME_CHARS,
    export_name,
    image_options,
    safe_part,
)

SAFE = re.compile(r"[A-Za-z0-9_.-]+")


@pytest.mark.parametrize(
    ("args", "parts", "expected"),
    [
        (("softmax",), {"head": 3, "T": 6, "h": 4, "d": 8}, "softmax_head3_T6_h4_d8"),
        (("heads", "masked_scores"), {"T": 12, "h": 8, "d": 4}, "heads_masked_scores_T12_h8_d4"),
        (("detail",), {"head": 1, "q": 0, "k": 0, "T": 1, "h": 1, "d": 1}, "detail_head1_q0_k0_T1_h1_d1"),
        (("channels",), {"h": 4, "d": 8, "kv": None}, "channels_h4_d8"),
        (("channels",), {"h": 8, "d": 64, "kv": 2}, "channels_h8_d64_kv2"),
        (("grid", "h4"), {"block": 2, "head": 3, "T": 40}, "grid_h4_block2_head3_T40"),
        (("map", "Qwen/Qwen2.5-0.5B", "entropy"), {"T": 9}, "map_Qwen-Qwen2.5-0.5B_entropy_T9"),
        (("lines", "h2"), {"block": 1, "head": "all", "token": None, "T": 5}, "lines_h2_block1_headall_T5"),
        (("loss", "training"), {"step": 120}, "loss_training_step120"),
        (("experiment", "shipped", "final_loss"), {}, "experiment_shipped_final_loss"),
        (("generation", "session"), {"temp": 0.7, "top": True, "seed": 0}, "generation_session_temp0.7_top1_seed0"),
        (("lesson", "1_qkv"), {}, "lesson_1_qkv"),
    ],
)
def test_names_say_what_the_chart_shows(args, parts, expected):
    assert export_name(*args, **parts) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("../../etc/passwd", "etc-passwd"),
        ("a\\b/c", "a-b-c"),
        ("你好 world", "world"),
        ("  spaces  and\ttabs\n", "spaces-and-tabs"),
        (".hidden", "hidden"),
        ('a<b>c:d"e|f?g*h', "a-b-c-d-e-f-g-h"),
        ("", ""),
        (3.0, "3"),
        (False, "0"),
    ],
)
def test_every_part_is_made_safe(value, expected):
    assert safe_part(value) == expected


@pytest.mark.parametrize("text", ["../../x", "C:\\Windows\\x", "/abs/path", "中文/名字", "\x00\x01nul", "a" * 500])
def test_user_text_never_makes_a_path_or_an_unsafe_character(text):
    name = export_name("explorer", text, head=text)
    assert SAFE.fullmatch(name), name
    assert "/" not in name and "\\" not in name and ".." not in name
    assert not name.startswith(".") and len(name) <= MAX_NAME_CHARS


def test_nothing_but_unsafe_text_still_names_a_file():
    assert export_name("中文", "你好") == FALLBACK_NAME
    assert export_name("") == FALLBACK_NAME


def test_a_long_name_is_cut_to_the_bound_and_two_cut_names_stay_apart():
    first = export_name("heads", "x" * 200, T=1)
    second = export_name("heads", "x" * 200, T=2)
    assert len(first) == len(second) == MAX_NAME_CHARS
    assert first != second
    assert first.startswith("heads_xxx") and re.fullmatch(rf".*_[0-9a-f]{{{HASH_CHARS}}}", first)
    assert export_name("a" * MAX_NAME_CHARS) == "a" * MAX_NAME_CHARS  # at the bound: as it is


def test_a_name_already_made_is_unchanged_when_made_again():
    name = export_name("softmax", head=3, T=6, h=4, d=8)
    assert export_name(name) == name


@pytest.mark.parametrize("image_format", EXPORT_FORMATS)
@pytest.mark.parametrize("scale", EXPORT_SCALES)
def test_image_options_carry_the_choice_and_leave_the_size_as_shown(image_format, scale):
    options = image_options("softmax_head3_T6_h4_d8", image_format, scale)
    assert options == {"format": image_format, "filename": "softmax_head3_T6_h4_d8", "scale": scale}


def test_an_unknown_format_or_scale_is_the_default_and_a_bad_name_is_made_safe():
    options = image_options("../x y", "exe", 9)
    assert options == {"format": DEFAULT_FORMAT, "filename": "x-y", "scale": DEFAULT_SCALE}
    assert image_options("", "svg", 1)["filename"] == FALLBACK_NAME
