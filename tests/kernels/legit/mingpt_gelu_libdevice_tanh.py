# task: level1/88_MinGPTNewGelu
# expect: ok
# expect_cpu: compile_error
# says: tl.extra.cuda.libdevice.*
# why: the tanh GELU through tl.extra.cuda.libdevice.tanh (CUDA's libdevice, the usual route to
#      tanh before tl had one) and tl.fma for the cubic term. Interpreter limitation: Triton's
#      interpreter runs no libdevice function (extra.cuda.libdevice is never patched, and its
#      extern_elementwise is NotImplemented); the cpu evaluator's feedback says so
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

SQRT_2_OVER_PI = tl.constexpr(math.sqrt(2.0 / math.pi))


@triton.jit
def new_gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    inner = SQRT_2_OVER_PI * tl.fma(0.044715 * x, x * x, x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offs, y, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        flat = x.contiguous().view(-1)
        y = torch.empty_like(flat)
        new_gelu_kernel[(triton.cdiv(flat.numel(), 1024),)](flat, y, flat.numel(), BLOCK=1024)
        return y.view_as(x)
