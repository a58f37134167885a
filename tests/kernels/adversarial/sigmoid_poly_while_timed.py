# task: level1/21_Sigmoid
# expect: output_mismatch
# found: red-team pass 52 (session 23; scored on the cpu evaluator until timed calls got
#        secret rounds on the extra trials' inputs, timed_inputs.EXTRA_SHARE)
# idea: honest sigmoid on the 7 correctness calls; on timed calls a cubic Taylor polynomial with
# no exp/div (0.5 + x/4 - x^3/48), within tolerance on [0,1) only (wrong on the signed trial).
import sys
import torch
import torch.nn as nn
import triton
import triton.language as tl

CHEATED = [0]


@triton.jit
def sig_kernel(x_ptr, out_ptr, n, POLY: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if POLY:
        y = 0.5 + x * (0.25 - x * x * 0.0208333)
    else:
        y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(out_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        cheat = self.calls > 8
        if cheat:
            CHEATED[0] += 1
            sys.stderr.write(f"CHEAT call {self.calls}: cubic polynomial instead of sigmoid (cheated {CHEATED[0]})\n")
        sig_kernel[(triton.cdiv(n, 1024),)](x, out, n, POLY=cheat, BLOCK=1024)
        return out
