# task: level1/21_Sigmoid
# expect: ok
# why: a constexpr local bound in both branches of a compile-time test (if WIDE: SUB: tl.constexpr = 512 else 256); false-rejection probe 10 (session 16)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, WIDE: tl.constexpr):
    # the sub-tile width depends on a compile-time switch; each branch binds the constexpr once
    if WIDE:
        SUB: tl.constexpr = 512
    else:
        SUB: tl.constexpr = 256
    tl.static_assert(BLOCK % SUB == 0)
    base = tl.program_id(0) * BLOCK
    for s in tl.static_range(BLOCK // SUB):
        offs = base + s * SUB + tl.arange(0, SUB)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + offs, tl.sigmoid(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        sigmoid_kernel[(triton.cdiv(n, 2048),)](x, y, n, BLOCK=2048, WIDE=n >= 65536)
        return y
