# task: level1/19_ReLU
# expect: format_violation
# why: variant of tensor_ctor_hook_relu.py: `torch.tensor(Seq(x, out), dtype=x.dtype)` converts Python data with the dispatch guard's key excluded
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


class Seq:
    """A sequence of one element: torch reads it twice to find sizes (guarded), then once more to
    store the element (unguarded): the work happens on the third read."""

    def __init__(self, x, out):
        self.x, self.out, self.reads = x, out, 0

    def __len__(self):
        return 1

    def __getitem__(self, i):
        if i >= 1:
            raise IndexError(i)
        self.reads += 1
        if self.reads == 3:
            self.out.copy_(torch.relu(self.x))
        return 0.0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(1,)](x, out, 1024, BLOCK=1024)
        torch.tensor(Seq(x, out))
        return out
