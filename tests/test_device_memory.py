"""Whose device memory ran out (server/evaluation/device_memory.py): a shortage caused by other
processes is the evaluator's failure for a Triton submission, the submission's otherwise."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from server.evaluation import device_memory
from server.evaluation.guard import DispatchGuard
from server.evaluation.device_memory import (GIB, AllocatorOom, MemoryHeldElsewhere, MemoryPicture,
                                             held_elsewhere, out_of_device_memory)

ROOT = Path(__file__).resolve().parents[1]


def gib(x: float) -> int:
    return int(x * GIB)


# Session 39's H100: 79.18 GiB, 1.05 free, another process reported at 71.30 GiB; the allocator
# could not meet `torch.empty_like(x)` of a 6 GiB input.
ALLOCATOR_OOM = AllocatorOom(requested=gib(6.0), free=gib(1.05))
H100_BESIDE_A_HOG = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(6.2), allocated=gib(6.0),
                                  local=0, oom=ALLOCATOR_OOM, held_before=gib(69.9))
H100_OWN_HOG = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(76.0), allocated=gib(75.5),
                             local=0, oom=ALLOCATOR_OOM, held_before=gib(0.5))
# The same device, but no request of this step's failed in PyTorch's allocator: the error was
# raised some other way (a forward raising torch.OutOfMemoryError itself, red-team pass 79).
H100_BESIDE_A_HOG_NO_ALLOCATOR_OOM = dataclasses.replace(H100_BESIDE_A_HOG, oom=None)


def test_memory_held_by_other_processes_is_not_a_triton_submissions():
    assert H100_BESIDE_A_HOG.elsewhere > gib(69)
    assert held_elsewhere(H100_BESIDE_A_HOG, "triton")


def test_a_cuda_extension_may_hold_memory_outside_pytorch_so_it_stays_charged():
    assert not held_elsewhere(H100_BESIDE_A_HOG, "cuda")


def test_memory_held_by_this_evaluation_is_the_submissions_shortage():
    assert H100_OWN_HOG.elsewhere < gib(1)
    assert not held_elsewhere(H100_OWN_HOG, "triton")


def test_a_little_memory_elsewhere_is_not_enough():
    # the context, modules and a spare beside it: a few GiB, under a quarter of the device
    small = MemoryPicture(total=gib(79.18), free=gib(1.0), reserved=gib(71.0), allocated=gib(70.0), local=0)
    assert 0 < small.elsewhere < 0.25 * small.total
    assert not held_elsewhere(small, "triton")


def test_a_kernels_local_memory_is_this_evaluations_own():
    """Register spills: the driver reserves the per-thread stack for every resident thread,
    outside PyTorch's allocator; 70 GiB of it is the submission's kernel, not another process."""
    spilling = dataclasses.replace(H100_BESIDE_A_HOG, local=gib(70))
    assert spilling.elsewhere == 0 and not held_elsewhere(spilling, "triton")
    assert "its kernels' local memory 70.0 GiB" in spilling.describe()


def test_nothing_is_excused_where_the_local_memory_is_unknown():
    assert not held_elsewhere(dataclasses.replace(H100_BESIDE_A_HOG, local=None), "triton")


def test_only_a_request_the_allocator_could_not_meet_is_excused():
    """A forward raising torch.OutOfMemoryError itself met no shortage: charged, however
    crowded the device (red-team pass 79)."""
    assert not held_elsewhere(H100_BESIDE_A_HOG_NO_ALLOCATOR_OOM, "triton")


def test_a_request_too_large_for_the_whole_device_is_the_submissions():
    """A request that would not fit even with every other process gone fails on an empty device
    too: not other processes' doing."""
    huge = dataclasses.replace(H100_BESIDE_A_HOG, oom=AllocatorOom(requested=gib(200), free=gib(1.05)))
    assert not held_elsewhere(huge, "triton")
    just_fits = dataclasses.replace(
        H100_BESIDE_A_HOG, oom=AllocatorOom(requested=gib(1.05) + H100_BESIDE_A_HOG.held_before, free=gib(1.05)))
    assert held_elsewhere(just_fits, "triton")


def test_memory_held_outside_pytorch_since_the_step_began_is_not_another_processs():
    """What others held as the step began bounds what they hold: memory that appeared outside
    PyTorch's allocator once the submission's code ran (library handles or plans its __init__
    made, red-team pass 79) may be its own."""
    appeared = dataclasses.replace(H100_BESIDE_A_HOG, held_before=gib(1.0))
    assert appeared.elsewhere > gib(69) and not held_elsewhere(appeared, "triton")
    assert not held_elsewhere(dataclasses.replace(H100_BESIDE_A_HOG, held_before=None), "triton")
    # others that let go of some since: what they still hold counts
    released = dataclasses.replace(H100_BESIDE_A_HOG, held_before=gib(75))
    assert held_elsewhere(released, "triton")


