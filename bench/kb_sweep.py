"""Every KernelBench task through the evaluator with trusted stand-ins for an honest kernel.

    python3 bench/kb_sweep.py --kernelbench-dir KernelBench/KernelBench [--levels 1 2 3]
        [--device cuda:0] [--deadline 540] [--start 0] [--jsonl rows.jsonl] [--static-only]
        [--stand-ins same f64 tf32] [--tasks REGEX]

gpu_bench.py follows four tasks closely; an RL run draws from all of KernelBench's 250. This
sweep asks of every task what a policy's honest submission depends on:
- static: the static check accepts an honest submission that copies the task's Model (its
  `__init__` and forward kept as they are, renamed ModelNew, its output copied by a Triton
  kernel): KernelBench's own idioms in a submission are not refused. Needs no GPU.
- profile: the reference's profile (its timing rounds, roofline counts, which checks apply)
  completes, and how long it takes (the first step of a task waits for it).
- same: the reference itself, submitted as ModelNew (`class ModelNew(Model): pass`), goes
  through every stage and every check and scores a speedup of about 1: no check refuses an
  output that is exactly right, and the candidate's timer agrees with the cached reference time.
- f64: the reference computed in float64 and rounded back (an honest kernel more accurate than
  eager PyTorch) passes the correctness stage: the tolerances and the task's special checks
  admit it.
- tf32: the reference with TF32 matmuls and convolutions (what Triton's `tl.dot` computes on
  float32 by default) passes the correctness stage.
The stand-ins are torch code, which the static check and the dispatch guard exist to refuse:
both are set aside for them, in this process only (the guard's own cost is gpu_bench's
*guard*); everything else runs as in a worker, in one process here (no stage time limits: the
sweep stops starting tasks after `--deadline` seconds, and `--start` resumes at a task index).
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "--device" in sys.argv and sys.argv[sys.argv.index("--device") + 1] == "cpu":
    os.environ["TRITON_INTERPRET"] = "1"  # before Triton is imported: the cpu evaluator's way

from server.evaluation import pipeline  # noqa: E402
from server.evaluation.protocol import EvalRequest  # noqa: E402
from server.evaluation.stages import StageFailure  # noqa: E402
from server.evaluation.static_check import StaticReport, static_check  # noqa: E402

COPY_KERNEL = '''

import triton
import triton.language as tl


@triton.jit
def sweep_copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def sweep_copied(out):
    if not isinstance(out, torch.Tensor):
        return out
    src = out.contiguous()
    dst = torch.empty_like(src)
    n = src.numel()
    sweep_copy_kernel[(triton.cdiv(n, 1024),)](src, dst, n, BLOCK=1024)
    return dst
'''

SAME = "\n\nclass ModelNew(Model):\n    pass\n"

FLOAT64 = '''

class ModelNew(Model):
    def forward(self, *args):
        wide = [a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                for a in args]
        kinds = [a.dtype for a in args if isinstance(a, torch.Tensor) and a.is_floating_point()]
        narrow = kinds[0] if kinds else torch.float32
        self.to(torch.float64)
        out = super().forward(*wide)

        def back(o):
            return o.to(narrow) if isinstance(o, torch.Tensor) and o.is_floating_point() else o

        return tuple(back(o) for o in out) if isinstance(out, (tuple, list)) else back(out)
'''


TF32 = '''

class ModelNew(Model):
    def forward(self, *args):
        saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        try:
            return super().forward(*args)
        finally:
            torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved
'''
STAND_INS = {"same": SAME, "f64": FLOAT64, "tf32": TF32}


def honest_copy(reference: str) -> str:
    """An honest submission's shape: the task's source, plus its Model copied as ModelNew
    (every `Model` in the class renamed) whose forward hands the output to a Triton copy."""
    tree = ast.parse(reference)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    lines = reference.splitlines()
    start = min([cls.lineno] + [d.lineno for d in cls.decorator_list]) - 1
    body = "\n".join(lines[start:cls.end_lineno])
    body = re.sub(r"\bModel\b", "ModelNew", body)
    body = re.sub(r"\bdef forward\(", "def torch_forward(", body)
    body += ("\n\n    def forward(self, *args):\n"
             "        out = self.torch_forward(*args)\n"
             "        if isinstance(out, tuple):\n"
             "            return tuple(sweep_copied(o) for o in out)\n"
             "        return sweep_copied(out)\n")
    return reference + COPY_KERNEL + "\n\n" + body + "\n"


def static_verdict(reference: str) -> str:
    try:
        static_check(honest_copy(reference), "triton")
    except StageFailure as failure:
        return f"{failure.error_class}: {failure.feedback[:240]}"
    except Exception as exc:  # noqa: BLE001 - the sweep reports, it does not stop
        return f"sweep error: {type(exc).__name__}: {exc}"
    return "ok"


class _TimingSkipped(Exception):
    """The f64 stand-in stops after the correctness stage."""


class _Unguarded(pipeline.DispatchGuard):
    """The dispatch guard with its checks off: the stand-ins are torch code."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def _trusted_report(code: str, language: str) -> StaticReport:
    return StaticReport(kernels=(), autotuned=False, source=code)


