# task: level1/19_ReLU
# expect: format_violation
# why: torch.FloatTensor(ndarray) inside forward: no torch mode sees the type's constructor
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n = x.numel()
        arr = np.zeros(n, dtype=np.float32)
        staged = torch.FloatTensor(arr)
        copy_kernel[(triton.cdiv(n, 1024),)](x.contiguous(), staged, n, BLOCK=1024)
        np.maximum(arr, 0, out=arr)
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(n, 1024),)](staged, out, n, BLOCK=1024)
        return out
