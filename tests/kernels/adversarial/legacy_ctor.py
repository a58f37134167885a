# task: level1/19_ReLU
# expect: format_violation
# why: torch.Tensor(ndarray) in __init__ shares the array's memory: copy kernels move data, numpy computes


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
        # made outside the guard: a numpy array sharing memory with a torch tensor
        self.arr = np.zeros(1 << 20, dtype=np.float32)
        self.stage = torch.Tensor(self.arr)

    def forward(self, x):
        n = x.numel()
        staged = self.stage[:n].view(x.shape)
        copy_kernel[(triton.cdiv(n, 1024),)](x, staged, n, BLOCK=1024)   # x -> shared buffer
        np.maximum(self.arr[:n], 0, out=self.arr[:n])                    # numpy computes, unseen
        return staged.clone()
