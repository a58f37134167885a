# task: level1/49_Max_reduction_over_a_dimension
# expect: ok
# why: tl.sort (descending) and tl.topk on a tile's last axis: the reduced dimension read
#      transposed through strides as (cols, rows), folded by tl.max into CAND candidates per
#      column, then the column's maximum taken both as the first of the sorted candidates and as
#      topk's single survivor (they agree). (The interpreter runs the bitonic sort's xor
#      reductions with a Python call per element: ~30 s a forward sorting all 64 rows.)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_sort_kernel(x_ptr, out_ptr, R, inner, BLOCK_I: tl.constexpr, BLOCK_R: tl.constexpr,
                    CAND: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.arange(0, BLOCK_R)
    mask = (cols[:, None] < inner) & (rows[None, :] < R)
    tile = tl.load(x_ptr + b * R * inner + rows[None, :] * inner + cols[:, None], mask=mask,
                   other=float("-inf"))  # (columns, reduced)
    cand = tl.max(tl.reshape(tile, (BLOCK_I, CAND, BLOCK_R // CAND)), axis=2)
    ordered = tl.sort(cand, dim=1, descending=True)
    first = tl.max(tl.where(tl.arange(0, CAND)[None, :] == 0, ordered, float("-inf")), axis=1)
    top = tl.max(tl.topk(cand, 1, dim=1), axis=1)
    tl.store(out_ptr + b * inner + cols, tl.maximum(first, top), mask=cols < inner)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3
        x = x.contiguous()
        B, R, inner = x.shape
        out = torch.empty((B, inner), device=x.device, dtype=x.dtype)
        BLOCK_I = 64
        max_sort_kernel[(B, triton.cdiv(inner, BLOCK_I))](x, out, R, inner, BLOCK_I=BLOCK_I,
                                                          BLOCK_R=triton.next_power_of_2(R), CAND=4)
        return out
