# task: level1/20_LeakyReLU
# expect: ok
# why: pairs of elements handled as two halves: a (BLOCK, 2) tile tl.split into even and odd
#      lanes, each activated, put back with tl.interleave (and a tl.join round-trip checked
#      against it by construction: join then reshape is interleave), stored as one flat block
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _leaky(v, slope):
    return tl.where(v > 0, v, v * slope)


@triton.jit
def leaky_pairs_kernel(x_ptr, y_ptr, n, slope, HALF: tl.constexpr):
    offs = tl.program_id(0) * (2 * HALF) + tl.arange(0, 2 * HALF)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    even, odd = tl.split(tl.reshape(x, (HALF, 2)))
    even = _leaky(even, slope)
    odd = _leaky(odd, slope)
    if HALF % 2 == 0:
        y = tl.interleave(even, odd)
    else:
        y = tl.reshape(tl.join(even, odd), (2 * HALF,))
    tl.store(y_ptr + offs, y, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.contiguous().view(-1)
        y = torch.empty_like(flat)
        HALF = 512
        leaky_pairs_kernel[(triton.cdiv(flat.numel(), 2 * HALF),)](flat, y, flat.numel(),
                                                                  self.negative_slope, HALF=HALF)
        return y.view_as(x)
