"""Timed inputs moved to a random place in a pool before every call (GPU only), on both sides.

A kernel of a few µs runs measurably slower from some addresses than from others, and the caching
allocator hands a process the same block for every call's fresh input: on the H200
(bench/small_kernel_spread.py, session 14) one process in ten timed a 16x4096 ReLU 4 % slower
than the rest at its fixed placement, and a reference time measured at such a placement is cached
for every later step of its task (session 13: 4.5 µs against 3.9-4.0 µs, every speedup 12 % off).
Copying each call's inputs to a random place in a 64 MiB pool averages over placements: ±4.2 %
between ten processes became ±1.8 %. The copy runs outside the timed interval, before the L2
flush, and the values are the task generator's own (timing keeps the original generator).

Each placed input is a tensor of its own: its storage is exactly its slot (made through the CUDA
array interface), so it shares no storage with another input or with the pool as far as the
aliasing checks, or a submission, can see. Only plain, dense, contiguous device tensors that share
memory with no other input are moved (inputs that are views of one another stay so), and only
where each fits an eighth of its share of the pool (one input of up to 8 MiB: where placement
shows; larger ones span many pages); anything else stays as generated.
"""

from __future__ import annotations

import random
import secrets

import torch

POOL_BYTES = 64 << 20
ALIGN = 4096  # slot addresses: page-aligned, as the allocator's own blocks are at least 512 B
MAX_SHARE = 8  # a tensor takes at most 1/MAX_SHARE of its stretch of the pool


class _Slot:
    """Bytes of the pool exposed as an array (CUDA array interface v2: no stream to wait on); it
    holds the pool, so the memory outlives every tensor made from it."""

    def __init__(self, pool: torch.Tensor, offset: int, nbytes: int):
        self.pool = pool
        self.__cuda_array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "version": 2,
                                         "data": (pool.data_ptr() + offset, False)}


class InputPlacer:
    """Copies a call's movable inputs to random, non-overlapping places in its pool (allocated
    at the first input that can move, zeroed: it holds nothing but inputs' copies)."""

    def __init__(self, device: torch.device):
        if device.type == "cuda" and device.index is None:
            device = torch.device("cuda", torch.cuda.current_device())
        self.device = device
        self.pool = None
        self.rng = random.Random(secrets.randbits(64))

    def place(self, inputs: list) -> None:
        """Replace, in the list, every movable input with a copy at a random place."""
        storages = [x.untyped_storage().data_ptr() for x in inputs if type(x) is torch.Tensor]
        movable = [i for i, x in enumerate(inputs)
                   if self._movable(x) and storages.count(x.untyped_storage().data_ptr()) == 1]
        if not movable:
            return
        stretch = POOL_BYTES // len(movable) // ALIGN * ALIGN
        if any(_nbytes(inputs[i]) * MAX_SHARE > stretch for i in movable):
            return  # too large to gain from moving (and a call's inputs move together or not)
        if self.pool is None:
            self.pool = torch.zeros(POOL_BYTES, dtype=torch.uint8, device=self.device)
        for k, i in enumerate(movable):
            x = inputs[i]
            room = (stretch - _nbytes(x)) // ALIGN
            offset = k * stretch + ALIGN * self.rng.randrange(room + 1)
            inputs[i] = _copy_at(x, self.pool, offset)

    def _movable(self, x) -> bool:
        return (type(x) is torch.Tensor and x.device == self.device and x.layout == torch.strided
                and x.is_contiguous() and not x.requires_grad and x.numel() > 0
                and not x.is_conj() and not x.is_neg())


def _nbytes(x: torch.Tensor) -> int:
    return x.numel() * x.element_size()


def _copy_at(x: torch.Tensor, pool: torch.Tensor, offset: int) -> torch.Tensor:
    raw = torch.as_tensor(_Slot(pool, offset, _nbytes(x)), device=pool.device)
    placed = torch.empty(0, dtype=x.dtype, device=pool.device)
    placed.set_(raw.untyped_storage(), 0, x.shape, x.stride())
    return placed.copy_(x)
