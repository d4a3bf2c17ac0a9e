"""playground page (being built)."""

from ui.shell import coming_soon

coming_soon("playground")
