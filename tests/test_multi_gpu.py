"""Two GPUs, one server: each GPU's worker host evaluates one step at a time, on its own
physical GPU, and two sessions' steps run at once, one on each GPU. Skipped on hosts with fewer
than two GPUs (`pytest -m gpu tests/test_multi_gpu.py` on one with two; bench/multi_gpu.py
measures it)."""

from __future__ import annotations

import json
import threading

import pytest
import torch

from kernel_env import KernelAction, KernelEnv
from tests.conftest import SERVER_PIDS, kernel_source, nvidia_smi, process_tree, running_server

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA GPUs")]


def test_two_sessions_steps_run_at_once_on_two_gpus(tmp_path):
    log = tmp_path / "eval.jsonl"
    observations, errors, gpus = {}, [], set()
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
        # the hosts' warm spares hold a context each on their GPU: two hosts, two physical GPUs
        pids = {str(p) for p in process_tree(SERVER_PIDS[url])}
        gpus = {uuid for pid, uuid in nvidia_smi("pid,gpu_uuid", "compute-apps") if pid in pids}
    assert not errors, errors
    for obs in observations.values():
        assert obs.stage == "scored" and obs.reward > 0 and obs.device, obs.feedback
    steps = [r for r in map(json.loads, log.read_text().splitlines()) if r["event"] == "step"]
    assert sorted(r["worker"] for r in steps) == ["cuda:0", "cuda:1"]
    assert len(gpus) == 2, f"the server's evaluation processes hold contexts on {gpus}"
    # each step's evaluation: from when it had its GPU (after its wait in the queue) to its end
    spans = [(r["ts"] - r["seconds"] + r["queued_s"], r["ts"]) for r in steps]
    assert all(r["queued_s"] < 1 for r in steps), "a step waited for a GPU while the other was free"
    overlap = min(end for _, end in spans) - max(start for start, _ in spans)
    assert overlap > 0, f"the two steps ran one after the other: {spans}"
