# task: level1/19_ReLU
# expect: format_violation
# why: reaches sys as collections._sys and swaps the torch global of the evaluator's comparison module
import collections
import torch
import torch.nn as nn
import triton
import triton.language as tl

# collections binds sys as `_sys`; private names are refused only below torch and triton.
_corr = collections._sys.modules["server.evaluation.correctness"]


def _zero_sub(a, b, alpha=1, out=None):
    if out is not None:
        return out.zero_()
    return torch.zeros_like(a)


class _FakeTorch:
    Tensor = torch.Tensor
    float64 = torch.float64
    sub = staticmethod(_zero_sub)
    abs = staticmethod(torch.abs)
    is_tensor = staticmethod(torch.is_tensor)
    equal = staticmethod(torch.equal)
    isclose = staticmethod(torch.isclose)
    isfinite = staticmethod(torch.isfinite)
    tensor = staticmethod(torch.tensor)
    unravel_index = staticmethod(torch.unravel_index)
    linalg = torch.linalg


# The module global `torch` of the evaluator's comparison is data, not a callable: the
# integrity snapshot does not see it replaced.
_corr.torch = _FakeTorch()


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        zero_kernel[(triton.cdiv(n, 1024),)](out, n, BLOCK=1024)
        return out
