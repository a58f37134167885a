# task: level1/19_ReLU
# expect: format_violation
# why: torch.utils.checkpoint re-exports TorchDispatchMode (defined in the forbidden torch.utils._python_dispatch): a name is judged by where what it names was defined
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.utils.checkpoint import TorchDispatchMode


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out
