"""The Train page's settings as link parameters: corpus, model size, budget, the
experiment's steps and the generation settings, each in the link like every other page's.
The pasted corpus stays in the session only (it may be 200,000 characters). Pure Python:
the models to generate with are known only when the page runs, so the page hands them in
(``params``); ui/train/state.py gives these to the page's ``PageState``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gpt_core import SYNTHETIC_KINDS
from gpt_core.playground import MAX_SEED

from .rules import Param

RUN_MAX_STEPS = 3000  # one in-app training run, whatever the control says
RUN_MAX_SECONDS = 60  # the wall-time cap of any in-app run, whatever its budget
RUN_MIN_STEPS = 10
EXPERIMENT_MAX_STEPS = 500  # per head count in the in-app experiment
EXPERIMENT_MIN_STEPS = 10
EXPERIMENT_MAX_SEEDS = 5
# The in-app experiment's defaults, chosen to answer within a class period on a 2-core
# server (benchmarks/in_class_experiment.py, docs/benchmarks.md): on Tiny Shakespeare at the book's
# size, 300 steps and 3 seeds read "clear" (h = 8 is 0.053 behind h = 2, the seeds spread
# at most 0.019); 200 steps only just (0.046 against 0.032). The copying, previous-letter
# and repeated-pairs corpora read "too close to tell" at 300-400 steps.
EXPERIMENT_DEFAULT_STEPS = 300
EXPERIMENT_DEFAULT_SEEDS = 3
HEAD_CHOICES = (1, 2, 4, 8, 16)
HEAD_DIM_RANGE = (1, 64)
BLOCKS_RANGE = (1, 4)
CONTEXT_RANGE = (8, 64)
CORPORA = ("tinyshakespeare", *SYNTHETIC_KINDS, "own")
BUDGET_KINDS = ("steps", "seconds")
OWN_TEXT_MAX_CHARS = 200_000  # a pasted corpus; longer texts can be uploaded (up to 5 MB)
GENERATE_MAX = 500  # characters per generation
TEMPERATURE_RANGE = (0.0, 2.0)
TOP_K_RANGE = (1, 256)
PROMPT_MAX_CHARS = 1000  # the model reads its last context_length characters anyway


def params(model_names: Callable[[], Sequence[str]]) -> tuple[Param, ...]:
    """The page's parameters; ``model_names``: the sources it may generate with, by name
    (the app's light ones, ui/shared/sources.py), asked each time the link is read."""
    return (
        Param("corpus", "choice", "tinyshakespeare", choices=CORPORA),
        Param("own_text", "text", "", max_chars=OWN_TEXT_MAX_CHARS, in_url=False),
        Param("heads", "choice", 2, choices=HEAD_CHOICES),
        Param("head_dim", "int", 32, *HEAD_DIM_RANGE),
        Param("blocks", "int", 2, *BLOCKS_RANGE),
        Param("context", "int", 32, *CONTEXT_RANGE),
        Param("budget_kind", "choice", "steps", choices=BUDGET_KINDS),
        Param("steps", "int", 300, RUN_MIN_STEPS, RUN_MAX_STEPS),
        Param("seconds", "int", 15, 1, RUN_MAX_SECONDS),
        Param("exp_steps", "int", EXPERIMENT_DEFAULT_STEPS, EXPERIMENT_MIN_STEPS, EXPERIMENT_MAX_STEPS),
        Param("exp_seeds", "int", EXPERIMENT_DEFAULT_SEEDS, 1, EXPERIMENT_MAX_SEEDS),
        # The model to generate with: a source's name (ui/shared/sources.py); None until
        # the page knows which there are.
        Param("gen_model", "choice", None, choices=lambda: tuple(model_names()), optional=True),
        Param("prompt", "text", "ROMEO:\n", max_chars=PROMPT_MAX_CHARS),
        Param("temperature", "float", 0.8, *TEMPERATURE_RANGE),
        Param("top_k", "int", 10, *TOP_K_RANGE),
        Param("length", "int", 200, 1, GENERATE_MAX),
        Param("gen_seed", "int", 0, 0, MAX_SEED),
    )
