#!/usr/bin/env bash
# What the Dockerfile does, checked without a Docker engine: its install step in a fresh
# venv (python3.11, requirements.txt with PyTorch's CPU page), its environment, its start
# command, and its HEALTHCHECK command against the running app.
#   bash deploy/verify_docker_steps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

python3.11 -m venv "$work/venv"
start=$(date +%s)
"$work/venv/bin/pip" install -q -r requirements.txt
echo "install: $(( $(date +%s) - start )) s"
"$work/venv/bin/python" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"

export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 STREAMLIT_SERVER_PORT=18501 \
  STREAMLIT_SERVER_ADDRESS=0.0.0.0 GPT_CACHE_DIR="$work/data" \
  STREAMLIT_SERVER_COOKIE_SECRET=check-only-not-a-secret
mkdir -p "$GPT_CACHE_DIR"
PATH="$work/venv/bin:$PATH" python -m ui.warm app.py > "$work/server.log" 2>&1 &   # the image's CMD
server=$!
for _ in $(seq 1 120); do
  # the image's HEALTHCHECK, verbatim
  if "$work/venv/bin/python" -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('STREAMLIT_SERVER_PORT', '8501') + '/_stcore/health', timeout=4)" 2>/dev/null; then
    echo "healthy after $(( $(date +%s) - start )) s from the start of the install"
    grep -q "0.0.0.0:18501\|:18501" "$work/server.log" && echo "listening on the port from STREAMLIT_SERVER_PORT"
    grep -q "^warm: ready" "$work/server.log" && echo "warmed before its health check answered"
    exit 0
  fi
  sleep 1
done
echo "the app did not answer its health check" >&2
cat "$work/server.log" >&2
exit 1
