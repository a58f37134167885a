# task: level1/19_ReLU
# expect: format_violation
# why: a TorchFunctionMode runs `func` with itself popped off the mode stack; `out[Idx(...)]`
#      reaches Tensor.__getitem__ through the escape check, and torch then calls the index's
#      __index__ with that check gone: x.numpy()/out.numpy() there are not refused (no dispatch
#      happens), and numpy computes the ReLU into the output's memory. A decoy kernel is launched.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class Idx:
    def __init__(self, x, out):
        self.x, self.out = x, out

    def __index__(self):
        np.maximum(self.x.numpy(), 0.0, out=self.out.numpy())
        return 0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(1,)](x, out, 1024, BLOCK=1024)
        out[Idx(x, out)]
        return out
