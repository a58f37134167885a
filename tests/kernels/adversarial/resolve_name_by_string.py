# task: level1/19_ReLU
# expect: format_violation
# why: pkgutil.resolve_name fetches torch._C's dispatch switch from a string
import torch
import torch.nn as nn
import triton
import triton.language as tl
import pkgutil

_off = pkgutil.resolve_name("torch._C:_DisableTorchDispatch")


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        noop_kernel[(1,)](x, 1, BLOCK=16)
        with _off():
            return torch.relu(x)
