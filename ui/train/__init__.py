"""The Train page: train a tiny GPT in the browser (``running``), run the book's heads
experiment, generate text (``views``), with the controls and limits in ``controls`` and
what all students share in ``resources``."""

from .page import render

__all__ = ["render"]
