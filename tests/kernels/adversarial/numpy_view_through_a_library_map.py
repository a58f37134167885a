# task: level1/19_ReLU
# expect: format_violation
# why: the same through collections.UserList consuming map(torch.Tensor.numpy, [stage]) (it scored 0.3 on the cpu evaluator); naming torch.Tensor.numpy as a value is refused by the static check, and the construction guard would refuse the call anyway
import collections
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
        self.stage = torch.zeros(1 << 22)
        self.arrs = collections.UserList(map(torch.Tensor.numpy, [self.stage]))

    def forward(self, x):
        n = x.numel()
        staged = self.stage[:n].view(x.shape)
        copy_kernel[(triton.cdiv(n, 1024),)](x, staged, n, BLOCK=1024)
        arr = self.arrs[0][:n]
        np.maximum(arr, 0, out=arr)
        return staged.clone()
