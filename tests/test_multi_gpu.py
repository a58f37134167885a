"""Two GPUs, one server: each GPU's worker host evaluates one step at a time, and two sessions'
steps run at once, one on each GPU. Skipped on hosts with fewer than two GPUs
(`pytest -m gpu tests/test_multi_gpu.py` on one with two; bench/multi_gpu.py measures it)."""

from __future__ import annotations

import json
import threading

import pytest
import torch

from kernel_env import KernelAction, KernelEnv
from tests.conftest import kernel_source, running_server

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA GPUs")]


def test_two_sessions_steps_run_at_once_on_two_gpus(tmp_path):
    log = tmp_path / "eval.jsonl"
    observations, errors = {}, []
    with running_server({"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "0,1",
                         "KERNEL_ENV_EVAL_LOG": str(log)}) as url:
        started = threading.Barrier(2)

        def session(name: str) -> None:
            try:
                with KernelEnv(base_url=url).sync() as env:
                    env.reset(task_id="level1/19_ReLU")
                    started.wait()
                    observations[name] = env.step(KernelAction(code=kernel_source("legit", "relu"))).observation
            except Exception as exc:  # reported below, with the session's name
                errors.append(f"{name}: {exc!r}")

        threads = [threading.Thread(target=session, args=(n,)) for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=600)
    assert not errors, errors
    for obs in observations.values():
        assert obs.stage == "scored" and obs.reward > 0 and "H200" in obs.device, obs.feedback
    steps = [r for r in map(json.loads, log.read_text().splitlines()) if r["event"] == "step"]
    assert sorted(r["worker"] for r in steps) == ["cuda:0", "cuda:1"]
    spans = [(r["ts"] - r["seconds"], r["ts"]) for r in steps]
    overlap = min(end for _, end in spans) - max(start for start, _ in spans)
    assert overlap > 0, f"the two steps ran one after the other: {spans}"
