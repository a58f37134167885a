# task: level1/51_Argmax_over_a_dimension
# expect: output_mismatch
# found: red-team pass 92 (session 45; scored 0.3 on the cpu evaluator before)
# why: pass 91's trial of values below zero drew them from [-2, -1), so an argmax whose best value
#      starts at -5.0 passed it (987 of 1008 indices wrong on scores around -50). The trial's
#      values now lie 1e5 to 1e6 from zero.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, out_ptr, R, C, BLOCK_C: tl.constexpr):
    # best starts at -5.0 (a finite "very small" sentinel, not -inf), index 0
    b = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    cm = cols < C
    best = tl.full([BLOCK_C], -5.0, tl.float32)
    idx = tl.zeros([BLOCK_C], dtype=tl.int64)
    for r in range(0, R):
        v = tl.load(x_ptr + b * R * C + r * C + cols, mask=cm, other=0.0)
        upd = v > best
        best = tl.where(upd, v, best)
        idx = tl.where(upd, r, idx)
    tl.store(out_ptr + b * C + cols, idx, mask=cm)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, C), dtype=torch.int64, device=x.device)
        argmax_kernel[(B,)](x, out, R, C, BLOCK_C=triton.next_power_of_2(C))
        return out
