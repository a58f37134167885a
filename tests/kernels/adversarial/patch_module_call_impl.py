# task: level1/19_ReLU
# expect: format_violation
# why: replaces nn.Module._call_impl so the reference Model returns zeros
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


_Base = type(nn.Module())
_orig = _Base._call_impl


def call_impl(module, *args, **kwargs):
    out = _orig(module, *args, **kwargs)
    if type(module).__name__ == "Model":      # the reference: grade against zeros
        return torch.zeros_like(out)
    return out


class ModelNew(nn.Module):
    def __init__(self, *a):
        super().__init__()
        _Base._call_impl = call_impl          # private: not in the integrity snapshot

    def forward(self, x):
        out = torch.empty_like(x)
        zero_kernel[(triton.cdiv(out.numel(), 1024),)](out, out.numel(), BLOCK=1024)
        return out