def test_the_allocators_own_fragments_are_not_the_submissions():
    """The allocator held 71 GiB as it gave up, 30 GiB of it in live tensors: the 41 GiB of
    pieces it could not release or use are its fragmentation, whoever is around."""
    fragmented = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(71.3), allocated=gib(24.0),
                               local=0, held_before=0,
                               oom=AllocatorOom(gib(6.0), gib(1.05), reserved=gib(71.3), allocated=gib(30.0)))
    assert held_elsewhere(fragmented, "triton")  # (no other process: held_before 0)
    assert "asked 6.00 GiB while the allocator held 71.3 GiB, 30.0 GiB in live tensors" in fragmented.describe()


def test_live_tensors_as_the_allocator_gave_up_are_the_submissions():
    """75.5 GiB in live tensors when the request failed: the error unwound and freed them before
    the picture was taken (allocated 6.0 there), but the counts read at the failure decide."""
    hog = dataclasses.replace(H100_OWN_HOG, allocated=gib(6.0),
                              oom=AllocatorOom(gib(6.0), gib(1.05), reserved=gib(76.0), allocated=gib(75.5)))
    assert not held_elsewhere(hog, "triton")


def test_the_observer_counts_a_steps_unmet_requests_from_its_start():
    device_memory._observe(0, gib(3), gib(80), gib(1))  # as the allocator calls it
    assert device_memory.step_oom().requested == gib(3) and device_memory.step_oom().free == gib(1)
    device_memory.watch(torch.device("cpu"))  # a new step: what came before is not its own
    assert device_memory.step_oom() is None
    device_memory._observe(0, gib(5), gib(80), gib(2))
    assert device_memory.step_oom().requested == gib(5) and device_memory.step_oom().free == gib(2)
    device_memory.watch(torch.device("cpu"))


def test_an_unmet_request_before_a_candidate_call_does_not_excuse_that_calls_error():
    """A request the allocator met on a retry (cuDNN's smaller workspace) leaves a record; an
    `OutOfMemoryError` a later call raises itself must not be excused by it: only a request
    unmet since the last guarded call began counts."""
    device_memory.watch(torch.device("cpu"))
    device_memory._observe(0, gib(3), gib(80), gib(1))  # before the call, met on a retry
    assert device_memory.step_oom() is not None
    try:
        with DispatchGuard(torch.device("cpu"), "candidate.py"):  # a candidate call begins
            assert device_memory.step_oom() is None
            device_memory._observe(0, gib(5), gib(80), gib(2))  # the allocator fails in the call
            assert device_memory.step_oom().requested == gib(5)
        assert device_memory.step_oom().requested == gib(5)  # read after the call unwound
    finally:
        device_memory.watch(torch.device("cpu"))
    assert device_memory.step_oom() is None


def test_the_allocators_observer_hook_exists():
    """torch's hook for the allocator's unmet requests (a private name: a torch upgrade that
    drops it leaves nothing excused, which this test shows first)."""
    assert callable(torch._C._cuda_attach_out_of_memory_observer)


def test_the_picture_names_every_share():
    text = H100_BESIDE_A_HOG.describe()
    assert "1.0 of 79.2 GiB free" in text and "held 6.2 GiB" in text and "about 69.9 GiB" in text


def test_no_picture_off_a_gpu():
    assert device_memory.picture(torch.device("cpu")) is None
    assert out_of_device_memory(torch.device("cpu"), "triton", "random inputs #1") == ""


# A submission whose forward runs out of device memory, through the real pipeline in a fresh
# interpreter (cpu evaluator, the static check set aside so that it may raise torch's error),
# the device's memory picture stood in for: the submission's verdict, or the evaluator's failure.
SUBMISSION = """
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 6.00 GiB")
"""

