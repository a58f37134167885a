"""Why a 4 µs kernel's time differs between evaluation processes (GPU host).

    python bench/small_kernel_spread.py [--processes 6]

The bundled tasks' speedups spread ±1.3-6 % over 5 evaluations on the H200 (session 13) while
full-size ones hold ±0.2 %: a tenth of a microsecond between processes. Each fresh process here
times a 16x4096 ReLU (out of place, like eager and like a Triton kernel's fresh output) with the
real timer, in alternating rounds of two layouts: `fixed` (one input and one output, the same
addresses every call, as the caching allocator hands a step's fresh tensors out) and `moving`
(input and output at a random place in 64 MB pools each call). If the spread between processes
is the addresses' (the physical pages behind them), `moving` should spread less between
processes. Each layout is also summarised by its trials' interquartile mean (the median of a
few-µs kernel moves in the event timer's 32 ns steps).

Session 13 (`bench/results/2026-12-01-h200-s13-small-kernel-spread*.log`): 2 of 14 processes
had a slow fixed placement (4.40 and 4.19 µs against 3.87-4.03 µs; the bundled ReLU's cached
reference was 4.5 µs once in the benchmark), which moving placements did not show (±1.7-2.3 %
between processes against ±4.8-9.1 %); the interquartile mean did not narrow either.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, torch
from server.evaluation import timing
dev = torch.device("cuda:0")
n = 16 * 4096
pool_in = torch.rand(16 * 1024 * 1024, device=dev) * 2 - 1
pool_out = torch.empty_like(pool_in)
fixed_x, fixed_o = pool_in[:n].view(16, 4096).clone(), torch.empty(16, 4096, device=dev)
where = {"x": fixed_x, "o": fixed_o}
rng = random.Random(0)
kept = {}
summary = timing._summary

def keeping(times_ms, *a, **k):  # the trials themselves, for their interquartile mean
    kept["times"] = sorted(times_ms)
    return summary(times_ms, *a, **k)

timing._summary = keeping

def iqm():
    t = kept["times"]
    q = len(t) // 4
    return sum(t[q:len(t) - q]) / len(t[q:len(t) - q])

def move():
    at, to = (rng.randrange(0, pool_in.numel() - n, 1024) for _ in range(2))
    where["x"], where["o"] = pool_in[at:at + n].view(16, 4096), pool_out[to:to + n].view(16, 4096)

def call():
    return torch.clamp_min(where["x"], 0, out=where["o"])

rows = {"fixed": [], "moving": [], "fixed iqm": [], "moving iqm": []}
for _ in range(3):
    where["x"], where["o"] = fixed_x, fixed_o
    rows["fixed"].append(timing.time_forward(call, dev).median_ms)
    rows["fixed iqm"].append(iqm())
    rows["moving"].append(timing.time_forward(call, dev, timing.Hooks(before=move)).median_ms)
    rows["moving iqm"].append(iqm())
print(json.dumps({k: sorted(v)[1] for k, v in rows.items()}))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=6)
    args = parser.parse_args()
    per = []
    for _ in range(args.processes):
        out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                             cwd=str(ROOT), check=True).stdout.strip().splitlines()[-1]
        per.append(json.loads(out))
        print(f"process {len(per)}: " + ", ".join(f"{k} {v * 1e3:.3f} µs" for k, v in per[-1].items()),
              flush=True)
    for layout in per[0]:
        values = [p[layout] for p in per]
        mean = statistics.mean(values)
        print(f"{layout:10s} mean {mean * 1e3:.3f} µs, ± {100 * max(abs(v - mean) for v in values) / mean:.2f} % "
              f"between {len(values)} processes")


if __name__ == "__main__":
    main()
