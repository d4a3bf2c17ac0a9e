"""The trained-heads explorer page: one trace per (model, prompt) (``ui/models``), its views
(``views``) and its URL state (``state``)."""

from .page import render

__all__ = ["render"]
