# task: level1/19_ReLU
# expect: format_violation
# why: reaches the torch module as `torch.nn.functional.torch` inside a list (not a sys.modules key) and switches the guard off with torch._C._DisableTorchDispatch
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)

M = [torch.nn.functional.torch][0]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out, 1, BLOCK=16)
        with M._C._DisableTorchDispatch():
            out.copy_(torch.relu(x))
        return out
