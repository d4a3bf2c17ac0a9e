"""The playground's charts send their numbers at the precision they print them
(figures/display_precision.py): what the browser prints is PyTorch's, the number sent is
not; the numbers as numbers, the share tab's CSV download, stay PyTorch's exactly."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gpt_core import PlaygroundConfig, trace_attention
from harness.charts import assert_displays, decode
from string_table import t
from tests.apptest.conftest import chart_traces, csv_matrix, open_page, open_tab

PAGE = "pages/1_playground.py"
BOOK_EXAMPLE = "动手学大模型"  # the playground's default text


@pytest.fixture(autouse=True)
def _threads():
    torch.set_num_threads(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chart_sends_what_it_prints_and_the_csv_is_pytorchs_exactly(lang, downloads):
    at = open_tab(open_page(PAGE, head="2", lang=lang), "share")
    # The link's set-up, by hand: the book's example as characters, 4 heads of 8, seed 0.
    exact = trace_attention(BOOK_EXAMPLE, PlaygroundConfig(heads=4, head_dim=8, seed=0, tokenizer="char")).trace
    for stage in ("scores", "weights"):
        expected = getattr(exact, stage)[0, 1].numpy()
        trace = chart_traces(at)[f"{t(f'stage.{stage}', lang)} · {t('fig.head', lang)} 2"]
        assert_displays(trace, expected)  # prints as PyTorch's numbers print, within one last digit
        sent = decode(trace["z"]).reshape(expected.shape)
        assert (sent != expected).any(), f"{stage}: sent at display precision, not exact"
        at.selectbox(key="pg_csv_stage").set_value(stage).run()
        assert not at.exception, at.exception
        written = csv_matrix(downloads(f"{stage}_head2.csv"))
        np.testing.assert_allclose(written, expected, rtol=0, atol=1e-6)
