"""Step latency, stage times and speedup stability of the gpu evaluator (run on a GPU host).

    python bench/gpu_bench.py [--kernelbench-dir KernelBench/KernelBench] [--repeats 5]

For Triton ReLU, Softmax, matmul and Frobenius kernels, on the bundled tasks and (when a
KernelBench checkout is given) on KernelBench's own level-1 shapes, it evaluates the same kernel
once cold and `repeats` times warm, and prints per case: the stage times and step latency of a
warm step, the harness overhead (step latency minus the time spent inside the candidate's own
forward calls; steps are 1 s apart, as in an RL loop, so the spare process is ready), the
speedup's mean and spread across the warm evaluations, and the dispatch
guard's share of the reported runtime, and the anti-gaming checks' share of the step (def%:
determinism re-run, integrity checks, fresh timed inputs and timed-output re-checks, provenance
when on, their forwards included; not the correctness protocol's own input copies and checks),
and the host time to issue one timed call (iss ms: above the timer's 0.1 ms lead the GPU waited
for the host, and that wait is in the candidate's time). That table runs with kernel provenance
off; a second one runs the steps as the server does by default (provenance on every submission),
3 warm and 3 with a fresh source each (compiled afresh, as every step of an RL loop is), with
the checks' share of each. A third table shows the evaluation process's own costs outside the
stages (the warm-up of its CUDA context and of the evaluator's kernels, the step's wait for it,
the job's handover and the answer's report), for the steps above and for ReLU steps queued back to back (no gap, a
step waiting behind each: as when several sessions share a GPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.evaluators import GpuEvaluator  # noqa: E402

LEGIT = ROOT / "tests" / "kernels" / "legit"
PROCESS_PARTS = ("context", "prewarm", "wait", "handover", "report")
BUNDLED = ROOT / "server" / "tasks" / "bundled"
CASES = [  # (label, task id, kernel)
    ("ReLU", "level1/19_ReLU", "relu.py"),
    ("Softmax", "level1/23_Softmax", "softmax_online.py"),
    ("matmul", "level1/1_Square_matrix_multiplication_", "square_matmul.py"),
    ("Frobenius", "level1/37_FrobeniusNorm_", "frobenius_norm.py"),
]


def evaluate_repeatedly(ev, code: str, ref: str, task: str, count: int, gap_s: float,
                        guard_last: bool = False) -> list | str:
    """(latency, result) per evaluation, `gap_s` apart; an error string if one was not scored.
    With no gap, each request says a step waits behind it (as the pool marks a request when
    sessions share the GPU): the worker host then warms the next steps' processes beside it."""
    rows = []
    for i in range(count):
        req = ev.request(code, ref, task, "triton")
        req.measure_guard_overhead = guard_last and i == count - 1
        req.backlog = 1 if gap_s == 0 else 0
        t0 = time.perf_counter()
        result = ev.pool.evaluate(req)
        latency = time.perf_counter() - t0
        if result.stage != "scored":  # which evaluation, and all it said (session 39's H100:
            # an out_of_memory cut at 300 characters hid which process held the memory)
            which = "cold" if i == 0 else f"warm #{i}"
            return f"{result.error_class} ({which} of {count}): {result.feedback}"
        rows.append((latency, result))
        time.sleep(gap_s)  # an RL loop generates the next submission meanwhile: the spare warms up
    return rows


def run_case(ev, root: Path, task: str, kernel: str, repeats: int, gap_s: float = 1.0) -> dict:
    code, ref = (LEGIT / kernel).read_text(), (root / f"{task}.py").read_text()
    # cold, warm x repeats, then one that also times without the guard
    rows = evaluate_repeatedly(ev, code, ref, task, repeats + 2, gap_s, guard_last=True)
    if isinstance(rows, str):
        return {"error": rows}
    cold, warm, guard = rows[0], rows[1:-1], rows[-1][1]
    speedups = [r.speedup for _, r in warm]
    mean = statistics.mean(speedups)
    return {
        "cold_s": cold[0],
        "warm_s": statistics.median(lat for lat, _ in warm),
        "overhead_s": statistics.median(lat - r.candidate_seconds for lat, r in warm),
        "defence_pct": statistics.median(100 * r.defence_seconds / lat for lat, r in warm),
        "defence_ms": _by_kind(warm),
        "stages": {k: statistics.median(r.stage_seconds.get(k, 0) for _, r in warm)
                   for k in ("static_check", "compile", "correctness", "timing")},
        "runtime_ms": statistics.median(r.runtime_ms for _, r in warm),
        "ref_ms": warm[0][1].ref_runtime_ms,
        "speedup": mean,
        "speedups": [round(x, 4) for x in speedups],
        # per evaluation: SM clock before/after its trials, trials charged a tail's excess / trials,
        # the median tail against its limit (ms)
        "timed": [(d.get("clock_mhz"), d.get("clock_after_mhz"),
                   f"{d.get('tail_counted')}/{d.get('trials')}",
                   f"{d.get('tail_ms')}/{d.get('tail_limit_ms')}")
                  for d in (r.timing_detail for _, r in warm)],
        "ref_clock_mhz": warm[0][1].timing_detail.get("ref_clock_mhz"),
        "spread_pct": 100 * max(abs(x - mean) for x in speedups) / mean,  # +-, around the mean
        "guard_pct": 100 * guard.guard_overhead,
        "roofline_frac": warm[0][1].roofline["roofline_frac"],
        "issue_ms": statistics.median(r.issue_ms for _, r in warm),
        "process_ms": {k: round(statistics.median(1e3 * r.process_seconds.get(k, 0.0) for _, r in warm), 1)
                       for k in PROCESS_PARTS},
        "outside_stages_ms": round(statistics.median(
            1e3 * (lat - sum(r.stage_seconds.values())) for lat, r in warm), 1),
    }


