"""Seeing Attention outside the app: one call in a notebook, one file that works offline.

    import seeing_attention as sa
    view = sa.show(text="动手学大模型", heads=4, head_dim=8, seed=0)   # renders in a notebook
    view.save_html("attention.html")                                  # the same page, offline
    view.numbers["weights"]                                           # (heads, T, T), gpt_core's
    steps = sa.generate(model="gpt2", text="The cat", n=5).steps      # generation with the KV cache

The numbers are gpt_core's (the app's playground computes the same ones); the page is
``figures.page``. Needs torch, numpy and Plotly, not Streamlit.
"""

from .engine import export, show
from .generation import Generation, generate
from .notebook import show_errors_as_messages
from .view import STAGE_ORDER, View

show_errors_as_messages()  # in a notebook: this package's errors as messages, not tracebacks

__all__ = ["STAGE_ORDER", "Generation", "View", "export", "generate", "show"]
