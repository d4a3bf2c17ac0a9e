"""User text that Markdown, Streamlit's Markdown extensions or Plotly would turn into
something other than text: every place user text reaches the page is tested with these."""

from __future__ import annotations

# Each is shown literally only if ui.markdown.literal handles it: HTML, Markdown links and
# emphasis, Streamlit's LaTeX, coloured text, Material icons and emoji shortcodes, GFM's
# autolinks (www., http(s)://, e-mail), HTML entities.
MARKDOWN_TRAPS: tuple[str, ...] = (
    "<b>x</b>",
    "**y**",
    "[z](http://e.example)",
    "[a](javascript:alert(1))",
    "$x^2$",
    "$$y$$",
    ":red[red]",
    ":blue-background[z]",
    ":material/home:",
    ":smile:",
    "www.example.org",
    "https://e.example/x",
    "ada@example.org",
    "&amp;",
    "~~s~~",
)
