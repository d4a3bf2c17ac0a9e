"""The Train page's ``PageState``: the link rules of links/train.py, with the models it may
generate with as the app's sources name them (the light ones)."""

from __future__ import annotations

from links.train import params

from ..page_state.state import PageState
from ..shared import sources

PARAMS = params(lambda: sources.model_names(light=True))
PAGE = PageState("tr_", PARAMS)
key = PAGE.key
