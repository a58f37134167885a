# task: level1/19_ReLU
# expect: format_violation
# why: exec bound to another name (`run = exec`) runs a source string that switches the guard off; forbidden built-ins are refused wherever they are named
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


run = exec
SRC = """
import torch
from torch.utils._python_dispatch import _disable_current_modes
with _disable_current_modes():
    out = torch.relu(x)
"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dummy = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, dummy, x.numel(), BLOCK=1024)
        ns = {"x": x}
        run(SRC, ns)
        return ns["out"]
