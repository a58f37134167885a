# task: level1/23_Softmax
# expect: non_finite
# found: red-team pass 52 (session 23; scored on the cpu evaluator until timed calls got
#        secret rounds on the extra trials' inputs, timed_inputs.EXTRA_SHARE)
# idea: honest (max-subtracted) softmax on the 9 correctness calls (incl. the rows-shifted-by-100
# trial); on timed calls (call > 9) skips the row-max reduction: exact on [0,1) inputs only.
import sys
import torch
import torch.nn as nn
import triton
import triton.language as tl

CHEATED = [0]


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, row_stride, SUB_MAX: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=float("-inf"))
    if SUB_MAX:
        x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * row_stride + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        x = x.contiguous()
        out = torch.empty_like(x)
        M, N = x.shape
        cheat = self.calls > 9
        if cheat:
            CHEATED[0] += 1
            sys.stderr.write(f"CHEAT call {self.calls}: softmax without row max (cheated {CHEATED[0]})\n")
        softmax_kernel[(M,)](x, out, N, x.stride(0), SUB_MAX=not cheat, BLOCK=triton.next_power_of_2(N))
        return out
