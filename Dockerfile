# kernel_env server: OpenEnv over HTTP/WebSocket on port 8000, evaluating on GPU 0.
#   docker build -t kernel_env:latest .
#   docker run --gpus all -p 8000:8000 -e KERNEL_ENV_GPUS=0 kernel_env:latest
# modal_app.py builds the same image for Modal; change both together.

# A devel image for nvcc: CUDA submissions build with load_inline. Its major version must match
# torch's (the locked torch 2.11 wheels are cu130), or cpp_extension refuses to build.
FROM nvidia/cuda:13.0.2-devel-ubuntu24.04

ENV DEBIAN_FRONTEND=noninteractive
# python3.12-dev: load_inline compiles a Python extension. ninja: load_inline requires it.
# git: the KernelBench clone. tini: PID 1 reaps what a killed worker host leaves orphaned (the
# server would keep them as zombies).
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        python3.12 python3.12-dev build-essential ninja-build git ca-certificates tini \
    && rm -rf /var/lib/apt/lists/*

COPY --from=ghcr.io/astral-sh/uv:0.13.9 /uv /uvx /usr/local/bin/

# Pinned, so a task's reference (and so its cached eager timing) never changes under a run.
RUN git clone https://github.com/ScalingIntelligence/KernelBench /opt/KernelBench \
    && git -C /opt/KernelBench checkout 423217d9fda91e0c2d67e4a43bf62f96f6d104f1
ENV KERNELBENCH_DIR=/opt/KernelBench/KernelBench

# UID 1000, which Ubuntu 24.04 gives its stock `ubuntu` user: Hugging Face Spaces run the
# container as 1000, which needs a HOME for the Triton cache. The code and the virtual environment
# stay root's and read-only to it: a submission's CUDA extension runs host code as this user and
# must not be able to rewrite torch, triton or the evaluator for later evaluations.
RUN userdel --remove ubuntu 2>/dev/null || true; \
    useradd --create-home --uid 1000 --shell /bin/bash kernel
WORKDIR /app

ENV UV_PYTHON=python3.12 UV_PYTHON_DOWNLOADS=never UV_NO_CACHE=1 UV_COMPILE_BYTECODE=1

# Dependencies first, in their own layer, so a code change does not reinstall torch.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project

COPY README.md ./
COPY kernel_env ./kernel_env
COPY server ./server
RUN uv sync --frozen --no-dev
USER kernel

ENV PATH=/app/.venv/bin:$PATH KERNEL_ENV_GPUS=0
EXPOSE 8000
# The first start imports torch and triton in every worker host: give it two minutes.
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 \
    CMD ["/app/.venv/bin/python", "-c", "import os, urllib.request as u; u.urlopen('http://localhost:%s/health' % os.environ.get('PORT', '8000'), timeout=8)"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["/app/.venv/bin/server"]
