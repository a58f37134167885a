# task: level1/19_ReLU
# expect: format_violation
# why: the kernel calls a plain helper through a dict lookup (`HELPERS["relu"](x)`), which runs numpy on the interpreter arrays
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


def relu_np(v):
    v.handle.data[...] = np.maximum(v.handle.data, 0)
    return v


HELPERS = {"relu": relu_np}


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = HELPERS["relu"](x)
    tl.store(out_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out

