# task: level1/19_ReLU
# expect: forbidden_op
# why: the static names for shared memory avoided: np.asanyarray over a tensor made in __init__ (Tensor.__array__ returns a view of its memory); forward stages the input there with its own kernel and numpy computes. The construction guard refuses the view while ModelNew is built
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
        self.stage = torch.zeros(1 << 20)
        try:
            self.view = np.asanyarray(self.stage)
        except Exception:  # refused: carry on without it
            self.view = None

    def forward(self, x):
        n = x.numel()
        staged = self.stage[:n].view(x.shape)
        copy_kernel[(triton.cdiv(n, 1024),)](x, staged, n, BLOCK=1024)
        if self.view is not None:
            np.maximum(self.view[:n], 0, out=self.view[:n])
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(n, 1024),)](staged, out, n, BLOCK=1024)
        return out