PIPELINE_SCRIPT = """
import json, sys, tempfile
from server.evaluation import device_memory, pipeline
from server.evaluation.protocol import EvalRequest
from server.evaluation.static_check import StaticReport
from tests.conftest import BUNDLED
from tests.test_device_memory import H100_BESIDE_A_HOG, H100_OWN_HOG

from tests.test_device_memory import H100_BESIDE_A_HOG_NO_ALLOCATOR_OOM

device_memory.picture = lambda device: {"beside": H100_BESIDE_A_HOG, "own": H100_OWN_HOG,
                                        "raised": H100_BESIDE_A_HOG_NO_ALLOCATOR_OOM}[sys.argv[1]]
pipeline.static_check = lambda source, language: StaticReport(
    kernels=(), autotuned=False, source=source, own_methods=())
task = "level1/19_ReLU"
with tempfile.TemporaryDirectory() as workdir:
    req = EvalRequest(code=sys.argv[2], reference_source=(BUNDLED / f"{task}.py").read_text(),
                      task_id=task, device="cpu", input_seed=1, provenance="off")
    profile = pipeline.profile_reference(req, workdir)
    try:
        result = pipeline.evaluate_candidate(req, profile, workdir, lambda stage: None)
        print(json.dumps([result.stage, result.error_class, result.feedback]))
    except device_memory.MemoryHeldElsewhere as exc:
        print(json.dumps(["raised", type(exc).__name__, str(exc)]))
"""


def _oom_through_the_pipeline(picture: str) -> list:
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PIPELINE_SCRIPT, picture, SUBMISSION],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_forward_out_of_memory_beside_a_hog_is_the_evaluators_failure():
    stage, kind, text = _oom_through_the_pipeline("beside")
    assert (stage, kind) == ("raised", "MemoryHeldElsewhere"), text
    # (the trial's label leads: which trial comes first is secret)
    assert "held outside this evaluation" in text and "about 69.9 GiB" in text


def test_an_out_of_memory_error_the_allocator_never_met_is_the_submissions():
    """The forward raises torch.OutOfMemoryError itself beside a crowded device: charged."""
    stage, kind, text = _oom_through_the_pipeline("raised")
    assert (stage, kind) == ("correctness", "out_of_memory"), text
    assert "about 69.9 GiB" in text


def test_a_forward_out_of_memory_of_its_own_is_the_submissions_with_the_picture():
    stage, kind, text = _oom_through_the_pipeline("own")
    assert (stage, kind) == ("correctness", "out_of_memory"), text
    assert "held 76.0 GiB" in text and "Tried to allocate 6.00 GiB" in text


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_process_holding_the_gpus_memory_is_seen_as_elsewhere():
    """Another process fills the device: the picture taken here puts that memory elsewhere, so a
    Triton submission's shortage that the allocator met is the evaluator's failure, and a CUDA
    one's its own; a request larger than the whole device, or an error the allocator never
    raised, stays the submission's. The context's local memory is read (the driver's stack size)."""
    device = torch.device("cuda", torch.cuda.current_device())
    torch.empty(1, device=device)  # this process's context, as an evaluation's
    torch.cuda.empty_cache()  # what earlier tests in this process left cached is not free
    free, total = torch.cuda.mem_get_info(device)
    hog = subprocess.Popen(
        [sys.executable, "-c", "import sys, torch; x = torch.empty(int(sys.argv[1]), dtype=torch.uint8,"
         " device='cuda'); print('held', flush=True); sys.stdin.read()", str(int(free * 0.8))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert hog.stdout.readline().strip() == "held"
        device_memory.watch(device)  # a step begins beside the hog
        memory = device_memory.picture(device)
        assert memory is not None and memory.local is not None and memory.held_before is not None, memory
        assert memory.held_before > 0.5 * free, memory.describe()
        props = torch.cuda.get_device_properties(device)  # the driver's stack: 1 KiB a thread at least
        assert memory.local >= props.multi_processor_count * props.max_threads_per_multi_processor * 1024, memory
        assert memory.oom is None  # nothing unmet yet: an error raised now would be charged
        assert "other processes" in out_of_device_memory(device, "triton", "random inputs #1")
        with pytest.raises(torch.OutOfMemoryError):
            torch.empty(int(free * 0.5), dtype=torch.uint8, device=device)  # fits once the hog is gone
        assert device_memory.step_oom() is not None and device_memory.step_oom().requested >= int(free * 0.5)
        with pytest.raises(MemoryHeldElsewhere, match="held outside this evaluation"):
            out_of_device_memory(device, "triton", "random inputs #1")
        assert "other processes" in out_of_device_memory(device, "cuda", "random inputs #1")
        with pytest.raises(torch.OutOfMemoryError):
            torch.empty(2 * total, dtype=torch.uint8, device=device)  # fails on an empty device too
        assert device_memory.step_oom().requested >= 2 * total
        assert "other processes" in out_of_device_memory(device, "triton", "random inputs #1")
    finally:
        hog.kill()
        hog.wait()
        device_memory.watch(device)