def fresh_source(code: str, nonce: str) -> str:
    """The kernel with a comment line of its own in every @triton.jit body: a new source, as in
    an RL loop, which Triton compiles afresh (its cache key hashes the function's source)."""
    lines, out, pending = code.splitlines(), [], False
    for line in lines:
        out.append(line)
        if line.strip().startswith("@triton.jit"):
            pending = True
        elif pending and line.rstrip().endswith("):"):
            out.append(f"    # fresh source {nonce}")
            pending = False
    return "\n".join(out) + "\n"


def default_steps(root: Path, task: str, kernel: str, repeats: int) -> dict:
    """Steps as the server runs them (kernel provenance on every submission,
    KERNEL_ENV_PROVENANCE=all, the default; the main table runs with it off): `repeats` warm
    steps of the same source (each compiled in its step's own Triton cache since session 25),
    then `repeats` fresh sources (compiled afresh, as every step of an RL loop is), 1 s apart;
    the checks' share of each."""
    ev = GpuEvaluator((0,), memory_limit_gb=64.0, provenance="all")
    ev.pool.start(background=False)
    try:
        code, ref = (LEGIT / kernel).read_text(), (root / f"{task}.py").read_text()
        rows = evaluate_repeatedly(ev, code, ref, task, repeats + 1, 1.0)
        fresh = [] if isinstance(rows, str) else [
            evaluate_repeatedly(ev, fresh_source(code, f"{time.time_ns()}"), ref, task, 1, 1.0)
            for _ in range(repeats)]
    finally:
        ev.close()
    errors = [r for r in [rows] + fresh if isinstance(r, str)]
    if errors:
        return {"error": errors[0]}
    warm, fresh = rows[1:], [r[0] for r in fresh]
    return {"warm_s": statistics.median(lat for lat, _ in warm),
            "fresh_s": statistics.median(lat for lat, _ in fresh),
            "provenance_s": statistics.median(r.provenance_seconds for _, r in warm),
            "warm_def_pct": statistics.median(100 * r.defence_seconds / lat for lat, r in warm),
            "fresh_def_pct": statistics.median(100 * r.defence_seconds / lat for lat, r in fresh),
            "defence_ms": _by_kind(warm),
            "stages": {k: statistics.median(r.stage_seconds.get(k, 0) for _, r in warm)
                       for k in ("static_check", "compile", "correctness", "timing")},
            "fresh_compile_s": statistics.median(r.stage_seconds.get("compile", 0) for _, r in fresh),
            "speedup": statistics.mean(r.speedup for _, r in warm + fresh),
            "kernels": warm[0][1].kernels_seen}


