# task: level1/49_Max_reduction_over_a_dimension
# expect: ok
# why: a NamedTuple's `_replace`/`_asdict` (its documented API) were refused as private attributes
#      (false-rejection probe 8)
# Max over dim 1 of (B, R, I). Launch parameters live in a typing.NamedTuple; the launch spreads
# them with cfg._asdict() (NamedTuple's public API) and a narrower variant is made with _replace().
from typing import NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


class LaunchConfig(NamedTuple):
    BLOCK_R: int = 64
    BLOCK_I: int = 32
    num_warps: int = 4


DEFAULT = LaunchConfig()


@triton.jit
def max_dim1_kernel(x_ptr, out_ptr, R, I, sxb, sxr, sxi,
                    BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    b = tl.program_id(0)
    pi = tl.program_id(1)
    blk = tl.make_block_ptr(base=x_ptr + b * sxb, shape=(R, I), strides=(sxr, sxi),
                            offsets=(0, pi * BLOCK_I), block_shape=(BLOCK_R, BLOCK_I), order=(1, 0))
    rows = tl.arange(0, BLOCK_R)
    best = tl.full((BLOCK_I,), float("-inf"), tl.float32)
    for r0 in range(0, R, BLOCK_R):
        tile = tl.load(blk, boundary_check=(0, 1), padding_option="zero")
        # padded rows must not win: block pointers pad with zeros, so mask them to -inf
        tile = tl.where((r0 + rows)[:, None] < R, tile, float("-inf"))
        best = tl.maximum(best, tl.max(tile, axis=0))
        blk = tl.advance(blk, (BLOCK_R, 0))
    cols = pi * BLOCK_I + tl.arange(0, BLOCK_I)
    tl.store(out_ptr + b * I + cols, best, mask=cols < I)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.cfg = DEFAULT

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 3 and self.dim % 3 == 1
        B, R, I = x.shape
        cfg = self.cfg if R >= self.cfg.BLOCK_R else self.cfg._replace(BLOCK_R=triton.next_power_of_2(R))
        out = torch.empty((B, I), device=x.device, dtype=x.dtype)
        grid = (B, triton.cdiv(I, cfg.BLOCK_I))
        max_dim1_kernel[grid](x, out, R, I, x.stride(0), x.stride(1), x.stride(2), **cfg._asdict())
        return out
