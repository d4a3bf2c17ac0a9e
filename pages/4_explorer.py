"""explorer page (being built)."""

from ui.shell import coming_soon

coming_soon("explorer")
