# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# says: aten.relu_
# why: red-team pass 82, found while fixing it: `tl.dtype.is_block` (the class's, not one
#      singleton's) replaced through a parameter by a functools.partial of library callables (a
#      deque over map(torch.relu_, [out])). Triton's interpreter patches that class at every
#      launch, so no version tag can watch it; its argument conversion, which the guard paused
#      for, called is_block and ran torch.relu_ unchecked: scored on the cpu evaluator. Now the
#      interpreter's own copies are the only operations exempt there; anything else is judged by
#      the guard's rules (`forbidden_op`). On a GPU no interpreter calls is_block: the no-op
#      kernel leaves the output unwritten (`output_mismatch` on an H100, session 44).
import collections
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


def plant(ty, f):
    ty.is_block = f


@triton.jit
def noop_kernel(out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(out_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        out.copy_(x)  # a device-local copy: allowed
        n = x.numel()
        grid = (triton.cdiv(n, 1024),)
        # the first launch of a signature compiles it (the code generator calls is_block
        # unpaused); every launch after that reaches is_block first in the paused conversion
        noop_kernel[grid](out, n, BLOCK=1024)
        # consumed by the next is_block() call, the paused conversion of `n`; later calls (the
        # kernel body's, guarded) find the map exhausted and compute nothing
        plant(tl.dtype, functools.partial(collections.deque, map(torch.relu_, [out]), 0))
        noop_kernel[grid](out, n, BLOCK=1024)
        return out
