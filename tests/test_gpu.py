"""The gpu evaluator on a real GPU: the kernel folders, CUDA extensions, faults, timing.

Skipped without CUDA. Run on a GPU host with `pytest -m gpu tests/test_gpu.py`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from server.evaluation.gpus import detect_gpu
from server.evaluators import GpuEvaluator
from tests.conftest import BUNDLED, KERNELS
from tests.test_pipeline_kernels import cases, header

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]


# Kernels that need the device to themselves when the suite runs in parallel (bench/run_gpu_suite.sh
# with WORKERS > 1): they fill its memory, or write past their buffers.
GPU_ALONE = {"memory_hog_starves_the_evaluator", "huge_alloc", "out_of_bounds_writes_into_reference_inputs"}


def parallel(params: list) -> list:
    """The kernel cases, marked `gpu_parallel` (their verdicts do not depend on having the GPU
    alone) but for GPU_ALONE: a parallel run gives them to several pytest workers, each with its
    own evaluator on the same GPU, and runs the rest one at a time after."""
    return [p if p.id in GPU_ALONE else pytest.param(*p.values, id=p.id, marks=pytest.mark.gpu_parallel)
            for p in params]


@pytest.fixture(scope="module")
def evaluator():
    """Kernel provenance on every submission (KERNEL_ENV_PROVENANCE=all; the default records CUDA
    submissions only): honest Triton kernels must pass it too."""
    ev = GpuEvaluator((0,), provenance="all", stage_timeouts={"static_check": 10, "compile": 240, "correctness": 30,
                                             "timing": 60})
    ev.pool.start(background=False)
    yield ev
    ev.close()


def evaluate(evaluator, path):
    fields = header(path)
    reference = (BUNDLED / f"{fields['task']}.py").read_text()
    return fields, evaluator.evaluate(path.read_text(), reference, task_id=fields["task"],
                                      language=fields.get("language", "triton"))


@pytest.mark.parametrize("path", parallel(cases("legit") + cases("cuda")))
def test_kernel_gets_its_verdict_on_the_gpu(evaluator, path):
    fields, result = evaluate(evaluator, path)
    if fields["expect"] != "ok":
        assert result.error_class == fields["expect"], result.feedback
        assert fields.get("says", "") in result.feedback, result.feedback  # e.g. the refused import
        if result.error_class == "foreign_kernel":  # the feedback names what ran
            assert "neither your own" in result.feedback and result.kernels_seen
        return
    assert result.stage == "scored", f"{result.error_class}: {result.feedback}"
    assert result.correct and result.reward > 0 and result.timing_meaningful
    assert result.runtime_ms > 0 and result.ref_runtime_ms > 0 and 0 < result.speedup < 100
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # alone on the GPU: a plausible speedup. Beside
        # other workers' evaluations a few-µs kernel waits for their contexts' time slices (session
        # 42's H100, 8 workers: three honest ReLU-sized kernels timed at 0.5-1.0 ms, speedup 0.004)
        assert result.speedup > 0.01, result.speedup
    # the roof of the GPU the step ran on (session 39's H100 found this asserting "H200")
    gpu = detect_gpu(torch.cuda.get_device_name(0))
    assert result.roofline["roofline_frac"] is not None and not gpu.fallback
    assert result.roofline["roofline_gpu"] == gpu.name
    # provenance really recorded: the submission's own kernels were seen, nothing foreign
    assert result.kernels_seen, "no kernels were recorded"


@pytest.mark.parametrize("path", parallel(cases("adversarial")))
def test_adversarial_kernel_is_rejected_on_the_gpu_as_on_cpu(evaluator, path):
    fields, result = evaluate(evaluator, path)
    # `expect_gpu` where a GPU compiler stops the exploit earlier than the interpreter can, or
    # where an exploit of the cpu evaluator's generator finds nothing to exploit on a GPU (ok)
    expected = fields.get("expect_gpu", fields["expect"])
    if expected == "ok":
        assert result.stage == "scored", result.feedback
        return
    if expected == "rejected":  # a CPU-evaluator exploit: on the GPU any refusal will do
        assert result.stage != "scored", result.feedback
    else:
        assert result.error_class == expected, f"{result.stage}: {result.feedback}"
        assert fields.get("says", "") in result.feedback, result.feedback  # the compiler's words
    assert result.reward == 0.0


def test_the_gpu_is_clean_after_every_exploit(evaluator):
    _, result = evaluate(evaluator, KERNELS / "legit" / "relu.py")
    assert result.stage == "scored" and result.reward > 0


def test_cuda_compile_errors_show_the_first_real_error(evaluator):
    _, result = evaluate(evaluator, KERNELS / "cuda" / "compile_error_cuda.py")
    assert result.stage == "compile" and "undefined_function" in result.feedback



HOG = """
import time, torch
free, _ = torch.cuda.mem_get_info()
held = torch.empty(free - (16 << 20), dtype=torch.uint8, device="cuda")
print("full", flush=True)
time.sleep(3)
"""

SPARE = """
import torch
from server.evaluation.children import _context, _context_again
device = torch.device("cuda")
failed = _context(device)
print("first attempt failed:", failed is not None, flush=True)
if failed:
    _context_again(device, failed)
