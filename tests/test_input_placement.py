"""Timed inputs moved to a random place before every call (input_placement.py). Needs a GPU: the
placed tensors are made through the CUDA array interface."""

from __future__ import annotations

import pytest
import torch

from server.evaluation.input_placement import ALIGN, POOL_BYTES, InputPlacer
from server.evaluation.timed_inputs import TimedOutputSampler

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]

DEVICE = torch.device("cuda:0")


def span(t: torch.Tensor) -> tuple[int, int]:
    return t.data_ptr(), t.data_ptr() + t.numel() * t.element_size()


def test_plain_inputs_move_as_tensors_of_their_own_with_the_same_values():
    x, w = torch.randn(16, 4096, device=DEVICE), torch.randint(0, 9, (33,), device=DEVICE)
    made = [x, w, 3, 0.5]
    inputs = list(made)
    InputPlacer(DEVICE).place(inputs)
    assert inputs[2:] == [3, 0.5]
    for before, after in zip(made[:2], inputs[:2]):
        assert after is not before and type(after) is torch.Tensor and after._base is None
        assert torch.equal(after, before) and after.dtype == before.dtype
        assert after.shape == before.shape and after.stride() == before.stride()
        # a storage of exactly its own bytes, page-aligned: nothing else in it to alias or reach
        assert after.untyped_storage().nbytes() == before.numel() * before.element_size()
        assert after.untyped_storage().data_ptr() == after.data_ptr()
        assert after.data_ptr() % ALIGN == 0
    (a0, a1), (b0, b1) = span(inputs[0]), span(inputs[1])
    assert a1 <= b0 or b1 <= a0


def test_every_call_gets_another_place():
    x = torch.randn(16, 4096, device=DEVICE)
    placer = InputPlacer(DEVICE)
    seen = set()
    for _ in range(20):
        inputs = [x]
        placer.place(inputs)
        seen.add(inputs[0].data_ptr())
        assert torch.equal(inputs[0], x)
    assert len(seen) >= 15  # ~16000 places for a 256 KiB input


def test_what_cannot_or_need_not_move_stays_as_generated():
    big = torch.zeros(POOL_BYTES // 4, dtype=torch.uint8, device=DEVICE)  # over an eighth of it
    strided = torch.randn(64, 64, device=DEVICE).t()
    grad = torch.randn(8, device=DEVICE, requires_grad=True)
    host = torch.randn(8)
    empty = torch.empty(0, device=DEVICE)
    made = [strided, grad, host, empty]
    inputs = list(made)
    InputPlacer(DEVICE).place(inputs)
    assert all(a is b for a, b in zip(inputs, made))
    x = torch.randn(64, 64, device=DEVICE)
    views = [x, x[1:]]  # inputs that are views of one another stay so
    inputs = list(views)
    InputPlacer(DEVICE).place(inputs)
    assert all(a is b for a, b in zip(inputs, views))
    small = torch.randn(8, device=DEVICE)
    inputs = [small]
    InputPlacer(torch.device("cuda")).place(inputs)  # the device named without its index
    assert inputs[0] is not small and torch.equal(inputs[0], small)
    both = [big, torch.randn(8, device=DEVICE)]  # a call's inputs move together or not at all
    inputs = list(both)
    InputPlacer(DEVICE).place(inputs)
    assert all(a is b for a, b in zip(inputs, both))


def test_a_placed_input_keeps_its_memory_after_the_placer_is_gone():
    x = torch.randn(4096, device=DEVICE)
    inputs = [x]
    InputPlacer(DEVICE).place(inputs)
    torch.cuda.empty_cache()
    others = [torch.full((1 << 20,), 7.0, device=DEVICE) for _ in range(64)]  # reuse freed memory
    assert torch.equal(inputs[0], x)
    del others


def test_the_timed_calls_inputs_move_and_replay_to_the_same_values():
    sampler = TimedOutputSampler(lambda: [torch.randn(16, 4096)], [], DEVICE, seed=5)
    seen = set()
    for _ in range(6):
        sampler.refresh()
        x = sampler.inputs[0]
        seen.add(x.data_ptr())
        assert x.untyped_storage().nbytes() == x.numel() * 4
        sampler.observe(x * 2)
    assert len(seen) >= 5
    checks = list(sampler.checks())
    assert checks
    for check in checks:  # re-made from their seeds: each fingerprint matches the inputs replayed
        if check.positions is not None:
            expected = torch.take(check.inputs[0] * 2, check.positions[0])
            assert torch.equal(check.output[0], expected)
