"""The ``seeing-attention`` command.

seeing-attention [app] [STREAMLIT OPTIONS]     start the app, as `streamlit run app.py` does
seeing-attention export [SETTINGS] -o FILE     write the page that works offline from one file
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from gpt_core import InputError
from gpt_core.playground import MAX_HEAD_DIM, MAX_HEADS, MAX_INPUT_DIM, MAX_SEED
from string_table import LANGUAGES, error_text

from .limits import DEFAULT_TOKENS, PAGE_LIMIT_BYTES, most_tokens

DESCRIPTION = f"""See GPT's multi-head causal attention.

  seeing-attention [app] [streamlit options]   start the app (Streamlit's options pass through,
                                               e.g. --server.port 8502); it prints its address
  seeing-attention export [settings] -o FILE   write one HTML file that works offline: every
                                               head's stages, the shapes, how it was made
                                               (a text is cut to its first {DEFAULT_TOKENS} tokens unless
                                               --max-tokens asks for more)

Run `seeing-attention export --help` for the export's settings."""


def _bounded(low: int, high: int):
    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value

    return parse


def export_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="seeing-attention export",
        description="Write the page that works offline from one file: every head's raw, scaled and masked scores and "
        "softmax weights for a text, with random weights from a seed (the playground's settings). A text longer than "
        f"{DEFAULT_TOKENS} tokens is cut to its first {DEFAULT_TOKENS} (the command and the page say so): "
        f"--max-tokens raises the limit, up to what a page of at most {PAGE_LIMIT_BYTES // 1_000_000} MB holds "
        f"({most_tokens(4)} tokens with 4 heads, {most_tokens(8)} with 8).",
    )
    parser.add_argument("--text", default="动手学大模型", help="the sequence (default: the book's 动手学大模型)")
    parser.add_argument("--heads", type=_bounded(1, MAX_HEADS), default=4, help=f"heads h, 1-{MAX_HEADS} (default 4)")
    parser.add_argument(
        "--head-dim", type=_bounded(1, MAX_HEAD_DIM), default=8, help=f"head_dim d, 1-{MAX_HEAD_DIM} (default 8)"
    )
    parser.add_argument(
        "--input-dim",
        type=_bounded(1, MAX_INPUT_DIM),
        default=None,
        help="the input vectors' width (default C = h × d)",
    )
    parser.add_argument("--seed", type=_bounded(0, MAX_SEED), default=0, help="the weights' seed (default 0)")
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=DEFAULT_TOKENS,
        help=f"read at most this many tokens of the text (default {DEFAULT_TOKENS}; more makes a "
        "larger page: the most a page holds is said when it is too many)",
    )
    parser.add_argument("--tok", choices=("char", "word"), default="char", help="read the text as characters or words")
    parser.add_argument("--no-positional", action="store_true", help="no positional encoding")
    parser.add_argument("--dropout", type=float, default=0.0, help="dropout on the weights, 0 to 0.9 (default 0)")
    parser.add_argument("--training", action="store_true", help="training mode (dropout acts)")
    parser.add_argument("--qkv-bias", action="store_true", help="biases in the Q, K, V projections")
    parser.add_argument("--no-scale", action="store_true", help="do not divide the scores by √head_dim")
    parser.add_argument(
        "--model",
        default=None,
        help="a real model instead of random weights: a Hugging Face id (downloaded once) or a folder",
    )
    parser.add_argument(
        "--layer",
        default="0",
        help="with --model: its layers, 0-based as in Python, such as 0, 3,5 or all (default 0); "
        "the page numbers them from 1, as the app does (--layer 0 is its Layer 1)",
    )
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default="en", help="the page's language (default en)")
    parser.add_argument("--app-url", default="http://localhost:8501", help="the app whose link the page gives")
    parser.add_argument("-o", "--output", type=Path, default=Path("attention.html"), help="the file to write")
    return parser


def _layers(parser: argparse.ArgumentParser, text: str) -> int | str | list[int]:
    if text.strip() == "all":
        return "all"
    try:
        layers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        parser.error(f"--layer: {text!r} is not a layer number, a list such as 3,5, or all")
    if not layers:
        parser.error("--layer: no layer given")
    return layers[0] if len(layers) == 1 else layers


def export_main(argv: list[str]) -> int:
    from .engine import export

    parser = export_parser()
    args = parser.parse_args(argv)
    layer = _layers(parser, args.layer)
    try:
        if args.model:
            view = export(args.output, args.text, model=args.model, layer=layer, lang=args.lang, app_url=args.app_url)
        else:
            view = export(
                args.output,
                args.text,
                heads=args.heads,
                head_dim=args.head_dim,
                input_dim=args.input_dim,
                seed=args.seed,
                tokenizer=args.tok,
                positional=not args.no_positional,
                dropout=args.dropout,
                training=args.training,
                qkv_bias=args.qkv_bias,
                scale=not args.no_scale,
                lang=args.lang,
                app_url=args.app_url,
                max_tokens=args.max_tokens,
            )
    except InputError as error:  # (a ValueError too) bad text, a model that cannot be had
        print(f"seeing-attention export: {error_text(error, args.lang)}", file=sys.stderr)
        return 2
    except ValueError as error:  # a layer the model does not have
        parser.error(str(error))
    except OSError as error:
        print(f"seeing-attention export: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return 1
    if view.note:  # a text cut to the tokens a page holds, a mask added: said where the command was typed
        print(f"seeing-attention export: {view.note}", file=sys.stderr)
    size = args.output.stat().st_size
    heads = view.numbers["weights"].shape[0]
    print(
        f"wrote {args.output} ({size / 1e6:.2f} MB, {len(view.tokens)} tokens, {heads} heads, "
        f"{len(view.layers)} layer(s))"
    )
    return 0


def app_main(argv: list[str]) -> int:
    """Run the app with Streamlit in the app's folder (its .streamlit/config.toml applies): the
    clone's, or the copy ``pip install .`` put inside this package."""
    import importlib.util

    from seeing_attention.paths import app_root

    app = app_root() / "app.py"
    if not app.is_file():
        print(
            f"seeing-attention: the app's pages are not installed here (no {app}); reinstall with "
            "`pip install .` from a clone of the repository",
            file=sys.stderr,
        )
        return 1
    if importlib.util.find_spec("streamlit") is None:
        print(
            "seeing-attention: Streamlit is not installed; `pip install .` from a clone installs it with the app",
            file=sys.stderr,
        )
        return 1
    os.chdir(app.parent)
    print(f"seeing-attention: starting the app from {app.parent}", flush=True)
    # Warmed first (ui/warm.py: the pages' modules, the lesson's first figures), then Streamlit
    # in the same process: its health check answers once the first students would be served warm.
    os.execv(sys.executable, [sys.executable, "-m", "ui.warm", str(app), *argv])
    return 0  # not reached


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(DESCRIPTION)
        return 0
    if argv and argv[0] == "export":
        return export_main(argv[1:])
    if argv and argv[0] == "app":
        argv = argv[1:]
    return app_main(argv)


if __name__ == "__main__":
    sys.exit(main())
