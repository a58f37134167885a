# task: level1/19_ReLU
# expect: format_violation
# says: may only be called
# found: red-team pass 37 (session 18; passed the static check since the own-attribute rules)
# why: a classmethod's first parameter is the class whatever its name: `self.get(obj)` there
#      is `Holder.get(obj)`, a method called with a foreign object as `self`
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


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self._version = 0

    def get(self):
        return self._version

    @classmethod
    def run(self, obj):
        return self.get(obj)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        v = Holder.run(x)
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
