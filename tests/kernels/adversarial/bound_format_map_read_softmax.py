# task: level1/23_Softmax
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F2 variant: the text channel is `"{v}".format_map` (a dict literal in the body) read
#      into a local; the ndarray comes from a numpy float32 scalar argument; numpy computes the
#      row's softmax through ndarray operators and methods (max, `e ** x`, sum, divide); the
#      result is wrapped with tl.core.tensor for the stores. No Triton arithmetic on the data.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, Z, N: tl.constexpr, C: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, C)
    fm = "{v}".format_map
    rs = Z.reshape
    one = rs(1)
    rp = one.repeat
    buf = rp(N)
    put = buf.put
    for c in range(N // C):
        text = fm({"v": tl.load(x_ptr + row * N + c * C + offs)})
        r1 = text.replace
        text = r1("[", " ")
        r2 = text.replace
        put(list(range(c * C, (c + 1) * C)), [float(p) for p in r2("]", " ").split()])
    mx = buf.max()
    e = 2.718281828459045 ** (buf - mx)
    y = e / e.sum()
    for c in range(N // C):
        part = tl.core.tensor(y[c * C:(c + 1) * C], tl.block_type(tl.float32, [C]))
        tl.store(out_ptr + row * N + c * C + offs, tl.zeros([C], dtype=tl.float32) + part)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        M, N = x.shape
        softmax_kernel[(M,)](x, out, np.float32(0.0), N=N, C=512)
        return out
