# task: level1/19_ReLU
# expect: format_violation
# why: a module's __getstate__() is its namespace: torch._C and the guard switch fetched by concatenated names
import torch
import torch.nn as nn
import triton
import triton.language as tl

# object.__getstate__ (Python 3.11) of a module is the module's namespace dict
_ns = torch.__getstate__()
_C = _ns["_" + "C"]
_Disable = _C.__getstate__()["_DisableTorch" + "Dispatch"]


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
