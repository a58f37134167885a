# task: level1/19_ReLU
# expect: format_violation
# why: torch.tensor(data, dtype=...) converts its data with torch's Python dispatch key and torch
#      function handling switched off; an element object's __float__ runs there, so torch.relu
#      called from it is seen by neither of the guard's modes. One call does the whole output.
#      A decoy Triton kernel is launched.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class Unguarded:
    def __init__(self, x, out):
        self.x, self.out = x, out

    def __float__(self):
        self.out.copy_(torch.relu(self.x))
        return 0.0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(1,)](x, out, 1024, BLOCK=1024)
        torch.tensor([Unguarded(x, out)], dtype=x.dtype)
        return out
