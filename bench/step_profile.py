"""Where a step's time goes, by evaluator function: one evaluation under cProfile.

    python bench/step_profile.py [--kernelbench-dir KernelBench/KernelBench] [--only ReLU]
                                 [--device cuda:0] [--fresh]

Runs the pipeline without the worker pool: the reference profile, one evaluation to warm
Triton's cache and the CUDA kernels, then one evaluation profiled: in this process, or with
`--fresh` in a process forked before CUDA started, as the worker runs each step (context,
prewarm, then the job; its first calls into Triton's kernels and vendor libraries counted).
Most evaluator steps end in a host synchronisation (`.item()`, `bool()`,
`torch.cuda.synchronize`), so a function's cumulative time is close to its device time too. Prints, per case, the cumulative seconds and call counts
of the evaluator's own building blocks; overlapping rows nest (a trial's reference output holds
the parameter restore).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "--device" in sys.argv and sys.argv[sys.argv.index("--device") + 1] == "cpu":
    os.environ["TRITON_INTERPRET"] = "1"  # before Triton is imported: the cpu evaluator's way

from gpu_bench import BUNDLED, CASES, LEGIT  # noqa: E402

from server.evaluation.pipeline import evaluate_candidate, prewarm, profile_reference  # noqa: E402
from server.evaluation.protocol import EvalRequest  # noqa: E402

WATCHED = [  # (file suffix, function): the evaluator's building blocks
    ("pipeline.py", "_correctness"), ("pipeline.py", "_timing"), ("pipeline.py", "_run_candidate"),
    ("pipeline.py", "_check_integrity"), ("pipeline.py", "output"), ("pipeline.py", "_settle"),
    ("inputs.py", "generate"), ("inputs.py", "add_spikes"), ("inputs.py", "seed_torch"),
    ("correctness.py", "check_output"),
    ("correctness.py", "check_inputs_unchanged"), ("correctness.py", "check_deterministic"),
    ("correctness.py", "restore"), ("correctness.py", "_check_normalization"),
    ("correctness.py", "tolerances"), ("timing.py", "time_forward"), ("timing.py", "interval"),
    ("timing.py", "settle_tail_ms"), ("timing.py", "spin_cycles_per_s"),
    ("timing.py", "ramped_cycles_per_s"),
    ("timed_inputs.py", "refresh"), ("timed_inputs.py", "observe"), ("timed_inputs.py", "checks"),
    ("pipeline.py", "_record_kernels"), ("loading.py", "load_candidate"),
    ("loading.py", "build_models"), ("static_check.py", "static_check"),
    ("integrity.py", "fingerprint"), ("integrity.py", "changed"), ("integrity.py", "child_processes"),
    ("perturb.py", "perturb"), ("perturb.py", "restore"), ("timed_inputs.py", "_spoil"),
    ("timed_inputs.py", "_inputs_of"), ("pipeline.py", "_check_fingerprint"),
    ("timed_inputs.py", "_fingerprint"), ("timed_inputs.py", "rows"),
    ("timed_inputs.py", "_positions_of"), ("timed_inputs.py", "gather"),
    ("pipeline.py", "check_returned"), ("pipeline.py", "_check_signature"),
    ("pipeline.py", "check_modes"), ("pipeline.py", "_recheck"),
]


def profile_case(root: Path, task: str, kernel: str, device: str, top: int = 0,
                 provenance: str = "off") -> None:
    """One warm evaluation profiled in this process, after the profile and an evaluation here."""
    req = _request(root, task, kernel, device, provenance)
    with tempfile.TemporaryDirectory() as workdir:
        profile = profile_reference(req, workdir)
        warm = evaluate_candidate(req, profile, workdir, lambda stage: None)
        if warm.stage != "scored":
            print(f"  not scored: {warm.error_class}: {warm.feedback[:200]}")
            return
        _profiled(req, profile, workdir, top)


def profile_fresh(root: Path, task: str, kernel: str, device: str, top: int = 0,
                  provenance: str = "off") -> None:
    """The first evaluation of a process forked without a CUDA context, as the worker's spare
    processes are (context, prewarm, then the job): the profile and an earlier evaluation (which
    leaves the kernel in Triton's cache on disk) run in a process of their own before it."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    req = _request(root, task, kernel, device, provenance)
    with tempfile.TemporaryDirectory() as workdir:
        answers = ctx.Queue()
        earlier = ctx.Process(target=_earlier_step, args=(req, workdir, answers))
        earlier.start()
        profile = answers.get(timeout=600)
        earlier.join()
        if isinstance(profile, str):
            print(f"  not scored: {profile}")
            return
        fresh = ctx.Process(target=_fresh_step, args=(req, profile, workdir, top))
        fresh.start()
        fresh.join()


def _earlier_step(req, workdir: str, answers) -> None:
    try:
        profile = profile_reference(req, workdir)
        warm = evaluate_candidate(req, profile, workdir, lambda stage: None)
    except Exception:  # noqa: BLE001 - told to the parent, which waits for an answer
        import traceback
        answers.put(traceback.format_exc()[-600:])
        return
    answers.put(profile if warm.stage == "scored" else f"{warm.error_class}: {warm.feedback[:200]}")


def _fresh_step(req, profile: dict, workdir: str, top: int) -> None:
    import torch
    device = torch.device(req.device)
    t0 = time.perf_counter()
    torch.zeros(1, device=device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    t1 = time.perf_counter()
    prewarm(device)
    t2 = time.perf_counter()
    print(f"  fresh process: context {1e3 * (t1 - t0):.0f} ms, prewarm {1e3 * (t2 - t1):.0f} ms "
          "(before the job, as in the worker)")
    _profiled(req, profile, workdir, top)


def _request(root: Path, task: str, kernel: str, device: str, provenance: str) -> EvalRequest:
    code, ref = (LEGIT / kernel).read_text(), (root / f"{task}.py").read_text()
    return EvalRequest(code=code, reference_source=ref, task_id=task, device=device,
                       input_seed=1234, provenance=provenance)


def _profiled(req, profile: dict, workdir: str, top: int) -> None:
    import torch
    device = req.device
    cuda = torch.device(device).type == "cuda"
    held = torch.cuda.memory_allocated(device) if cuda else 0  # left by the runs before
    peaks, stage_now = {}, ["start"]

    def stage_peaks(stage):  # each stage's own peak: what a step needs of the device, where
        if cuda:
            peaks[stage_now[0]] = torch.cuda.max_memory_allocated(device)
            torch.cuda.reset_peak_memory_stats(device)
        stage_now[0] = stage

    if cuda:
        torch.cuda.reset_peak_memory_stats(device)
    profiler = cProfile.Profile()
    began = time.perf_counter()
    profiler.enable()
    result = evaluate_candidate(req, profile, workdir, stage_peaks)
    profiler.disable()
    wall_s = time.perf_counter() - began
    stage_peaks("end")
    provenance = req.provenance
    if cuda:  # back-to-back steps need it twice at times
        print(f"  device memory: peak allocated by stage (GiB; {held / 2**30:.1f} held before the "
              "step): " + ", ".join(f"{k} {v / 2**30:.1f}" for k, v in peaks.items() if k != "start")
              + f"; {torch.cuda.memory_reserved(device) / 2**30:.1f} GiB reserved at the end "
              f"(provenance {provenance}; {result.stage}: {result.error_class or 'ok'})")
    if result.stage != "scored":
        print(f"  not scored: {result.error_class}: {(result.feedback or '')[:300]}")
    print(f"  step {wall_s:.3f} s under cProfile  stages {result.stage_seconds}  "
          f"candidate {result.candidate_seconds:.3f} s  "
          f"defence {result.defence_seconds:.3f} s  speedup {result.speedup}")
    print("  defence by kind (ms): " + ", ".join(
        f"{k} {1e3 * v:.1f}" for k, v in sorted(result.defence_breakdown.items())))
    stats = pstats.Stats(profiler).stats
    for suffix, name in WATCHED:
        rows = [(v[1], v[3]) for (file, _, func), v in stats.items()
                if func == name and file.endswith(suffix)]
        if rows:
            calls, cum = sum(r[0] for r in rows), sum(r[1] for r in rows)
            print(f"  {suffix + ':' + name:<42}{cum:>8.3f} s{calls:>6} calls")
    if top:  # what no watched row names: the heaviest torch calls by their own time
        print(f"  heaviest {top} built-in calls by own time:")
        builtins = sorted(((v[2], v[1], func) for (file, _, func), v in stats.items()
                           if file == "~"), reverse=True)[:top]
        for own, calls, func in builtins:
            print(f"    {func[:60]:<62}{own:>8.3f} s{calls:>6} calls")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", type=Path)
    parser.add_argument("--only", help="only the cases with this label (e.g. ReLU)")
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--provenance", default="off", choices=["off", "all"],
                        help="record the kernels of the profiled step (the server's default: all)")
    parser.add_argument("--fresh", action="store_true",
                        help="profile a fresh process's first evaluation (as the worker runs "
                        "each step) rather than a second one in a warm process")
    parser.add_argument("--top", type=int, default=0,
                        help="also list the N built-in (torch) calls with the most own time")
    parser.add_argument("--case", nargs=3, metavar=("LABEL", "TASK", "KERNEL"),
                        help="profile this case (a task id, a kernel of tests/kernels/legit) "
                        "instead of the benchmark's")
    parser.add_argument("--no-spikes", action="store_true",
                        help="time the task without its spiked inputs (what they cost)")
    args = parser.parse_args()
    if args.no_spikes:
        from server.evaluation import inputs
        inputs.SPIKED_FAMILIES.clear()
    import torch
    if not args.fresh:  # (a fresh step's process is forked before CUDA starts)
        prewarm(torch.device(args.device))
    root = args.kernelbench_dir or BUNDLED
    for label, task, kernel in [tuple(args.case)] if args.case else CASES:
        if args.only in (None, label):
            print(f"{label} ({'KernelBench' if args.kernelbench_dir else 'bundled'}):", flush=True)
            (profile_fresh if args.fresh else profile_case)(root, task, kernel, args.device,
                                                            args.top, args.provenance)


if __name__ == "__main__":
    main()