def evaluate(req: EvalRequest, profile: dict, workdir: str, stop_after_correctness: bool):
    saved = pipeline.static_check, pipeline.DispatchGuard, pipeline._timing
    pipeline.static_check, pipeline.DispatchGuard = _trusted_report, _Unguarded
    if stop_after_correctness:
        def skip(*args, **kwargs):
            raise _TimingSkipped()
        pipeline._timing = skip
    t0 = time.perf_counter()
    try:
        result = pipeline.evaluate_candidate(req, profile, workdir, lambda stage: None)
    except _TimingSkipped:
        return {"stage": "correct", "s": round(time.perf_counter() - t0, 3)}
    finally:
        pipeline.static_check, pipeline.DispatchGuard, pipeline._timing = saved
    row = {"stage": result.stage, "s": round(time.perf_counter() - t0, 3)}
    if result.stage != "scored":
        row.update(error=result.error_class, feedback=result.feedback[:300])
    else:
        row.update(speedup=round(result.speedup, 4), runtime_ms=result.runtime_ms,
                   checks_s=round(result.defence_seconds, 3),
                   checks_ms={k: round(v * 1e3, 1) for k, v in result.defence_breakdown.items()},
                   stages={k: round(v, 3) for k, v in result.stage_seconds.items()})
    return row


