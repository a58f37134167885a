# task: level1/19_ReLU
# expect: format_violation
# why: a method's __reduce__() hands out the built-in getattr, which then reads any attribute by a computed name
import torch
import torch.nn as nn
import triton
import triton.language as tl

# a method descriptor pickles as (getattr, (cls, name)): the built-in getattr as a value
_ga = torch.Tensor.add.__reduce__()[0]
_g = _ga(torch.nn.Module.__init__, "__glob" + "als__")  # any Python function's globals
_Disable = _ga(_ga(_g["torch"], "_C"), "_DisableTorch" + "Dispatch")


@triton.jit
def nothing_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        nothing_kernel[(1,)](out, 1, BLOCK=16)
        with _Disable():
            out.copy_(torch.relu(x))
        return out
