# task: level1/47_Sum_reduction_over_a_dimension
# expect: forbidden_op
# says: aten.sum
# found: einops review (session 18)
# why: einops.reduce computes with torch: the dispatch guard refuses it like torch.sum
import torch
import torch.nn as nn
import triton
import triton.language as tl
import einops


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        summed = einops.reduce(x, "b d n -> b 1 n", "sum").contiguous()
        out = torch.empty_like(summed)
        copy_kernel[(triton.cdiv(summed.numel(), 1024),)](summed, out, summed.numel(), BLOCK=1024)
        return out