def _by_kind(rows) -> dict:
    return {k: round(statistics.median(1e3 * r.defence_breakdown.get(k, 0.0) for _, r in rows), 1)
            for k in sorted({k for _, r in rows for k in r.defence_breakdown})}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between steps")
    parser.add_argument("--only", help="run only the cases with this label (e.g. ReLU)")
    parser.add_argument("--no-provenance", action="store_true", help="skip the provenance table")
    args = parser.parse_args()
    cases = [c for c in CASES if args.only in (None, c[0])]
    ev = GpuEvaluator((0,), memory_limit_gb=64.0, provenance="off")  # its cost: the second table
    t0 = time.perf_counter()
    ev.pool.start(background=False)
    print(f"worker host start: {time.perf_counter() - t0:.2f} s", flush=True)
    roots = [("bundled", BUNDLED)] + ([("KernelBench", args.kernelbench_dir)] if args.kernelbench_dir else [])
    table = []
    for suite, root in roots:
        for label, task, kernel in cases:
            row = run_case(ev, root, task, kernel, args.repeats, args.gap)
            table.append((f"{suite} {label}", row))
            print(f"{suite} {label}: {row}", flush=True)
    queued = []  # steps queued back to back on the GPU: each waits for its process's warm-up
    for suite, root in roots:
        label, task, kernel = CASES[0]
        row = run_case(ev, root, task, kernel, args.repeats, 0.0)
        queued.append((f"{suite} {label}", row))
        print(f"back to back {suite} {label}: {row}", flush=True)
    ev.close()
    recorded = []
    for suite, root in roots[-1:]:  # KernelBench's shapes when given
        for label, task, kernel in ([] if args.no_provenance else cases):
            row = default_steps(root, task, kernel, 3)
            recorded.append((f"{suite} {label}", row))
            print(f"default steps {suite} {label}: {row}", flush=True)
    head = (f"{'case':<22}{'cold s':>8}{'warm s':>8}{'ovh s':>7}{'corr s':>8}{'time s':>8}"
            f"{'ms':>10}{'ref ms':>10}{'speedup':>9}{'+-spd%':>9}{'guard%':>8}{'def%':>6}{'roof':>6}"
            f"{'iss ms':>8}")
    print("\n" + head + "\n" + "-" * len(head))
    for name, r in table:
        if "error" in r:
            print(f"{name:<22} ERROR {r['error']}")
            continue
        print(f"{name:<22}{r['cold_s']:>8.2f}{r['warm_s']:>8.2f}{r['overhead_s']:>7.2f}"
              f"{r['stages']['correctness']:>8.2f}{r['stages']['timing']:>8.2f}{r['runtime_ms']:>10.4f}"
              f"{r['ref_ms']:>10.4f}{r['speedup']:>9.3f}{r['spread_pct']:>9.2f}{r['guard_pct']:>8.2f}"
              f"{r['defence_pct']:>6.1f}{r['roofline_frac']:>6.2f}{r['issue_ms']:>8.3f}")
    print("\nthe evaluation process, median ms a warm step: its CUDA context (from its fork, after "
          "the previous step) and the evaluator's kernels, the step's wait for them, the job's "
          "handover, the answer's report; outside = step latency minus the stages")
    print(f"{'case':<34}{'warm s':>7}{'ovh s':>7}" + "".join(f"{k:>9}" for k in PROCESS_PARTS)
          + f"{'outside':>9}{'+-spd%':>8}")
    for name, r in [(n, r) for n, r in table] + [(f"{n}, back to back", r) for n, r in queued]:
        if "error" not in r:
            print(f"{name:<34}{r['warm_s']:>7.2f}{r['overhead_s']:>7.2f}"
                  + "".join(f"{r['process_ms'][k]:>9.1f}" for k in PROCESS_PARTS)
                  + f"{r['outside_stages_ms']:>9.1f}{r['spread_pct']:>8.2f}")
    print("\nchecks by kind, median ms a warm step (def% above):")
    for name, r in table:
        if "error" not in r:
            print(f"{name:<22}" + ", ".join(f"{k} {v:.1f}" for k, v in r["defence_ms"].items()))
    print("\nsteps as served (KERNEL_ENV_PROVENANCE=all, the default; the table above ran with it "
          "off): warm = same source, fresh = a new source each step (compiled afresh, as in RL)")
    plain = dict(table)
    print(f"{'case':<22}{'prov s':>8}{'w/o s':>7}{'warm s':>8}{'def%':>6}{'fresh s':>9}{'comp s':>8}"
          f"{'def%':>6}{'speedup':>9}  kernels recorded")
    for name, r in recorded:
        if "error" in r:
            print(f"{name:<22} ERROR {r['error']}")
            continue
        base = plain.get(name, {})
        print(f"{name:<22}{r['provenance_s']:>8.3f}{base.get('warm_s', float('nan')):>7.2f}"
              f"{r['warm_s']:>8.2f}{r['warm_def_pct']:>6.1f}{r['fresh_s']:>9.2f}"
              f"{r['fresh_compile_s']:>8.2f}{r['fresh_def_pct']:>6.1f}{r['speedup']:>9.3f}  "
              f"{', '.join(k[:40] for k in r['kernels'])}")
    print("checks by kind with provenance on, median ms a warm step:")
    for name, r in recorded:
        if "error" not in r:
            print(f"{name:<22}" + ", ".join(f"{k} {v:.1f}" for k, v in r["defence_ms"].items()))


if __name__ == "__main__":
    main()
