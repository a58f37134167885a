# task: level1/19_ReLU
# expect: format_violation
# why: `match obj: case self:` rebound `self` without an assignment, so `self._version` on a foreign tensor was judged the file's own (red-team pass 26); capture patterns, `except ... as self` and `global self` now count as rebinding
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._version = 0
        self.handle = None

    def peek(self, other):
        match other:
            case self:
                return (self._version,)

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        assert self.peek(x)[0] >= 0
        relu_kernel[(triton.cdiv(n, 512),)](x, y, n, BLOCK=512)
        return y
