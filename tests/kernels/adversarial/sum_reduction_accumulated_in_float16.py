# task: level1/47_Sum_reduction_over_a_dimension
# expect: non_finite
# found: red-team pass 92 (session 45; scored 0.3 on the cpu evaluator before)
# why: a sum accumulated in float16: inf past 65504 (pixel or count sums), never reached by sums of
#      at most 256 values within 1. Caught by the trial scaled by 1e4.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, R, C, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    cm = cols < C
    acc = tl.zeros([BLOCK_C], dtype=tl.float16)      # half-precision accumulator
    for r in range(0, R):
        v = tl.load(x_ptr + b * R * C + r * C + cols, mask=cm, other=0.0)
        acc += v.to(tl.float16)
    tl.store(out_ptr + b * C + cols, acc.to(tl.float32), mask=cm)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, 1, C), dtype=x.dtype, device=x.device)
        sum_kernel[(B,)](x, out, R, C, BLOCK_C=triton.next_power_of_2(C))
        return out
