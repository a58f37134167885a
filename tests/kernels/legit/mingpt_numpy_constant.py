# task: level1/88_MinGPTNewGelu
# expect: ok
# why: honest style once refused: a numpy scalar (np.sqrt(2 / np.pi)) passed as a kernel argument
import numpy as np

import torch
import torch.nn as nn
import triton
import triton.language as tl

SQRT_2_OVER_PI = np.sqrt(2.0 / np.pi)


@triton.jit
def _tanh(v):
    e = tl.exp(-2.0 * tl.abs(v))
    t = (1.0 - e) / (1.0 + e)
    return tl.where(v >= 0, t, -t)


@triton.jit
def new_gelu_kernel(x_ptr, y_ptr, n, c, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    inner = c * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + _tanh(inner))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        new_gelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, SQRT_2_OVER_PI, BLOCK=1024)
        return y
