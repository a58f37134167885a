"""Steps per second on one GPU and on several: sessions stepping at once through the real server.

    python bench/multi_gpu.py [--sessions 4] [--steps 3] [--task level1/19_ReLU --kernel relu]

Three servers in turn (every visible GPU; GPU 0 alone; the last GPU made the server's only visible
one by its UUID in CUDA_VISIBLE_DEVICES, named as id 0): each session resets, takes one step to warm (its
GPU's reference profile, Triton's cache), waits for the others, then takes --steps steps. Prints
the counted steps' wall time, steps per second, which worker ran them (the step log's `worker`),
the speedups each GPU measured, and the physical GPUs nvidia-smi saw evaluation processes on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernel_env import KernelAction, KernelEnv  # noqa: E402
from server import gpu_ids  # noqa: E402
from tests.conftest import kernel_source, nvidia_smi, running_server  # noqa: E402


class GpuWatch:
    """Which physical GPUs (nvidia-smi's index) hold compute processes, polled in the background."""

    def __init__(self):
        self.index = {uuid: idx for idx, uuid in nvidia_smi("index,uuid")}
        self.seen: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self._stop.is_set():
            for row in nvidia_smi("pid,gpu_uuid", "compute-apps"):
                if len(row) == 2 and row[1] in self.index:
                    self.seen.add(self.index[row[1]])
            self._stop.wait(0.5)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def run_config(label: str, env: dict, args, code: str) -> dict:
    log = Path(tempfile.mkdtemp()) / "eval.jsonl"
    barrier = threading.Barrier(args.sessions + 1)
    errors, latencies = [], []

    def session(n: int) -> None:
        try:
            with KernelEnv(base_url=url, message_timeout_s=900).sync() as client:
                client.reset(task_id=args.task)
                client.step(KernelAction(code=code))  # warm: not counted
                barrier.wait()
                for i in range(args.steps):
                    t0 = time.perf_counter()
                    # a new statement: not a repeat (a session's resubmitted code, comments aside,
                    # gets its first answer); the kernels' source, and Triton's cache, unchanged
                    step = KernelAction(code=f"{code}\nSTEP = {n * 1000 + i}\n")
                    obs = client.step(step).observation
                    latencies.append(time.perf_counter() - t0)
                    if obs.stage != "scored":
                        errors.append(f"{obs.error_class}: {obs.feedback[:200]}")
        except Exception as exc:
            errors.append(repr(exc))
            barrier.abort()

    with GpuWatch() as watch, running_server(dict(env, KERNEL_ENV_EVAL_LOG=str(log),
                                                  KERNEL_ENV_MAX_TURNS=str(args.steps + 1))) as url:
        threads = [threading.Thread(target=session, args=(n,)) for n in range(args.sessions)]
        for t in threads:
            t.start()
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
    steps = [r for r in map(json.loads, log.read_text().splitlines()) if r["event"] == "step"]
    counted = [r for r in steps if r["turn"] > 1]
    by_worker = defaultdict(list)
    for r in counted:
        by_worker[r["worker"]].append(r["speedup"])
    def median(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else float("nan")

    return {"label": label, "wall_s": wall, "steps": len(counted), "errors": errors,
            "step_s": statistics.median(latencies) if latencies else None,
            "queued_s": median(r.get("queued_s") for r in counted),
            "by_worker": {w: (len(s), median(s)) for w, s in sorted(by_worker.items())},
            "gpus_seen": sorted(watch.seen, key=int)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=0, help="default: 2 per GPU")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--task", default="level1/19_ReLU")
    parser.add_argument("--kernel", default="relu", help="a file in tests/kernels/legit")
    parser.add_argument("--kernelbench-dir", help="serve KernelBench's tasks instead of the bundled ones")
    parser.add_argument("--cpu", action="store_true",
                        help="a dry run of this script: two cpu workers stand in for two GPUs")
    args = parser.parse_args()
    # the GPUs this process may use: its own CUDA_VISIBLE_DEVICES (an allocation), else all
    uuids = {idx: uuid for idx, uuid in nvidia_smi("index,uuid")}
    visible = gpu_ids.visible_entries(os.environ.get("CUDA_VISIBLE_DEVICES"), len(uuids))
    visible = list(uuids) if visible is None else [uuids.get(v, v) for v in visible]
    count = 2 if args.cpu else len(visible)
    args.sessions = args.sessions or 2 * count
    code = kernel_source("legit", args.kernel)
    base = {"KERNEL_ENV_EVALUATOR": "cpu" if args.cpu else "gpu",
            **({"KERNELBENCH_DIR": args.kernelbench_dir} if args.kernelbench_dir else {})}
    if args.cpu:
        configs = [(f"KERNEL_ENV_CPU_WORKERS={n}", dict(base, KERNEL_ENV_CPU_WORKERS=str(n))) for n in (2, 1)]
    else:
        configs = [(f"KERNEL_ENV_GPUS={','.join(map(str, range(count)))}",
                    dict(base, KERNEL_ENV_GPUS=",".join(map(str, range(count))))),
                   ("KERNEL_ENV_GPUS=0", dict(base, KERNEL_ENV_GPUS="0"))]
    if not args.cpu:  # the last visible GPU by its UUID (as a scheduler may name it), as id 0
        configs.append((f"CUDA_VISIBLE_DEVICES=<GPU {count - 1}'s UUID>, KERNEL_ENV_GPUS=0",
                        dict(base, KERNEL_ENV_GPUS="0", CUDA_VISIBLE_DEVICES=uuids.get(visible[-1], visible[-1]))))
    results = []
    for label, env in configs:
        results.append(run_config(label, env, args, code))
        print(json.dumps(results[-1]), flush=True)
    print(f"\n{args.sessions} sessions x {args.steps} steps, {args.task} with {args.kernel}.py, "
          f"{count} GPU(s) on the host")
    print(f"{'server':<44}{'wall s':>8}{'steps/s':>9}{'step s':>8}{'queued':>8}  {'GPUs busy':<10}"
          "worker: steps, median speedup")
    for r in results:
        workers = "  ".join(f"{w}: {n}, {s:.3f}" for w, (n, s) in r["by_worker"].items())
        step_s = f"{r['step_s']:.2f}" if r["step_s"] is not None else "-"
        print(f"{r['label']:<44}{r['wall_s']:>8.2f}{r['steps'] / r['wall_s']:>9.2f}{step_s:>8}{r['queued_s']:>8.2f}  "
              f"{','.join(r['gpus_seen']) or '-':<10}{workers}"
              + (f"  ERRORS: {r['errors'][:2]}" if r["errors"] else ""))


if __name__ == "__main__":
    main()
