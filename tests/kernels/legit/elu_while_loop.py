# task: level1/31_ELU
# expect: ok
# why: a `while` loop over blocks in the body, alpha as a constexpr, ELU via tl.exp(x) - 1 on the
#      negative side, x.flatten() and y.reshape_as(x), @torch.no_grad() on forward
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def elu_kernel(x_ptr, y_ptr, n, ALPHA: tl.constexpr, BLOCK: tl.constexpr, BLOCKS_PER_PROG: tl.constexpr):
    pid = tl.program_id(0)
    i = 0
    while i < BLOCKS_PER_PROG:
        offs = (pid * BLOCKS_PER_PROG + i) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        y = tl.where(x > 0, x, ALPHA * (tl.exp(x) - 1.0))
        tl.store(y_ptr + offs, y, mask=m)
        i += 1


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super(ModelNew, self).__init__()
        self.alpha = alpha

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.flatten()
        y = torch.empty_like(flat)
        n = flat.numel()
        BLOCK, PER = 512, 4
        elu_kernel[(triton.cdiv(n, BLOCK * PER),)](flat, y, n, ALPHA=self.alpha, BLOCK=BLOCK, BLOCKS_PER_PROG=PER)
        return y.reshape_as(x)
