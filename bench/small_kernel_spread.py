"""Why a 4 µs kernel's time differs between evaluation processes (GPU host).

    python bench/small_kernel_spread.py [--processes 6]

The bundled tasks' speedups spread ±1.3-6 % over 5 evaluations on the H200 (session 13) while
full-size ones hold ±0.2 %: a tenth of a microsecond between processes. Each fresh process here
times a 16x4096 ReLU (out of place, like eager and like a Triton kernel's fresh output) with the
real timer, in alternating rounds of layouts: input and output at fixed addresses (`pool
fixed`), or at a random place in 64 MB pools every call (`pool in+out`, or only one of them),
or as a step's calls get them (`allocator`: a fresh input each call, forward's output from the
caching allocator), and the same after a spacer of random size (0-64 MB) allocated ahead of each
call's input (`allocator+spacer`: what the pipeline could do, since it cannot place the
candidate's outputs). If the spread between processes is the addresses' (the physical pages
behind them), moving layouts should spread less between processes.

Session 13 (`bench/results/2026-12-01-h200-s13-small-kernel-spread*.log`): with only `fixed`
and `moving` (both in the pools) in that version, 2 of 14 processes had a slow fixed placement
(4.40 and 4.19 µs against 3.87-4.03 µs; the bundled ReLU's cached reference was 4.5 µs once in
the benchmark), which moving placements did not show (±1.7-2.3 %
between processes against ±4.8-9.1 %); the trials' interquartile mean, also printed then,
did not narrow either (the median of a few-µs kernel moves in the event timer's 32 ns steps).
Session 14 (`…-s14-small-kernel-spread.log`, 10 processes, this version): pool fixed ±4.20 %,
pool in+out ±1.98 %, pool in ±1.79 %, pool out ±4.12 %, allocator ±4.37 %, allocator+spacer
±2.50 %: the input's place is what matters, so the timer now moves every call's inputs
(server/evaluation/input_placement.py). What remains is per process and the same in every
layout (one process 3.872 µs in all six, another 4.000 µs).
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
rng = random.Random(0)
where = {}

def place(move_in, move_out):
    at, to = (rng.randrange(0, pool_in.numel() - n, 1024) for _ in range(2))
    where["x"] = pool_in[at:at + n].view(16, 4096) if move_in else fixed_x
    where["o"] = pool_out[to:to + n].view(16, 4096) if move_out else fixed_o

def fresh(spacer):
    where.pop("spacer", None)
    where.pop("x", None)
    if spacer:  # displaces what the allocator hands out next: the input, then forward's output
        where["spacer"] = torch.empty(rng.randrange(0, 256) * 65536, device=dev)
    where["x"] = fixed_x.clone()

LAYOUTS = {  # (before each call, the call)
    "pool fixed": (lambda: place(False, False), lambda: torch.clamp_min(where["x"], 0, out=where["o"])),
    "pool in+out": (lambda: place(True, True), lambda: torch.clamp_min(where["x"], 0, out=where["o"])),
    "pool in": (lambda: place(True, False), lambda: torch.clamp_min(where["x"], 0, out=where["o"])),
    "pool out": (lambda: place(False, True), lambda: torch.clamp_min(where["x"], 0, out=where["o"])),
    "allocator": (lambda: fresh(False), lambda: torch.relu(where["x"])),  # as a step's calls run
    "allocator+spacer": (lambda: fresh(True), lambda: torch.relu(where["x"])),
}
rows = {k: [] for k in LAYOUTS}
for _ in range(3):
    for name, (before, call) in LAYOUTS.items():
        rows[name].append(timing.time_forward(call, dev, timing.Hooks(before=before)).median_ms)
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
        print(f"{layout:16s} mean {mean * 1e3:.3f} µs, ± {100 * max(abs(v - mean) for v in values) / mean:.2f} % "
              f"between {len(values)} processes")


if __name__ == "__main__":
    main()
