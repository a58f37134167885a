"""Whose device memory ran out (server/evaluation/device_memory.py): a shortage caused by other
processes is the evaluator's failure for a Triton submission, the submission's otherwise."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from server.evaluation import device_memory
from server.evaluation.device_memory import (GIB, MemoryHeldElsewhere, MemoryPicture, held_elsewhere,
                                             out_of_device_memory)


def gib(x: float) -> int:
    return int(x * GIB)


# Session 39's H100: 79.18 GiB, 1.05 free, another process reported at 71.30 GiB.
H100_BESIDE_A_HOG = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(6.2), allocated=gib(6.0))
H100_OWN_HOG = MemoryPicture(total=gib(79.18), free=gib(1.05), reserved=gib(76.0), allocated=gib(75.5))


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
    small = MemoryPicture(total=gib(79.18), free=gib(1.0), reserved=gib(71.0), allocated=gib(70.0))
    assert 0 < small.elsewhere < 0.25 * small.total
    assert not held_elsewhere(small, "triton")


def test_the_picture_names_every_share():
    text = H100_BESIDE_A_HOG.describe()
    assert "1.0 of 79.2 GiB free" in text and "held 6.2 GiB" in text and "about 69.9 GiB" in text


def test_no_picture_off_a_gpu():
    assert device_memory.picture(torch.device("cpu")) is None
    assert out_of_device_memory(torch.device("cpu"), "triton", "random inputs #1") == ""


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_process_holding_the_gpus_memory_is_seen_as_elsewhere():
    """Another process fills the device: the picture taken here puts that memory elsewhere, so a
    Triton submission's shortage would be the evaluator's failure and a CUDA one's its own."""
    device = torch.device("cuda", torch.cuda.current_device())
    free, _ = torch.cuda.mem_get_info(device)
    hog = subprocess.Popen(
        [sys.executable, "-c", "import sys, torch; x = torch.empty(int(sys.argv[1]), dtype=torch.uint8,"
         " device='cuda'); print('held', flush=True); sys.stdin.read()", str(int(free * 0.8))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert hog.stdout.readline().strip() == "held"
        with pytest.raises(MemoryHeldElsewhere, match="held outside this evaluation"):
            out_of_device_memory(device, "triton", "random inputs #1")
        assert "other processes" in out_of_device_memory(device, "cuda", "random inputs #1")
    finally:
        hog.kill()
        hog.wait()
