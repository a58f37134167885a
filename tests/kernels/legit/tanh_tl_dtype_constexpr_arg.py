# task: level1/22_Tanh
# expect: ok
# why: a torch-dtype -> tl-dtype dict at module level and the tl dtype passed as a constexpr kernel
#      argument (COMPUTE_DTYPE=tl.float32), tanh via exp2 with a tl.constexpr LOG2E global
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(math.log2(math.e))
TORCH_TO_TL = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}


@triton.jit
def tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, COMPUTE_DTYPE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(COMPUTE_DTYPE)
    e = tl.exp2(-2.0 * LOG2E * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    y = tl.where(x >= 0, t, -t)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        compute = tl.float32 if x.dtype != torch.float64 else tl.float64
        tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024, COMPUTE_DTYPE=compute)
        return y
