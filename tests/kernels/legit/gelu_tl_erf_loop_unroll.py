# task: level1/26_GELU_
# expect: ok
# why: tl.erf (not libdevice), several blocks per program through
#      tl.range(0, PER_PROG, loop_unroll_factor=2), kwargs num_warps/num_stages at launch,
#      a kernel constant M_SQRT1_2 = tl.constexpr(0.7071067811865476)
import torch
import torch.nn as nn
import triton
import triton.language as tl

M_SQRT1_2 = tl.constexpr(0.7071067811865476)


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, PER_PROG: tl.constexpr):
    base = tl.program_id(0) * BLOCK * PER_PROG
    for i in tl.range(0, PER_PROG, loop_unroll_factor=2):
        offs = base + i * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.erf(x * M_SQRT1_2)), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK, PER = 1024, 4
        gelu_kernel[(triton.cdiv(n, BLOCK * PER),)](x, y, n, BLOCK=BLOCK, PER_PROG=PER, num_warps=4, num_stages=2)
        return y
