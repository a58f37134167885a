# task: level1/19_ReLU
# expect: format_violation
# why: `ACT = tl.constexpr(0.0)` read as a kernel constant, then `ACT.value = host_relu` in __init__: the kernel's `ACT(x)` ran numpy on its block's text (red-team pass 26); a name whose attributes the file sets is no constant, and kernels may not call constants
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

ACT = tl.constexpr(0.0)


def host_relu(x):
    text = np.array2string(np.require(x)).partition("]")[0][7:]
    values = np.fmax(np.fromstring(text, dtype=np.float32, sep=","), 0)
    return tl.tensor(np.ma.masked_array(values), x.type)


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, ACT(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        ACT.value = host_relu

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 512),)](x, y, n, BLOCK=512)
        return y
