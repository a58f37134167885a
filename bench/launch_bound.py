"""Why a launch-bound reference's cached time and the same model timed as a candidate disagree.

    python3 bench/launch_bound.py --kernelbench-dir KernelBench/KernelBench [--tasks REGEX]
        [--repeats 3]

kb_sweep's `same` stand-in (the reference submitted as ModelNew) scored 0.66-1.72 on 11 of
KernelBench level 3's first 33 tasks on the H200: deep networks of hundreds of small kernels,
whose time is the host's issuing of them. For each task, in one process, this prints: the
profile's reference rounds (what is cached), then `repeats` times the reference timed again as
the profile times it and `same` through every stage, with each timing's host issue time; and
the device-only time of one forward (issued behind a long spin, so the GPU never waits for the
host). If the reference's own rounds scatter like `same`, the time is the host's and varies
with it; if they agree with each other but not with `same`, the candidate's path differs.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import torch  # noqa: E402

from kb_sweep import STAND_INS, _trusted_report, _Unguarded, tasks  # noqa: E402
from server.evaluation import pipeline  # noqa: E402
from server.evaluation.loading import load_reference, reference_model  # noqa: E402
from server.evaluation.protocol import EvalRequest  # noqa: E402
from server.evaluation.timing import device_only_ms  # noqa: E402

DEFAULT_TASKS = (r"^level3/(9|10|11|15|19|20|22|24|28|32|7)_")


def same_step(req: EvalRequest, profile: dict, workdir: str):
    saved = pipeline.static_check, pipeline.DispatchGuard
    pipeline.static_check, pipeline.DispatchGuard = _trusted_report, _Unguarded
    try:
        return pipeline.evaluate_candidate(req, profile, workdir, lambda stage: None)
    finally:
        pipeline.static_check, pipeline.DispatchGuard = saved


def study(path: Path, task_id: str, device: torch.device, repeats: int) -> None:
    source = path.read_text()
    with tempfile.TemporaryDirectory() as workdir:
        req = EvalRequest(code=source + STAND_INS["same"], reference_source=source,
                          task_id=task_id, device=str(device), input_seed=1234,
                          provenance="off", memory_limit_gb=120.0)
        profile = pipeline.profile_reference(req, workdir)
        reference = load_reference(source, workdir)
        model = reference_model(reference, device)
        inputs = pipeline.generate(reference.get_inputs, device, 99)
        print(f"{task_id}: cached {profile['ref_runtime_ms']:.3f} ms, rounds "
              f"{[round(r, 3) for r in profile['ref_rounds_ms']]}", flush=True)
        with torch.no_grad():
            if profile.get("eval_mode"):
                model.eval()
            for i in range(repeats):
                rounds = pipeline._time_reference(model, inputs, device, pipeline.REFERENCE_ROUNDS)
                result = same_step(req, profile, workdir)
                same = (f"same {result.runtime_ms:.3f} ms (issue {result.issue_ms or 0:.3f}, "
                        f"speedup {result.speedup:.3f})" if result.stage == "scored"
                        else f"same {result.stage}: {result.error_class}")
                print(f"  {i}: ref rounds {[round(t.median_ms, 3) for t in rounds]} "
                      f"(issue {[round(t.issue_ms, 3) for t in rounds]}, spread "
                      f"{[round(t.spread, 3) for t in rounds]}); {same}", flush=True)
            host = max(t.issue_ms for t in rounds)
            if device.type == "cuda":
                print(f"  device-only forward {device_only_ms(functools.partial(model, *inputs), device, host):.3f} ms; "
                      f"host issue {host:.3f} ms", flush=True)
        del model, inputs
        if device.type == "cuda":
            torch.cuda.empty_cache()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", type=Path, required=True)
    parser.add_argument("--tasks", default=DEFAULT_TASKS)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deadline", type=float, default=float("inf"))
    parser.add_argument("--device", default="cuda:0", help="cpu: a smoke test of this script")
    args = parser.parse_args()
    device = torch.device(args.device)
    if device.type == "cuda":
        pipeline.prewarm(device)
    t0 = time.perf_counter()
    for path, task_id in tasks(args.kernelbench_dir, [3]):
        if re.search(args.tasks, task_id):
            if time.perf_counter() - t0 > args.deadline:
                print(f"deadline: stopped before {task_id}")
                break
            study(path, task_id, device, args.repeats)


if __name__ == "__main__":
    main()
