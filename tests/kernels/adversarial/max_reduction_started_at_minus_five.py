# task: level1/49_Max_reduction_over_a_dimension
# expect: output_mismatch
# found: red-team pass 92 (session 45; scored 0.3 on the cpu evaluator before)
# why: a max reduction started at -5.0: right wherever a column holds a value above -5; the
#      trial beyond zero now keeps every value 1e5 to 1e6 below it.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_kernel(x_ptr, out_ptr, R, C, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    cm = cols < C
    best = tl.full([BLOCK_C], -5.0, tl.float32)
    for r in range(0, R):
        v = tl.load(x_ptr + b * R * C + r * C + cols, mask=cm, other=0.0)
        best = tl.maximum(best, v)
    tl.store(out_ptr + b * C + cols, best, mask=cm)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, C), dtype=x.dtype, device=x.device)
        max_kernel[(B,)](x, out, R, C, BLOCK_C=triton.next_power_of_2(C))
        return out
