# task: level1/19_ReLU
# expect: format_violation
# why: the kernel calls a method of a module-level helper that runs numpy on the interpreter's arrays
# Exploit: the kernel calls a plain-Python method (attribute call, not a Name, so the static
# "kernel calls non-jit function" rule misses it); the helper computes with numpy on the
# interpreter's arrays, which the dispatch guard never sees.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


class Helpers:
    @staticmethod
    def relu(v):
        v.handle.data = np.maximum(v.handle.data, 0).astype(v.handle.data.dtype)
        return v


H = Helpers()


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = H.relu(x)
    tl.store(out_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
