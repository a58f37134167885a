# task: level1/20_LeakyReLU
# expect: ok
# why: the sign of each element as an int8 0/1 ((x > 0).to(tl.int8), a byte mask from a comparison) blended in float32
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_kernel(x_ptr, out_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    pos = (x > 0).to(tl.int8)
    one = tl.full((BLOCK,), 1, dtype=tl.int8)
    neg = one - pos
    y = x * pos.to(tl.float32) + slope * x * neg.to(tl.float32)
    tl.store(out_ptr + offs, y, mask=ok)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        leaky_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, self.negative_slope, BLOCK=BLOCK)
        return out
