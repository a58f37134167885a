# task: level1/88_MinGPTNewGelu
# expect: ok
# expect_cpu: compile_error
# says: assembly
# why: tl.inline_asm_elementwise with PTX's tanh.approx.f32 (sm_75+), a common Hopper fast-math
#      idiom for the tanh GELU: one literal asm string, pure, packed 1. Interpreter limitation:
#      Triton's interpreter raises NotImplementedError for inline_asm; the feedback says so
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

K0 = tl.constexpr(math.sqrt(2.0 / math.pi))


@triton.jit
def gelu_asm_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    u = K0 * (x + 0.044715 * x * x * x)
    t = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [u], dtype=tl.float32,
                                  is_pure=True, pack=1)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + t), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        flat = x.contiguous().view(-1)
        y = torch.empty_like(flat)
        gelu_asm_kernel[(triton.cdiv(flat.numel(), 1024),)](flat, y, flat.numel(), BLOCK=1024)
        return y.view_as(x)
