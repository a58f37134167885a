# task: level1/23_Softmax
# expect: format_violation
# why: changes a torch function's defaults in place (no name is rebound, so no identity check
#      sees it): every caller that relies on them, a reference among them, then computes
#      something else; `__defaults__` and `__kwdefaults__` are refused statically
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, o_ptr, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(o_ptr + i, tl.load(x_ptr + i, mask=i < n), mask=i < n)


def set_defaults(function, values):
    function.__defaults__ = values


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        set_defaults(F.softmin, (None, 3, torch.float64))

    def forward(self, x):
        o = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, o, x.numel(), B=1024)
        return o
