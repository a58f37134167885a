"""Memory for the evaluator's secrets, which a candidate's own allocations are never handed.

A tensor the evaluator frees goes back to an allocator that serves the candidate's next
`torch.empty`, contents and all: red-team pass 59 read which units a unit trial drives (the
ascent's gradients: the driven units' weight rows) out of freed memory on the cpu evaluator and
computed only those of the columns it skipped. Two allocators, two answers:
- the host's (glibc malloc, the cpu evaluator's tensors): worker hosts run with malloc
  perturbation and without the thread cache (pool.MALLOC_TUNABLES), so every freed chunk is
  overwritten as it is freed and a new one is filled with a fixed byte;
- the GPU's (the caching allocator, which hands freed blocks back unwritten): the secret-making
  work runs inside `secret_allocations`, whose allocations, on every thread of the process,
  come from a private pool that no allocation outside it draws from (the H200: a tensor made
  there, freed, never reached a later torch.empty outside). Gradients are taken with
  `secret_grad`, whose backward runs on the calling thread rather than autograd's device
  thread (the H200, session 32: a gradient made so reached no later torch.empty either).
  The pool lives as long as the process (a step's): its blocks are never given back to the
  driver, whose next allocation could hand them on unwritten.
"""

from __future__ import annotations

import contextlib
import logging

import torch

_pools: dict[int, object] = {}  # device index -> its private torch.cuda.MemPool
_depth: dict[int, int] = {}


def _index(device: torch.device) -> int:
    return device.index if device.index is not None else torch.cuda.current_device()


@contextlib.contextmanager
def secret_allocations(device: torch.device):
    """Route the device's allocations to this process's private pool for the block (a no-op on
    the CPU, whose freed memory perturbation overwrites). Re-entrant."""
    if device.type != "cuda":
        yield
        return
    index = _index(device)
    if index not in _pools:
        _pools[index] = torch.cuda.MemPool()
    pool = _pools[index]
    outer = _depth.get(index, 0) == 0
    if outer:
        torch._C._cuda_beginAllocateToPool(index, pool.id)  # every thread's (use_mem_pool: one's)
    _depth[index] = _depth.get(index, 0) + 1
    try:
        yield
    finally:
        _depth[index] -= 1
        if outer:
            torch._C._cuda_endAllocateToPool(index, pool.id)


def secret_grad(output: torch.Tensor, inputs: list, **kwargs):
    """torch.autograd.grad(output, inputs, **kwargs) with its backward on the calling thread,
    inside `secret_allocations` wherever the caller is (on every device: the CPU's tests run
    the same call), and no log record made: `torch.autograd.graph`'s logger, set to DEBUG,
    logs every node of a backward, and a filter on it told a kernel that the next inputs were a
    unit trial's (red-team pass 77)."""
    manager = logging.root.manager
    was = manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with torch.autograd.set_multithreading_enabled(False):
            return torch.autograd.grad(output, inputs, **kwargs)
    finally:
        logging.disable(was)