def sweep_task(path: Path, task_id: str, device: str, static_only: bool,
               stand_ins: list[str]) -> dict:
    import torch

    reference = path.read_text()
    row = {"task": task_id, "static": static_verdict(reference)}
    if static_only:
        return row
    with tempfile.TemporaryDirectory() as workdir:
        req = EvalRequest(code="", reference_source=reference, task_id=task_id, device=device,
                          input_seed=int(time.time_ns() % (1 << 31)), provenance="off",
                          memory_limit_gb=120.0)
        t0 = time.perf_counter()
        try:
            profile = pipeline.profile_reference(req, workdir)
        except Exception as exc:  # noqa: BLE001
            row["profile"] = f"failed: {type(exc).__name__}: {str(exc)[:300]}"
            return row
        row["profile_s"] = round(time.perf_counter() - t0, 3)
        row["ref_ms"] = profile["ref_runtime_ms"]
        row["flags"] = {k: profile.get(k) for k in ("replayable", "perturb_timing_inputs",
                                                     "insensitive", "eval_mode", "signed_trial",
                                                     "unit_trial", "unit_ms", "unit_note")}
        row["flags"]["rows"] = profile.get("row_inputs")
        row["flags"]["unstable"] = profile.get("unstable")
        row["flags"]["launch_bound"] = profile.get("launch_bound")
        row["ref_device_ms"] = profile.get("ref_device_ms")
        for name in stand_ins:
            req.code = reference + STAND_INS[name]
            try:
                row[name] = evaluate(req, profile, workdir, stop_after_correctness=name != "same")
            except Exception as exc:  # noqa: BLE001
                row[name] = {"stage": "sweep error", "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
            gc.collect()
            torch.cuda.empty_cache() if torch.cuda.is_available() else None
    return row


def tasks(root: Path, levels: list[int]) -> list[tuple[Path, str]]:
    def number(p: Path) -> int:
        head = p.stem.split("_", 1)[0]
        return int(head) if head.isdigit() else 10**6
    out = []
    for level in levels:
        files = sorted((root / f"level{level}").glob("*.py"), key=number)
        out += [(p, f"level{level}/{p.stem}") for p in files]
    return out


def summary(rows: list[dict]) -> None:
    print("\n== summary")
    static_bad = [r for r in rows if r["static"] != "ok"]
    print(f"tasks {len(rows)}; static check refused the honest copy of {len(static_bad)}")
    for r in static_bad:
        print(f"  {r['task']}: {r['static'][:200]}")
    ran = [r for r in rows if "profile" in r or "profile_s" in r]
    if not ran:
        return
    bad_profile = [r for r in ran if "profile" in r]
    print(f"profiled {len(ran) - len(bad_profile)} of {len(ran)}")
    for r in bad_profile:
        print(f"  {r['task']}: {r['profile'][:240]}")
    done = [r for r in ran if "profile_s" in r]
    unstable = [r for r in done if r["flags"].get("unstable")]
    print(f"references that miss their own float64 output (the profile's `unstable`): {len(unstable)}")
    for r in unstable:
        print(f"  {r['task']}: {r['flags']['unstable'][:200]}")
    for name in STAND_INS:
        ok = "scored" if name == "same" else "correct"
        if not any(name in r for r in done):
            continue
        failed = [r for r in done if name in r and r[name]["stage"] != ok]
        print(f"{name}: {len(done) - len(failed)} of {len(done)} {ok}")
        for r in failed:
            print(f"  {r['task']}: {r[name].get('stage')} {r[name].get('error')}: "
                  f"{str(r[name].get('feedback', ''))[:220]}")
    speedups = [(r["same"]["speedup"], r["task"]) for r in done
                if r.get("same", {}).get("stage") == "scored"]
    if speedups:
        values = sorted(s for s, _ in speedups)
        print(f"same's speedup: median {statistics.median(values):.4f}, "
              f"min {values[0]:.4f}, max {values[-1]:.4f}; beyond +-3 %:")
        bound = {r["task"] for r in done if r["flags"].get("launch_bound")}
        for s, t in sorted(speedups):
            if abs(s - 1) > 0.03:
                print(f"  {t}: {s:.4f}" + (" (launch-bound reference)" if t in bound else ""))
        print(f"launch-bound references (the profile's `launch_bound`): {len(bound)} of {len(done)}")
        signed = sum(1 for r in done if r["flags"].get("signed_trial"))
        print(f"tasks with the random-sign trial (the profile's `signed_trial`): {signed} of {len(done)}")
        units = sorted((r["flags"]["unit_ms"], r["task"]) for r in done if r["flags"].get("unit_trial"))
        print(f"tasks with the unit trial (the profile's `unit_trial`): {len(units)} of {len(done)}"
              + (f"; its inputs made in {units[0][0]:.1f}-{units[-1][0]:.1f} ms (median "
                 f"{statistics.median(u for u, _ in units):.1f})" if units else ""))
        for r in done:
            note = r["flags"].get("unit_note")
            if note and not note.startswith(("a task family", "no hidden", "the task's own")):
                print(f"  no unit trial for {r['task']}: {note}")
        steps = [r["same"]["s"] for r in done if r.get("same", {}).get("stage") == "scored"]
        profiles = [r["profile_s"] for r in done]
        print(f"same's step (in process, first of its task): median {statistics.median(steps):.2f} s, "
              f"max {max(steps):.2f} s; profile median {statistics.median(profiles):.2f} s, "
              f"max {max(profiles):.2f} s")
        # issue 7's cost target: the anti-gaming checks' share of a step (provenance off here)
        shares = sorted(100 * r["same"]["checks_s"] / r["same"]["s"] for r in done
                        if r.get("same", {}).get("stage") == "scored" and r["same"]["s"] > 0)
        if shares:
            quartiles = statistics.quantiles(shares, n=4) if len(shares) > 1 else shares * 3
            print(f"checks' share of same's step: median {statistics.median(shares):.1f} %, "
                  f"quartiles {quartiles[0]:.1f}-{quartiles[2]:.1f} %, range {shares[0]:.1f}-"
                  f"{shares[-1]:.1f} %; at most 5 %: {sum(x <= 5 for x in shares)} of {len(shares)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", type=Path, required=True)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--deadline", type=float, default=float("inf"),
                        help="seconds after which no task is started")
    parser.add_argument("--start", type=int, default=0, help="index of the first task")
    parser.add_argument("--jsonl", type=Path, help="append one JSON row per task")
    parser.add_argument("--static-only", action="store_true")
    parser.add_argument("--stand-ins", nargs="+", default=list(STAND_INS), choices=list(STAND_INS))
    parser.add_argument("--tasks", help="only task ids matching this regular expression")
    args = parser.parse_args()
    if not args.static_only:
        import torch
        pipeline.prewarm(torch.device(args.device))
    t0, rows = time.perf_counter(), []
    chosen = tasks(args.kernelbench_dir, args.levels)
    for index, (path, task_id) in enumerate(chosen[args.start:], start=args.start):
        if time.perf_counter() - t0 > args.deadline:
            print(f"deadline: stopped before task index {index} ({task_id})")
            break
        if args.tasks and not re.search(args.tasks, task_id):
            continue
        row = sweep_task(path, task_id, args.device, args.static_only, args.stand_ins)
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.jsonl:
            with args.jsonl.open("a") as f:
                f.write(json.dumps(row) + "\n")
    summary(rows)


if __name__ == "__main__":
    main()
