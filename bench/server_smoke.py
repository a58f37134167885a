"""A whole episode through the KernelEnv client against `python -m server.app` on loopback."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from kernel_env import KernelAction, KernelEnv  # noqa: E402
from tests.conftest import kernel_source, running_server  # noqa: E402


def main() -> None:
    evaluator = sys.argv[1] if len(sys.argv) > 1 else "gpu"
    with running_server({"KERNEL_ENV_EVALUATOR": evaluator}) as url:
        with KernelEnv(base_url=url).sync() as env:
            obs = env.reset(task_id="level1/19_ReLU").observation
            print("reset:", obs.stage, obs.task_id, obs.evaluator)
            for name in ("relu", "relu_autotuned"):
                t0 = time.perf_counter()
                result = env.step(KernelAction(code=kernel_source("legit", name)))
                o = result.observation
                print(f"step {name}: {time.perf_counter() - t0:.2f} s stage={o.stage} reward={result.reward:.3f} "
                      f"speedup={o.speedup} runtime_ms={o.runtime_ms} device={o.device} bound={o.bound} "
                      f"roofline_frac={o.roofline_frac}")
            bad = env.step(KernelAction(code=kernel_source("adversarial", "torch_op_in_forward")))
            print("step adversarial:", bad.observation.error_class, bad.reward, bad.observation.feedback[:150])
            print("status:", httpx.get(f"{url}/status", timeout=30).json())


if __name__ == "__main__":
    main()
