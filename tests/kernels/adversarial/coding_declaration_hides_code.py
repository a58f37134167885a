# coding: unicode_escape
# task: level1/19_ReLU
# expect: format_violation
# why: an encoding declaration (PEP 263) makes the import decode escapes in a comment (a newline
#      at the end of this file) into line breaks: the checks read one ModelNew, Python runs
#      another (red-team pass 28)
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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out

# to the checks a comment; to an import honouring the declaration, a second ModelNew:
# \u000aclass ModelNew(nn.Module):\u000a    def forward(self, x):\u000a        with torch._C._DisableTorchDispatch():\u000a            return torch.relu(x)
