# Seeing Attention: the Streamlit app on CPU torch.
#   docker build -t seeing-attention .
#   docker run -p 8501:8501 -e STREAMLIT_SERVER_COOKIE_SECRET="$(openssl rand -hex 32)" \
#     -v seeing-attention-data:/data seeing-attention
# The port is STREAMLIT_SERVER_PORT (default 8501) and the cookie secret
# STREAMLIT_SERVER_COOKIE_SECRET: Streamlit reads both from the environment. Tiny Shakespeare
# is downloaded on first use into the /data volume (GPT_CACHE_DIR), or mount the file and set
# TINY_SHAKESPEARE to its path.
# Real models (ATTENTION_MODELS, default gpt2, distilgpt2, SmolLM2-135M, Qwen2.5-0.5B) are
# downloaded on first use into HF_HOME; bake them into the image instead (about 2.5 GB for
# the default list) with
#   docker build --build-arg BAKE_MODELS="gpt2 distilgpt2" -t seeing-attention .
# The same file builds a Hugging Face Docker Space (deploy/space.py writes the folder to push):
# the Space runs the container as uid 1000, the user below, and passes its variables, such as
# BAKE_MODELS, as build arguments.
FROM python:3.11-slim
ARG BAKE_MODELS=""

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_SERVER_PORT=8501 \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    GPT_CACHE_DIR=/data \
    HF_HOME=/home/app/.cache/huggingface

RUN useradd --create-home --uid 1000 app && mkdir /data && chown app /data
WORKDIR /app

# requirements.txt names the page of PyTorch's CPU index with torch's wheels: the image gets
# torch 2.13.0+cpu, not CUDA.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY --chown=app . .
USER app
RUN if [ -n "$BAKE_MODELS" ]; then python scripts/fetch_models.py $BAKE_MODELS; fi
VOLUME ["/data"]
EXPOSE 8501

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('STREAMLIT_SERVER_PORT', '8501') + '/_stcore/health', timeout=4)"

# Warm first (ui/warm.py: the pages' modules, the lesson's first figures), then `streamlit run
# app.py` in the same process: the health check answers only once a student would be served
# warm, so a load balancer or Kubernetes sends no one to a cold container.
CMD ["python", "-m", "ui.warm", "app.py"]
