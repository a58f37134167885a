"""What kernels do honest submissions and their references launch, and what does recording them cost?

    python bench/kernel_names.py [--kernelbench-dir .kb/KernelBench]

Prints the profiler's start-up cost in a process forked from a parent that imported torch without
initialising CUDA (the worker's design); a small kernel's timing before and after recordings in
the same process, with and without TEARDOWN_CUPTI=1; for every kernel in tests/kernels/legit, the
device kernels one forward launches (as torch.profiler names them) and the reference's; and the
candidate-time spread of one Triton ReLU across forked processes at KernelBench's full size.
Used to maintain the provenance allow-list (server/evaluation/provenance.py) on a GPU host.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
import torch.profiler  # noqa: E402
import triton  # noqa: E402,F401

from tests.test_pipeline_kernels import header  # noqa: E402

LEGIT = ROOT / "tests" / "kernels" / "legit"
BUNDLED = ROOT / "server" / "tasks" / "bundled"


def in_child(fn, *args):
    """Run fn(*args) in a forked child; its printed lines come back through a pipe."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            text = fn(*args)
        except BaseException as exc:  # noqa: BLE001
            text = f"error: {type(exc).__name__}: {exc}"
        os.write(w, text.encode())
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()


def profile_names(fn) -> list[str]:
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    names = []
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and e.name not in names:
            names.append(e.name)
    return names


def cupti_cost() -> str:
    t0 = time.perf_counter()
    x = torch.ones(1024, device="cuda")
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    profile_names(lambda: x.add(1))
    t2 = time.perf_counter()
    profile_names(lambda: x.add(1))
    t3 = time.perf_counter()
    return f"cuda init {t1 - t0:.3f} s, first profile {t2 - t1:.3f} s, second {t3 - t2:.3f} s"


def names_for(path: Path) -> str:
    from server.evaluation.loading import build_models, load_candidate, load_reference
    from server.evaluation.inputs import generate
    fields = header(path)
    task = fields["task"]
    dev = torch.device("cuda")
    with tempfile.TemporaryDirectory() as wd:
        reference = load_reference((BUNDLED / f"{task}.py").read_text(), wd)
        candidate, file = load_candidate(path.read_text(), wd, fields.get("language", "triton"), dev)
        ref_model, new_model, _ = build_models(reference, candidate, file, dev)
        inputs = generate(reference.get_inputs, dev, 1)
        with torch.no_grad():
            new_model(*inputs)
            ref_model(*inputs)
            torch.cuda.synchronize()
            cand = profile_names(lambda: new_model(*inputs))
            ref = profile_names(lambda: ref_model(*inputs))
    return f"{path.name} [{task}]\n  candidate: {cand}\n  reference: {ref}\n"


def relu_time(warmup_s: float, churn: bool = False) -> str:
    """Full-size ReLU timed alone; with `churn`, after allocating and freeing what the
    correctness stage does (tests whether allocator placement moves the timing)."""
    from server.evaluation import timing
    code = (LEGIT / "relu.py").read_text()
    from server.evaluation.loading import load_candidate
    with tempfile.TemporaryDirectory() as wd:
        cand, _ = load_candidate(code, wd, "triton", torch.device("cuda"))
        if churn:
            for _ in range(3):
                held = [torch.rand(4096, 393216, device="cuda") for _ in range(6)]
                del held[::2]
                held.append(torch.empty(4096 * 393216 // 4, device="cuda", dtype=torch.bool))
                del held
        x = torch.rand(4096, 393216, device="cuda")
        m = cand.ModelNew()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < warmup_s:
            m(x)
            torch.cuda.synchronize()
        t = timing.time_forward(lambda: m(x), torch.device("cuda"))
    return f"{t.median_ms:.4f} {t.spread:.4f} {t.trials}"


def launch_cost_around_recording(teardown: bool) -> str:
    """A small kernel's timed median before and after a recording in the same process, and the
    cost of a second recording: does CUPTI stay attached (and tax launches) after the profiler
    stops, and does TEARDOWN_CUPTI=1 (cuptiFinalize after each recording) detach it?"""
    if teardown:
        os.environ["TEARDOWN_CUPTI"] = "1"
    from server.evaluation import timing
    from server.evaluation.loading import load_candidate
    from server.evaluation.provenance import KernelRecorder
    dev = torch.device("cuda")
    with tempfile.TemporaryDirectory() as wd:
        cand, _ = load_candidate((LEGIT / "relu.py").read_text(), wd, "triton", dev)
        x, m = torch.rand(16, 4096, device=dev), cand.ModelNew()
        before = timing.time_forward(lambda: m(x), dev).median_ms
        rec, spans = KernelRecorder(), []
        for _ in range(2):
            t0 = time.perf_counter()
            with rec.record():
                m(x)
                torch.cuda.synchronize()
            spans.append(time.perf_counter() - t0)
            time.sleep(0.5)  # a teardown may finish asynchronously
        after = timing.time_forward(lambda: m(x), dev).median_ms
    return (f"median before {before:.4f} ms, after two recordings {after:.4f} ms; recordings "
            f"{spans[0]:.3f} s then {spans[1]:.3f} s; seen {rec.seen}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-names", action="store_true")
    args = parser.parse_args()
    print("== profiler start-up in forked children (parent imported torch.profiler, no CUDA)")
    for _ in range(2):
        print(" ", in_child(cupti_cost), flush=True)
    print("== launch cost after recording (bundled ReLU 16x4096), default vs TEARDOWN_CUPTI=1")
    for teardown in (False, True):
        print(f"  teardown={teardown}:", in_child(launch_cost_around_recording, teardown), flush=True)
    if not args.skip_names:
        print("== kernel names per legit kernel (bundled shapes)")
        for path in sorted(LEGIT.glob("*.py")):
            print(in_child(names_for, path), end="", flush=True)
    print("== full-size ReLU candidate time across forked processes (median ms, IQR/median, trials)")
    for warm, churn in ((0.0, False), (0.0, True)):
        rows = [in_child(relu_time, warm, churn) for _ in range(5)]
        meds = [float(r.split()[0]) for r in rows if not r.startswith("error")]
        spread = 100 * (max(meds) - min(meds)) / statistics.median(meds) if meds else float("nan")
        print(f"  warm-up {warm:.1f} s, allocator churn {churn}: {rows} -> max-min {spread:.2f} %",
              flush=True)


if __name__ == "__main__":
    main()
