# task: level1/21_Sigmoid
# expect: ok
# why: a local `NSUB: tl.constexpr = BLOCK // SUB` bounds a tl.static_range (false-rejection probe 9)
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, SUB: tl.constexpr):
    NSUB: tl.constexpr = BLOCK // SUB
    tl.static_assert(NSUB * SUB == BLOCK)
    base = tl.program_id(0) * BLOCK
    for s in tl.static_range(NSUB):
        offs = base + s * SUB + tl.arange(0, SUB)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        z = tl.exp2(-tl.abs(x) * LOG2E)          # e^{-|x|} in (0, 1]
        pos = tl.fdiv(1.0, 1.0 + z)
        y = tl.where(x >= 0, pos, 1.0 - pos)
        tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        # rows in two launches over views (e.g. to overlap with other work in a bigger model)
        for xs, ys in zip(torch.split(x, [x.shape[0] // 2, x.shape[0] - x.shape[0] // 2]),
                          y.split([x.shape[0] // 2, x.shape[0] - x.shape[0] // 2])):
            n = xs.numel()
            if n:
                sigmoid_kernel[(triton.cdiv(n, 1024),)](xs, ys, n, BLOCK=1024, SUB=256)
        return y
