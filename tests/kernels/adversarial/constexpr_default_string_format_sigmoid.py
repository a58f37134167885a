# task: level1/21_Sigmoid
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F2 variant: the format string is a tl.constexpr parameter's *default* ("{}" is a
#      constant), so neither a literal nor a module constant appears at the read; S.format read
#      into a local gives the block's text; numpy (ndarray grown from a float32 scalar argument)
#      computes 1 / (1 + e**-x) through ndarray operators. No Triton arithmetic on the data.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, out_ptr, Z, BLOCK: tl.constexpr, S: tl.constexpr = "{}"):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    fmt = S.format
    text = fmt(tl.load(x_ptr + offs))
    r1 = text.replace
    text = r1("[", " ")
    r2 = text.replace
    rs = Z.reshape
    one = rs(1)
    rp = one.repeat
    buf = rp(BLOCK)
    put = buf.put
    put(list(range(BLOCK)), [float(p) for p in r2("]", " ").split()])
    res = 1.0 / (1.0 + 2.718281828459045 ** (-buf))
    y = tl.zeros([BLOCK], dtype=tl.float32) + tl.core.tensor(res, tl.block_type(tl.float32, [BLOCK]))
    tl.store(out_ptr + offs, y)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        sigmoid_kernel[(n // 512,)](x, out, np.float32(0.0), BLOCK=512)
        return out
