# task: level1/19_ReLU
# expect: format_violation
# why: `fmax = 0` then `from numpy import *`: the kernel rules saw `fmax` as a constant, at run time it was numpy's, and the kernel computed with numpy (red-team pass 26); star imports are refused
import torch
import torch.nn as nn
import triton
import triton.language as tl

fmax = 0
from numpy import *  # noqa: E402,F403


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, fmax(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y
