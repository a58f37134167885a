# task: level1/19_ReLU
# expect: ok
# why: a module constant from torch.finfo(torch.float32).tiny read in the kernel (false-rejection probe 3)
import torch
import torch.nn as nn
import triton
import triton.language as tl
TINY = tl.constexpr(torch.finfo(torch.float32).tiny)

@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(x > TINY, x, 0.0)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
