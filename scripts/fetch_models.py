"""Fetch real models into the Hugging Face cache ahead of a class, so no student waits for a
download (and a server without internet can offer them: set HF_HUB_OFFLINE=1 there).

    python scripts/fetch_models.py                 # the models ATTENTION_MODELS names, else the default list
    python scripts/fetch_models.py gpt2 Qwen/Qwen2.5-0.5B

Only config, safetensors and tokenizer files are fetched (never a pickle). Each model is then
loaded once and traced on a short text, so a broken download is found now, not in class.
The cache is HF_HOME (or HF_HUB_CACHE), as transformers uses it. Exits non-zero when one
could not be fetched, after trying the others.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as `python scripts/fetch_models.py`
    sys.path.insert(0, str(ROOT))

from gpt_core import InputError, hf  # noqa: E402
from ui.numbers import format_bytes, parameters_text  # noqa: E402

CHECK_TEXT = "The cat sat on the mat. 动手学大模型"


def _progress(name: str):
    shown = [-1]

    def report(done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        if percent != shown[0] and (percent % 5 == 0 or done == total):
            shown[0] = percent
            sys.stdout.write(f"\r{name}: {format_bytes(done)} of {format_bytes(total)} ({percent} %)")
            sys.stdout.flush()

    return report


def fetch_one(name: str) -> bool:
    started = time.monotonic()
    try:
        loaded = hf.load(name, progress=_progress(name))
        traced = hf.trace(loaded, CHECK_TEXT)
    except InputError as error:
        print(f"\n{name}: {error}", file=sys.stderr)
        return False
    d = loaded.description
    print(
        f"\r{name}: ready in {time.monotonic() - started:.1f} s · {d.family}, {d.layers} layers × {d.heads} heads "
        f"({d.kv_heads} key/value) · {parameters_text(d.parameters)} parameters · "
        f"{format_bytes(d.download_bytes)} on disk, {format_bytes(d.bytes)} in memory · "
        f"reads the check text as {len(traced.pieces)} tokens · {loaded.folder}"
    )
    return True


def main(argv: list[str]) -> int:
    names = argv or list(hf.offered_models())
    if not names:
        print("No models to fetch: ATTENTION_MODELS is empty.", file=sys.stderr)
        return 1
    results = [fetch_one(name) for name in names]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
