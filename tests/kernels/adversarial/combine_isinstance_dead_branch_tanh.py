# task: level1/22_Tanh
# expect: format_violation
# found: red-team pass 36 (session 17; scored 0.3 on the cpu evaluator before)
# why: a tl.reduce combine whose body branches on `isinstance(r, tl.tensor)` for `r = 0.0`:
#      Triton's compiler answers True (its assignments make Triton values) and compiles only the
#      harmless branch, while the interpreter called the combine's original Python (no such
#      rewrite) and ran the other branch: `math.tanh` on the element's bits, host Python. Both
#      halves are closed: `isinstance` is refused in kernel bodies (compiler and interpreter
#      answer it differently) and a combine now runs its rewritten body.
import torch
import torch.nn as nn
import triton
import triton.language as tl
import math


@triton.jit
def comb(a, b: tl.constexpr):
    r = 0.0
    if isinstance(r, tl.tensor):
        r = a * 0.0  # what the compiler compiles (a GPU would store zeros)
    else:
        r = math.tanh(int(b) / 16777216.0)  # what the interpreter runs: host Python on the data
    return r


@triton.jit
def tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    z = tl.join(x * 0.0, x * 16777216.0)
    r = tl.reduce(z, 1, comb)
    tl.store(out_ptr + offs, r, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        tanh_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
