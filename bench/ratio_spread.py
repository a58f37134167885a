"""Does a few-µs kernel's speedup hold if the reference is timed in the same process? (GPU host)

    python bench/ratio_spread.py [--processes 8] [--cases ReLU,Softmax,Frobenius]

The bundled tasks' speedups spread ±1.3-4.7 % over 5 evaluations on the H200 (session 35), with
the reference's time cached once per task and each candidate timed in a process of its own;
`small_kernel_spread.py` found a 4 µs ReLU's time set per process (3.872 µs in one, 4.000 in
another, in every memory layout). If that per-process offset moves eager PyTorch's kernel as
it moves the candidate's, their ratio timed in one process holds where the candidate's time
alone does not. Each fresh process here times the bundled task's eager reference as the
profile does (`pipeline._time_reference`: inputs moved every call, the median of rounds) and
the legitimate Triton kernel the benchmark uses with the same timer (inputs moved every call),
alternating, and prints both and their ratio; the last lines give each one's spread between
processes (largest deviation from the mean, in % of it).

Session 36 (`bench/results/2026-12-04-h200-s36-ratio-spread.log`, 8 processes a case): the
per-process offset is shared only in part. ReLU: eager ±4.10 %, kernel ±4.06 %, their ratio
±3.00 % (seven processes within 1.040-1.050, one at 1.008); Softmax ±2.41 / 3.83 / 2.22 %;
Frobenius ±0.86 / 4.16 / 3.20 % (its eager time, 20 µs of several kernels, barely moves).
Timing the reference beside every candidate would not bring a few-µs speedup within ±1 %,
so the profile's cached reference stays.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from gpu_bench import BUNDLED, CASES, LEGIT  # noqa: E402

CHILD = r"""
import importlib.util, json, statistics, sys, tempfile, torch
from server.evaluation import timing
from server.evaluation.input_placement import InputPlacer
from server.evaluation.inputs import generate
from server.evaluation.loading import load_reference, reference_model
from server.evaluation.pipeline import _time_reference

task, kernel = sys.argv[1], sys.argv[2]
dev = torch.device("cuda:0")
reference = load_reference(open(task).read(), tempfile.mkdtemp())
ref = reference_model(reference, dev)
spec = importlib.util.spec_from_file_location("candidate", kernel)
cand_mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cand_mod)
cand = cand_mod.ModelNew(*reference.get_init_inputs()).to(dev)
inputs = generate(reference.get_inputs, dev, 1234)
placer, placed = InputPlacer(dev), list(inputs)

def move():
    placed[:] = inputs
    placer.place(placed)

refs, cands = [], []
with torch.no_grad():
    cand(*inputs)  # compile
    torch.cuda.synchronize()
    for _ in range(3):
        refs += [t.median_ms for t in _time_reference(ref, inputs, dev, 1)]
        cands.append(timing.time_forward(lambda: cand(*placed), dev, timing.Hooks(before=move)).median_ms)
print(json.dumps({"ref": statistics.median(refs), "cand": statistics.median(cands)}))
"""


def spread(values: list[float]) -> float:
    mean = statistics.mean(values)
    return 100 * max(abs(v - mean) for v in values) / mean


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--cases", default="ReLU,Softmax,Frobenius")
    args = parser.parse_args()
    wanted = args.cases.split(",")
    summary = []
    for label, task_id, kernel in CASES:
        if label not in wanted:
            continue
        task = BUNDLED / (task_id + ".py")
        per = []
        for k in range(args.processes):
            out = subprocess.run([sys.executable, "-c", CHILD, str(task), str(LEGIT / kernel)],
                                 capture_output=True, text=True, cwd=str(ROOT))
            if out.returncode:
                print(f"{label} process {k + 1} failed:\n{out.stderr[-2000:]}", flush=True)
                continue
            row = json.loads(out.stdout.strip().splitlines()[-1])
            per.append(row)
            print(f"{label} process {len(per)}: eager {row['ref'] * 1e3:.3f} µs, kernel "
                  f"{row['cand'] * 1e3:.3f} µs, speedup {row['ref'] / row['cand']:.4f}", flush=True)
        if len(per) > 1:
            summary.append((label, len(per), spread([p["ref"] for p in per]),
                            spread([p["cand"] for p in per]),
                            spread([p["ref"] / p["cand"] for p in per])))
    print("\ncase        processes  eager ±%  kernel ±%  speedup ±% (both timed in one process)")
    for label, n, r, c, s in summary:
        print(f"{label:<12}{n:>9}{r:>10.2f}{c:>11.2f}{s:>12.2f}")


if __name__ == "__main__":
    main()
