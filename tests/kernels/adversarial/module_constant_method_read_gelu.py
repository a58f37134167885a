# task: level1/88_MinGPTNewGelu
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F2 variant rooted at a *module-level string constant* (FMT = "{}" is a kernel constant;
#      kernels may not call constants, but may read their attributes into locals): FMT.format
#      gives the block's text; the kernel body computes GELU(tanh) in Python (math.tanh read into
#      a local) element by element; values go back through an ndarray grown from a numpy scalar
#      argument. No Triton arithmetic on the data.
import math
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

FMT = "{}"
C0 = 0.7978845608028654


@triton.jit
def gelu_kernel(x_ptr, out_ptr, Z, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    fmt = FMT.format
    text = fmt(tl.load(x_ptr + offs))
    r1 = text.replace
    text = r1("[", " ")
    r2 = text.replace
    th = math.tanh
    vals = [float(p) for p in r2("]", " ").split()]
    res = [0.5 * v * (1.0 + th(C0 * (v + 0.044715 * v * v * v))) for v in vals]
    rs = Z.reshape
    one = rs(1)
    rp = one.repeat
    buf = rp(BLOCK)
    put = buf.put
    put(list(range(BLOCK)), res)
    y = tl.zeros([BLOCK], dtype=tl.float32) + tl.core.tensor(buf, tl.block_type(tl.float32, [BLOCK]))
    tl.store(out_ptr + offs, y)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(n // 512,)](x, out, np.float32(0.0), BLOCK=512)
        return out
