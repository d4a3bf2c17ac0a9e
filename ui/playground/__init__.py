"""The attention playground page: controls (``controls``), one computation per change of
the numbers (``page``), the views (``views``), its URL state (``state``) and downloads
(``exports``)."""

from .page import render

__all__ = ["render"]
