"""Memory for the evaluator's secrets, which a candidate's own allocations are never handed.

A tensor the evaluator frees goes back to an allocator that serves the candidate's next
`torch.empty`, contents and all: red-team pass 59 read which units a unit trial drives (the
ascent's gradients: the driven units' weight rows) out of freed memory on the cpu evaluator and
computed only those of the columns it skipped. Two allocators, two answers:
- the host's (glibc malloc, the cpu evaluator's tensors): worker hosts run with malloc
  perturbation and without the thread cache (pool.MALLOC_TUNABLES), so every
  freed chunk is overwritten as it is freed and a new one is filled with a fixed byte;
- the GPU's (the caching allocator, which hands freed blocks back unwritten): the secret-making
  work runs inside `secret_allocations`, whose allocations, on every thread (the backward runs
  on autograd's device thread), come from a private pool of this process's that no allocation
  outside it draws from. The pool lives as long as the process (a step's): its blocks are never
  given back to the driver, whose next allocation could hand them on unwritten.
"""

from __future__ import annotations

import contextlib

import torch

_pools: dict[int, object] = {}  # device index -> its private torch.cuda.MemPool
_depth: dict[int, int] = {}


@contextlib.contextmanager
def secret_allocations(device: torch.device):
    """Route the device's allocations to this process's private pool for the block (a no-op on
    the CPU, whose freed memory perturbation overwrites). Re-entrant."""
    if device.type != "cuda":
        yield
        return
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _pools:
        _pools[index] = torch.cuda.MemPool()
    pool = _pools[index]
    outer = _depth.get(index, 0) == 0
    if outer:
        torch._C._cuda_beginAllocateToPool(index, pool.id)  # every thread's, every stream's
    _depth[index] = _depth.get(index, 0) + 1
    try:
        yield
    finally:
        _depth[index] -= 1
        if outer:
            torch._C._cuda_endAllocateToPool(index, pool.id)
