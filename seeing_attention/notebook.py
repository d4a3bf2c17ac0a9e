"""The view in a notebook: the page in a frame of its own that takes its content's height,
Plotly's script held once by the notebook, and errors of this package shown as their
message, not as a traceback.

A notebook's outputs share one document (Jupyter, JupyterLab, VS Code): the first view's
output holds Plotly's script as text, and every view's frame (a ``srcdoc`` frame, of the
notebook's own origin) runs that text in itself. Colab puts each output in a frame of its
own, so there every output holds the script."""

from __future__ import annotations

import html
import sys
from pathlib import Path

from string_table import LANGUAGES, error_text

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


OUR_PACKAGES = tuple(Path(__file__).resolve().parents[1] / name for name in ("seeing_attention", "gpt_core", "figures"))


def _ours(tb) -> bool:
    """Whether the error was raised in this package's code (its innermost frame)."""
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    where = Path(tb.tb_frame.f_code.co_filename).resolve()
    return any(where.is_relative_to(package) for package in OUR_PACKAGES)


def _lang(tb) -> str:
    """The language the view was asked in (``show``'s ``lang``), else English."""
    while tb is not None:
        frame = tb.tb_frame
        lang = frame.f_locals.get("lang") if frame.f_globals.get("__name__", "").startswith("seeing_") else None
        if isinstance(lang, str) and lang in LANGUAGES:
            return lang
        tb = tb.tb_next
    return "en"


def _show_error(shell, etype, value, tb, tb_offset=None):
    """IPython's handler of a ValueError: it shows what it returns (the kernel sends it as
    the cell's error)."""
    if _ours(tb):
        lines = [f"{etype.__name__}: {error_text(value, _lang(tb))}"]
    else:
        lines = shell.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
    shell._showtraceback(etype, value, lines)
    return lines


def show_errors_as_messages() -> None:
    """In IPython (a notebook's kernel): an error raised by this package's code (bad input,
    a model that cannot be had) shows as its message in the view's language; any other error
    keeps its traceback."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.set_custom_exc((ValueError,), _show_error)