print("context:", float(torch.ones(4, device=device).sum()), flush=True)
"""


def test_a_spare_forked_while_another_process_fills_the_gpu_gets_its_context_after():
    """A spare forks beside a step whose submission holds nearly all GPU memory (the
    adversarial memory hog): its context cannot be created then; it is, once that step's
    process has given the memory back (children._context_again), and the next step runs."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    hog = subprocess.Popen([sys.executable, "-c", HOG], stdout=subprocess.PIPE, cwd=ROOT)
    try:
        assert hog.stdout.readline() == b"full\n"
        spare = subprocess.run([sys.executable, "-c", SPARE], capture_output=True, text=True,
                               cwd=ROOT, timeout=120)
    finally:
        hog.kill()
        hog.wait()
    assert "first attempt failed: True" in spare.stdout, spare.stdout + spare.stderr[-2000:]
    assert "context: 4.0" in spare.stdout, spare.stdout + spare.stderr[-2000:]


FILLER = """
import time, torch
held, size = [], 1 << 40
while size >= 1 << 20:  # every block the device has left, as the adversarial memory hog does
    try:
        held.append(torch.empty(size, dtype=torch.uint8, device="cuda"))
    except torch.OutOfMemoryError:
        size //= 2
print("full", flush=True)
time.sleep(3)
"""

WARMING_SPARE = """
import sys, torch
from server.evaluation.children import _context, _warm, _warm_again
device = torch.device("cuda")
assert _context(device) is None
print("context", flush=True)
sys.stdin.readline()  # the other process has filled the device
unwarmed = _warm(device)
print("first warm-up failed:", unwarmed is not None, flush=True)
if unwarmed is not None:
    _warm_again(device, unwarmed)
print("warmed:", float(torch.ones(4, device=device).sum()), flush=True)
"""


def test_a_spare_whose_warm_up_finds_the_gpu_full_warms_once_the_memory_is_back():
    """A spare makes its context, then a step beside it fills the GPU (tests2 on the H200: the
    memory hog's 139 GiB made the next step's spare fail its warm-up, and that step failed to
    start, internal_error). The warm-up is tried again once the job arrives, until that step's
    process has given the memory back (children._warm_again)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    spare = subprocess.Popen([sys.executable, "-c", WARMING_SPARE], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    filler = None
    try:
        assert spare.stdout.readline() == "context\n", spare.stderr.read()[-2000:]
        filler = subprocess.Popen([sys.executable, "-c", FILLER], stdout=subprocess.PIPE, cwd=ROOT)
        assert filler.stdout.readline() == b"full\n"
        spare.stdin.write("go\n")
        spare.stdin.flush()
        out, err = spare.communicate(timeout=120)
    finally:
        for process in (spare, filler):
            if process is not None:
                process.kill()
                process.wait()
    assert "first warm-up failed: True" in out, out + err[-2000:]
    assert "warmed: 4.0" in out, out + err[-2000:]


def test_a_steps_compiled_kernels_leave_the_shared_cache_alone(evaluator):
    """An RL loop compiles a new kernel every step: the step's compiles go to its own folder
    (step_cache.py), so the shared Triton cache, which the server keeps for days, gains none."""
    import secrets

    import triton

    shared = triton.knobs.cache.dir  # the worker hosts' too: the same HOME and TRITON_CACHE_DIR

    def kernel_files() -> set:
        return {os.path.join(d, f) for d, _, files in os.walk(shared) for f in files
                if f.startswith(("relu_kernel.", "__grp__relu_kernel."))}

    before = kernel_files()
    source = (KERNELS / "legit" / "relu.py").read_text().replace(
        "    offs = tl.program_id(0)", f"    # a new source: {secrets.token_hex(8)}\n    offs = tl.program_id(0)", 1)
    result = evaluator.evaluate(source, (BUNDLED / "level1/19_ReLU.py").read_text(), task_id="level1/19_ReLU")
    assert result.stage == "scored", result.feedback
    assert kernel_files() == before


@pytest.mark.parametrize("allocator", ["expandable_segments:True", "expandable_segments:False"])
@pytest.mark.parametrize("made_by", ["the calling thread", "autograd's backward"])
def test_memory_freed_in_secret_allocations_reaches_no_allocation_outside_them(made_by, allocator):
    """The evaluator's secrets (a unit trial's gradients, perturbed and spoiled positions) are
    made in a private pool (secret_memory.py): freed, the caching allocator hands them on to no
    torch.empty outside; without it, the next allocation of the size holds them. A gradient's
    backward runs on the calling thread (secret_grad). Under both allocator settings a worker
    may run with: expandable segments (an operator's PYTORCH_CUDA_ALLOC_CONF, passed on) map a
    pool's pages into one growing segment, not a segment per request. Each in a fresh process
    (the setting is read once per process; 4 passed on session 43's H100). (Session 31's failures of the backward case were the test's own:
    one value marked both cases, and the block the first case's run without the pool had freed
    was found by the second's.)"""
    import subprocess
    import sys

    env = dict(os.environ, PYTORCH_CUDA_ALLOC_CONF=allocator)
    probe = subprocess.run([sys.executable, str(Path(__file__).parent / "secret_memory_probe.py"),
                            made_by], env=env, capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr[-3000:]
    assert "secret found: False" in probe.stdout, probe.stdout
    assert "plain found: True" in probe.stdout, probe.stdout
