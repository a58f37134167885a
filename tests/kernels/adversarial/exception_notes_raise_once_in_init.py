# task: level1/19_ReLU
# expect: compile_error
# why: __init__ raises an exception whose __notes__ property raises on its first read (internal_error at compile)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def relu(x):
    out = torch.empty_like(x)
    n = x.numel()
    relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out

class Oops(Exception):
    calls = [0]

    @property
    def __notes__(self):
        self.calls[0] += 1
        if self.calls[0] == 1:
            raise ValueError("no notes")
        return None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        raise Oops("boom")

    def forward(self, x):
        return relu(x)
