"""What "the same link gives the same numbers" rests on: one torch thread count for every
computation the app promises to reproduce, and a version of the way numbers are derived.

torch promises bit-identical results only for a fixed thread count: the same matrix product
computed with one and with two threads can differ in the last bits (4e-8 in softmax weights
was seen). The app computes with ``COMPUTE_THREADS`` per process (``ui/runtime.py``); so do
the tests that compare against it, and the golden numbers were made with it.

``NUMBERS_VERSION`` names the derivation (how token vectors, weights and dropout masks come
from a seed). A change that moves any number of an old link bumps it: the golden numbers
(``tests/golden/``) are regenerated with ``scripts/golden_numbers.py``, and a link that
carries an older version is told that its numbers were made with an earlier version.
"""

from __future__ import annotations

import torch

COMPUTE_THREADS = 1
# Links made before the version was written into them (no ``v=``) had these numbers.
NUMBERS_VERSION = 1


def use_compute_threads() -> None:
    """Set torch's intra-op threads to the app's count (process-wide)."""
    if torch.get_num_threads() != COMPUTE_THREADS:
        torch.set_num_threads(COMPUTE_THREADS)
