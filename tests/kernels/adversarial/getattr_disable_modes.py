# task: level1/19_ReLU
# expect: format_violation
# why: reaches torch.utils._python_dispatch._disable_current_modes through getattr with a computed name
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def dummy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)

_pd = getattr(getattr(torch, 'utils'), '_python' + '_dispatch')


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        dummy_kernel[(1,)](x, out, 0, BLOCK=16)
        with _pd._disable_current_modes():
            return torch.relu(x)
