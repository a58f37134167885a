# task: level1/19_ReLU
# expect: format_violation
# why: a method of a nested class read off its outer class (`Outer.Inner.get(obj)`) takes any object as `self`
# A method read off a *nested* class (`Outer.Inner.get(obj)`) takes any object as `self`:
# misused_class only judges bare class Names, and `Outer.Inner` is an Attribute, so
# `self._module` reads catch_warnings' private `_module` (the warnings module). The import-time
# check below fails the submission unless the foreign private really was read in the evaluator.
import warnings

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class Outer:
    class Inner:
        def __init__(self):
            self._module = None

        def get(self):
            return self._module


MOD = Outer.Inner.get(warnings.catch_warnings())
if MOD.filters is not warnings.filters:
    raise RuntimeError("not the warnings module")


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
        return out
