"""Make the golden numbers of tests/golden/ (see harness/golden.py).

Run it only for a deliberate change in how numbers are derived, after bumping
gpt_core.reproduce.NUMBERS_VERSION, and say so in the commit: every link made before
then shows its students a note that its numbers came from an earlier version.

    python scripts/golden_numbers.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gpt_core.reproduce import COMPUTE_THREADS, NUMBERS_VERSION, use_compute_threads  # noqa: E402
from harness.golden import META_FILE, NUMBERS_FILE, STORED, array_name, link_numbers, links  # noqa: E402


def main() -> None:
    use_compute_threads()
    arrays = {}
    for index, link in enumerate(links()):
        numbers = link_numbers(link.query)
        for stage in STORED:
            arrays[array_name(index, stage)] = numbers[stage]
        print(f"{index:2d} {link.name}: {tuple(numbers['weights'].shape)}")
    np.savez_compressed(NUMBERS_FILE, **arrays)
    record = {
        "numbers_version": NUMBERS_VERSION,
        "torch": torch.__version__,
        "torch_threads": COMPUTE_THREADS,
        "stored": list(STORED),
        "links": len(links()),
    }
    META_FILE.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {NUMBERS_FILE.relative_to(ROOT)} and {META_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
