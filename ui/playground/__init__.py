"""The attention playground page: controls (``controls``), one computation per change of
the numbers (``computed``, ``chosen_view``), the views (``views``) and compare mode
(``compare``); its link's rules are ``links.playground``."""

from .page import render

__all__ = ["render"]
