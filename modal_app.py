"""kernel_env on Modal: the GPU test suite, and the environment served behind proxy auth.

    uv run --extra modal modal setup                        # once: log the client in
    uv run --extra modal modal run modal_app.py::gpu_tests  # pytest -m gpu tests (every GPU-marked test)
    uv run --extra modal modal deploy modal_app.py          # serve; prints the URL:
                                    # https://<workspace>--kernel-env-serve.modal.run

The endpoint requires Modal proxy auth. Create a token in the Modal dashboard (Settings → Proxy
Auth Tokens) and export it where the client runs; `KernelEnv` then sends it as the `Modal-Key` /
`Modal-Secret` headers, and requests without it are refused by Modal before they reach the app:

    export MODAL_PROXY_KEY=wk-...  MODAL_PROXY_SECRET=ws-...

Server settings (README, Configuration) go in SERVE_ENV below. The image repeats the Dockerfile's
steps; change both together.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import modal

ROOT = Path(__file__).resolve().parent
CUDA_IMAGE = "nvidia/cuda:13.0.2-devel-ubuntu24.04"  # nvcc's major version = torch's (cu130)
UV_VERSION = "0.13.9"
KERNELBENCH_REPO = "https://github.com/ScalingIntelligence/KernelBench"
KERNELBENCH_COMMIT = "423217d9fda91e0c2d67e4a43bf62f96f6d104f1"

# One GPU type everywhere: a timing, and so a reward, is only comparable on the same hardware,
# and tests/test_gpu.py expects the roofline to detect an H200.
GPU = "H200"
# A container has one GPU, and its evaluations queue on it one at a time: past a few sessions a
# session gains nothing but waiting, so the next session is better served by a new container.
SESSIONS_PER_CONTAINER = 8
MAX_CONTAINERS = 8
SERVE_ENV = {
    "KERNEL_ENV_EVALUATOR": "gpu",  # fail at start-up rather than fall back to the cpu evaluator
    "KERNEL_ENV_GPUS": "0",
    # Equal to max_inputs below, so Modal never routes a WebSocket to a container that is full.
    "KERNEL_ENV_MAX_SESSIONS": str(SESSIONS_PER_CONTAINER),
}

# The project goes to /root, which is on the Python path of Modal functions; the worker hosts find
# it from server/pool.py's own location. It is mounted at start, so a code change needs no rebuild.
image = (
    modal.Image.from_registry(CUDA_IMAGE, add_python="3.12")
    .apt_install("build-essential", "ninja-build", "git", "ca-certificates")  # load_inline; clone
    .run_commands(f"git clone {KERNELBENCH_REPO} /opt/KernelBench",
                  f"git -C /opt/KernelBench checkout {KERNELBENCH_COMMIT}")
    # The dev extra adds pytest for gpu_tests: the image that is tested is the image that is served.
    .uv_sync(str(ROOT), extras=["dev"], uv_version=UV_VERSION)
    .env({"KERNELBENCH_DIR": "/opt/KernelBench/KernelBench"})
    .add_local_dir(ROOT, "/root", ignore=modal.FilePatternMatcher.from_file(ROOT / ".dockerignore"))
)

# include_source=False: modal_app.py already arrives with the project directory.
app = modal.App("kernel-env", image=image, include_source=False)


@app.function(gpu=GPU, timeout=3600, cpu=8.0, memory=32768)
def gpu_tests() -> None:
    """Run every GPU-marked test; raise (so `modal run` fails) when pytest fails."""
    code = subprocess.call([sys.executable, "-m", "pytest", "-m", "gpu", "tests",
                            "-q", "-p", "no:cacheprovider", "--timeout", "900"], cwd="/root")
    if code != 0:
        raise RuntimeError(f"GPU tests failed: pytest exited with code {code}")


# A WebSocket session is a single input that lasts as long as the connection, so every message of
# a session goes to the container that accepted it, with no sticky routing needed (Modal's
# sessioned servers route HTTP requests by a token that the OpenEnv client does not send). That
# input's timeout bounds a connection's life: the 24 h maximum. The slow cold start (image, torch,
# worker hosts) is why an idle container stays up for ten minutes.
@app.function(gpu=GPU, env=SERVE_ENV, cpu=8.0, memory=32768, timeout=24 * 3600,
              startup_timeout=900, min_containers=0, max_containers=MAX_CONTAINERS,
              scaledown_window=600)
@modal.concurrent(max_inputs=SESSIONS_PER_CONTAINER)
@modal.asgi_app(requires_proxy_auth=True)
def serve():
    from server.app import create_kernel_app

    return create_kernel_app()
