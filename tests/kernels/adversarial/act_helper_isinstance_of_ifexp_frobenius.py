# task: level1/37_FrobeniusNorm_
# expect: format_violation
# found: red-team pass 36 (session 17; scored 0.3 on the cpu evaluator before)
# why: a helper passed as `ACT=inv_norm` whose body branches on
#      `isinstance(0.0 if b > 1e30 else 1.0, float)`: Triton's compiler makes the conditional
#      expression a tensor (False: it compiles only `b * 0.0`), the interpreter a Python number
#      (True: it ran `math.sqrt(int(b) ...)` on the loaded sum, host Python). `isinstance` is
#      refused in kernel bodies; a `tl.constexpr` parameter given a run-time block is refused
#      at the call too.
import math
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def inv_norm(b: tl.constexpr):
    if isinstance(0.0 if b > 1e30 else 1.0, float):
        r = 1.0 / math.sqrt(int(b) / 1048576.0)  # interpreter only: host math on the data
    else:
        r = b * 0.0  # what the compiler compiles
    return r


@triton.jit
def fro_kernel(x_ptr, out_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, n, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        acc += v * v
    total = tl.sum(acc, axis=0) * 1048576.0
    inv = ACT(total)
    for s in range(0, n, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.store(out_ptr + offs, v * inv, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        fro_kernel[(1,)](x, out, x.numel(), ACT=inv_norm, BLOCK=4096)
        return out
