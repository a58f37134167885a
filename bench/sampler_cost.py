"""What the timed loop's per-call hooks cost: the timed-output sampler's `refresh` (fresh or
perturbed inputs, the last output spoiled) and `observe` (the output fingerprinted), per call,
and the device primitives they are made of.

    python bench/sampler_cost.py [--device cuda:0] [--calls 60]

Each hook runs as in the timed loop: after a device-wide synchronisation (the loop's), on an idle
device; a hook's time is the host's, from its start to its return (its own synchronisations
included). Shapes: KernelBench level 1's ReLU (4096 x 393216, row-separable, perturbed), its
Frobenius norm's input (112 x 64 x 512 x 512, fingerprinted anywhere, perturbed) and the bundled
ReLU's (16 x 16384, generated afresh).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.evaluation.timed_inputs import FINGERPRINTED, TimedOutputSampler  # noqa: E402

CASES = [  # (label, shape, perturbing, row-separable, forward)
    ("KB ReLU", (4096, 393216), True, True, torch.relu),
    ("KB Frobenius", (112, 64, 512, 512), True, False, lambda x: x / torch.linalg.vector_norm(x)),
    ("bundled ReLU", (16, 16384), False, False, torch.relu),
]


def _us(f, n: int, device) -> float:
    """Median host µs of f() run after a synchronisation, its own device work waited for."""
    times = []
    for i in range(n + 5):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        f()
        torch.cuda.synchronize(device)
        if i >= 5:
            times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def hooks(label, shape, perturbing, rows, forward, calls: int, device) -> None:
    def get_inputs():
        return [torch.rand(*shape)]
    inputs: list = []
    sampler = TimedOutputSampler(get_inputs, inputs, device, seed=1, replayable=True,
                                 perturbing=perturbing, row_inputs=[0] if rows else None)
    refresh, observe = [], []
    for _ in range(calls):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        sampler.refresh()
        refresh.append(time.perf_counter() - t0)
        out = forward(inputs[0])
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        sampler.observe(out)
        observe.append(time.perf_counter() - t0)
        del out
    print(f"{label:<14} refresh {1e6 * statistics.median(refresh[2:]):7.0f} µs   "
          f"observe {1e6 * statistics.median(observe[2:]):7.0f} µs   "
          f"(medians of {calls - 2} calls; perturbing {sampler.perturbing}, "
          f"rows {sampler.row_count})")
    steps(sampler, inputs, forward, device)
    del sampler, inputs
    torch.cuda.empty_cache()


def steps(sampler, inputs, forward, device, calls: int = 30) -> None:
    """observe's and refresh's steps one by one (each waited for): where a call's hooks go."""
    from server.evaluation import perturb as perturbation
    from server.evaluation.correctness import output_items
    from server.evaluation.timed_inputs import _spoil, gather
    spent: dict[str, list] = {}

    def step(name, f):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        value = f()
        torch.cuda.synchronize(device)
        spent.setdefault(name, []).append((time.perf_counter() - t0) * 1e6)
        return value
    for _ in range(calls):
        out = forward(inputs[0])
        outs = step("output_items", lambda: output_items(out))
        shift = None if sampler.row_count is None else sampler.rng.randrange(sampler.shapes[0][0])
        step("gen.get_state", sampler.gen.get_state)
        rows = step("rows(shift) (host)", lambda: sampler.rows(shift))
        positions, _ = step("_positions_of", lambda: sampler._positions_of(rows, sampler.gen))
        taken = step("gather", lambda: [gather(o, i) for o, i in zip(outs, positions)])
        step(".cpu()", lambda: [t.cpu() for t in taken])
        step("_spoil", lambda: _spoil(out, inputs, sampler.gen))
        if sampler.perturbing:
            step("perturb.restore", lambda: perturbation.restore(sampler.undo))
            sampler.round += 1
            sampler.undo = step("perturb", lambda: sampler._perturbed(sampler.inputs, sampler.round))
        else:
            step("generate", lambda: sampler._generated(sampler.round))
        out = None
    print("    " + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in spent.items()) + " µs")


def primitives(device, n: int = 50) -> None:
    big = torch.rand(4096, 393216, device=device)
    gen = torch.Generator(device=device).manual_seed(1)
    positions = torch.randint(0, big.numel(), (FINGERPRINTED,), device=device, generator=gen)
    host_rows = torch.arange(128) * 32
    pinned_rows = torch.empty(128, dtype=torch.int64, pin_memory=True)
    pinned_out = torch.empty(FINGERPRINTED, pin_memory=True)
    taken = torch.take(big, positions)
    ops = {
        "synchronize (idle)": lambda: None,
        "gen.get_state()": gen.get_state,
        "randint 65536 (device)": lambda: torch.randint(0, big.numel(), (FINGERPRINTED,),
                                                        device=device, generator=gen),
        "randint 65536 (host)": lambda: torch.randint(0, big.numel(), (FINGERPRINTED,)),
        "128 rows .to(device)": lambda: host_rows.to(device),
        "128 rows pinned, non_blocking": lambda: pinned_rows.copy_(host_rows).to(device, non_blocking=True),
        "take 65536 of 6 GiB": lambda: torch.take(big, positions),
        "65536 floats .cpu()": taken.cpu,
        "65536 floats to pinned, non_blocking": lambda: pinned_out.copy_(taken, non_blocking=True),
        "index_fill_ 65536 of 6 GiB": lambda: big.view(-1).index_fill_(0, positions, 0.5),
        "5 elementwise int64 ops": lambda: ((positions // 7).add_(1).mul_(3).remainder_(11).add_(positions)),
    }
    for name, op in ops.items():
        print(f"  {name:<40}{_us(op, n, device):8.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--calls", type=int, default=60)
    args = parser.parse_args()
    device = torch.device(args.device)
    torch.cuda.init()
    for case in CASES:
        hooks(*case, args.calls, device)
    print("primitives (median host µs, after a synchronisation, device work waited for):")
    primitives(device)


if __name__ == "__main__":
    main()
