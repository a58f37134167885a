"""Which part of the evaluation's timing setup moves a full-size kernel's measured time?

    python bench/timing_bias.py [--processes 3]

In processes forked like the worker's (torch imported, CUDA not initialised), times KernelBench's
full-size ReLU (4096 x 393216 fp32) with the honest Triton kernel of tests/kernels/legit, in the
same process one after another: bare; under the dispatch guard; with the timed-call hooks the
pipeline uses (guard, output sampling); holding the last output only; bare again; and eager
torch.relu (the reference). Prints each configuration's median per process and across them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
import triton  # noqa: E402,F401

from bench.kernel_names import LEGIT, in_child  # noqa: E402

SHAPE = (4096, 393216)


def configurations() -> str:
    from server.evaluation.guard import DispatchGuard
    from server.evaluation.loading import load_candidate
    from server.evaluation.timed_inputs import TimedOutputSampler
    from server.evaluation.timing import Hooks, time_forward

    device = torch.device("cuda")
    with tempfile.TemporaryDirectory() as wd:
        cand, path = load_candidate((LEGIT / "relu.py").read_text(), wd, "triton", device)
        model = cand.ModelNew()
        torch.manual_seed(0)
        x = torch.rand(*SHAPE, device=device)
        guard = DispatchGuard(device, path)
        held = {}

        def keep_last(out):
            held["out"] = out

        def sampled():
            sampler = TimedOutputSampler(lambda: [torch.rand(*SHAPE)], [x], device, 1)
            return Hooks(around=lambda: guard, before=sampler.refresh, after=sampler.observe)

        configs = [
            ("bare", lambda: Hooks()),
            ("guard", lambda: Hooks(around=lambda: guard)),
            ("pipeline_hooks", sampled),
            ("hold_last_output", lambda: Hooks(after=keep_last)),
            ("bare_again", lambda: Hooks()),
        ]
        rows = []
        with torch.no_grad():
            model(x)
            for name, hooks in configs:
                t = time_forward(lambda: model(x), device, hooks())
                rows.append(f"{name}={t.median_ms:.4f}")
                held.clear()
            t = time_forward(lambda: torch.relu(x), device)
            rows.append(f"torch.relu={t.median_ms:.4f}")
            # placement: the same kernel on three more input buffers held at once
            others = [torch.rand(*SHAPE, device=device) for _ in range(3)]
            for k, other in enumerate(others):
                t = time_forward(lambda: model(other), device)
                rows.append(f"buffer_{k + 2}={t.median_ms:.4f}")
    return " ".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=3)
    args = parser.parse_args()
    table: dict[str, list[float]] = {}
    for _ in range(args.processes):
        line = in_child(configurations)
        print(" ", line, flush=True)
        for item in line.split():
            if "=" in item:
                name, value = item.rsplit("=", 1)
                table.setdefault(name, []).append(float(value))
    print(f"{'configuration':<20}{'median ms':>10}{'max-min %':>10}")
    for name, values in table.items():
        med = statistics.median(values)
        print(f"{name:<20}{med:>10.4f}{100 * (max(values) - min(values)) / med:>10.2f}")


if __name__ == "__main__":
    main()
