"""What the unit trials' inputs cost to make at KernelBench's full shapes, and where it goes.

    python3 bench/unit_making.py --kernelbench-dir KernelBench/KernelBench [--levels 2]
        [--tasks REGEX] [--deadline 400] [--device cuda:0]

The profile gives a task its unit trials (server/evaluation/unit_inputs.py) only where both
makers' inputs are made within pipeline.UNIT_MAX_MS, since every step makes them again. Per
task with hidden units, this prints the reference's forward (no gradient), one forward and
backward to the inputs over the whole batch and over the samples one trial drives at most
(what slicing the batch would leave), and the slower of the two makings (warm, as the profile
times them) with every sample driven (DRIVEN_VALUES unbounded: how it was before the cap) and
with the cap. Ends with how many tasks fit under the limit each way.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from bench.kb_sweep import tasks  # noqa: E402
from server.evaluation import pipeline, unit_inputs  # noqa: E402
from server.evaluation.inputs import generate  # noqa: E402
from server.evaluation.loading import load_reference, reference_model  # noqa: E402

SEED = 12345


def _ms(fn, device, repeat: int = 3) -> float:
    times = []
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda _device: None)
    for _ in range(repeat):
        sync(device)
        start = time.perf_counter()
        fn()
        sync(device)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def _forward_backward(model, inputs: list, samples: int | None):
    """One forward and a gradient to the floating inputs (the ascent's work, less its hooks),
    over the first `samples` of every batched input where given."""
    def run():
        leaves = [x[:samples] if samples and torch.is_tensor(x) and x.dim() else x for x in inputs]
        leaves = [x.detach().requires_grad_(True) if torch.is_tensor(x) and x.is_floating_point()
                  else x for x in leaves]
        with torch.enable_grad():
            out = model(*leaves)
            outs = out if isinstance(out, (tuple, list)) else [out]
            total = sum(o.float().sum() for o in outs if torch.is_tensor(o) and o.requires_grad)
            wrt = [x for x in leaves if torch.is_tensor(x) and x.requires_grad]
            torch.autograd.grad(total, wrt, allow_unused=True)
    return run


def _making_ms(model, get_inputs, device, cap: int | None) -> float:
    """The slower of the two makers' second making (the profile's way), with DRIVEN_VALUES
    unbounded (cap None) or as it is."""
    saved = unit_inputs.DRIVEN_VALUES
    if cap is None:
        unit_inputs.DRIVEN_VALUES = 1 << 62
    try:
        worst = 0.0
        for part in (False, True):
            unit_inputs.UnitInputs(model, part=part)(get_inputs, device, SEED)
            worst = max(worst, _ms(lambda: unit_inputs.UnitInputs(model, part=part)(
                get_inputs, device, SEED + 1), device, repeat=1))
        return worst
    finally:
        unit_inputs.DRIVEN_VALUES = saved


def measure(path: Path, task_id: str, device: torch.device) -> dict | None:
    with tempfile.TemporaryDirectory() as workdir:
        reference = load_reference(path.read_text(), workdir)
        model = reference_model(reference, device)
        inputs = generate(reference.get_inputs, device, SEED)
        probe = unit_inputs.UnitInputs(model)
        with torch.no_grad():
            probe(reference.get_inputs, device, SEED - 1)
        if not probe.found:
            return None
        movable = [x for x in inputs if unit_inputs._reorderable(x)]
        per_sample = max(unit_inputs._flat(x).shape[1] for x in movable)
        batch = unit_inputs._flat(movable[0]).shape[0]
        cap = max(unit_inputs.DRIVEN_MIN, unit_inputs.DRIVEN_VALUES // per_sample)
        row = {"task": task_id, "values/sample": per_sample, "batch": batch, "cap": min(cap, batch)}
        with torch.no_grad():
            row["ref"] = _ms(lambda: model(*inputs), device)
            row["old"] = _making_ms(model, reference.get_inputs, device, None)
            row["new"] = _making_ms(model, reference.get_inputs, device, cap)
        row["fwd+bwd"] = _ms(_forward_backward(model, inputs, None), device)
        try:
            row["sliced"] = _ms(_forward_backward(model, inputs, min(cap, batch)), device)
        except Exception:  # noqa: BLE001 - a model whose batch is fixed
            row["sliced"] = float("nan")
        return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernelbench-dir", required=True)
    parser.add_argument("--levels", nargs="+", type=int, default=[2])
    parser.add_argument("--tasks", default="")
    parser.add_argument("--deadline", type=float, default=400.0)
    parser.add_argument("--device", default="cuda:0")
    args = parser.parse_args()
    import re
    device = torch.device(args.device)
    rows, start = [], time.perf_counter()
    print(f"{'task':58s} {'vals/smp':>9s} {'cap':>7s} {'ref':>7s} {'fwd+bwd':>8s} {'sliced':>7s}"
          f" {'old':>7s} {'new':>7s}   (ms)", flush=True)
    for path, task_id in tasks(Path(args.kernelbench_dir), args.levels):
        if args.tasks and not re.search(args.tasks, task_id):
            continue
        if time.perf_counter() - start > args.deadline:
            print(f"deadline: stopped before {task_id}")
            break
        try:
            row = measure(path, task_id, device)
        except Exception as exc:  # noqa: BLE001
            print(f"{task_id:58s} failed: {type(exc).__name__}: {str(exc)[:120]}", flush=True)
            row = None
        gc.collect()
        if device.type == "cuda":
            torch.cuda.empty_cache()
        if row is None:
            continue
        rows.append(row)
        print(f"{task_id:58s} {row['values/sample']:9d} {row['cap']:3d}/{row['batch']:<3d} "
              f"{row['ref']:7.2f} {row['fwd+bwd']:8.2f} {row['sliced']:7.2f} {row['old']:7.1f} "
              f"{row['new']:7.1f}", flush=True)
    limit = pipeline.UNIT_MAX_MS
    print(f"\n== {len(rows)} tasks with hidden units; DRIVEN_VALUES {unit_inputs.DRIVEN_VALUES}, "
          f"DRIVEN_MIN {unit_inputs.DRIVEN_MIN}")
    for key in ("old", "new"):
        over = [r for r in rows if r[key] > limit]
        made = sorted(r[key] for r in rows)
        print(f"{key}: {len(rows) - len(over)} of {len(rows)} made within {limit:g} ms"
              + (f"; median {statistics.median(made):.1f}, max {made[-1]:.1f} ms" if made else "")
              + "".join(f"\n  over: {r['task']} {r[key]:.0f} ms" for r in over))


if __name__ == "__main__":
    main()
