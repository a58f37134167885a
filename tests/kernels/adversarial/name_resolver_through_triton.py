# task: level1/19_ReLU
# expect: format_violation
# why: pkgutil.resolve_name reached as triton.language.extra.pkgutil fetches the guard switch from a string; a chain may not step onto a module a submission could not import
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dummy = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, dummy, x.numel(), BLOCK=1024)
        off = triton.language.extra.pkgutil.resolve_name("torch.utils._python_dispatch:_disable_current_modes")
        with off():
            return torch.relu(x)
