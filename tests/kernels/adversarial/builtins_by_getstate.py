# task: level1/19_ReLU
# expect: format_violation
# why: functools.__getstate__() holds the builtins, and eval with them
import functools
import torch
import torch.nn as nn
import triton
import triton.language as tl

# the builtins namespace from a pure-Python module's namespace; call a harmless built-in
_bi = functools.__getstate__()["__built" + "ins__"]
_LEN = _bi["len"]([1, 2, 3])
_ev = _bi["ev" + "al"]
_THREE = _ev("1+2")


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        assert _LEN == 3 and _THREE == 3

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
