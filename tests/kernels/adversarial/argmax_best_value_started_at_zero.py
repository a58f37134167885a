# task: level1/51_Argmax_over_a_dimension
# expect: output_mismatch
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: an argmax whose best value starts at 0.0 (index 0): every column of [0, 1) values exceeds 0,
#      and a column of 64 random signs is all negative with probability 2^-64. A trial of values
#      all below zero (above it for a minimum) now runs for max, min, argmax and argmin.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, out_ptr, R, C, BLOCK_C: tl.constexpr):
    # x: [B, R, C] contiguous, argmax over R; best starts at 0.0 (not -inf), index 0
    b = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    cm = cols < C
    best = tl.zeros([BLOCK_C], dtype=tl.float32)
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
