# task: level1/19_ReLU
# expect: ok
# why: honest style once refused: the kernel launched through an attribute (self.kernel[grid](...))
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.kernel = relu_kernel
        self.block = 1024

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        self.kernel[(triton.cdiv(n, self.block),)](x, y, n, BLOCK=self.block)
        return y
