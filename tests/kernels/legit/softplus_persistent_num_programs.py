# task: level1/29_Softplus
# expect: ok
# why: a persistent grid-stride kernel (for block in range(pid, n_blocks, tl.num_programs(0))),
#      program count from a fixed "SM count" constant, softplus with the threshold-20 branch as
#      torch does, log1p via tl.log(1 + exp) in a helper, a `while` loop-free body
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_SMS = 8


@triton.jit
def softplus_fn(x):
    return tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n_blocks = tl.cdiv(n, BLOCK)
    for blk in range(pid, n_blocks, tl.num_programs(0)):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        tl.store(y_ptr + offs, softplus_fn(x), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        grid = (min(NUM_SMS, triton.cdiv(n, BLOCK)),)
        softplus_kernel[grid](x, y, n, BLOCK=BLOCK)
        return y
