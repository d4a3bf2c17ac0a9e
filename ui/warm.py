"""A server process that is warm before it says it is ready.

    python -m ui.warm [app.py] [STREAMLIT OPTIONS]     as `streamlit run app.py [OPTIONS]`

Before Streamlit's server starts, in the same process: the process-wide settings
(ui/runtime.py), the modules every page needs (torch, Plotly, the figures, the string table,
the shell and every page's package, by ``ui/shell.py``'s page list), and each page's own
warm-up where it has one (``ui/<page>/warm.py``'s ``warm()``: the lesson's first traces and
figure, into the caches every session shares). Only then does Streamlit start, so its health
check (``/_stcore/health``, which nginx, Docker and Kubernetes ask) cannot answer before the
process is warm: no student is sent to a cold process. A line ``warm: …`` says when it was
done (seconds since the epoch, the tests compare it with the first health answer).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
import time
from dataclasses import dataclass, field

APP_SCRIPT = "app.py"
# Streamlit warns once that a cached function ran with no server yet (its cache is then kept
# in memory, as the server's own would be): expected here, so not said.
NO_RUNTIME_LOGGER = "streamlit.runtime.caching.cache_data_api"
WARM_LINE = "warm: ready after {seconds:.2f} s, finished at {finished:.3f} ({made})"


@dataclass
class Warmth:
    started: float  # time.time()
    finished: float = 0.0
    made: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return self.finished - self.started


def warm_up() -> Warmth:
    """Load what the pages need and make the first figures' numbers; returns when it was done."""
    warmth = Warmth(time.time())
    from .runtime import configure_process

    configure_process()  # the pages' thread count first: warm numbers are the pages' numbers
    import plotly.graph_objects  # noqa: F401
    import torch  # noqa: F401

    import figures  # noqa: F401

    from .shell import PAGES

    quiet = logging.getLogger(NO_RUNTIME_LOGGER)
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        for page in PAGES[1:]:  # the home page is app.py, a script with nothing to warm
            importlib.import_module(f"ui.{page.key}")
            if importlib.util.find_spec(f"ui.{page.key}.warm") is not None:
                warmth.made += importlib.import_module(f"ui.{page.key}.warm").warm()
    finally:
        quiet.setLevel(level)
    from .runtime import freeze_heap

    freeze_heap()  # the pages' modules and the warm figures too
    warmth.finished = time.time()
    return warmth


def streamlit_argv(argv: list[str]) -> list[str]:
    """``streamlit run``'s command line for this launcher's arguments: the script first (the
    app's by default), then Streamlit's options as given."""
    script, options = (argv[0], argv[1:]) if argv and argv[0].endswith(".py") else (APP_SCRIPT, argv)
    return ["streamlit", "run", script, *options]


def main(argv: list[str] | None = None) -> None:
    command = streamlit_argv(list(sys.argv[1:] if argv is None else argv))
    warmth = warm_up()
    made = ", ".join(warmth.made) or "modules"
    print(WARM_LINE.format(seconds=warmth.seconds, finished=warmth.finished, made=made), flush=True)
    from streamlit.web import cli

    sys.argv = command
    cli.main(prog_name="streamlit")  # as `python -m streamlit`: exits when the server stops


if __name__ == "__main__":
    main()
