# task: level1/19_ReLU
# expect: format_violation
# says: private
# found: red-team pass 40 (session 18; scored 0.3 on the cpu evaluator against pass 39's fix): Enum
#        reached as `triton.language.core.Enum` passed the name-prefix test, and Enum calls a
#        plain `_missing_` with the looked-up value as `self` (the input tensor's `_cdata`)
# why: a class has methods of its own only on bases that are object, exceptions or nn.Module
#      classes, looked up for real, and no class keywords
import torch
import torch.nn as nn
import triton
import triton.language as tl
import typing
import abc
import enum
import functools
import operator
import einops


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)

SEEN = [0]


class Mode(triton.language.core.Enum):
    A = 1

    def _missing_(self):
        SEEN.append(self._cdata)
        return Mode.A


class Keep(nn.Module):
    def __init__(self):
        super().__init__()
        self._cdata = 0


def addr(obj):
    Mode(obj)
    return SEEN[-1]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        if addr(x) == 0:
            return out
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
