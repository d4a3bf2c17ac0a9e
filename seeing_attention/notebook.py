"""The view in a notebook: the page in a frame of its own that takes its content's height,
and Plotly's script held once by the notebook.

A notebook's outputs share one document (Jupyter, JupyterLab, VS Code): the first view's
output holds Plotly's script as text, and every view's frame (a ``srcdoc`` frame, of the
notebook's own origin) runs that text in itself. Colab puts each output in a frame of its
own, so there every output holds the script."""

from __future__ import annotations

import html
import sys

from .limits import plotly_js

HOLDER_ID = "seeing-attention-plotly"
FRAME_START_PX = 900  # the frame's height until its page says its own
# Run in the frame, where the page had Plotly's script: the notebook's copy of it.
LOADER = """<script type="text/javascript">(function () {
  var source = null;
  try {
    source = window.parent.seeingAttentionPlotly || null;
    var held = source === null && window.parent.document.getElementById("HOLDER_ID");
    if (held) { source = held.textContent; window.parent.seeingAttentionPlotly = source; }
  } catch (error) { source = null; }
  if (source === null) return;
  var script = document.createElement("script");
  script.text = source;
  document.head.appendChild(script);
})();</script>""".replace("HOLDER_ID", HOLDER_ID)
_holder: dict[str, object] = {}  # the output that holds the script: its cell and execution count


def _cell() -> tuple[object, object]:
    """The cell being run (its id, where the front end sends one) and its execution count."""
    try:
        from IPython import get_ipython

        shell = get_ipython()
        header = getattr(shell, "parent_header", None) or {}
        return header.get("metadata", {}).get("cellId"), shell.execution_count
    except Exception:  # noqa: BLE001 - not in IPython: a script saving pages
        return None, None


def _holds_script() -> bool:
    """Whether this output holds Plotly's script: the notebook's first view, that view's cell
    run again (its output, and the script with it, is replaced), or every output in Colab."""
    if "google.colab" in sys.modules:
        return True
    cell, count = _cell()
    if not _holder or (cell is not None and _holder["cell"] == cell and _holder["count"] != count):
        _holder.update(cell=cell, count=count)
        return True
    return False


def frame_html(page: str, title: str) -> str:
    """The page in a frame of its own, its Plotly script replaced by the notebook's copy."""
    script = plotly_js()
    framed = page.replace(f'<script type="text/javascript">{script}</script>', LOADER, 1)
    holder = f'<script type="text/plain" id="{HOLDER_ID}">{script}</script>' if _holds_script() else ""
    return (
        f'{holder}<iframe srcdoc="{html.escape(framed, quote=True)}" style="width: 100%; height: {FRAME_START_PX}px; '
        f'border: 0;" title="{html.escape(title)}"></iframe>'
    )
