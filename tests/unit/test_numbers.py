"""ui.numbers: sizes and parameter counts as a person reads them (the expected strings written
out by hand)."""

from __future__ import annotations

import pytest

from ui.numbers import format_bytes, parameters_text


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (548_000_000, "548 MB"),
        (1_200_000_000, "1.2 GB"),
        (900, "900 B"),
        (999, "999 B"),
        (1000, "1.0 kB"),
        (9_949, "9.9 kB"),
        (10_000, "10 kB"),
        (10_500, "10 kB"),
        (999_999, "1000 kB"),
        (1_000_000, "1.0 MB"),
        (10_000_000, "10 MB"),
        (1_000_000_000, "1.0 GB"),
        (12_000_000_000, "12 GB"),
        (0, "0 B"),
    ],
)
def test_sizes_read_as_a_person_reads_them(count, text):
    """One decimal below ten units, none from ten on; each unit from exactly its size."""
    assert format_bytes(count) == text


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (124_439_808, "124M"),
        (494_032_768, "494M"),
        (37_120, "37k"),
        (999, "999"),
        (1000, "1.0k"),
        (9_950, "9.9k"),
        (10_000, "10k"),
        (1_000_000, "1.0M"),
        (9_900_000, "9.9M"),
        (10_000_000, "10M"),
        (1_000_000_000, "1.0B"),
        (7_600_000_000, "7.6B"),
        (70_000_000_000, "70B"),
        (0, "0"),
    ],
)
def test_parameters_read_short(count, text):
    assert parameters_text(count) == text
