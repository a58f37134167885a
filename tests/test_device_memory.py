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
from server.evaluation.device_memory import (GIB, MemoryHeldElsewhere, MemoryPicture, held_elsewhere,
                                             out_of_device_memory)

ROOT = Path(__file__).resolve().parents[1]


def gib(x: float) -> int:
    return int(x * GIB)


# Session 39's H100: 79.18 GiB, 1.05 free, another process reported at 71.30 GiB.
H100_BESIDE_A_HOG = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(6.2), allocated=gib(6.0),
                                  local=0)
H100_OWN_HOG = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(76.0), allocated=gib(75.5),
                             local=0)


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

device_memory.picture = lambda device: {"beside": H100_BESIDE_A_HOG, "own": H100_OWN_HOG}[sys.argv[1]]
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


def test_a_forward_out_of_memory_of_its_own_is_the_submissions_with_the_picture():
    stage, kind, text = _oom_through_the_pipeline("own")
    assert (stage, kind) == ("correctness", "out_of_memory"), text
    assert "held 76.0 GiB" in text and "Tried to allocate 6.00 GiB" in text


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_process_holding_the_gpus_memory_is_seen_as_elsewhere():
    """Another process fills the device: the picture taken here puts that memory elsewhere, so a
    Triton submission's shortage would be the evaluator's failure and a CUDA one's its own; the
    context's local memory is read (the driver's stack size)."""
    device = torch.device("cuda", torch.cuda.current_device())
    torch.empty(1, device=device)  # this process's context, as an evaluation's
    free, _ = torch.cuda.mem_get_info(device)
    hog = subprocess.Popen(
        [sys.executable, "-c", "import sys, torch; x = torch.empty(int(sys.argv[1]), dtype=torch.uint8,"
         " device='cuda'); print('held', flush=True); sys.stdin.read()", str(int(free * 0.8))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert hog.stdout.readline().strip() == "held"
        memory = device_memory.picture(device)
        assert memory is not None and memory.local is not None, memory
        with pytest.raises(MemoryHeldElsewhere, match="held outside this evaluation"):
            out_of_device_memory(device, "triton", "random inputs #1")
        assert "other processes" in out_of_device_memory(device, "cuda", "random inputs #1")
    finally:
        hog.kill()
        hog.wait()
