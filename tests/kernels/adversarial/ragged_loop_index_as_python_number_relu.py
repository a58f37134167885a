# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 34 on the cpu evaluator (session 16; its conv version scored 0.3)
# why: a loop over bounds read from memory (allowed: ragged loops compile) bound its index in the
#      interpreter as a Python int, the float's bits, which host Python decoded with `**`; on a
#      GPU the index is a run-time scalar and `**` does not compile. `**` of run-time values is
#      refused statically, and the interpreter now binds such an index to a Triton scalar too.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n):
    xi = x_ptr.to(tl.pointer_type(tl.int32))
    for j in range(0, n):
        v = tl.load(xi + j)
        for b in range(v, v + 1):
            f = (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)
            tl.store(out_ptr + j, f if b > 0 else 0.0)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out, x.numel())
        return out
