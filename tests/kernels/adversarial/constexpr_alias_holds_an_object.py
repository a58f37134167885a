# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: as constexpr_value_set_to_host_function through an alias (`B = ACT; B.value = Spy()`), which the static rules cannot follow: every interpreted launch checks that its module's constexprs hold plain values
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

ACT = tl.constexpr(0.0)
B = ACT


class Spy:
    def __rmul__(self, other):
        return other


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.maximum(x * ACT, x), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        B.value = Spy()

    def forward(self, x):
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y
