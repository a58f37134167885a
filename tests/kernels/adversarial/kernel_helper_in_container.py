# task: level1/19_ReLU
# expect: format_violation
# why: the kernel calls a helper method on an element of a module-level list (`BOX[0].relu(x)`), whose call chain has no name at its root
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


def relu_np(v):
    v.handle.data[...] = np.maximum(v.handle.data, 0)
    return v



class Helpers:
    relu = staticmethod(relu_np)


BOX = [Helpers()]


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = BOX[0].relu(x)
    tl.store(out_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out

